package sessiontree

import (
	"strings"
	"testing"
)

// TestCodexWebSearch: a web_search_end event is the result of its search,
// saying what the rollout keeps of it (what was searched, not the pages);
// paired with the search by call id, else with the last search not yet
// answered; one that answers no search stays extension state.
func TestCodexWebSearch(t *testing.T) {
	meta := codexJSONL("session_meta", `{"id":"x","cwd":"/w","cli_version":"0.98.1"}`)
	search := func(id string) string {
		return codexJSONL("response_item", `{"type":"web_search_call",`+id+`"status":"completed","action":{"type":"search","query":"q"}}`)
	}
	end := func(id, rest string) string {
		return codexJSONL("event_msg", `{"type":"web_search_end","call_id":"`+id+`"`+rest+`}`)
	}
	cases := []struct {
		name     string
		in       []string
		result   string // the entry that is the result, "" for none
		call     string // the call it answers
		text     string
		metaLine string // an event left as extension state
	}{
		{"no id on the call", []string{meta, search(""), end("ws_1", `,"query":"go flags"`)}, "L3", "L2",
			`Searched the web for "go flags" (the results are not in the rollout)`, ""},
		{"by id", []string{meta, search(`"id":"ws_1",`), search(`"id":"ws_2",`), end("ws_1", `,"query":"a"`)}, "L4", "ws_1",
			`Searched the web for "a" (the results are not in the rollout)`, ""},
		{"open page", []string{meta, search(""), end("ws_9", `,"action":{"type":"open_page","url":"https://go.dev"}`)}, "L3", "L2",
			"Opened https://go.dev (the page is not in the rollout)", ""},
		{"no search before", []string{meta, end("ws_1", ""), search("")}, "", "", "", "L2"},
		{"a second end for an answered search", []string{meta, search(`"id":"ws_1",`), end("ws_1", ""), end("ws_1", `,"query":"b"`)}, "L4", "ws_1",
			`Searched the web for "b" (the results are not in the rollout)`, ""},
		{"two ends, one search", []string{meta, search(""), end("ws_1", ""), end("ws_2", "")}, "L3", "L2",
			"Searched the web (the results are not in the rollout)", "L4"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := mustLoad(t, jsonl(c.in...))
			if c.metaLine != "" {
				if e := mustEntry(t, s, c.metaLine); e.Type != TypeCustom || e.CustomType != "event_msg: web_search_end" {
					t.Errorf("%s: %+v", c.metaLine, e)
				}
			}
			if c.result == "" {
				return
			}
			r := mustEntry(t, s, c.result)
			if r.Role != RoleToolResult || r.ToolCallID != c.call || r.ToolName != "web_search" {
				t.Fatalf("result %+v", r)
			}
			p := PairCalls(s)
			if call, ok := p.Answers(r); !ok || call.ID != c.call {
				t.Errorf("answers %+v %v", call, ok)
			}
			m := msg(t, s, c.result)
			if len(m.Content) != 1 || m.Content[0].Text != c.text || m.ToolCallID != c.call {
				t.Errorf("body %+v", m)
			}
		})
	}
}

// TestCodexLegacyCwd: a rollout of before September 2025 names its
// directory only in the environment context; a session_meta's cwd wins.
func TestCodexLegacyCwd(t *testing.T) {
	env := func(dir string) string {
		return `{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>\n  <cwd>` + dir + `</cwd>\n</environment_context>"}]}`
	}
	legacy := `{"id":"5f9e","timestamp":"2025-08-20T10:00:00.000Z","instructions":null}`
	for _, c := range []struct {
		name string
		in   []byte
		want string
	}{
		{"legacy", jsonl(legacy, env("/a"), env("/b")), "/a"},
		{"meta wins", jsonl(codexJSONL("session_meta", `{"id":"x","cwd":"/w"}`), codexJSONL("response_item", env("/a"))), "/w"},
		{"none", jsonl(legacy, `{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}`), ""},
	} {
		s := mustLoad(t, c.in)
		if s.Header.Cwd != c.want || !strings.Contains(s.Format, "codex") {
			t.Errorf("%s: cwd %q format %s; want %q", c.name, s.Header.Cwd, s.Format, c.want)
		}
	}
}

// mustLoad loads data, failing the test when it is no session.
func mustLoad(t *testing.T, data []byte) *Session {
	t.Helper()
	s, err := Load(data, "test.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

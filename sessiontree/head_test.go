package sessiontree

import (
	"encoding/json"
	"math"
	"slices"
	"testing"
)

func TestLoadAbsurdNumbers(t *testing.T) {
	runLoadCases(t, []loadCase{
		{
			// 1e999 overflows a float64, and so do sums of 1e308: neither
			// may reach the report as ±Inf, which JSON cannot encode.
			name: "numbers beyond float64",
			in: jsonl(header,
				ent("message", "a", "", `"message":{"role":"assistant","usage":{"input":1e999,"output":1e308,"cacheRead":-1e999,"cost":{"total":1.5e308}}}`),
				ent("message", "b", "a", `"message":{"role":"assistant","usage":{"input":1,"output":1e308,"cost":{"total":1.5e308}}}`),
				ent("compaction", "c", "b", `"summary":"s","tokensBefore":1e999,"firstKeptEntryIndex":1e999`)),
			ids: []string{"a", "b", "c"},
			check: func(t *testing.T, s *Session) {
				if u := s.Entry("a").Usage; u.Input != 0 || u.CacheRead != 0 || u.Output != 1e308 {
					t.Errorf("a usage %+v", u)
				}
				r := s.Report(s.Leaf)
				if _, err := json.Marshal(r); err != nil {
					t.Fatalf("report does not encode: %v", err)
				}
				if u := r.Stats.Tree.Usage; u.Input != 1 || u.Output != math.MaxFloat64 || u.Cost.Total != math.MaxFloat64 {
					t.Errorf("tree usage %+v", u)
				}
			},
		},
	})
}

func TestSilentReplies(t *testing.T) {
	cases := []struct {
		name, content string
		want          bool
	}{
		{"first text", `[{"type":"text","text":"NO_REPLY"}]`, true},
		{"after whitespace", `[{"type":"text","text":"\n  NO_REPLY: nothing to say"}]`, true},
		{"after thinking", `[{"type":"thinking","thinking":"hm"},{"type":"text","text":"NO_REPLY"}]`, true},
		{"text before type", `[{"text":"NO_REPLY","type":"text"}]`, true},
		{"string content", `"NO_REPLY"`, true},
		{"later text only", `[{"type":"text","text":"Done."},{"type":"text","text":"NO_REPLY"}]`, false},
		{"mid sentence", `[{"type":"text","text":"I said NO_REPLY"}]`, false},
		{"lower case", `[{"type":"text","text":"no_reply"}]`, false},
		{"empty", `[]`, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, role := range []string{"assistant", "user"} {
				src := `{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/"}` + "\n" +
					`{"type":"message","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"` + role + `","content":` + c.content + `}}` + "\n"
				s, err := Load([]byte(src), "t.jsonl")
				if err != nil {
					t.Fatal(err)
				}
				want := c.want && role == "assistant"
				if got := s.Entries[0].Silent; got != want {
					t.Errorf("%s: Silent = %v, want %v", role, got, want)
				}
			}
		})
	}
}

// TestToolCallIDs: Load reads the ids of an assistant message's tool calls
// and the call a result answers, leniently, as the rest of the head.
func TestToolCallIDs(t *testing.T) {
	cases := []struct {
		name, message string
		calls         []string
		answers       string
	}{
		{"calls", `{"role":"assistant","content":[{"type":"text","text":"x"},{"type":"toolCall","id":"c1","name":"bash"},{"type":"toolCall","id":"c\u0032","name":"read"}]}`, []string{"c1", "c2"}, ""},
		{"id before type", `{"role":"assistant","content":[{"id":"c1","type":"toolCall"}]}`, []string{"c1"}, ""},
		{"no id or not a string", `{"role":"assistant","content":[{"type":"toolCall"},{"type":"toolCall","id":7},{"type":"toolCall","id":""}]}`, nil, ""},
		{"not a call", `{"role":"assistant","content":[{"type":"text","id":"c1"}]}`, nil, ""},
		{"user's calls are not calls", `{"role":"user","content":[{"type":"toolCall","id":"c1"}]}`, nil, ""},
		{"result", `{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[]}`, nil, "c1"},
		{"result, id not a string", `{"role":"toolResult","toolCallId":1,"content":[]}`, nil, ""},
		{"assistant's toolCallId", `{"role":"assistant","toolCallId":"c1","content":[]}`, nil, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := `{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/"}` + "\n" +
				`{"type":"message","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":` + c.message + `}` + "\n"
			s, err := Load([]byte(src), "t.jsonl")
			if err != nil {
				t.Fatal(err)
			}
			e := s.Entries[0]
			if !slices.Equal(e.CallIDs, c.calls) || e.ToolCallID != c.answers {
				t.Errorf("CallIDs %q, ToolCallID %q; want %q, %q", e.CallIDs, e.ToolCallID, c.calls, c.answers)
			}
		})
	}
}

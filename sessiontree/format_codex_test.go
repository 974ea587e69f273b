package sessiontree

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// lineIDs are the ids L<from> to L<to>.
func lineIDs(from, to int) []string {
	var out []string
	for n := from; n <= to; n++ {
		out = append(out, "L"+strconv.Itoa(n))
	}
	return out
}

func TestCodexRollout(t *testing.T) {
	all := lineIDs(2, 42) // line 1 is the header
	runLoadCases(t, []loadCase{{
		name:   "rollout",
		in:     fixture(t, "codex", "rollout.jsonl"),
		format: FormatCodex,
		ids:    all, roots: []string{"L2"}, leaf: "L42",
		// Each entry is the child of the one before.
		path:     all,
		children: map[string][]string{"L2": {"L3"}, "L41": {"L42"}},
		check:    checkCodexRollout,
	}})
}

func checkCodexRollout(t *testing.T, s *Session) {
	if s.Header.ID != "0199a213-81c0-7800-8aa1-bbab2a035a53" || s.Header.Cwd != "/work/p" || s.Header.Line != 1 ||
		s.FormatVersion != "0.46.0" || s.Version != 0 || s.Name != "Verbose flag" {
		t.Errorf("header %+v, version %q/%d, name %q", s.Header, s.FormatVersion, s.Version, s.Name)
	}
	checkCodexKinds(t, s)
	checkCodexCalls(t, s)
	for id, want := range map[string]Usage{
		"L8":  {Input: 3000, CacheRead: 1000, Output: 60, TotalTokens: 4060}, // L8 and L9 are one reply: its first item holds it
		"L20": {Input: 200, CacheRead: 4000, Output: 80, TotalTokens: 4280},
		"L24": {Input: 100, CacheRead: 4200, Output: 40, TotalTokens: 4340},
	} {
		if u := mustEntry(t, s, id).Usage; u == nil || *u != want {
			t.Errorf("%s usage %+v, want %+v", id, u, want)
		}
	}
	c := mustEntry(t, s, "L36")
	if c.Type != TypeCompaction || !strings.HasPrefix(c.Summary, "The user asked for a --verbose flag.") || c.TokensBefore != 4340 {
		t.Errorf("compaction %+v %+v", c, c.Detail)
	}
	ctx := s.Context(s.Leaf)
	if got := ctxRefs(ctx); !reflect.DeepEqual(got, []string{"compactionSummary:L36", "assistant:L38", "assistant:L40", "toolResult:L41"}) {
		t.Errorf("context %v", got)
	}
	if ctx.Model == nil || ctx.Model.ModelID != "gpt-5" || ctx.ThinkingLevel != "high" {
		t.Errorf("model %+v, thinking %q", ctx.Model, ctx.ThinkingLevel)
	}
	st := s.Stats(s.Entries)
	if len(st.Models) != 2 || st.Models[0].ModelID != "gpt-5-codex" || st.Errors != 1 || st.Aborted != 1 ||
		st.ToolCalls != 6 || st.Messages[RoleUser] != 3 || st.Compactions != 1 {
		t.Errorf("stats %+v", st)
	}
}

// checkCodexKinds: each thing once, the events that repeat response items
// kept as extension state.
func checkCodexKinds(t *testing.T, s *Session) {
	for _, c := range []struct{ id, typ, role, custom string }{
		{"L2", TypeMessage, RoleCustom, "environment context"},
		{"L3", TypeMessage, RoleUser, ""},
		{"L4", TypeCustom, "", "event_msg: user_message"},
		{"L5", TypeModelChange, "", ""},
		{"L6", TypeCustom, "", "event_msg: token_count"},
		{"L7", TypeCustom, "", "event_msg: agent_reasoning"},
		{"L8", TypeMessage, RoleAssistant, ""},
		{"L12", TypeCustom, "", "event_msg: exec_command_end"},
		{"L21", TypeMessage, RoleToolResult, ""}, // the web search's result
		{"L23", TypeCustom, "", "event_msg: agent_message"},
		{"L24", TypeMessage, RoleAssistant, ""},
		{"L27", TypeMessage, RoleUser, ""},
		{"L29", TypeThinkingLevelChange, "", ""},
		{"L30", TypeMessage, RoleAssistant, ""},
		{"L33", TypeModelChange, "", ""},
		{"L34", TypeMessage, RoleCustom, "stream_error"},
		{"L35", TypeMessage, RoleAssistant, ""},
		{"L37", TypeCustom, "", "event_msg: context_compacted"},
		{"L39", TypeSessionInfo, "", ""},
		{"L42", TypeCustom, "", "mystery_line"},
	} {
		e := mustEntry(t, s, c.id)
		if e.Type != c.typ || e.Role != c.role || e.CustomType != c.custom {
			t.Errorf("%s: type %q role %q custom %q; want %+v", c.id, e.Type, e.Role, e.CustomType, c)
		}
	}
	if e := mustEntry(t, s, "L5"); e.Provider != "openai" || e.Model != "gpt-5-codex" {
		t.Errorf("L5 %s/%s", e.Provider, e.Model)
	}
	if e := mustEntry(t, s, "L29"); e.ThinkingLevel != "high" {
		t.Errorf("L29 %q", e.ThinkingLevel)
	}
	if e := mustEntry(t, s, "L34"); !e.Notice || !e.Display {
		t.Errorf("L34 %+v", e.Detail)
	}
	for id, want := range map[string][2]string{"L30": {"aborted", "interrupted"}, "L35": {"error", "stream disconnected"}} {
		if m := msg(t, s, id); m.StopReason != want[0] || !strings.HasPrefix(m.ErrorMessage, want[1]) || m.Model == "" {
			t.Errorf("%s %+v", id, m)
		}
	}
	if got := onlyText(t, "L34", msg(t, s, "L34").Content); got != "Reconnecting... 1/5" {
		t.Errorf("L34 %q", got)
	}
	// A reply's items (reasoning L8, the call L9) are one turn: L8 decodes
	// to both, and says where L9's block starts; L9 continues it.
	if m := msg(t, s, "L8"); !reflect.DeepEqual(blockTypes(m.Content), []string{"thinking", "toolCall"}) ||
		m.Content[0].Thinking != "**Looking for the flag definitions**" || !reflect.DeepEqual(m.Streamed, []StreamedLine{{ID: "L9", Block: 1}}) {
		t.Errorf("L8 %+v, streamed %+v", m.Content, m.Streamed)
	}
	if h, c := mustEntry(t, s, "L8"), mustEntry(t, s, "L9"); h.Continues || !c.Continues || h.ToolCalls != 1 || c.ToolCalls != 0 {
		t.Errorf("L8 continues %v with %d calls, L9 continues %v with %d", h.Continues, h.ToolCalls, c.Continues, c.ToolCalls)
	}
	if m := msg(t, s, "L27"); !reflect.DeepEqual(blockTypes(m.Content), []string{"text", "image"}) || m.Content[1].MimeType != "image/png" {
		t.Errorf("L27 %+v", m.Content)
	}
	if m := msg(t, s, "L2"); m.Display || !strings.HasPrefix(onlyText(t, "L2", m.Content), "<environment_context>") {
		t.Errorf("L2 %+v", m)
	}
	raw, _ := mustEntry(t, s, "L4").Raw()
	if b := body(t, s, "L4"); string(b.Data) != string(raw) {
		t.Errorf("L4 data %s", b.Data)
	}
}

// checkCodexCalls: calls named and shaped as pi's tools, paired with their
// outputs by call_id.
func checkCodexCalls(t *testing.T, s *Session) {
	for _, c := range []struct {
		call, result, id, name, args string
	}{
		{"L9", "L11", "call_shell1", "bash", `{"command":"rg -n 'flag\\.' main.go","timeout_ms":120000,"workdir":"/work/p"}`},
		{"L13", "L15", "call_patch1", "edit", `{"patch":"*** Begin Patch\n*** Update File: main.go\n@@ func main() {\n \tquiet := flag.Bool(\"quiet\", false, \"no output\")\n+\tverbose := flag.Bool(\"verbose\", false, \"more output\")\n \tflag.Parse()\n*** Add File: VERBOSE.md\n+12 lines of notes\n*** End Patch\n","path":"main.go, VERBOSE.md"}`},
		{"L16", "L17", "call_shell2", "bash", `{"command":"go build ./...","workdir":"/work/p"}`},
		{"L18", "L19", "call_local1", "bash", `{"command":"go vet ./...","timeout_ms":null,"workdir":"/work/p"}`},
		{"L20", "", "L20", "web_search", `{"query":"go flag package verbose convention"}`},
		{"L40", "L41", "call_plan1", "update_plan", `{"plan":[{"status":"completed","step":"Add the flag"},{"status":"in_progress","step":"Print the config"}]}`},
	} {
		e := mustEntry(t, s, c.call)
		if !reflect.DeepEqual(e.CallIDs, []string{c.id}) || e.ToolCalls != 1 && !e.Continues { // a later item's call counts in its turn
			t.Errorf("%s calls %v", c.call, e.CallIDs)
		}
		m := msg(t, s, c.call)
		if len(m.Content) != 1 || m.Content[0].Type != "toolCall" || m.Content[0].ID != c.id || m.Content[0].Name != c.name ||
			string(m.Content[0].Arguments) != c.args {
			t.Errorf("%s decodes to %+v\n want args %s", c.call, m.Content, c.args)
		}
		if c.result != "" {
			if r := mustEntry(t, s, c.result); r.Role != RoleToolResult || r.ToolCallID != c.id || r.ToolName != c.name {
				t.Errorf("%s: result %+v", c.result, r)
			}
		}
	}
	if m := msg(t, s, "L11"); m.IsError || onlyText(t, "L11", m.Content) != "12:\tquiet := flag.Bool(\"quiet\", false, \"no output\")\n" {
		t.Errorf("L11 %+v", m)
	}
	if m := msg(t, s, "L17"); !m.IsError {
		t.Errorf("L17: a command that exited 1 is no error")
	}
	if m := msg(t, s, "L19"); m.IsError || !strings.HasPrefix(onlyText(t, "L19", m.Content), "Exit code: 0") {
		t.Errorf("L19 %+v", m)
	}
	want := `{"diff":" *** Update File: main.go\n @@ func main() {\n  \tquiet := flag.Bool(\"quiet\", false, \"no output\")\n+ \tverbose := flag.Bool(\"verbose\", false, \"more output\")\n  \tflag.Parse()\n *** Add File: VERBOSE.md\n+ 12 lines of notes"}`
	if got := string(msg(t, s, "L15").Details); got != want {
		t.Errorf("patch diff\n got  %s\n want %s", got, want)
	}
}

func TestCodexEventsOnly(t *testing.T) {
	runLoadCases(t, []loadCase{{
		name:   "events only",
		in:     fixture(t, "codex", "events-only.jsonl"),
		format: FormatCodex,
		ids:    lineIDs(2, 6), leaf: "L6",
		check: func(t *testing.T, s *Session) {
			// Without response items the events are the messages.
			// The reasoning (L4) and the reply (L5) are one turn.
			if got := ctxRefs(s.Context(s.Leaf)); !reflect.DeepEqual(got, []string{"user:L2", "assistant:L4"}) {
				t.Errorf("context %v", got)
			}
			if got := onlyText(t, "L5", msg(t, s, "L5").Content); got != "It is a small CLI that converts CSV to JSON." {
				t.Errorf("L5 %q", got)
			}
			if u := mustEntry(t, s, "L4").Usage; u == nil || u.Output != 30 {
				t.Errorf("L4 usage %+v", u)
			}
			if m := msg(t, s, "L4"); m.Content[0].Type != "thinking" {
				t.Errorf("L4 %+v", m.Content)
			}
		},
	}})
}

// TestCodexLegacy: a rollout of before September 2025, without the
// envelope: its first line is the session's meta, the others bare
// response items and record_type markers.
func TestCodexLegacy(t *testing.T) {
	runLoadCases(t, []loadCase{{
		name:   "legacy",
		in:     fixture(t, "codex", "legacy-2025.jsonl"),
		format: FormatCodex,
		ids:    lineIDs(2, 10), leaf: "L10", roots: []string{"L2"},
		check: func(t *testing.T, s *Session) {
			if s.Header.ID != "5f9e0c1a-2b3d-4e5f-8a9b-0c1d2e3f4a5b" || s.FormatVersion != "" || s.Header.Cwd != "/work/old" {
				t.Errorf("header %+v", s.Header)
			}
			want := []string{"custom:L3", "user:L4", "assistant:L6", "toolResult:L8", "assistant:L9"} // L6 and L7: one reply
			if got := ctxRefs(s.Context(s.Leaf)); !reflect.DeepEqual(got, want) {
				t.Errorf("context %v", got)
			}
			if e := mustEntry(t, s, "L5"); e.Type != TypeCustom || e.CustomType != "record_type: state" {
				t.Errorf("L5 %+v", e)
			}
			if r := mustEntry(t, s, "L8"); r.ToolName != "bash" || r.ToolCallID != "call_a" {
				t.Errorf("L8 %+v", r)
			}
			if m := msg(t, s, "L7"); string(m.Content[0].Arguments) != `{"command":"grep -rl 'package old' ."}` || m.Model != "" || m.Provider != "" {
				t.Errorf("L7 %+v", m.Content[0])
			}
		},
	}})
}

// codexJSONL is a rollout line of the type with the payload.
func codexJSONL(typ, payload string) string {
	return `{"timestamp":"` + ts + `","type":"` + typ + `","payload":` + payload + `}`
}

func TestCodexRules(t *testing.T) {
	meta := codexJSONL("session_meta", `{"id":"x","cwd":"/w","cli_version":"0.98.1"}`)
	runLoadCases(t, []loadCase{
		{
			// Without a session_meta first, there is no header: every
			// line is an entry.
			name: "no header",
			in: jsonl(codexJSONL("response_item", `{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}`),
				meta),
			ids: []string{"L1", "L2"}, leaf: "L2",
			check: func(t *testing.T, s *Session) {
				if s.Header.ID != "" || mustEntry(t, s, "L2").CustomType != "session_meta" {
					t.Errorf("header %+v", s.Header)
				}
			},
		},
		{
			name: "odd outputs and members",
			in: jsonlNoEOL(meta,
				codexJSONL("response_item", `{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"ls -la\"}","call_id":"c1"}`),
				codexJSONL("response_item", `{"type":"function_call_output","call_id":"c1","output":[{"type":"input_text","text":"a"},{"type":"input_image","image_url":"https://example.test/x.png"}]}`),
				codexJSONL("response_item", `{"type":"function_call","name":"shell","arguments":"not json","call_id":"c2"}`),
				codexJSONL("response_item", `{"type":"function_call_output","call_id":"c2","output":{"content":"denied","success":false}}`),
				codexJSONL("response_item", `{"type":"reasoning","summary":[],"encrypted_content":"x"}`),
				codexJSONL("event_msg", `{"type":"user_message","message":7,"images":"none"}`),
				`{"type":"response_item","payload":{"type":"mess`),
			ids: lineIDs(2, 7), leaf: "L7",
			diags: []wantDiag{{8, SevError, "truncated last line"}},
			check: func(t *testing.T, s *Session) {
				if m := msg(t, s, "L2"); string(m.Content[0].Arguments) != `{"command":"ls -la"}` || m.Content[0].Name != "bash" {
					t.Errorf("L2 %s", m.Content[0].Arguments)
				}
				if m := msg(t, s, "L3"); !reflect.DeepEqual(blockTypes(m.Content), []string{"text", "text"}) || m.Content[1].Text != "[image: https://example.test/x.png]" {
					t.Errorf("L3 %+v", m.Content)
				}
				if m := msg(t, s, "L4"); string(m.Content[0].Arguments) != `{"arguments":"not json","command":""}` {
					t.Errorf("L4 %s", m.Content[0].Arguments)
				}
				if m := msg(t, s, "L5"); !m.IsError || onlyText(t, "L5", m.Content) != "denied" {
					t.Errorf("L5 %+v", m)
				}
				if m := msg(t, s, "L6"); !m.Content[0].Redacted {
					t.Errorf("L6 %+v", m.Content)
				}
				if m := msg(t, s, "L7"); m.Role != RoleUser {
					t.Errorf("L7 %+v", m)
				}
			},
		},
	})
}

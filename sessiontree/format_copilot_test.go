package sessiontree

import (
	"reflect"
	"strconv"
	"testing"
)

// TestCopilotLog: a Copilot CLI event log is one chain, an event whose
// parent was not saved following the one before it; prompts, replies,
// calls paired with results, model changes, errors, a compaction, and
// the shutdown's metrics shared out as usage.
func TestCopilotLog(t *testing.T) {
	var all []string
	for n := 1; n <= 18; n++ {
		all = append(all, "e"+strconv.Itoa(n))
	}
	runLoadCases(t, []loadCase{{
		name:   "events",
		in:     agents1Fixture(t, "copilot", "events.jsonl"),
		format: FormatCopilot,
		ids:    all, roots: []string{"e1"}, leaf: "e18", path: all,
		diags: []wantDiag{{11, SevInfo, "entry e11: parent delta-not-saved is not in the file"}},
		check: checkCopilotLog,
	}})
}

func checkCopilotLog(t *testing.T, s *Session) {
	if s.Header.ID != "c0ffee00-0000-4000-8000-000000000002" || s.Header.Cwd != "/home/ada/shop" ||
		s.FormatLabel() != "copilot-cli, version 0.0.400" || s.Version != 1 {
		t.Errorf("header %+v, %s", s.Header, s.FormatLabel())
	}
	for _, c := range []struct {
		id, typ, role, custom string
	}{
		{"e1", TypeCustom, "", "session.start"},
		{"e2", TypeCustom, "", "session.info"},
		{"e3", TypeMessage, RoleUser, ""},
		{"e4", TypeCustom, "", "assistant.turn_start"},
		{"e5", TypeMessage, RoleAssistant, ""},
		{"e6", TypeCustom, "", "tool.execution_start"}, // the reply requested it
		{"e7", TypeMessage, RoleToolResult, ""},
		{"e10", TypeModelChange, "", ""},
		{"e12", TypeMessage, RoleAssistant, ""}, // no reply requested it: the call
		{"e13", TypeMessage, RoleToolResult, ""},
		{"e14", TypeMessage, RoleAssistant, ""},
		{"e15", TypeMessage, RoleAssistant, ""},
		{"e16", TypeCompaction, "", ""},
		{"e18", TypeCustom, "", "session.shutdown"},
	} {
		e := mustEntry(t, s, c.id)
		if e.Type != c.typ || e.Role != c.role || e.CustomType != c.custom || e.Bookkeeping != (c.typ == TypeCustom) {
			t.Errorf("%s: %s/%s/%q/%v, want %s/%s/%q", c.id, e.Type, e.Role, e.CustomType, e.Bookkeeping, c.typ, c.role, c.custom)
		}
	}
	e5, e8, e17 := mustEntry(t, s, "e5"), mustEntry(t, s, "e8"), mustEntry(t, s, "e17")
	if e5.Model != "claude-sonnet-4.5" || e5.Provider != "anthropic" || !reflect.DeepEqual(e5.CallIDs, []string{"tc1"}) ||
		e17.Model != "gpt-5" || e17.Provider != "openai" {
		t.Errorf("e5 %+v, e17 %+v", e5, e17)
	}
	// The shutdown's metrics: what the replies' own output tokens did not
	// account for goes to each model's last reply.
	for _, c := range []struct {
		e    *Entry
		want Usage
	}{
		{e5, Usage{Output: 30, TotalTokens: 30}},
		{e8, Usage{Input: 2000, Output: 12, CacheRead: 3000, CacheWrite: 100, TotalTokens: 5112}},
		{e17, Usage{Input: 2000, Output: 20, TotalTokens: 2020}},
	} {
		if c.e.Usage == nil || *c.e.Usage != c.want {
			t.Errorf("%s usage %+v, want %+v", c.e.ID, c.e.Usage, c.want)
		}
	}
	st := s.Stats(s.Entries)
	if st.Usage.Output != 62 || st.Usage.Input != 4000 || !st.CostEstimated || st.ToolCalls != 2 || st.Errors != 1 || st.Aborted != 1 {
		t.Errorf("stats %+v", st)
	}
	if e := mustEntry(t, s, "e16"); e.Summary != "<overview>The README was shown; npm test fails.</overview>" || e.TokensBefore != 90000 {
		t.Errorf("compaction %+v", e.Detail)
	}
	checkCopilotBodies(t, s)
}

func checkCopilotBodies(t *testing.T, s *Session) {
	m := body(t, s, "e3").Message
	if len(m.Content) != 2 || m.Content[0].Text != "Show me the README" || m.Content[1].Text != "[attachment: /home/ada/shop/README.md]" {
		t.Errorf("e3 %+v", m.Content)
	}
	m = body(t, s, "e5").Message
	if len(m.Content) != 2 || m.Content[0].Thinking != "The user wants the README." || m.Content[1].Type != "toolCall" ||
		m.Content[1].ID != "tc1" || m.Content[1].Name != "view" || string(m.Content[1].Arguments) != `{"path":"README.md"}` {
		t.Errorf("e5 %+v", m.Content)
	}
	if m := body(t, s, "e7").Message; m.ToolCallID != "tc1" || m.ToolName != "view" || m.IsError || m.Content[0].Text != "# Shop\nA demo shop." {
		t.Errorf("e7 %+v", m)
	}
	if m := body(t, s, "e12").Message; m.Content[0].Type != "toolCall" || m.Content[0].Name != "bash" || string(m.Content[0].Arguments) != `{"command":"npm test"}` {
		t.Errorf("e12 %+v", m)
	}
	if m := body(t, s, "e13").Message; !m.IsError || m.Content[0].Text != "exit status 1" || m.ToolName != "bash" {
		t.Errorf("e13 %+v", m)
	}
	if m := body(t, s, "e14").Message; m.ErrorMessage != "Rate limited" || m.StopReason != "error" {
		t.Errorf("e14 %+v", m)
	}
	if m := body(t, s, "e15").Message; m.ErrorMessage != "user initiated" || m.StopReason != "aborted" {
		t.Errorf("e15 %+v", m)
	}
	p := PairCalls(s)
	if r := p.Result(mustEntry(t, s, "e12"), "tc2"); r == nil || r.ID != "e13" {
		t.Errorf("tc2 paired with %v", r)
	}
}

// TestCopilotVariants: arguments written as a string of JSON, reasoning
// events shown when the replies carry none, a subagent's events kept as
// bookkeeping, a failed compaction no compaction.
func TestCopilotVariants(t *testing.T) {
	ev := func(typ, data, id, parent string) string {
		return `{"type":"` + typ + `","data":` + data + `,"id":"` + id + `","timestamp":"2026-03-06T10:00:00.000Z","parentId":` + parent + `}`
	}
	runLoadCases(t, []loadCase{{
		name: "variants",
		in: jsonl(ev("session.start", `{"sessionId":"s","copilotVersion":"1.0.2"}`, "a", "null"),
			ev("user.message", `{"content":"hi"}`, "b", `"a"`),
			ev("assistant.reasoning", `{"reasoningId":"r","content":"thinking it over"}`, "c", `"b"`),
			ev("assistant.message", `{"content":"","toolRequests":[{"toolCallId":"t","name":"task","arguments":"{\"prompt\":\"look\"}"}]}`, "d", `"c"`),
			ev("tool.execution_start", `{"toolCallId":"t2","toolName":"view","parentToolCallId":"t"}`, "e", `"d"`),
			ev("session.compaction_complete", `{"success":false,"error":"Nothing to compact"}`, "f", `"e"`),
			ev("tool.execution_complete", `{"toolCallId":"t","success":true,"result":"found it"}`, "g", `"f"`)),
		format: FormatCopilot,
		ids:    []string{"a", "b", "c", "d", "e", "f", "g"}, roots: []string{"a"}, leaf: "g",
		path: []string{"a", "b", "c", "d", "e", "f", "g"},
		check: func(t *testing.T, s *Session) {
			if m := body(t, s, "c").Message; m.Role != RoleAssistant || m.Content[0].Thinking != "thinking it over" {
				t.Errorf("c %+v", m)
			}
			if m := body(t, s, "d").Message; string(m.Content[0].Arguments) != `{"prompt":"look"}` {
				t.Errorf("d %+v", m.Content)
			}
			for id, custom := range map[string]string{"e": "subagent: tool.execution_start", "f": "session.compaction_complete"} {
				if e := mustEntry(t, s, id); e.Type != TypeCustom || e.CustomType != custom {
					t.Errorf("%s: %s %q", id, e.Type, e.CustomType)
				}
			}
			if m := body(t, s, "g").Message; m.Content[0].Text != "found it" || m.ToolName != "task" {
				t.Errorf("g %+v", m)
			}
		},
	}})
}

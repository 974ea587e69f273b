package sessiontree

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// The first lines of the inputs FuzzClaude and FuzzCodex load: whatever
// follows, the input is read as a transcript, or as a rollout.
const (
	claudeStart = `{"type":"user","uuid":"fuzz0","parentUuid":null,"sessionId":"f","version":"2.1.0","message":{"role":"user","content":"start"}}`
	codexStart  = `{"timestamp":"2026-03-01T09:00:00.000Z","type":"session_meta","payload":{"id":"f","cwd":"/w","cli_version":"0.50.0"}}`
)

// FuzzClaude loads arbitrary lines as a Claude Code transcript: Load
// never panics and never fails but with ErrNotSession, the session holds
// what any session must (see FuzzLoad), and every entry decodes.
func FuzzClaude(f *testing.F) {
	for _, name := range []string{"session.jsonl", "compaction.jsonl", "old-1.0.jsonl", "agent-a1b2c3.jsonl"} {
		f.Add(fixture(f, "claude", name))
	}
	f.Add(jsonl(claudeReply("a", "fuzz0", "m", `{"type":"tool_use","id":"t","name":"Edit","input":{}}`),
		claudeJSONL("user", "b", "a", `"message":{"content":[{"type":"tool_result","tool_use_id":"t","content":[{"type":"image","source":{}}]}]},"toolUseResult":{"structuredPatch":[{"lines":[7,"+x"]}]}`),
		claudeReply("c", "b", "m", `{"type":"text","text":"<command-name>x"}`),
		claudeJSONL("system", "d", "", `"subtype":"compact_boundary","logicalParentUuid":"c"`)))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzFormat(t, append([]byte(claudeStart+"\n"), data...), FormatClaude)
	})
}

// FuzzCodex loads arbitrary lines as a Codex rollout, with FuzzClaude's
// checks.
func FuzzCodex(f *testing.F) {
	for _, name := range []string{"rollout.jsonl", "events-only.jsonl", "legacy-2025.jsonl"} {
		f.Add(fixture(f, "codex", name))
	}
	f.Add(jsonl(codexJSONL("response_item", `{"type":"custom_tool_call","name":"apply_patch","call_id":"c","input":"*** Begin Patch\n+x"}`),
		codexJSONL("response_item", `{"type":"custom_tool_call_output","call_id":"c","output":"{\"output\":1}"}`),
		codexJSONL("event_msg", `{"type":"token_count","info":{"last_token_usage":{"input_tokens":"x"},"total_token_usage":{"total_tokens":9}}}`),
		codexJSONL("turn_context", `{"model":7,"effort":"low"}`)))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzFormat(t, append([]byte(codexStart+"\n"), data...), FormatCodex)
	})
}

func fuzzFormat(t *testing.T, data []byte, format string) {
	orig := bytes.Clone(data)
	s, err := Load(data, "fuzz.jsonl")
	if err != nil {
		if !errors.Is(err, ErrNotSession) || !strings.Contains(err.Error(), "fuzz.jsonl") {
			t.Fatalf("error %q is not ErrNotSession naming the file", err)
		}
		return
	}
	fromFile, ferr := load(&source{name: "fuzz.jsonl", file: bytes.NewReader(data)}, 5)
	if ferr != nil {
		t.Fatalf("read as a file: %v", ferr)
	}
	sameSession(t, fromFile, s)
	if s.Format != format {
		t.Fatalf("read as %s", s.Format)
	}
	checkInvariants(t, s)
	exerciseLeaves(t, s)
	checkObjectLinesKept(t, s, data)
	for _, e := range s.Entries {
		b, err := e.Decode()
		if err != nil {
			t.Fatalf("entry %s (line %d) does not decode: %v", e.ID, e.Line, err)
		}
		if m := b.Message; m != nil && m.Role != e.Role {
			t.Fatalf("entry %s: role %q at load, %q decoded", e.ID, e.Role, m.Role)
		}
		if e.Type == TypeCustom && len(b.Data) == 0 {
			t.Fatalf("entry %s: extension state without its line", e.ID)
		}
	}
	if !bytes.Equal(data, orig) {
		t.Fatal("the input was modified")
	}
}

// FuzzAgentLines loads arbitrary lines after the first line of a Kimi
// CLI wire log, a Cursor CLI transcript, a Hermes transcript or an Aider
// history (the fuzzer's first byte chooses), with FuzzClaude's checks.
func FuzzAgentLines(f *testing.F) {
	starts := []struct{ line, format string }{
		{`{"type":"metadata","protocol_version":"1.3"}`, FormatKimi},
		{`{"role":"user","message":{"content":[{"type":"text","text":"<user_query>q</user_query>"}]}}`, FormatCursor},
		{`{"role":"session_meta","model":"anthropic/claude-sonnet-4"}`, FormatHermes},
		{"# aider chat started at 2026-01-01 10:00:00", FormatAider},
	}
	for i, name := range []string{"kimi/wire.jsonl", "cursor/5b0e8c1a-2f3d-4e5f-9a0b-1c2d3e4f5a6b.jsonl", "hermes/20260101_100000_5a3e2ff1.jsonl", "aider/.aider.chat.history.md"} {
		f.Add(append([]byte{byte(i)}, agentFixture(f, name)...))
	}
	f.Add([]byte("\x00" + `{"timestamp":1,"message":{"type":"ToolCallPart","payload":{"arguments_part":7}}}` + "\n" +
		`{"timestamp":"x","message":{"type":"ToolCall","payload":{"id":"c","function":{"arguments":"{"}}}}`))
	f.Add([]byte("\x02" + `{"role":"tool","tool_call_id":"nope","content":[{"type":"image"}]}` + "\n" + `{"role":"assistant","tool_calls":[{"id":"a","function":{"arguments":{"x":1}}}]}`))
	f.Add([]byte("\x03\n#### hi\n```\n> not output\n#### not a prompt\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		st := starts[int(data[0])%len(starts)]
		fuzzFormat(t, append([]byte(st.line+"\n"), data[1:]...), st.format)
	})
}

// FuzzAgentDocuments loads arbitrary bytes as an Amp thread's, a Cline
// history's or a Hermes snapshot's messages: Load never panics, and a
// session read holds what any session must.
func FuzzAgentDocuments(f *testing.F) {
	for _, name := range []string{"amp/T-3f1c2a9e-1b2c-4d5e-8f90-a1b2c3d4e5f6.json", "cline/task1/api_conversation_history.json", "hermes/session_20260101_100000_5a3e2ff1.json"} {
		f.Add(agentFixture(f, name))
	}
	f.Add([]byte(`{"v":1,"id":"T-1","messages":[{"role":"user","content":[{"type":"tool_result","toolUseID":"x","run":{"result":[1]}}]},{"role":"assistant","content":"x","usage":{"inputTokens":"1"}}]}`))
	f.Add([]byte(`[{"role":"user","content":"<task>a</task>"},{"role":"assistant","content":[{"type":"tool_use","id":"t","input":7}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":{}}]}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		orig := bytes.Clone(data)
		s, err := Load(data, "fuzz.json")
		if err != nil {
			if !errors.Is(err, ErrNotSession) {
				t.Fatalf("error %q is not ErrNotSession", err)
			}
			return
		}
		checkInvariants(t, s)
		exerciseLeaves(t, s)
		for _, e := range s.Entries {
			e.Decode() // an entry may fail to decode; it must not panic
		}
		if !bytes.Equal(data, orig) {
			t.Fatal("the input was modified")
		}
	})
}

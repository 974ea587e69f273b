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

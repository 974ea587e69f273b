package sessiontree

import (
	"slices"
	"testing"
)

// FuzzClaudeLinks loads arbitrary lines as a Claude Code transcript, with
// FuzzClaude's checks, and checks what ties subagents and results to
// their calls: every sidechain holds its root first, SidechainOf finds it
// for each of its entries and for no other, a sidechain's call is made by
// the entry it names; each result apart answers its own call.
func FuzzClaudeLinks(f *testing.F) {
	f.Add(fixture(f, "claude", "sidechains.jsonl"))
	f.Add(fixture(f, "claude", "agents/s1.jsonl"))
	f.Add(multiResults())
	f.Add(jsonl(claudeJSONL("user", "x", "y", `"isSidechain":true,"message":{"role":"user","content":"P"}`),
		claudeJSONL("user", "y", "x", `"isSidechain":true,"agentId":"g","message":{"role":"user","content":"P"}`),
		claudeReply("a", "fuzz0", "m", `{"type":"tool_use","id":"t","name":"Task","input":{"prompt":"P"}}`),
		claudeJSONL("user", "r", "a", `"message":{"content":[{"type":"tool_result","tool_use_id":"t"},{"type":"tool_result"}]},"toolUseResult":{"agentId":"g"}`)))
	f.Fuzz(func(t *testing.T, data []byte) {
		data = append([]byte(claudeStart+"\n"), data...)
		fuzzFormat(t, data, FormatClaude)
		s, err := Load(data, "fuzz.jsonl")
		if err != nil {
			return
		}
		checkSidechains(t, s)
		checkResultsApart(t, s)
	})
}

func checkSidechains(t *testing.T, s *Session) {
	in := 0
	for _, sc := range s.Sidechains {
		if len(sc.Entries) == 0 || sc.Entries[0] != sc.Root {
			t.Fatalf("sidechain of %s: root not first", sc.Root.ID)
		}
		for _, e := range sc.Entries {
			if s.SidechainOf(e) != sc {
				t.Fatalf("%s: SidechainOf is another", e.ID)
			}
		}
		in += len(sc.Entries)
		if (sc.Call == nil) != (sc.CallID == "") || sc.Call != nil && !slices.Contains(sc.Call.CallIDs, sc.CallID) {
			t.Fatalf("sidechain of %s: call %q by %v", sc.Root.ID, sc.CallID, sc.Call)
		}
	}
	n := 0
	for _, e := range s.Entries {
		if s.SidechainOf(e) != nil {
			n++
		}
	}
	if n != in {
		t.Fatalf("%d entries in sidechains, %d found by SidechainOf", in, n)
	}
}

func checkResultsApart(t *testing.T, s *Session) {
	for _, e := range s.Entries {
		for k := range e.Answered() {
			_ = e.AnsweredID(k)
		}
		b, err := e.Decode()
		if err != nil || b.Message == nil {
			continue
		}
		for _, r := range b.Message.Results {
			one := b.Message.ResultFor(r.ToolCallID)
			if one == nil || one.Results != nil || one.ToolCallID != r.ToolCallID {
				t.Fatalf("%s: ResultFor(%q) = %+v", e.ID, r.ToolCallID, one)
			}
		}
	}
}

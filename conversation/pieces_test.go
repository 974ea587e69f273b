package conversation

import (
	"testing"

	"canopy/sessiontree"
)

// TestPiecesStreamedReply: a reply Claude Code streamed over three lines
// is read whole at its first line, every block once and in order, with an
// anchor where each later line starts, and each call with its result.
func TestPiecesStreamedReply(t *testing.T) {
	const data = `{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s","timestamp":"2025-01-01T00:00:00Z","message":{"role":"user","content":"list the files"}}
{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s","timestamp":"2025-01-01T00:00:01Z","message":{"id":"msg1","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"thinking","thinking":"look first"}]}}
{"type":"assistant","uuid":"a2","parentUuid":"a1","sessionId":"s","timestamp":"2025-01-01T00:00:02Z","message":{"id":"msg1","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"Listing."}]}}
{"type":"assistant","uuid":"a3","parentUuid":"a2","sessionId":"s","timestamp":"2025-01-01T00:00:03Z","message":{"id":"msg1","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}]}}
{"type":"user","uuid":"r1","parentUuid":"a3","sessionId":"s","timestamp":"2025-01-01T00:00:04Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"a.go"}]}}
`
	s, err := sessiontree.Load([]byte(data), "streamed.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	c := New(s)
	first := s.Entry("a1")
	b, err := first.Decode()
	if err != nil || b.Message == nil {
		t.Fatalf("decode a1: %v", err)
	}
	var got []string
	for _, p := range c.Pieces(first, b.Message) {
		switch {
		case p.Anchor != nil:
			got = append(got, "anchor "+p.Anchor.ID)
		case p.Part == ToolCall:
			res := "none"
			if p.Result != nil {
				res = p.Result.ID
			}
			got = append(got, "call "+p.Block.Name+" result "+res+" owner "+p.Owner.ID)
		default:
			got = append(got, p.Block.Type)
		}
	}
	want := []string{"thinking", "anchor a2", "text", "anchor a3", "call bash result r1 owner a1"}
	if len(got) != len(want) {
		t.Fatalf("pieces %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("pieces %q, want %q", got, want)
		}
	}
}

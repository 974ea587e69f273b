package htmlpage

import (
	"strings"
	"testing"

	"canopy/sessiontree"
)

// TestResultsOfUnreadableCalls: a result is drawn in its call's card, so it
// has no block of its own; when the calling message cannot be decoded
// (a mistyped field) or its content is not what Load read (two "content"
// members: Load reads both, Decode the last), or the result itself cannot
// be decoded, the result is drawn after the message's JSON or content (its
// own JSON if need be), and its row is the tool's name.
func TestResultsOfUnreadableCalls(t *testing.T) {
	lines := []string{
		`{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/"}`,
		`{"type":"message","id":"u1","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":"go"}}`,
		`{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-01-01T00:00:02Z","message":{"role":"assistant","stopReason":5,"content":[{"type":"toolCall","id":"c1","name":"bash","arguments":{"command":"ls"}}]}}`,
		`{"type":"message","id":"r1","parentId":"a1","timestamp":"2026-01-01T00:00:03Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":"FIRST-OUTPUT"}]}}`,
		`{"type":"message","id":"a2","parentId":"r1","timestamp":"2026-01-01T00:00:04Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c2","name":"read","arguments":{"path":"x"}}],"content":[{"type":"text","text":"second"}]}}`,
		`{"type":"message","id":"r2","parentId":"a2","timestamp":"2026-01-01T00:00:05Z","message":{"role":"toolResult","toolCallId":"c2","toolName":"read","content":[{"type":"text","text":"SECOND-OUTPUT"}]}}`,
		`{"type":"message","id":"a3","parentId":"r2","timestamp":"2026-01-01T00:00:06Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c3","name":"read","arguments":{"path":"y"}}]}}`,
		`{"type":"message","id":"r3","parentId":"a3","timestamp":"2026-01-01T00:00:07Z","message":{"role":"toolResult","toolCallId":"c3","toolName":"read","content":[{"type":"text","text":"THIRD-OUTPUT"}]}}`,
		`{"type":"message","id":"a4","parentId":"r3","timestamp":"2026-01-01T00:00:08Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c4","name":"read","arguments":{"path":"z"}}]}}`,
		`{"type":"message","id":"r4","parentId":"a4","timestamp":"2026-01-01T00:00:09Z","message":{"role":"toolResult","toolCallId":"c4","toolName":"grep","details":"FOURTH-OUTPUT","content":[{"type":"text","text":5}]}}`,
	}
	s, ec, html := gatherLines(t, lines)
	for _, c := range []struct {
		call, result, output, row string
	}{
		{"a1", "r1", "FIRST-OUTPUT", "[bash]"},
		{"a2", "r2", "SECOND-OUTPUT", "[read]"},
		{"a3", "r3", "THIRD-OUTPUT", "[read: y]"}, // drawn in the card, as always
		{"a4", "r4", "FOURTH-OUTPUT", "[grep]"},   // the result cannot be decoded: its JSON
	} {
		call, res := s.Entry(c.call), s.Entry(c.result)
		if n := strings.Count(html[call.Index], c.output); n != 1 {
			t.Errorf("%s: the output of %s is drawn %d times, want once", c.call, c.result, n)
		}
		if html[res.Index] != "" || ec.rows[res.Index].flags&flagEmbedded == 0 {
			t.Errorf("%s: drawn apart from %s's card", c.result, c.call)
		}
		if got := ec.rows[res.Index].text; got != c.row {
			t.Errorf("%s: row %q, want %q", c.result, got, c.row)
		}
	}
	if !strings.Contains(html[s.Entry("a1").Index], "could not be read in full") {
		t.Errorf("a1 is not shown as unreadable")
	}
}

// TestReusedCallIDs: some models number their calls afresh in every turn,
// so two messages make a call "call_0". Each card shows the result that
// answers its own call (the nearest call above the result), and no result
// is drawn twice or left apart from its card.
func TestReusedCallIDs(t *testing.T) {
	lines := []string{
		`{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/"}`,
		`{"type":"message","id":"u1","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":"go"}}`,
		`{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-01-01T00:00:02Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"call_0","name":"read","arguments":{"path":"one.txt"}}]}}`,
		`{"type":"message","id":"r1","parentId":"a1","timestamp":"2026-01-01T00:00:03Z","message":{"role":"toolResult","toolCallId":"call_0","toolName":"read","content":[{"type":"text","text":"FIRST-OUTPUT"}]}}`,
		`{"type":"message","id":"a2","parentId":"r1","timestamp":"2026-01-01T00:00:04Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"call_0","name":"read","arguments":{"path":"two.txt"}}]}}`,
		`{"type":"message","id":"r2","parentId":"a2","timestamp":"2026-01-01T00:00:05Z","message":{"role":"toolResult","toolCallId":"call_0","toolName":"read","content":[{"type":"text","text":"SECOND-OUTPUT"}]}}`,
		// A branch from a1: its result answers a1's call, which already has one.
		`{"type":"message","id":"r1b","parentId":"a1","timestamp":"2026-01-01T00:00:06Z","message":{"role":"toolResult","toolCallId":"call_0","toolName":"read","content":[{"type":"text","text":"RETRY-OUTPUT"}]}}`,
	}
	s, ec, html := gatherLines(t, lines)
	page := strings.Join(html, "")
	for _, c := range []struct {
		output, drawnIn, resultID, row string
	}{
		{"FIRST-OUTPUT", "a1", "r1", "[read: one.txt]"},
		{"SECOND-OUTPUT", "a2", "r2", "[read: two.txt]"},
		{"RETRY-OUTPUT", "r1b", "r1b", "[read: one.txt]"}, // an entry of its own
	} {
		if n := strings.Count(page, c.output); n != 1 {
			t.Errorf("%s is drawn %d times, want once", c.output, n)
		}
		if !strings.Contains(html[s.Entry(c.drawnIn).Index], c.output) {
			t.Errorf("%s is not drawn in %s", c.output, c.drawnIn)
		}
		if got := ec.rows[s.Entry(c.resultID).Index].text; got != c.row {
			t.Errorf("%s: row %q, want %q", c.resultID, got, c.row)
		}
	}
}

// gatherLines loads a session from its lines and renders every entry, as
// Render does: the rows and each entry's HTML (by index).
func gatherLines(t *testing.T, lines []string) (*sessiontree.Session, *entryContext, []string) {
	t.Helper()
	s, err := sessiontree.Load([]byte(strings.Join(lines, "\n")+"\n"), "t.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	html := make([]string, len(s.Entries))
	return s, r.gather(s, html), html
}

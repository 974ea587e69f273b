package sessiontree

import (
	"strings"
	"testing"
)

// TestSilentMarks: a reply that starts with NO_REPLY or with OpenClaw's
// HEARTBEAT_OK is a silent turn, whether its content is a string or
// blocks, past leading white space; the mark is told apart; anything else
// is not silent.
func TestSilentMarks(t *testing.T) {
	cases := []struct {
		content string
		mark    string
	}{
		{`"NO_REPLY"`, "NO_REPLY"},
		{`"HEARTBEAT_OK"`, "HEARTBEAT_OK"},
		{`"\n  HEARTBEAT_OK all quiet"`, "HEARTBEAT_OK"},
		{`[{"type":"text","text":"HEARTBEAT_OK"}]`, "HEARTBEAT_OK"},
		{`[{"type":"thinking","thinking":"x"},{"type":"text","text":" NO_REPLY"}]`, "NO_REPLY"},
		{`[{"type":"text","text":"Done."},{"type":"text","text":"HEARTBEAT_OK"}]`, ""},
		{`"heartbeat_ok"`, ""},
		{`"The HEARTBEAT_OK reply"`, ""},
	}
	for _, c := range cases {
		lines := []string{
			`{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/"}`,
			`{"type":"message","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"assistant","content":` + c.content + `}}`,
		}
		s, err := Load([]byte(strings.Join(lines, "\n")+"\n"), "t.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		e := s.Entry("a")
		if e.Silent != (c.mark != "") {
			t.Errorf("%s: Silent = %v, want %v", c.content, e.Silent, c.mark != "")
		}
		b, err := e.Decode()
		if err != nil {
			t.Fatal(err)
		}
		if got := b.Message.SilentMark(); got != c.mark {
			t.Errorf("%s: SilentMark() = %q, want %q", c.content, got, c.mark)
		}
	}
}

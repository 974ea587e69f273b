package mdexport

import (
	"strings"
	"testing"
)

// TestStreamedReply: the later lines of a reply Claude Code streamed over
// several lines add nothing of their own (the reply is written whole at
// its first line): no "(no content)" heading for each of them.
func TestStreamedReply(t *testing.T) {
	s := load(t, "../testdata/claude/session.jsonl")
	cont := 0
	for _, e := range s.Entries {
		if e.Continues {
			cont++
		}
	}
	if cont == 0 {
		t.Fatal("the fixture has no streamed reply")
	}
	md := export(t, s, Options{})
	if strings.Contains(md, "(no content)") {
		t.Errorf("a streamed reply's later line is written as a message of its own:\n%s", md)
	}
	if !strings.Contains(md, "## ") {
		t.Errorf("nothing exported:\n%s", md)
	}
}

package mdpage

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

// TestResultNamesItsCall: a tool result's heading names the call it
// answers, found as the page finds it (sessiontree.PairCalls), also when
// the call was made by a later line of a streamed reply: the last
// assistant line before the result, which the Markdown used to look in,
// holds no call then.
func TestResultNamesItsCall(t *testing.T) {
	md := export(t, load(t, "../testdata/claude/session.jsonl"), Options{})
	for _, want := range []string{
		"#### Tool result · `bash` `go test ./...` · `r3`",
		"#### Tool result · `grep` `/work/p` · `r4`",
		"#### Tool result · `read` `/work/p/parse.go` · `r1`",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("missing %q", want)
		}
	}
}

// TestStreamedReplyCalls: a reply written over several lines makes its
// calls on its earlier lines; each result's heading names its call, as the
// page's card does (the calls were once looked up in the last line only,
// and the headings of the results of parallel calls named none).
func TestStreamedReplyCalls(t *testing.T) {
	md := export(t, load(t, "../testdata/claude/session.jsonl"), Options{})
	for _, want := range []string{
		"#### Tool result · `bash` `go test ./...`",
		"#### Tool result · `grep` `/work/p`",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("no %q in:\n%s", want, md)
		}
	}
}

// TestResultCallFromEarlierTurn: a result answering a call of a reply
// before the last one is still shown with its call.
func TestResultCallFromEarlierTurn(t *testing.T) {
	s := loadBytes(t, session(
		user("go"),
		assistant(callBlock("c1", "read", map[string]any{"path": "a.go"})),
		assistant(textBlock("waiting")),
		result("c1", "read", "package a"),
	))
	md := export(t, s, Options{})
	if !strings.Contains(md, "#### Tool result · `read` `a.go`") || !strings.Contains(md, "```go") {
		t.Errorf("the result is not shown with its call:\n%s", md)
	}
}

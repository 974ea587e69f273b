package htmlpage

import (
	"strings"
	"testing"

	"canopy/sessiontree"
)

// TestStreamedReply: a Claude Code reply written over several lines is
// one card, at its first line; each later line has no card of its own
// (no empty Assistant card) but a link target inside that card, just
// before the part it wrote, and its tree row; bookkeeping hanging off the
// turn is folded at the end of its card.
func TestStreamedReply(t *testing.T) {
	s, err := sessiontree.LoadFile("../testdata/claude/session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	page := renderPage(t, s) // the store unpacked
	var cont []*sessiontree.Entry
	for _, e := range s.Entries {
		if e.Continues {
			cont = append(cont, e)
		}
	}
	if len(cont) == 0 {
		t.Fatal("the fixture has no streamed reply")
	}
	for _, e := range cont {
		if strings.Contains(page, `<article class="entry k-assistant" id="entry-`+e.ID+`"`) {
			t.Errorf("entry %s, a later line of a reply, has a card of its own", e.ID)
		}
		if n := strings.Count(page, `<span class="anchor" id="entry-`+e.ID+`"></span>`); n != 1 {
			t.Errorf("entry %s has %d link targets, want 1", e.ID, n)
		}
	}
	if strings.Contains(page, "Continues the reply above") {
		t.Error("the page still has a card that only says it continues the reply above")
	}
	// a3 added the read call: its target comes just before that call's card.
	if !strings.Contains(page, `<span class="anchor" id="entry-a3"></span><div class="tool tool-read"`) {
		t.Error("a later line's target is not where its part starts")
	}
	// The hook record that hangs off the reply is folded in its card.
	if !strings.Contains(page, `<details class="records"><summary>1 record · hook: PostToolUse:Grep</summary><article class="entry k-custom" id="entry-h1">`) {
		t.Error("the hook record is not folded in the card of the turn it belongs to")
	}
	if !strings.Contains(page, "claude-code, version ") {
		t.Errorf("the header does not name the format and its version")
	}
}

// TestHeartbeatSilent: an OpenClaw heartbeat acknowledgement is a silent
// turn like NO_REPLY, and the page says which.
func TestHeartbeatSilent(t *testing.T) {
	lines := []string{
		`{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/"}`,
		`{"type":"message","id":"u","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":"Read HEARTBEAT.md"}}`,
		`{"type":"message","id":"h","parentId":"u","timestamp":"2026-01-01T00:00:02Z","message":{"role":"assistant","content":[{"type":"text","text":"HEARTBEAT_OK"}]}}`,
		`{"type":"message","id":"n","parentId":"h","timestamp":"2026-01-01T00:00:03Z","message":{"role":"assistant","content":"NO_REPLY"}}`,
	}
	s, err := sessiontree.Load([]byte(strings.Join(lines, "\n")+"\n"), "t.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	page := renderPage(t, s)
	for _, want := range []string{"Silent turn (HEARTBEAT_OK): not delivered to the user", "Silent turn (NO_REPLY): not delivered to the user"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}

// TestSeveralResultsOnOneLine: Claude Code answers several calls on one
// user line; each call's card shows its own result, and none shows the
// others'.
func TestSeveralResultsOnOneLine(t *testing.T) {
	line := func(typ, uuid, parent, extra string) string {
		p := `null`
		if parent != "" {
			p = `"` + parent + `"`
		}
		return `{"type":"` + typ + `","uuid":"` + uuid + `","parentUuid":` + p + `,"sessionId":"s","timestamp":"2026-01-01T00:00:00Z","version":"2.1.0",` + extra + `}`
	}
	data := strings.Join([]string{
		line("user", "u", "", `"message":{"role":"user","content":"go"}`),
		line("assistant", "a", "u", `"message":{"id":"m1","role":"assistant","model":"m","content":[`+
			`{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"echo one"}},`+
			`{"type":"tool_use","id":"t2","name":"Bash","input":{"command":"echo two"}}]}`),
		line("user", "r", "a", `"message":{"role":"user","content":[`+
			`{"type":"tool_result","tool_use_id":"t1","content":"RESULT-ONE"},`+
			`{"type":"tool_result","tool_use_id":"t2","content":"RESULT-TWO"}]}`),
	}, "\n") + "\n"
	s, err := sessiontree.Load([]byte(data), "claude.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	page := renderPage(t, s)
	one, two := strings.Index(page, "echo one"), strings.Index(page, "echo two")
	if one < 0 || two < 0 || two < one {
		t.Fatalf("the two calls are not drawn in order (%d, %d)", one, two)
	}
	if c := page[one:two]; !strings.Contains(c, "RESULT-ONE") || strings.Contains(c, "RESULT-TWO") {
		t.Errorf("the first card does not show just its own result:\n%s", c)
	}
	if c := page[two:]; !strings.Contains(c, "RESULT-TWO") || strings.Contains(c, "RESULT-ONE") {
		t.Errorf("the second card does not show just its own result")
	}
}

// TestRecordWording: the bookkeeping entries of Claude Code and Codex
// are named as theirs, not as a pi extension's state.
func TestRecordWording(t *testing.T) {
	for _, c := range []struct{ file, want string }{
		{"../testdata/claude/session.jsonl", "Claude Code record: "},
		{"../testdata/codex/rollout.jsonl", "Codex record: "},
		{"../testdata/render/kinds.jsonl", "Extension state: "},
	} {
		s, err := sessiontree.LoadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		page := renderPage(t, s)
		s.Close()
		if !strings.Contains(page, c.want) {
			t.Errorf("%s: no %q", c.file, c.want)
		}
		if c.want != "Extension state: " && strings.Contains(page, "Extension state") {
			t.Errorf("%s: a record named as an extension's state", c.file)
		}
	}
}

// TestCommandOutputAsPrinted: what a ! or slash command printed is shown
// as the terminal showed it (indentation kept, no Markdown), as a bash
// result is.
func TestCommandOutputAsPrinted(t *testing.T) {
	s, err := sessiontree.LoadFile("../testdata/claude/session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	page := renderPage(t, s)
	if !strings.Contains(page, "<pre class=\"chroma code\"> M main.go\n M parse.go\n?? parse_test.go</pre>") {
		t.Errorf("the git status output is not shown as printed")
	}
}

// TestParentGuessedNote: an entry whose parent is not in the file follows
// the line before it, and its card says so.
func TestParentGuessedNote(t *testing.T) {
	s, err := sessiontree.LoadFile("../sessiontree/testdata/shape/claude-forks.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	page := renderPage(t, s)
	var guessed int
	for _, e := range s.Entries {
		if !e.ParentGuessed {
			continue
		}
		guessed++
		at := strings.Index(page, `id="entry-`+e.ID+`"`)
		if at < 0 {
			t.Errorf("entry %s is not on the page", e.ID)
			continue
		}
		end := strings.Index(page[at:], "</article>")
		if !strings.Contains(page[at:at+end], sessiontree.ParentGuessedNote) {
			t.Errorf("entry %s does not say its parent was guessed", e.ID)
		}
	}
	if guessed == 0 {
		t.Fatal("the fixture has no entry whose parent is guessed")
	}
}

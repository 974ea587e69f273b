package render

import (
	"strings"
	"testing"

	"canopy/sessiontree"
)

// TestStreamedReply: a Claude Code reply written over several lines is
// drawn whole at its first line; each later line keeps its own entry (a
// link to it lands on the turn) with a note saying where its content is,
// and no empty Assistant card.
func TestStreamedReply(t *testing.T) {
	s, err := sessiontree.LoadFile("../testdata/claude/session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	page := renderPage(t, s)
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
		at := strings.Index(page, `id="entry-`+e.ID+`"`)
		if at < 0 {
			t.Errorf("entry %s has no element", e.ID)
			continue
		}
		end := strings.Index(page[at:], "</article>")
		if end < 0 {
			t.Fatalf("entry %s: no end of its article", e.ID)
		}
		if el := page[at : at+end]; !strings.Contains(el, "Continues the reply above") {
			t.Errorf("entry %s does not say where its content is:\n%s", e.ID, el)
		}
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

package htmlpage_test

import (
	"strings"
	"testing"

	"canopy/sessiontree"
)

// Silent turns (NO_REPLY) are marked, and the toolbar hides them from the
// conversation and the tree together.
func TestBrowserSilentTurns(t *testing.T) {
	t.Parallel()
	src := strings.Join([]string{
		`{"type":"session","version":3,"id":"gw","timestamp":"2026-05-05T07:00:00.000Z","cwd":"/srv/gateway"}`,
		`{"type":"message","id":"u1","parentId":null,"timestamp":"2026-05-05T07:00:01.000Z","message":{"role":"user","content":"[heartbeat]","timestamp":0}}`,
		`{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-05-05T07:00:02.000Z","message":{"role":"assistant","content":[{"type":"text","text":"NO_REPLY"}],"stopReason":"stop","timestamp":0}}`,
		`{"type":"message","id":"u2","parentId":"a1","timestamp":"2026-05-05T07:00:03.000Z","message":{"role":"user","content":"What is on today?","timestamp":0}}`,
		`{"type":"message","id":"a2","parentId":"u2","timestamp":"2026-05-05T07:00:04.000Z","message":{"role":"assistant","content":[{"type":"text","text":"Two meetings."}],"stopReason":"stop","timestamp":0}}`,
	}, "\n") + "\n"
	s, err := sessiontree.Load([]byte(src), "silent.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	tb := newTab(t)
	tb.Open(writePage(t, s, t.TempDir(), "silent"))
	if got := eval[string](tb, `document.getElementById("toggle-silent").textContent`); got != "Hide silent turns (1)" {
		t.Fatalf("toggle reads %q", got)
	}
	if !eval[bool](tb, `entryOf("a1").classList.contains("silent") && !entryOf("a2").classList.contains("silent")`) {
		t.Error("the NO_REPLY turn is not marked silent, or another is")
	}
	n0, _ := tb.status()
	tb.Click("hiding silent turns", `document.getElementById("toggle-silent")`)
	n1, _ := tb.status()
	if n1 != n0-1 || eval[bool](tb, `rowOf("a1") !== null`) {
		t.Errorf("tree rows %d -> %d, a1 row still there: %v", n0, n1, eval[bool](tb, `rowOf("a1") !== null`))
	}
	if eval[string](tb, `getComputedStyle(entryOf("a1")).display`) != "none" || eval[string](tb, `getComputedStyle(entryOf("a2")).display`) == "none" {
		t.Error("hiding silent turns did not hide exactly the silent entry")
	}
	if got := eval[string](tb, `document.getElementById("toggle-silent").getAttribute("aria-pressed")`); got != "true" {
		t.Errorf("aria-pressed=%q", got)
	}
	tb.Click("showing silent turns", `document.getElementById("toggle-silent")`)
	if n2, _ := tb.status(); n2 != n0 || eval[string](tb, `getComputedStyle(entryOf("a1")).display`) == "none" {
		t.Errorf("showing again: %d rows, want %d, and the entry shown", n2, n0)
	}
	tb.Clean()
}

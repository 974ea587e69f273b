package htmlpage_test

// A deeply branched session: however deep its branches nest, the tree's
// rows keep most of the sidebar for their text (past a depth, a badge
// shows the level instead of more indentation), and every row keeps its
// true aria-level.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp/kb"

	"canopy/sessiontree"
)

// deepSession writes and loads a Pi session that branches at every one of
// depth levels: each branch point has a short side branch (a leaf) and a
// branch that goes on deeper, so the session has depth+1 leaves. It
// returns the session, its directory and each entry's level in the tree
// (one more below each branch point).
func deepSession(t *testing.T, depth int) (*sessiontree.Session, string, map[string]int) {
	t.Helper()
	start := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	var b strings.Builder
	levels := map[string]int{}
	line := func(v any) {
		j, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(j)
		b.WriteByte('\n')
	}
	line(map[string]any{"type": "session", "version": 3, "id": "deep-tree-session", "timestamp": start.Format(time.RFC3339Nano), "cwd": "/work/deep"})
	n := 0
	msg := func(id, parent, role, text string, level int) {
		n++
		at := start.Add(time.Duration(n) * time.Second)
		var par any
		if parent != "" {
			par = parent
		}
		line(map[string]any{"type": "message", "id": id, "parentId": par, "timestamp": at.Format(time.RFC3339Nano),
			"message": map[string]any{"role": role, "content": []any{map[string]any{"type": "text", "text": text}}, "timestamp": at.UnixMilli()}})
		levels[id] = level
	}
	msg("u0", "", "user", "Walk the parser's error paths one at a time and try each fix on its own branch", 1)
	msg("a0", "u0", "assistant", "Starting with the first error path: the tokenizer's unterminated string", 1)
	parent := "a0"
	for k := 1; k <= depth; k++ {
		side, deeper := fmt.Sprintf("s%d", k), fmt.Sprintf("d%d", k)
		msg(side+"u", parent, "user", fmt.Sprintf("Side question %d: what happens to the recovery state when this fix is reverted?", k), k+1)
		msg(side+"a", side+"u", "assistant", fmt.Sprintf("Reverting fix %d leaves the recovery state as it was, so the earlier tests still pass", k), k+1)
		msg(deeper+"u", parent, "user", fmt.Sprintf("Keep fix %d and go one error path deeper into the parser", k), k+1)
		msg(deeper+"a", deeper+"u", "assistant", fmt.Sprintf("With fix %d kept, the next error path is the one after the nested block", k), k+1)
		parent = deeper + "a"
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "deep.jsonl")
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return load(t, file), dir, levels
}

// treeRow is what the test reads of one drawn row: its level, the room
// its text has (from where the text starts to the row's inner right
// edge), and whether it shows a depth badge.
type treeRow struct {
	ID    string
	Level int
	Room  float64
	Badge bool
}

// treeRows scrolls the tree from top to bottom and reads every row drawn
// on the way, and the sidebar's width.
func (tb *tab) treeRows() ([]treeRow, float64) {
	tb.t.Helper()
	type result struct {
		Rows  []treeRow
		Width float64
	}
	r := evalAsync[result](tb, `(async () => {
  const tree = document.getElementById("tree"), seen = new Map();
  const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  tree.scrollTop = 0;
  await frame();
  for (let top = 0; ; top += tree.clientHeight / 2) {
    tree.scrollTop = top;
    await frame();
    for (const row of document.querySelectorAll("#tree .row")) {
      const box = row.getBoundingClientRect(), text = row.querySelector(".row-label, .row-text").getBoundingClientRect();
      const room = box.right - parseFloat(getComputedStyle(row).paddingRight) - text.left;
      seen.set(row.getAttribute("data-entry-id"), { ID: row.getAttribute("data-entry-id"), Level: +row.getAttribute("aria-level"), Room: room, Badge: row.querySelector(".prefix[data-depth]") !== null });
    }
    if (top >= tree.scrollHeight) break;
  }
  return { Rows: [...seen.values()], Width: document.getElementById("sidebar").getBoundingClientRect().width };
})()`)
	return r.Rows, r.Width
}

func TestBrowserDeepTree(t *testing.T) {
	t.Parallel()
	const depth = 30 // 31 leaves, 31 levels
	s, dir, levels := deepSession(t, depth)
	if got := len(s.Leaves()); got < 26 {
		t.Fatalf("the deep session has %d leaves, want 26 at least", got)
	}
	page := writePage(t, s, dir, "deep")
	cases := []struct {
		name   string
		phone  bool
		narrow int // ArrowLefts on the sidebar's separator (20 px each)
	}{
		{name: "desktop"},
		{name: "narrowed sidebar", narrow: 5},
		{name: "phone drawer", phone: true},
	}
	for _, c := range cases {
		tb := newTab(t)
		if c.phone {
			tb.emulate(390, 844, true)
		}
		tb.Open(page)
		if c.phone {
			tb.Click("opening the drawer", `document.getElementById("menu-button")`)
			tb.settle() // the drawer slides in
		}
		for range c.narrow {
			eval[bool](tb, `(document.getElementById("side-resize").focus(), true)`)
			tb.key("pressing ArrowLeft on the separator", kb.ArrowLeft)
		}
		tb.clickFilter("all")
		tb.settle()
		rows, width := tb.treeRows()
		if len(rows) != len(levels) {
			t.Errorf("%s: %d rows read, want one for each of the %d entries", c.name, len(rows), len(levels))
		}
		badges := 0
		for _, r := range rows {
			want, ok := levels[r.ID]
			if !ok {
				t.Errorf("%s: a row for %q, not an entry of the session", c.name, r.ID)
				continue
			}
			if r.Level != want {
				t.Errorf("%s: the row of %s has aria-level %d, want %d", c.name, r.ID, r.Level, want)
			}
			if r.Room < width/2 {
				t.Errorf("%s: the row of %s (level %d) has %.0f px for its text in a %.0f px sidebar, want half of it at least", c.name, r.ID, r.Level, r.Room, width)
			}
			if r.Badge {
				badges++
			}
		}
		// The session nests deeper than a row has room to indent: the
		// deepest rows show their level in a badge.
		if badges == 0 {
			t.Errorf("%s: no row shows a depth badge in a tree %d levels deep", c.name, depth+1)
		}
		tb.Clean()
	}
}

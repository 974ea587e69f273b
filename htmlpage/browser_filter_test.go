package htmlpage_test

// The filters: their counts on every conformance case, and clicks on rows
// with a filter on.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"canopy/htmlpage"
	"canopy/sessiontree"
)

// ---- Filter counts --------------------------------------------------------

func TestBrowserFilterCounts(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("../testdata/conformance/*/*.jsonl")
	if err != nil || len(files) < 30 {
		t.Fatalf("expected the 30 conformance cases, found %d (%v)", len(files), err)
	}
	shared := os.Getenv("CANOPY_SHARED")
	if shared == "" {
		shared = filepath.Join("..", "..", "shared")
	}
	if large := filepath.Join(shared, "corpus", "large-session.jsonl"); fileExists(large) {
		files = append([]string{large}, files...) // the slowest first
	} else {
		t.Logf("%s not found: checking the conformance cases only", large)
	}
	dir := t.TempDir()
	// Shards, each in its own tab, run side by side (as many as -parallel
	// allows); each tab goes through its pages one after the other.
	const shards = 3
	for k := range shards {
		t.Run(fmt.Sprintf("shard%d", k), func(t *testing.T) {
			t.Parallel()
			tb := newTab(t)
			for i := k; i < len(files); i += shards {
				tb.NewDeadline()
				checkFilterCounts(t, tb, files[i], dir, i)
			}
			tb.Clean()
		})
	}
}

func checkFilterCounts(t *testing.T, tb *tab, file, dir string, i int) {
	t.Helper()
	s := load(t, file)
	want := htmlpage.FilterCounts(s, nil)
	name := filepath.Base(filepath.Dir(file))
	if filepath.Base(file) == "large-session.jsonl" {
		name = "large-session"
	}
	tb.Open(writePage(t, s, dir, fmt.Sprintf("p%02d", i)))
	if n, m := tb.status(); n != want["default"] || m != len(s.Entries) {
		t.Errorf("%s: on load the tree shows %d / %d entries, want %d / %d", name, n, m, want["default"], len(s.Entries))
	}
	for _, mode := range []string{"no-tools", "user-only", "labeled-only", "all", "default"} {
		tb.clickFilter(mode)
		type filterState struct {
			Status  string
			Pressed []string
		}
		st := eval[filterState](tb, `({
  Status: document.getElementById("tree-status").textContent,
  Pressed: [...document.querySelectorAll("button[data-filter]")].filter((b) => b.getAttribute("aria-pressed") === "true").map((b) => b.dataset.filter),
})`)
		if got, want := st.Status, fmt.Sprintf("%d / %d entries", want[mode], len(s.Entries)); strings.TrimSpace(got) != want {
			t.Errorf("%s, filter %s: the tree shows %q, want %q", name, mode, got, want)
		}
		if len(st.Pressed) != 1 || st.Pressed[0] != mode {
			t.Errorf("%s, filter %s: buttons pressed: %v", name, mode, st.Pressed)
		}
	}
}

// TestBrowserClickUnderFilter: with a filter on, a click moves the leaf
// (which the tree always shows) and the tree keeps what it knows of the
// filter while both leaves would show anyway: after each click, the tree
// must count what the filter shows with the new leaf.
func TestBrowserClickUnderFilter(t *testing.T) {
	t.Parallel()
	s, _, _ := branchedSession(t)
	page := writePage(t, s, t.TempDir(), "filterclick")
	tb := newTab(t)
	for _, mode := range []string{"user-only", "no-tools", "default"} {
		tb.Open(page)
		tb.clickFilter(mode)
		leaf, clicks := s.Leaf, 0
		// Rows off the active path first (the leaf moves to another
		// branch), then back on the session's path.
		var rows []*sessiontree.Entry
		onLeafPath := onPath(s, s.Leaf)
		for _, e := range s.Entries {
			if !onLeafPath[e] {
				rows = append(rows, e)
			}
		}
		rows = append(rows, s.Path(s.Leaf)...)
		for _, e := range rows {
			if clicks == 4 {
				break
			}
			next := sessiontree.NewestLeaf(e)
			if next == leaf || !tb.showRow(e.ID) {
				continue
			}
			tb.clickRow(e.ID)
			tb.settle()
			clicks++
			leaf = next
			want := htmlpage.FilterCounts(s, leaf)[mode]
			if n, m := tb.status(); n != want || m != len(s.Entries) {
				t.Errorf("filter %s, after a click on %s (leaf %s): the tree shows %d / %d entries, want %d / %d", mode, e.ID, leaf.ID, n, m, want, len(s.Entries))
			}
			if !eval[bool](tb, `(() => { const r = rowOf(`+jsString(e.ID)+`); return !!r && r.getAttribute("aria-selected") === "true"; })()`) {
				t.Errorf("filter %s: the clicked row %s is not selected", mode, e.ID)
			}
			if !tb.showRow(leaf.ID) {
				t.Errorf("filter %s, after a click on %s: the tree has no row for the new leaf %s", mode, e.ID, leaf.ID)
			}
		}
		if clicks < 2 {
			t.Errorf("filter %s: %d rows could be clicked to move the leaf, want at least 2", mode, clicks)
		}
	}
	tb.Clean()
}

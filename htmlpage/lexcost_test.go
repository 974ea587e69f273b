package htmlpage

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLexCostTooHigh: text made of openers without closers, on which
// chroma's lexers read to the end at every opener, is told; code is not.
func TestLexCostTooHigh(t *testing.T) {
	rep := func(unit string, n int) string { return strings.Repeat(unit, n/len(unit)) }
	lines := func(unit string, lineBytes, total int) string {
		return strings.Repeat(rep(unit, lineBytes)+"\n", total/lineBytes)
	}
	for _, c := range []struct {
		name string
		src  string
		want bool
	}{
		{"Go block comments never closed", rep("/*a", 64<<10), true},
		{"the same over lines", lines("/*a", 1<<10, 64<<10), true},
		{"JSON line comments on one line", rep("//a", 64<<10), true},
		{"Rust raw strings never closed", rep(`r#"`, 64<<10), true},
		{"HTML comments never closed", rep("<!--a", 64<<10), true},
		{"strings of escaped quotes", rep(`"a\`, 64<<10), true},
		{"small: within the slack", rep("/*a", 256), false},
		{"comments that close", rep("/* a */ x := 1\n", 256<<10), false},
		{"strings that close", rep(`s := "a \"b\" c"`+"\n", 256<<10), false},
		{"line comments with URLs", rep("x := 1 // see https://a.example and http://b.example\n", 256<<10), false},
		{"prose with apostrophes", rep("// it's what they'd've done, isn't it\n", 256<<10), false},
		{"empty", "", false},
	} {
		if got := lexCostTooHigh(c.src); got != c.want {
			t.Errorf("%s (%d bytes): lexCostTooHigh = %v, want %v", c.name, len(c.src), got, c.want)
		}
	}
}

// TestLexCostOnCode: no source file of this repository is told, so the
// pages of sessions that read them stay highlighted.
func TestLexCostOnCode(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "*", "*.go"))
	more, _ := filepath.Glob(filepath.Join("..", "assets", "page", "*.js"))
	files = append(files, more...)
	if len(files) < 20 {
		t.Fatalf("found only %d source files", len(files))
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if lexCostTooHigh(string(b)) {
			t.Errorf("%s: told as too costly to highlight", f)
		}
	}
}

// TestHighlightGivesUpOnLexCost: such text is shown plain, with the note,
// in a fraction of a second (60 KB of it took a minute before).
func TestHighlightGivesUpOnLexCost(t *testing.T) {
	h := newHighlighter()
	src := strings.Repeat(strings.Repeat("/*a", 1000)+"\n", 20) // lines within the bounds
	html, note := h.code(src, "go", "")
	if !strings.Contains(note, "would take too long") {
		t.Errorf("note = %q", note)
	}
	if strings.Contains(string(html), "<span") || !strings.Contains(string(html), "/*a/*a") {
		t.Errorf("not the plain text: %.200s", html)
	}
}

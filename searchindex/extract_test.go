package searchindex

import (
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"canopy/htmlpage"
	"canopy/sessiontree"
)

// The text Extract takes from what the page gathered as it decoded the
// entries is the text it decodes itself, on every session of the test
// data (pi, Claude Code, Codex, the hostile ones).
func TestExtractGathered(t *testing.T) {
	files, _ := filepath.Glob("../testdata/*/*.jsonl")
	more, _ := filepath.Glob("../testdata/*/*/*.jsonl")
	files = append(files, more...)
	if len(files) < 20 {
		t.Fatalf("%d test sessions: the glob is wrong", len(files))
	}
	r, err := htmlpage.New()
	if err != nil {
		t.Fatal(err)
	}
	gathered := 0
	for _, f := range files {
		s, err := sessiontree.LoadFile(f)
		if err != nil {
			continue // refused: no page
		}
		g := NewGatherer(s)
		if err := r.Render(io.Discard, s, htmlpage.Options{Decoded: g.Add}); err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		for i := range g.got {
			if g.got[i].ok {
				gathered++
			}
		}
		want := Extract(s, s.Leaf, nil)
		if got := Extract(s, s.Leaf, g); !slices.Equal(got, want) {
			t.Errorf("%s: the gathered text differs from the decoded", f)
		}
		s.Close()
	}
	if gathered == 0 {
		t.Error("the page gathered no entry's text")
	}
}

// A gathered text is used where the limit left of the session's would
// make the same text of the entry, and only there: it is made with
// MaxEntryText, and the session's limit may cut it shorter.
func TestGatheredTextUnderLimit(t *testing.T) {
	pieces := []string{"héllo wörld", strings.Repeat("é", MaxEntryText/2), "tail", strings.Repeat("x", MaxEntryText)}
	for n := 1; n <= len(pieces); n++ {
		var full textBuilder
		full.reset(MaxEntryText)
		for _, p := range pieces[:n] {
			full.add(p)
		}
		g := gathered{text: full.String(), cut: full.cut, ok: true}
		for _, room := range []int{0, 1, 5, 11, 12, 13, 20, MaxEntryText/2 + 14, MaxEntryText - 3, MaxEntryText - 1, MaxEntryText, MaxEntryText + 9, MaxSessionText} {
			var b textBuilder
			b.reset(min(MaxEntryText, room))
			for _, p := range pieces[:n] {
				b.add(p)
			}
			usable := !(len(g.text) > room || g.cut && room < MaxEntryText)
			if usable && g.text != b.String() {
				t.Errorf("%d pieces, room %d: the gathered text (%d bytes) is used, but the limit makes %d bytes", n, room, len(g.text), len(b.String()))
			}
		}
	}
}

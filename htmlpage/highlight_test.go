package htmlpage

import (
	"fmt"
	"testing"
)

// The cache of highlighted texts is bounded: a long-lived Renderer (one
// archive run renders many sessions) does not keep every block it drew.
func TestHighlightCacheIsBounded(t *testing.T) {
	h := newHighlighter()
	h.maxDone = 10 << 10
	entries := func() int {
		n := 0
		h.done.Range(func(_, _ any) bool { n++; return true })
		return n
	}
	most := 0
	for i := range 2000 {
		src := fmt.Sprintf("func f%d() int { return %d }\n", i, i)
		h.code(src, "go", "")
		most = max(most, entries())
		if h.doneBytes.Load() > h.maxDone {
			t.Fatalf("cache holds %d bytes, bound %d", h.doneBytes.Load(), h.maxDone)
		}
	}
	if most >= 2000 || most == 0 {
		t.Errorf("cache peaked at %d entries of 2000 distinct texts: not bounded, or not caching", most)
	}
	// Still a cache: the same text again is the same HTML, from the cache.
	a, _ := h.code("x := 1\n", "go", "")
	n := entries()
	if b, _ := h.code("x := 1\n", "go", ""); a != b || entries() != n {
		t.Error("a repeated text was highlighted again")
	}
}

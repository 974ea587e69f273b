package htmlpage

import (
	"bytes"
	"strings"
	"testing"

	"canopy/sessiontree"
)

// TestSlotInSessionText: a session whose name and working directory are the
// placeholders the page's big values are written in place of still gets
// its tree and its source where they belong, and its text as it is.
func TestSlotInSessionText(t *testing.T) {
	src := `{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"` + string(sourceSlot) + `"}
{"type":"session_info","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:01Z","name":"` + string(treeSlot) + `"}
{"type":"message","id":"b","parentId":"a","timestamp":"2026-01-01T00:00:02Z","message":{"role":"user","content":"hi"}}
`
	s, err := sessiontree.Load([]byte(src), "slots.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	var page bytes.Buffer
	if err := r.Render(&page, s, Options{}); err != nil {
		t.Fatal(err)
	}
	h := page.String()
	for _, want := range []string{`id="tree-data">{"id":`, `id="source-data">"`, "<title>" + string(treeSlot) + "</title>", string(sourceSlot)} {
		if !strings.Contains(h, want) {
			t.Errorf("the page has no %q", want)
		}
	}
}

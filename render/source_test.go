package render

import (
	"bytes"
	"strings"
	"testing"

	"canopy/sessiontree"
)

// TestBlocks: what is written in pieces of any size comes out whole (as
// a JSON string: what a spool holds is base64 already).
func TestBlocks(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 64 << 10, 64<<10 + 1, 3 << 20, spoolMemory + 1, 9 << 20} {
		data := make([]byte, n)
		for i := range data {
			data[i] = byte(i * 7)
		}
		var b blocks
		sp := new(spool)
		for p := data; len(p) > 0; {
			k := min(len(p), 1+len(p)%5000)
			b.Write(p[:k])
			sp.Write(p[:k])
			p = p[k:]
		}
		want := `"` + string(data) + `"`
		var out bytes.Buffer
		if err := (&spool{mem: b, n: n}).writeJSON(&out); err != nil {
			t.Fatal(err)
		}
		if out.String() != want {
			t.Errorf("%d bytes: got %d bytes of JSON, want %d", n, out.Len(), len(want))
		}
		// Past spoolMemory, a spool keeps its bytes in a file: the same
		// JSON comes out, and Close leaves no file behind.
		out.Reset()
		if err := sp.writeJSON(&out); err != nil {
			t.Fatal(err)
		}
		if out.String() != want {
			t.Errorf("%d bytes spooled: got %d bytes of JSON, want %d", n, out.Len(), len(want))
		}
		if (sp.file != nil) != (n > spoolMemory) {
			t.Errorf("%d bytes: in a file %v", n, sp.file != nil)
		}
		sp.Close()
		if held := func() (c int) {
			for _, blk := range b {
				c += cap(blk)
			}
			return c
		}(); held > n+1<<20 {
			t.Errorf("%d bytes held in %d", n, held)
		}
	}
}

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

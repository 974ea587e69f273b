package render

import (
	"bytes"
	"path/filepath"
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

// TestStartSource: a page rendered with its file compressed ahead
// (StartSource, begun while the session loads) is byte for byte the page
// rendered without; a Source begun for another session is not used.
func TestStartSource(t *testing.T) {
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	render := func(t *testing.T, s *sessiontree.Session, opts Options) []byte {
		t.Helper()
		var page bytes.Buffer
		if err := r.Render(&page, s, opts); err != nil {
			t.Fatal(err)
		}
		return page.Bytes()
	}
	load := func(t *testing.T, path string) (*sessiontree.Session, *Source) {
		t.Helper()
		var src *Source
		s, err := sessiontree.LoadFileWith(path, sessiontree.LoadOptions{Read: func(s *sessiontree.Session) {
			src = StartSource(s)
		}})
		if err != nil {
			src.Close()
			t.Fatal(err)
		}
		t.Cleanup(func() {
			src.Close()
			s.Close()
		})
		return s, src
	}
	demo, kinds := filepath.Join("..", "testdata", "demo", "demo.jsonl"), filepath.Join("..", "testdata", "render", "kinds.jsonl")
	for _, path := range []string{demo, kinds} { // kinds.jsonl holds pictures
		t.Run(filepath.Base(path), func(t *testing.T) {
			s, src := load(t, path)
			want := render(t, s, Options{})
			if got := render(t, s, Options{Source: src}); !bytes.Equal(got, want) {
				t.Errorf("with the Source begun ahead: %d bytes, not the %d rendered without", len(got), len(want))
			}
			if got := render(t, s, Options{Source: src, NoSource: true}); !bytes.Equal(got, render(t, s, Options{NoSource: true})) {
				t.Error("with NoSource, the Source changed the page")
			}
		})
	}
	t.Run("another session's", func(t *testing.T) {
		s, _ := load(t, demo)
		_, other := load(t, kinds)
		if got, want := render(t, s, Options{Source: other}), render(t, s, Options{}); !bytes.Equal(got, want) {
			t.Errorf("with another session's Source: %d bytes, not the %d rendered without", len(got), len(want))
		}
	})
}

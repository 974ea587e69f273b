package htmlpage

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"canopy/internal/pagetest"
	"canopy/sessiontree"
)

// branchySession writes a session with a main path of three entries and,
// off it, a branch of n entries whose text is said (a "<" and an "&" in
// each): n past writeBatch makes several store chunks.
func branchySession(t *testing.T, n int, said string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(`{"type":"session","version":3,"id":"branchy","timestamp":"2026-03-01T10:00:00.000Z","cwd":"/w"}` + "\n")
	line := func(id, parent, text string) {
		p := "null"
		if parent != "" {
			p = strconv.Quote(parent)
		}
		fmt.Fprintf(&b, `{"type":"message","id":%q,"parentId":%s,"timestamp":"2026-03-01T10:00:01.000Z","message":{"role":"user","content":[{"type":"text","text":%q}]}}`+"\n", id, p, text)
	}
	line("root", "", "the root")
	parent := "root"
	for i := range n {
		id := fmt.Sprintf("b%d", i)
		line(id, parent, fmt.Sprintf("%s %d <b> & %s", said, i, strings.Repeat("word ", i%50)))
		parent = id
	}
	line("m1", "root", "main one")
	line("m2", "m1", "main two")
	file := filepath.Join(t.TempDir(), "branchy.jsonl")
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// TestStoreCompressed: each store chunk's text unpacks to exactly the HTML
// of the entries its data-i lists, in order (the HTML that was in the
// page when the store was not compressed), every entry off the path is in
// one chunk, and the page is the same bytes render after render.
func TestStoreCompressed(t *testing.T) {
	for _, tt := range []struct {
		name, file string
		chunks     int // at least
	}{
		{"kinds", filepath.Join("..", "testdata", "render", "kinds.jsonl"), 1},
		{"agents", "", 1}, // with its subagents: two of them are entries of the store
		{"branchy", branchySession(t, 3*writeBatch+7, "branch text"), 4},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var s *sessiontree.Session
			if tt.file == "" {
				s = loadAgents(t)
			} else {
				var err error
				if s, err = sessiontree.LoadFile(tt.file); err != nil {
					t.Fatal(err)
				}
				defer s.Close()
			}
			r, err := New()
			if err != nil {
				t.Fatal(err)
			}
			var first, second bytes.Buffer
			if err := r.Render(&first, s, Options{}); err != nil {
				t.Fatal(err)
			}
			if err := r.Render(&second, s, Options{}); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(first.Bytes(), second.Bytes()) {
				t.Error("two renders of the same session differ")
			}
			checkStoreChunks(t, r, s, first.String(), tt.chunks)
		})
	}
}

// checkStoreChunks checks the store of page, rendered from s, against the
// entries' HTML rendered one by one.
func checkStoreChunks(t *testing.T, r *Renderer, s *sessiontree.Session, page string, minChunks int) {
	t.Helper()
	html := make([]string, len(s.Entries))
	r.gather(s, html)
	order := treeOrder(s)
	onPath := map[int]bool{}
	for _, e := range s.Path(s.Leaf) {
		onPath[e.Index] = true
	}
	var want []int // positions of the entries off the path, with HTML of their own
	for pos, i := range order {
		if !onPath[i] && html[i] != "" {
			want = append(want, pos)
		}
	}
	store := page[strings.Index(page, `<div id="store" hidden>`):strings.Index(page, `<main id="conversation"`)]
	chunks := pagetest.StoreChunks(store)
	if n := strings.Count(store, "<script"); n != len(chunks) {
		t.Fatalf("%d store chunks, %d of them as writeChunks writes them", n, len(chunks))
	}
	var got []int
	for _, c := range chunks {
		var wantHTML strings.Builder
		for _, f := range strings.Fields(c.Positions) {
			pos, _ := strconv.Atoi(f)
			got = append(got, pos)
			wantHTML.WriteString(html[order[pos]])
		}
		if h := pagetest.Unzip(t, c.Text); h != wantHTML.String() {
			t.Errorf("a store chunk (positions %.40s) unpacks to\n%.300s\nwant\n%.300s", c.Positions, h, wantHTML.String())
		}
	}
	if len(chunks) < minChunks {
		t.Errorf("%d store chunks, want at least %d", len(chunks), minChunks)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("the store holds positions\n%v\nwant\n%v", got, want)
	}
}

// failAfter fails every write once n bytes have been written.
type failAfter struct{ n int }

var errFull = errors.New("full")

func (f *failAfter) Write(p []byte) (int, error) {
	if f.n < len(p) {
		return 0, errFull
	}
	f.n -= len(p)
	return len(p), nil
}

// TestStoreWriteError: a write of the store that fails is the error of
// writeEntries, at any point (the zipper's goroutine stops; nothing waits
// for it forever).
func TestStoreWriteError(t *testing.T) {
	s, err := sessiontree.LoadFile(branchySession(t, 3*writeBatch, "x"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	order := treeOrder(s)
	ec := newEntryContext(s, order)
	_, stored, storedPos := bodyEntries(ec, order, s.Path(s.Leaf))
	var all bytes.Buffer
	if err := r.writeEntries(&all, ec, stored, storedPos, nil); err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{0, 10, all.Len() / 3, all.Len() - 1} {
		if err := r.writeEntries(&failAfter{n}, newEntryContext(s, order), stored, storedPos, nil); !errors.Is(err, errFull) {
			t.Errorf("failing after %d of %d bytes: %v, want %v", n, all.Len(), err, errFull)
		}
	}
}

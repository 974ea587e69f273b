package htmlpage

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"canopy/internal/pagetest"
	"canopy/sessiontree"
)

// TestPageChunks checks the layout the page's script relies on: the
// store's <script type="text/x-canopy" data-i data-z> chunks before the
// conversation, whose <noscript data-at> chunks hold the path's entries,
// writeBatch at most each, every entry one <article> that "<article " starts.
func TestPageChunks(t *testing.T) {
	// Five entries with a 700 KB picture each: chunks of about 1 MB.
	var big strings.Builder
	big.WriteString(`{"type":"session","version":3,"id":"big","timestamp":"2026-03-01T10:00:00.000Z","cwd":"/w"}` + "\n")
	pic := strings.Repeat("QUJD", 700<<10/4)
	parent := "null"
	for i := range 5 {
		id := fmt.Sprintf(`"u%d"`, i)
		big.WriteString(`{"type":"message","id":` + id + `,"parentId":` + parent + `,"timestamp":"2026-03-01T10:00:01.000Z","message":{"role":"user","content":[{"type":"image","data":"` + pic + `","mimeType":"image/png"}]}}` + "\n")
		parent = id
	}
	bigFile := filepath.Join(t.TempDir(), "big.jsonl")
	if err := os.WriteFile(bigFile, []byte(big.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		file   string
		chunks int
	}{
		{filepath.Join("..", "testdata", "render", "kinds.jsonl"), 1},
		{bigFile, 5},
	} {
		t.Run(filepath.Base(tt.file), func(t *testing.T) { testPageChunks(t, tt.file, tt.chunks) })
	}
}

func testPageChunks(t *testing.T, file string, wantChunks int) {
	s, err := sessiontree.LoadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := r.Render(&buf, s, Options{}); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	script := strings.Index(page, `<script id="page-script">`)
	store := strings.Index(page, `<div id="store" hidden>`)
	conv := strings.Index(page, `<main id="conversation"`)
	end := strings.Index(page, `</main>`)
	if !(0 < script && script < store && store < conv && conv < end) {
		t.Fatalf("page order: script %d, store %d, conversation %d, end %d", script, store, conv, end)
	}
	// Entries on the path: the non-embedded ones, in order.
	ec := newEntryContext(s, treeOrder(s))
	var want []string
	for _, e := range s.Path(s.Leaf) {
		if ec.rows[e.Index].flags&flagEmbedded == 0 {
			want = append(want, `id="entry-`+e.ID+`"`)
		}
	}
	chunks := regexp.MustCompile(`(?s)<noscript data-at="([0-9]+)">(.*?)</noscript>`).FindAllStringSubmatch(page[conv:end], -1)
	var got []string
	for _, c := range chunks {
		if c[1] != strconv.Itoa(len(got)) {
			t.Errorf("a chunk starts at %s, want %d", c[1], len(got))
		}
		arts := strings.Split(c[2], "<article ")
		if arts[0] != "" {
			t.Errorf("a chunk starts with %q, not an <article>", arts[0])
		}
		if len(arts)-1 > writeBatch {
			t.Errorf("a chunk holds %d entries, more than %d", len(arts)-1, writeBatch)
		}
		for _, a := range arts[1:] {
			got = append(got, regexp.MustCompile(`id="entry-[^"]*"`).FindString(a))
		}
	}
	if len(chunks) != wantChunks {
		t.Errorf("%d chunks in the conversation, want %d", len(chunks), wantChunks)
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("conversation chunks hold\n%v\nwant\n%v", got, want)
	}
	// The store: positions listed match the entries it holds (unpacked:
	// see TestStoreCompressed).
	for _, c := range pagetest.StoreChunks(page[store:conv]) {
		if n, arts := len(strings.Fields(c.Positions)), strings.Count(pagetest.Unzip(t, c.Text), "<article "); n != arts {
			t.Errorf("a store chunk lists %d positions for %d entries", n, arts)
		}
	}
}

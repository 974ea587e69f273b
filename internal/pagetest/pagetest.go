// Package pagetest reads canopy's pages the way tests need them.
package pagetest

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"io"
	"regexp"
	"strings"
	"testing"
)

// storeChunk is one of a page's store chunks (htmlpage's writeChunks): the
// positions of its entries and their HTML, gzip-compressed, in base64.
var storeChunk = regexp.MustCompile(`<script type="text/x-canopy" data-i="([0-9 ]*)" data-z>([^<]*)</script>`)

// Chunk is one store chunk as the page holds it.
type Chunk struct {
	Positions string // the entries' places in tree order, space-separated
	Text      string // their HTML, gzip-compressed, in base64
}

// StoreChunks are the store chunks in page (or in a part of one), in
// order.
func StoreChunks(page string) []Chunk {
	var out []Chunk
	for _, m := range storeChunk.FindAllStringSubmatch(page, -1) {
		out = append(out, Chunk{Positions: m[1], Text: m[2]})
	}
	return out
}

// Unzip is a store chunk's HTML: its text unpacked as the page's script
// unpacks it, checking that it is one gzip stream without a name, a
// comment, extra fields or a time (the same page every time).
func Unzip(tb testing.TB, text string) string {
	tb.Helper()
	z, err := base64.StdEncoding.DecodeString(text)
	if err != nil {
		tb.Fatalf("a store chunk is not base64: %v", err)
	}
	br := bytes.NewReader(z) // read no further than the reader asks
	r, err := gzip.NewReader(br)
	if err != nil {
		tb.Fatalf("a store chunk is not gzip: %v", err)
	}
	r.Multistream(false)
	html, err := io.ReadAll(r)
	if err != nil {
		tb.Fatalf("a store chunk does not unpack: %v", err)
	}
	if h := r.Header; h.Name != "" || h.Comment != "" || h.Extra != nil || !h.ModTime.IsZero() { // MTIME 0 reads as the zero time
		tb.Errorf("a store chunk's gzip header has a name, comment, extra or time: %+v", h)
	}
	if br.Len() > 0 {
		tb.Errorf("a store chunk has %d bytes after its gzip stream", br.Len())
	}
	return string(html)
}

// InflateStore is page with its store chunks unpacked in place (Unzip)
// and their data-z gone, as the page's script leaves them: the entries
// off the session's active path are compressed in the page, so a test
// that looks for a text in a page, or makes sure it is not there (a
// secret, a cut tool output), looks in InflateStore(page) to see them too.
func InflateStore(tb testing.TB, page string) string {
	tb.Helper()
	// Every store chunk, or the test would look past the ones it missed
	// (session text cannot write this: its "<" is escaped).
	if n, m := strings.Count(page, `<script type="text/x-canopy"`), len(storeChunk.FindAllStringIndex(page, -1)); n != m {
		tb.Fatalf("the page has %d store chunks, %d of them as pagetest reads them", n, m)
	}
	return storeChunk.ReplaceAllStringFunc(page, func(m string) string {
		sm := storeChunk.FindStringSubmatch(m)
		return `<script type="text/x-canopy" data-i="` + sm[1] + `">` + Unzip(tb, sm[2]) + `</script>`
	})
}

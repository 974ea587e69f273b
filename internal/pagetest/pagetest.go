// Package pagetest reads canopy's pages the way tests need them.
package pagetest

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"io"
	"regexp"
	"testing"
)

// storeChunk is one of a page's store chunks (render's writeChunks): the
// positions of its entries and their HTML, gzip-compressed, in base64.
var storeChunk = regexp.MustCompile(`<script type="text/x-canopy" data-i="([0-9 ]*)" data-z>([^<]*)</script>`)

// InflateStore is page with its store chunks unpacked in place, as the
// page's script unpacks them: the entries off the session's active path
// are compressed in the page, so a test that looks for a text in a page,
// or makes sure it is not there (a secret, a cut tool output), looks in
// InflateStore(page) to see them too.
func InflateStore(tb testing.TB, page string) string {
	tb.Helper()
	return storeChunk.ReplaceAllStringFunc(page, func(m string) string {
		sm := storeChunk.FindStringSubmatch(m)
		z, err := base64.StdEncoding.DecodeString(sm[2])
		if err != nil {
			tb.Fatalf("a store chunk is not base64: %v", err)
		}
		r, err := gzip.NewReader(bytes.NewReader(z))
		if err != nil {
			tb.Fatalf("a store chunk is not gzip: %v", err)
		}
		html, err := io.ReadAll(r)
		if err != nil {
			tb.Fatalf("a store chunk does not unpack: %v", err)
		}
		return `<script type="text/x-canopy" data-i="` + sm[1] + `">` + string(html) + `</script>`
	})
}

// The whole way to a rendered page: no secret of the corpus in it.

package redact

import (
	"bytes"
	"html"
	"strings"
	"testing"

	"canopy/htmlpage"
	"canopy/internal/pagetest"
	"canopy/sessiontree"
)

// TestNoSecretInPage goes the whole way: the corpus session, with a fake
// secret of every kind in every field, is redacted, loaded and rendered as
// a page; no secret may be in the page, escaped or not (the embedded
// download is the redacted bytes, checked by TestSessionCorpus).
func TestNoSecretInPage(t *testing.T) {
	r := newRedactor(t)
	ren, err := htmlpage.New()
	if err != nil {
		t.Fatal(err)
	}
	for _, seed := range []uint64{1, 2, 3} {
		data, planted, _, _ := buildCorpusSession(t, seed)
		red, _ := r.Redact(data)
		s, err := sessiontree.Load(red, "corpus.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		var page bytes.Buffer
		if err := ren.Render(&page, s, htmlpage.Options{}); err != nil {
			t.Fatal(err)
		}
		out := pagetest.InflateStore(t, page.String()) // the entries off the path too
		kinds := map[string]bool{}
		for _, p := range planted {
			kinds[p.Kind] = true
			for _, form := range []string{p.Secret, html.EscapeString(p.Secret)} {
				if strings.Contains(out, form) {
					t.Errorf("seed %d: a %s secret survived in the page", seed, p.Kind)
				}
			}
		}
		if len(kinds) < 25 {
			t.Errorf("the corpus has %d kinds, want at least 25", len(kinds))
		}
	}
}

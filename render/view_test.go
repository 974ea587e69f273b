package render

import (
	"bytes"
	"html/template"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"canopy/sessiontree"
)

func TestImageSrc(t *testing.T) {
	tests := []struct {
		name, mime, data string
		want             template.HTML
	}{
		{"png, + written as it is", "image/png", "ab+/cd==", `<img class="image" src="data:image/png;base64,ab+/cd==" alt="image">`},
		{"type lower-cased", "IMAGE/JPEG", "AAAA", `<img class="image" src="data:image/jpeg;base64,AAAA" alt="image">`},
		{"line breaks kept", "image/gif", "AAAA\nAAAA", "<img class=\"image\" src=\"data:image/gif;base64,AAAA\nAAAA\" alt=\"image\">"},
		{"svg refused", "image/svg+xml", "AAAA", ""},
		{"quote refused", "image/png", `AA"A`, ""},
		{"markup refused", "image/png", `AA<b>`, ""},
		{"not base64", "image/png", "AAA", ""},
		{"empty type", "", "AAAA", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := imageSrc(tt.mime, tt.data); got != tt.want {
				t.Errorf("imageSrc(%q, %q) = %q, want %q", tt.mime, tt.data, got, tt.want)
			}
		})
	}
}

func TestTextEscape(t *testing.T) {
	tests := []struct{ in, want string }{
		{`a "b" 'c'`, `a "b" 'c'`},
		{"<script>&amp;</script>", "&lt;script&gt;&amp;amp;&lt;/script&gt;"},
		{"nul\x00", "nul\uFFFD"},
		{"1+1", "1+1"},
	}
	for _, tt := range tests {
		if got := textEscape(tt.in); got != tt.want {
			t.Errorf("textEscape(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestRawSafe(t *testing.T) {
	tests := []struct{ in, want string }{
		{"<article>plain</article>", "<article>plain</article>"},
		{"a</noscript>b", "a&lt;/noscript>b"},
		{"a</NoScRiPt b", "a&lt;/NoScRiPt b"},
		{"a</script>b</SCRIPT", "a&lt;/script>b&lt;/SCRIPT"},
		{"<!-- x -->", "&lt;!-- x -->"},
		{"</", "</"},
		{"<", "<"},
		{"</scrip", "</scrip"},
		{"<!-", "<!-"},
	}
	for _, tt := range tests {
		if got := rawSafe(tt.in); got != tt.want {
			t.Errorf("rawSafe(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestPageChunks checks the layout the page's script relies on: the
// store's <script type="text/x-canopy" data-i> chunks before the
// conversation, whose <noscript> chunks hold the path's entries, writeBatch
// at most each, every entry one <article> that "<article " starts.
func TestPageChunks(t *testing.T) {
	s, err := sessiontree.LoadFile(filepath.Join("..", "testdata", "render", "kinds.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
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
	if !strings.Contains(page[conv:end], `data-chunk="512"`) {
		t.Errorf("#conversation has no data-chunk=\"512\"")
	}
	// Entries on the path: the non-embedded ones, in order.
	ec := scan(s)
	var want []string
	for _, e := range s.Path(s.Leaf) {
		if ec.rows[e.Index].flags&flagEmbedded == 0 {
			want = append(want, `id="entry-`+e.ID+`"`)
		}
	}
	chunks := regexp.MustCompile(`(?s)<noscript>(.*?)</noscript>`).FindAllStringSubmatch(page[conv:end], -1)
	var got []string
	for _, c := range chunks {
		arts := strings.Split(c[1], "<article ")
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
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("conversation chunks hold\n%v\nwant\n%v", got, want)
	}
	// The store: positions listed match the entries it holds.
	for _, m := range regexp.MustCompile(`(?s)<script type="text/x-canopy" data-i="([0-9 ]*)">(.*?)</script>`).FindAllStringSubmatch(page[store:conv], -1) {
		if n, arts := len(strings.Fields(m[1])), strings.Count(m[2], "<article "); n != arts {
			t.Errorf("a store chunk lists %d positions for %d entries", n, arts)
		}
	}
}

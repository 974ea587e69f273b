package templates

import (
	"bytes"
	"html/template"
	"strings"
	"testing"
)

// TestHeadShared: the <head> is written in head.html alone, and both the
// page and the index execute it with their data, escaped.
func TestHeadShared(t *testing.T) {
	for _, name := range []string{"page.html", "index.html"} {
		src, err := FS.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if s := string(src); strings.Contains(s, "<meta") || strings.Contains(s, "<head>") || !strings.Contains(s, `{{template "head" .}}`) {
			t.Errorf("%s writes a <head> of its own instead of using head.html's", name)
		}
		set, err := Parse(nil, name)
		if err != nil {
			t.Fatalf("Parse(%s): %v", name, err)
		}
		var b bytes.Buffer
		d := struct {
			CSP, Version, Title string
			CSS                 template.CSS
		}{"default-src 'none'", "9.9", "<script>x</script>", "a{}"}
		if err := set.ExecuteTemplate(&b, "head", d); err != nil {
			t.Fatalf("%s: executing head: %v", name, err)
		}
		out := b.String()
		for _, want := range []string{`<title>&lt;script&gt;x&lt;/script&gt;</title>`, `content="canopy 9.9"`, `<style>a{}</style>`, `content="default-src &#39;none&#39;"`} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: head lacks %s:\n%s", name, want, out)
			}
		}
	}
}

// TestParseMinifies: the minifier given to Parse sees every file, and a
// missing file is an error naming it.
func TestParseMinifies(t *testing.T) {
	var seen []string
	if _, err := Parse(func(name, text string) (string, error) { seen = append(seen, name); return text, nil }, "page.html", "entry.html"); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(seen, ","); got != "page.html,entry.html,head.html" {
		t.Errorf("minified %s", got)
	}
	if _, err := Parse(nil, "nope.html"); err == nil || !strings.Contains(err.Error(), "nope.html") {
		t.Errorf("Parse of a missing file: %v", err)
	}
}

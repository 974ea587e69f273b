package mdpage

import (
	"bytes"
	"fmt"
	"html"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	gmhtml "github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
)

// github converts Markdown as GitHub does before it sanitizes: GFM, with
// raw HTML passed through. What the export writes must be safe even so.
func github() goldmark.Markdown {
	return goldmark.New(
		goldmark.WithExtensions(extension.GFM),
		goldmark.WithRendererOptions(gmhtml.WithUnsafe()),
	)
}

func githubHTML(md string) string {
	var buf bytes.Buffer
	if err := github().Convert([]byte(md), &buf); err != nil {
		panic(err)
	}
	return buf.String()
}

// Tags Markdown itself makes (goldmark with GFM), and ours.
var allowedTags = map[string]bool{
	"p": true, "br": true, "hr": true, "h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true,
	"ul": true, "ol": true, "li": true, "blockquote": true, "pre": true, "code": true, "em": true, "strong": true,
	"del": true, "a": true, "table": true, "thead": true, "tbody": true, "tr": true, "th": true, "td": true,
	"input":   true, // a task's checkbox
	"details": true, "summary": true,
}

// Attributes Markdown itself writes.
var allowedAttrs = map[string]bool{
	"href": true, "title": true, "align": true, "class": true, "start": true, "checked": true, "disabled": true, "type": true,
}

var (
	tagRe   = regexp.MustCompile(`^<(/?)([A-Za-z][A-Za-z0-9-]*)`)
	attrRe  = regexp.MustCompile(`\s([^\s=/>]+)(?:="([^"]*)")?`)
	codeRe  = regexp.MustCompile(`(?s)<pre><code[^>]*>(.*?)</code></pre>`)
	alignRe = regexp.MustCompile(`^text-align:(left|right|center)$`)
)

// htmlProblems lists what in the HTML of an export could not have come
// from Markdown alone: a tag Markdown does not make, a comment or other
// markup, an event handler, a link that is not http, https or mailto,
// an image, <details> that do not match the ones the export wrote.
func htmlProblems(md, out string) []string {
	var problems []string
	opened, closed := 0, 0
	for i := 0; i < len(out); i++ {
		if out[i] != '<' {
			continue
		}
		rest := out[i:]
		m := tagRe.FindStringSubmatch(rest)
		if m == nil {
			problems = append(problems, fmt.Sprintf("markup %q", head(rest, 40)))
			continue
		}
		name := strings.ToLower(m[2])
		if !allowedTags[name] {
			problems = append(problems, fmt.Sprintf("tag %q", head(rest, 60)))
			continue
		}
		end := strings.IndexByte(rest, '>')
		if end < 0 {
			problems = append(problems, fmt.Sprintf("unclosed tag %q", head(rest, 60)))
			continue
		}
		tag := rest[len(m[0]):end]
		for _, a := range attrRe.FindAllStringSubmatch(tag, -1) {
			an := strings.ToLower(a[1])
			if an == "style" && alignRe.MatchString(a[2]) {
				continue // a table's alignment
			}
			if !allowedAttrs[an] {
				problems = append(problems, fmt.Sprintf("attribute %q in %q", an, head(rest, 80)))
			}
			if an == "href" {
				v := strings.ToLower(strings.TrimSpace(html.UnescapeString(a[2])))
				if !strings.HasPrefix(v, "http://") && !strings.HasPrefix(v, "https://") && !strings.HasPrefix(v, "mailto:") {
					problems = append(problems, fmt.Sprintf("link %q", v))
				}
			}
		}
		if name == "details" {
			if m[1] == "" {
				opened++
			} else {
				closed++
			}
		}
	}
	ours := ourDetails(md)
	if opened != ours || closed != ours {
		problems = append(problems, fmt.Sprintf("<details>: %d opened, %d closed, %d written", opened, closed, ours))
	}
	return problems
}

// ourDetails counts the <details> the export wrote: HTML blocks that are
// one line <details><summary>…</summary> (mdProblems reports any other).
func ourDetails(md string) int {
	n := 0
	src := []byte(md)
	doc := github().Parser().Parse(text.NewReader(src))
	_ = ast.Walk(doc, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if b, ok := c.(*ast.HTMLBlock); ok && entering && b.Lines().Len() == 1 {
			seg := b.Lines().At(0)
			if summaryRe.Match(seg.Value(src)) {
				n++
			}
		}
		return ast.WalkContinue, nil
	})
	return n
}

// summaryRe is the one line of HTML the export writes before a fence.
var summaryRe = regexp.MustCompile(`^<details><summary>[^<>]*</summary>\n?$`)

// mdProblems parses the export as GitHub does and lists what it finds
// that the export should never make: raw HTML but our <details> lines,
// images, links that are not http, https or mailto.
func mdProblems(md string) []string {
	var problems []string
	src := []byte(md)
	doc := github().Parser().Parse(text.NewReader(src))
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.RawHTML:
			var sb strings.Builder
			for i := 0; i < n.Segments.Len(); i++ {
				seg := n.Segments.At(i)
				sb.Write(seg.Value(src))
			}
			problems = append(problems, fmt.Sprintf("inline HTML %q", head(sb.String(), 60)))
		case *ast.HTMLBlock:
			var sb strings.Builder
			for i := 0; i < n.Lines().Len(); i++ {
				seg := n.Lines().At(i)
				sb.Write(seg.Value(src))
			}
			if s := sb.String(); !summaryRe.MatchString(s) && strings.TrimSpace(s) != "</details>" {
				problems = append(problems, fmt.Sprintf("HTML block %q", head(s, 60)))
			}
		case *ast.Image:
			problems = append(problems, fmt.Sprintf("image %q", n.Destination))
		case *ast.Link:
			if _, ok := safeLink(string(n.Destination)); !ok {
				problems = append(problems, fmt.Sprintf("link %q", n.Destination))
			}
		case *ast.AutoLink:
			// The export writes every link of its own as [text](url):
			// an autolink is text of the session made a link.
			problems = append(problems, fmt.Sprintf("autolink %q", n.URL(src)))
		}
		return ast.WalkContinue, nil
	})
	return problems
}

// safeLink is the test's own statement of the links allowed.
func safeLink(u string) (string, bool) {
	v := strings.ToLower(strings.TrimSpace(html.UnescapeString(u)))
	for _, s := range []string{"http://", "https://", "mailto:"} {
		if strings.HasPrefix(v, s) {
			return v, true
		}
	}
	return v, false
}

// codeBlocks are the texts of the HTML's <pre><code> elements.
func codeBlocks(out string) []string {
	var blocks []string
	for _, m := range codeRe.FindAllStringSubmatch(out, -1) {
		blocks = append(blocks, html.UnescapeString(m[1]))
	}
	return blocks
}

// inOneBlock reports whether want is wholly inside one code block.
func inOneBlock(blocks []string, want string) bool {
	for _, b := range blocks {
		if strings.Contains(b, want) {
			return true
		}
	}
	return false
}

// normalize is what the export shows of session text: valid UTF-8, LF
// line breaks, no NUL, no terminal escapes or control characters, no
// final line break; and for a program's output, its lines as a terminal
// shows them. Those rules are clean's and cleanOutput's, held by
// TestClean; the tests that use normalize check where the text goes.
func normalize(s string) string { return strings.TrimRight(clean(s), "\n") }

func normalizeOutput(s string) string { return strings.TrimRight(cleanOutput(s), "\n") }

// cmark renders md with cmark-gfm, the C implementation GitHub's
// renderer is built on, with GitHub's extensions and raw HTML passed
// through; ok is false (the test is told why) where it is not installed:
// it checks what goldmark, in every run, may read otherwise.
func cmark(t testing.TB, md string) (html string, ok bool) {
	t.Helper()
	path, err := exec.LookPath("cmark-gfm")
	if err != nil {
		t.Log("cmark-gfm is not installed: the export is checked with goldmark only")
		return "", false
	}
	cmd := exec.Command(path, "--unsafe", "-e", "table", "-e", "strikethrough", "-e", "autolink", "-e", "tasklist", "-e", "footnotes")
	cmd.Stdin = strings.NewReader(md)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("cmark-gfm: %v", err)
	}
	return string(out), true
}

// cmarkProblems renders md with cmark-gfm (when installed) and lists what
// htmlProblems finds in its HTML, and any link it makes that the
// Markdown does not write as one ([text](url), as goldmark reads it): an
// extended autolink (www., http://, an address) made from text.
func cmarkProblems(t testing.TB, md string) []string {
	t.Helper()
	out, ok := cmark(t, md)
	if !ok {
		return nil
	}
	problems := htmlProblems(md, out)
	links := 0
	src := []byte(md)
	_ = ast.Walk(github().Parser().Parse(text.NewReader(src)), func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if _, ok := n.(*ast.Link); ok && entering {
			links++
		}
		return ast.WalkContinue, nil
	})
	if n := strings.Count(out, "<a "); n != links {
		problems = append(problems, fmt.Sprintf("cmark-gfm makes %d links, the Markdown writes %d", n, links))
	}
	for i := range problems {
		problems[i] = "cmark-gfm: " + problems[i]
	}
	return problems
}

func head(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

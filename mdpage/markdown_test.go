package mdpage

import (
	"strings"
	"testing"
)

// TestSanitize holds the re-written assistant Markdown to what it must
// show: safe, and the same structure.
func TestSanitize(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string // in the HTML
		not      []string
	}{
		{"emphasis", "**bold** and *em* and _under_", []string{"<strong>bold</strong>", "<em>em</em>", "<em>under</em>"}, nil},
		{"snake case", "a_b_c and 2 * 3 * 4", []string{"a_b_c and 2 * 3 * 4"}, []string{"<em>"}},
		{"script", "<script>alert(1)</script>", []string{"&lt;script&gt;alert(1)&lt;/script&gt;"}, []string{"<script"}},
		{"comment", "a <!-- b --> c", []string{"a &lt;!-- b --&gt; c"}, nil},
		{"js link", "[x](javascript:alert(1))", []string{"x (<code>javascript:alert(1)</code>)"}, []string{"href"}},
		{"entity scheme", "[x](&#106;avascript:alert(1))", []string{"<code>javascript:alert(1)</code>"}, []string{"href"}},
		{"data link", "[x](data:text/html,hi)", []string{"<code>data:text/html,hi</code>"}, []string{"href"}},
		{"relative link", "[x](../secret)", []string{"x (<code>../secret</code>)"}, []string{"href"}},
		{"http link", "[x](http://a.example/b_c?d=1&e=(2))", []string{`<a href="http://a.example/b_c?d=1&amp;e=(2)">x</a>`}, nil},
		{"link title dropped", `[x](https://a.example "t\" onclick=\"y")`, []string{`<a href="https://a.example">x</a>`}, []string{"onclick"}},
		{"image", "![alt *t*](https://a.example/p.png)", []string{`<a href="https://a.example/p.png">image: alt t</a>`}, []string{"<img"}},
		{"image in link", "[![b](https://a.example/b.png)](https://a.example)", []string{`<a href="https://a.example">[image: b]</a>`}, []string{"<img"}},
		{"autolink", "<https://a.example/x>", []string{`<a href="https://a.example/x">https://a.example/x</a>`}, nil},
		{"js autolink", "<javascript:alert(1)>", []string{"javascript:alert(1)"}, []string{"href"}},
		{"bare url", "see https://a.example/y.", []string{`<a href="https://a.example/y">https://a.example/y</a>.`}, nil},
		{"not a link", "ftp\\://x.example", []string{"ftp://x.example"}, []string{"href"}},
		{"code span", "`` a`b <i> ``", []string{"<code>a`b &lt;i&gt;</code>"}, nil},
		{"fenced", "```go\nx := `<b>`\n```", []string{`<pre><code class="language-go">x := ` + "`&lt;b&gt;`"}, nil},
		{"indented code", "    <b>", []string{"<pre><code>&lt;b&gt;\n</code></pre>"}, nil},
		{"html block", "<div>\n<b>x</b>\n</div>", []string{`<pre><code class="language-html">&lt;div&gt;`}, []string{"<div"}},
		{"heading", "# Title\n\n### Sub", []string{"<h5>Title</h5>", "<h6>Sub</h6>"}, []string{"<h1>"}},
		{"setext", "Title\n=====", []string{"<h5>Title</h5>"}, nil},
		{"list", "- a\n- b\n  1. c\n  2. d", []string{"<ul>\n<li>a</li>\n<li>b\n<ol>\n<li>c</li>\n<li>d</li>\n</ol>\n</li>\n</ul>"}, nil},
		{"ordered start", "3. x\n4. y", []string{`<ol start="3">`}, nil},
		{"task", "- [ ] a\n- [x] b", []string{`<input disabled="" type="checkbox"> a`, `<input checked="" disabled="" type="checkbox"> b`}, nil},
		{"quote", "> a\n> > b", []string{"<blockquote>\n<p>a</p>\n<blockquote>\n<p>b</p>"}, nil},
		{"table", "| a | b |\n|:--|--:|\n| `x\\|y` | <b> |", []string{`<th style="text-align:left">a</th>`, `<td style="text-align:left"><code>x|y</code></td>`, `<td style="text-align:right">&lt;b&gt;</td>`}, nil},
		{"line start", "a\n\\- b\n\\+ c\n1\\. d\n\\# e\n\\===\n&#45;&#45;&#45;\n    \\-- f", []string{"<p>a\n- b\n+ c\n1. d\n# e\n===\n---\n-- f</p>"}, []string{"<li>", "<h", "<hr"}},
		{"entities", "&lt;b&gt; &amp;amp; &copy;", []string{"&lt;b&gt; &amp;amp; ©"}, nil},
		{"escapes", `\<b\> \*x\* \\`, []string{`&lt;b&gt; *x* \`}, []string{"<em>"}},
		{"hard break", "a  \nb\\\nc", []string{"a<br>\nb<br>\nc"}, nil},
		{"thematic", "a\n\n---\n\nb", []string{"<hr>"}, nil},
		{"strike", "~~x~~", []string{"<del>x</del>"}, nil},
		{"details", "<details><summary>x</summary>\n\ny\n\n</details>", []string{"&lt;details&gt;&lt;summary&gt;x&lt;/summary&gt;"}, []string{"<details", "<summary"}},
		{"deep", strings.Repeat("> ", 40) + "x\nlazy\nlazy", []string{"<pre><code class=\"language-markdown\">"}, []string{"<blockquote"}},
		{"mention", "@someone and $x$", []string{"@someone and $x$"}, nil},
	}
	z := newSanitizer()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			md := strings.Join(z.markdown(clean(tt.in)), "\n") + "\n"
			out := githubHTML(md)
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("missing %q\nMarkdown:\n%s\nHTML:\n%s", w, md, out)
				}
			}
			for _, w := range tt.not {
				if strings.Contains(out, w) {
					t.Errorf("unexpected %q\nMarkdown:\n%s\nHTML:\n%s", w, md, out)
				}
			}
			for _, p := range mdProblems(md) {
				t.Errorf("Markdown: %s\n%s", p, md)
			}
			for _, p := range htmlProblems(md, out) {
				t.Errorf("HTML: %s\n%s", p, out)
			}
		})
	}
}

// TestSanitizeBounded: texts whose structure would multiply their size
// (deep nesting with lazy lines) are shown as their source, as code, and
// quickly.
func TestSanitizeBounded(t *testing.T) {
	z := newSanitizer()
	for _, src := range []string{
		strings.Repeat("> ", 20) + "x\n" + strings.Repeat("lazy\n", 20000),
		strings.Repeat("- ", 20) + "x\n" + strings.Repeat("lazy\n", 20000),
		strings.Repeat("1. ", 100) + "x",
		strings.Repeat("*a ", 5000) + strings.Repeat("b* ", 5000),
		strings.Repeat("[", 10000) + "x" + strings.Repeat("](https://a.example)", 10000),
	} {
		lines := z.markdown(src)
		size := 0
		for _, l := range lines {
			size += len(l) + 1
		}
		if size > 5*len(src)+8192 {
			t.Errorf("%q…: %d bytes of Markdown from %d", src[:20], size, len(src))
		}
		md := strings.Join(lines, "\n") + "\n"
		for _, p := range mdProblems(md) {
			t.Errorf("%q…: %s", src[:20], p)
		}
	}
}

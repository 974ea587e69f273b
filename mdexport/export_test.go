package mdexport

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"canopy/internal/sessiongen"
	"canopy/sessiontree"
)

const (
	hostileFixture = "../testdata/markdown/hostile.jsonl"
	legacyHostile  = "../testdata/hostile/hostile.jsonl"
	demoFixture    = "../testdata/demo/demo.jsonl"
)

func load(t testing.TB, path string) *sessiontree.Session {
	t.Helper()
	s, err := sessiontree.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func loadBytes(t testing.TB, data []byte) *sessiontree.Session {
	t.Helper()
	s, err := sessiontree.Load(data, "test.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func export(t testing.TB, s *sessiontree.Session, o Options) string {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, s, o); err != nil {
		t.Fatalf("Write: %v", err)
	}
	return buf.String()
}

// session writes a pi v3 session: a header, then the entries, each the
// child of the one before unless it names its parentId.
func session(entries ...map[string]any) []byte {
	var buf bytes.Buffer
	hdr, _ := json.Marshal(map[string]any{"type": "session", "version": 3, "id": "test-session",
		"timestamp": "2026-02-03T04:05:06.000Z", "cwd": "/tmp"})
	buf.Write(hdr)
	buf.WriteByte('\n')
	parent := any(nil)
	for i, e := range entries {
		if _, ok := e["id"]; !ok {
			e["id"] = fmt.Sprintf("e%d", i+1)
		}
		if _, ok := e["parentId"]; !ok {
			e["parentId"] = parent
		}
		if _, ok := e["timestamp"]; !ok {
			e["timestamp"] = fmt.Sprintf("2026-02-03T04:%02d:%02d.000Z", (i+1)/60, (i+1)%60)
		}
		parent = e["id"]
		line, err := json.Marshal(e)
		if err != nil {
			panic(err)
		}
		buf.Write(line)
		buf.WriteByte('\n')
	}
	return buf.Bytes()
}

func user(text string) map[string]any {
	return map[string]any{"type": "message", "message": map[string]any{"role": "user", "content": text}}
}

func assistant(blocks ...map[string]any) map[string]any {
	return map[string]any{"type": "message", "message": map[string]any{"role": "assistant", "content": blocks,
		"provider": "anthropic", "model": "claude-test", "stopReason": "stop"}}
}

func textBlock(s string) map[string]any     { return map[string]any{"type": "text", "text": s} }
func thinkingBlock(s string) map[string]any { return map[string]any{"type": "thinking", "thinking": s} }
func callBlock(id, name string, args map[string]any) map[string]any {
	return map[string]any{"type": "toolCall", "id": id, "name": name, "arguments": args}
}

func result(callID, name, out string) map[string]any {
	return map[string]any{"type": "message", "message": map[string]any{"role": "toolResult", "toolCallId": callID,
		"toolName": name, "content": []any{textBlock(out)}, "isError": false}}
}

// pathTexts are the user prompts and tool outputs on the path from from
// to leaf, as the export must show them (normalize), read apart from the
// export's code.
func pathTexts(t testing.TB, s *sessiontree.Session, from, leaf *sessiontree.Entry) (prompts, outputs []string) {
	t.Helper()
	path := s.Path(leaf)
	if from != nil {
		for i, e := range path {
			if e == from {
				path = path[i:]
				break
			}
		}
	}
	for _, e := range path {
		if e.Type != sessiontree.TypeMessage {
			continue
		}
		b, err := e.Decode()
		if err != nil || b.Message == nil {
			continue
		}
		var texts []string
		for _, blk := range b.Message.Content {
			if blk.Type == "text" {
				texts = append(texts, blk.Text)
			}
		}
		switch b.Message.Role {
		case sessiontree.RoleUser:
			for _, tx := range texts {
				if strings.TrimSpace(tx) != "" {
					prompts = append(prompts, normalize(tx))
				}
			}
		case sessiontree.RoleToolResult:
			if out := normalizeOutput(strings.Join(texts, "\n")); strings.TrimSpace(out) != "" {
				outputs = append(outputs, out)
			}
		case sessiontree.RoleBashExecution:
			if out := normalizeOutput(b.Message.Output); strings.TrimSpace(out) != "" {
				outputs = append(outputs, out)
			}
		}
	}
	return prompts, outputs
}

// TestSafe exports hostile sessions (and the demo) with several options,
// renders each export as GitHub would before sanitizing, and checks that
// nothing from the session became markup, that every tool output is
// wholly inside one code block, and that every prompt of the path is
// there.
func TestSafe(t *testing.T) {
	options := []struct {
		name string
		o    Options
	}{
		{"plain", Options{}},
		{"link", Options{Link: "https://example.com/s.html?theme=dark&leafId=old#top"}},
		{"limit 6000", Options{Limit: 6000}},
		{"limit 30000", Options{Limit: 30000}},
	}
	for _, file := range []string{hostileFixture, legacyHostile, demoFixture, autolinkFixture, viewerFixture} {
		for _, opt := range options {
			t.Run(file[strings.LastIndexByte(file, '/')+1:]+"/"+opt.name, func(t *testing.T) {
				s := load(t, file)
				md := export(t, s, opt.o)
				out := githubHTML(md)
				for _, p := range htmlProblems(md, out) {
					t.Errorf("HTML: %s", p)
				}
				for _, p := range mdProblems(md) {
					t.Errorf("Markdown: %s", p)
				}
				if opt.o.Limit > 0 && Length(md) > opt.o.Limit {
					t.Errorf("%d characters, over the limit of %d", Length(md), opt.o.Limit)
				}
				for _, p := range cmarkProblems(t, md) {
					t.Error(p)
				}
				blocks := codeBlocks(out)
				prompts, outputs := pathTexts(t, s, nil, s.Leaf)
				r := readReport(t, md)
				missing := 0
				for _, p := range prompts {
					if !inOneBlock(blocks, p) {
						missing++
					}
				}
				if missing > r.prompts+r.promptsLeftOut {
					t.Errorf("%d prompts not whole in one code block; the header says %d shortened and %d left out", missing, r.prompts, r.promptsLeftOut)
				}
				if opt.o.Limit == 0 {
					for _, o := range outputs {
						if !inOneBlock(blocks, o) {
							t.Errorf("tool output not in one code block: %q", head(o, 80))
						}
					}
				}
				if strings.Contains(md, "OFF PATH PROMPT") {
					t.Error("an entry off the path is in the export")
				}
			})
		}
	}
}

// TestHostileText checks that the fixture's payloads are shown as the
// text they are (not dropped), and its links and images as the fixture's
// README says.
func TestHostileText(t *testing.T) {
	s := load(t, hostileFixture)
	md := export(t, s, Options{})
	out := githubHTML(md)
	for _, want := range []string{
		// Raw HTML in assistant Markdown, as text.
		"Inline &lt;img src=x onerror=alert('inline img')&gt; and &lt;b onmouseover=alert('b')&gt;bold&lt;/b&gt;.",
		// HTML blocks, as code.
		"<pre><code class=\"language-html\">&lt;script&gt;alert('block')&lt;/script&gt;",
		"&lt;!-- a closed comment &lt;script&gt;alert('comment')&lt;/script&gt; --&gt;",
		"&lt;!-- an unclosed comment that swallows the rest",
		// Unsafe links keep their text, and show their target as code.
		"js (<code>javascript:alert('js')</code>)",
		"ref link (<code>javascript:alert('ref')</code>)",
		// Safe ones stay links, reference-style ones too.
		`<a href="https://example.com/ok">ok</a>`,
		`<a href="https://example.com/ref?a=1&amp;b=2">ok ref</a>`,
		`<a href="https://example.com/short">shortcut</a>`,
		`<a href="https://example.com/auto">https://example.com/auto</a>`,
		`<a href="http://www.example.com/www">www.example.com/www</a>`,
		`<a href="mailto:a@example.com">a@example.com</a>`,
		// An image becomes a link to it, or text.
		`<a href="https://tracker.example.com/pixel.png">image: pixel</a>`,
		"[image: svg, embedded data not shown]",
		// Entities show as the text they stand for.
		"&lt;script&gt;alert('entity')&lt;/script&gt;",
		"&lt;img src=x onerror=alert('num')&gt;",
		// Markdown's own structure is kept.
		"<h5>Heading &lt;script&gt;alert('h1')&lt;/script&gt;</h5>",
		`<th>a &lt;b&gt;x&lt;/b&gt;</th>`, `<th style="text-align:center">b | pipe</th>`, `<code>c|d</code>`,
		`<input checked="" disabled="" type="checkbox"> done`,
		"<code>double `tick` &lt;b&gt;</code>",
		"<blockquote>", "<ol>", "<strong>Error:</strong> Error &lt;img src=x onerror=alert('error')&gt;",
		"<em>emphasis &lt;b&gt;x&lt;/b&gt;</em>", "<del>strike &lt;s&gt;s&lt;/s&gt;</del>", "$math$",
		// Pictures are notes, never data.
		"[image: image/png, 70 bytes]", "[image: unknown type, 70 bytes]",
		// Extension messages: shown, or noted.
		"Shown rules: &lt;script&gt;alert('custom')&lt;/script&gt;",
		"Hidden from the user; the model saw it (32 characters, not shown here).",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q", want)
		}
	}
	if strings.Contains(md, "iVBORw0KGgo") {
		t.Error("image data in the export")
	}
	if strings.Contains(out, "alert('hidden')") {
		t.Error("a hidden custom message is shown")
	}
}

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

// TestFence checks that no text can close its fence, and that it comes
// out whole.
func TestFence(t *testing.T) {
	tests := []struct{ name, text, mark string }{
		{"plain", "a\nb", "```"},
		{"backticks", "```\n````\nx", "~~~"},
		{"long backtick run", "a `````````` b", "~~~"},
		{"both", "```\n~~~", "````"},
		{"tildes longer", "~~~~~~~\n```", "````"},
		{"indented fence", "   ```\n  ~~~", "````"},
		{"backtick after space", "``` ```", "~~~"},
		{"empty", "", "```"},
		{"details", "</details>\n<details><summary>x</summary>", "```"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := fence(tt.text, "")
			if !strings.HasPrefix(f, tt.mark+"\n") {
				t.Errorf("fence %q, want %q", f[:strings.IndexByte(f, '\n')], tt.mark)
			}
			md := "before\n\n" + f + "\n\nafter\n"
			blocks := codeBlocks(githubHTML(md))
			want := tt.text
			if want != "" {
				want += "\n"
			}
			if len(blocks) != 1 || blocks[0] != want {
				t.Errorf("code blocks %q, want [%q]", blocks, want)
			}
		})
	}
}

func TestCodeSpan(t *testing.T) {
	tests := []struct {
		in      string
		inTable bool
		want    string // the span
		shows   string // what GitHub shows
	}{
		{"a", false, "`a`", "a"},
		{"a`b", false, "``a`b``", "a`b"},
		{"`a", false, "`` `a ``", "`a"},
		{" a ", false, "`  a  `", " a "},
		{"a ``` b", false, "````a ``` b````", "a ``` b"},
		{"a|b", true, "`a\\|b`", "a|b"},
		{"<b>", false, "`<b>`", "&lt;b&gt;"},
	}
	for _, tt := range tests {
		got := codeSpan(tt.in, tt.inTable)
		if got != tt.want {
			t.Errorf("codeSpan(%q) = %q, want %q", tt.in, got, tt.want)
		}
		md := "x " + got + " y\n"
		if tt.inTable {
			md = "| h |\n|---|\n| " + got + " |\n"
		}
		if out := githubHTML(md); !strings.Contains(out, "<code>"+tt.shows+"</code>") {
			t.Errorf("%q shows as %q", got, out)
		}
	}
}

func TestLength(t *testing.T) {
	tests := []struct {
		s    string
		want int
	}{
		{"", 0},
		{"abc", 3},
		{"a\nb", 4},
		{"é", 1},
		{"日本", 2},
		{"😀", 2},
		{"a\r\nb", 5}, // written out as LF by clean; counted as is here
	}
	for _, tt := range tests {
		if got := Length(tt.s); got != tt.want {
			t.Errorf("Length(%q) = %d, want %d", tt.s, got, tt.want)
		}
	}
}

func TestCutText(t *testing.T) {
	tests := []struct {
		s           string
		limit       int
		kept        string
		removedRune int
	}{
		{"abcdef", 10, "abcdef", 0},
		{"abcdef", 3, "abc", 3},
		{"line one\nline two\nline three", 22, "line one\nline two", 11},
		{"😀😀😀", 3, "😀", 2},
		{"abc", 0, "", 3},
	}
	for _, tt := range tests {
		kept, removed := cutText(tt.s, tt.limit)
		if kept != tt.kept || removed != tt.removedRune {
			t.Errorf("cutText(%q, %d) = %q, %d; want %q, %d", tt.s, tt.limit, kept, removed, tt.kept, tt.removedRune)
		}
		if Length(kept) > tt.limit {
			t.Errorf("cutText(%q, %d) kept %d", tt.s, tt.limit, Length(kept))
		}
	}
}

func TestDeepLinks(t *testing.T) {
	tests := []struct {
		page, leaf, target string
		want               string
		err                bool
	}{
		{page: "https://x.example/s.html", leaf: "a1", target: "u1", want: "https://x.example/s.html?leafId=a1&targetId=u1"},
		{page: "https://x.example/s.html?theme=dark&leafId=old&targetId=old#frag", leaf: "a1", target: "u1",
			want: "https://x.example/s.html?theme=dark&leafId=a1&targetId=u1#frag"},
		{page: "http://x.example/a%20b.html?q=a+b&x=%26", leaf: "a&b=c", target: "id with space/?#",
			want: "http://x.example/a%20b.html?q=a+b&x=%26&leafId=a%26b%3Dc&targetId=id+with+space%2F%3F%23"},
		{page: "https://x.example/?", leaf: "L1", target: "L2", want: "https://x.example/?leafId=L1&targetId=L2"},
		{page: "javascript:alert(1)", err: true},
		{page: "/relative/page.html", err: true},
		{page: "file:///tmp/page.html", err: true},
		{page: "https://", err: true},
	}
	for _, tt := range tests {
		l, err := newLinker(tt.page, tt.leaf)
		if tt.err {
			if err == nil {
				t.Errorf("newLinker(%q): no error", tt.page)
			}
			continue
		}
		if err != nil {
			t.Errorf("newLinker(%q): %v", tt.page, err)
			continue
		}
		if got := l.link(tt.target); got != tt.want {
			t.Errorf("link(%q) on %q = %q, want %q", tt.target, tt.page, got, tt.want)
		}
		// Written into Markdown, the link is still exactly that.
		md := l.markdown("link", tt.target) + "\n"
		if out := githubHTML(md); !strings.Contains(out, `href="`+strings.ReplaceAll(tt.want, "&", "&amp;")+`"`) {
			t.Errorf("link %q renders as %q", md, out)
		}
	}
}

// headings are the ids of the entries in an export, in order: the id
// after the last " · `" of each heading or setting line.
var idRe = regexp.MustCompile("(?m)^(?:#### |\\*).* · `([^`]+)`(?: · label “[^”]*”)?(?: · \\[link\\]\\([^)]*\\))?$")

func TestFromLeafLink(t *testing.T) {
	s := load(t, demoFixture)
	path := s.Path(s.Leaf)
	from, mid := path[3], path[40]
	tests := []struct {
		name      string
		o         Options
		first     string
		last      string
		linkCount int
		err       bool
	}{
		{name: "whole path", o: Options{}, first: path[0].ID, last: s.Leaf.ID},
		{name: "from", o: Options{From: from}, first: from.ID, last: s.Leaf.ID},
		{name: "leaf", o: Options{Leaf: mid}, first: path[0].ID, last: mid.ID},
		{name: "from and leaf", o: Options{From: from, Leaf: mid}, first: from.ID, last: mid.ID},
		{name: "from is leaf", o: Options{From: mid, Leaf: mid}, first: mid.ID, last: mid.ID},
		{name: "link", o: Options{From: from, Leaf: mid, Link: "https://x.example/demo.html"}, first: from.ID, last: mid.ID, linkCount: 40 - 3 + 1},
		{name: "from after leaf", o: Options{From: path[41], Leaf: mid}, err: true},
		{name: "from off the path", o: Options{From: offPath(s, path)}, err: true},
		{name: "unknown leaf", o: Options{Leaf: &sessiontree.Entry{ID: "nope"}}, err: true},
		{name: "bad link", o: Options{Link: "javascript:alert(1)"}, err: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			err := Write(&buf, s, tt.o)
			if tt.err {
				if err == nil {
					t.Fatal("no error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			md := buf.String()
			ids := idRe.FindAllStringSubmatch(md, -1)
			if len(ids) == 0 || ids[0][1] != tt.first || ids[len(ids)-1][1] != tt.last {
				t.Errorf("entries %v…%v, want %s…%s", ids[0], ids[len(ids)-1], tt.first, tt.last)
			}
			links := strings.Count(md, "](https://x.example/demo.html?leafId="+mid.ID+"&targetId=")
			if tt.linkCount > 0 && links != tt.linkCount+1 { // and the header's
				t.Errorf("%d deep links, want %d", links, tt.linkCount+1)
			}
		})
	}
	// Entries of another load of the file (as the command passes after
	// cutting a session down) are found by id.
	other := load(t, demoFixture)
	a := export(t, s, Options{Leaf: mid, From: from})
	b := export(t, s, Options{Leaf: other.Path(other.Leaf)[40], From: other.Path(other.Leaf)[3]})
	if a != b {
		t.Error("entries of another load of the session give another export")
	}
}

func offPath(s *sessiontree.Session, path []*sessiontree.Entry) *sessiontree.Entry {
	on := map[*sessiontree.Entry]bool{}
	for _, e := range path {
		on[e] = true
	}
	for _, e := range s.Entries {
		if !on[e] {
			return e
		}
	}
	return nil
}

func TestHeader(t *testing.T) {
	s := load(t, hostileFixture)
	own := hex.EncodeToString(s.SHA256[:])
	original := strings.Repeat("ab", 32)
	tests := []struct {
		name string
		o    Options
		want []string
		not  []string
	}{
		{"plain", Options{Version: "v1.2.3"}, []string{
			"### Agent session `md-hostile-0001`: Name \\<script\\>alert('name')\\</script\\> \\`ticks\\` \\| pipe \\</details\\>",
			"- **Date:** 2026-05-01 12:00:00 UTC",
			"- **Conversation:** 20 entries on the path to `a4`, the session's leaf",
			"- **Models:** ``anthropic/claude-`x`<img src=x onerror=alert('model')>``",
			"`anthropic/claude-other`",
			"- **Usage:** 10 input, 20 output, 0 cache read, 0 cache write tokens; cost \\$0.0010",
			"- **Session file SHA-256:** `" + own + "`",
			"- **Exported by:** canopy v1.2.3",
		}, []string{"Shared copy", "Left out", "Shortened", "Page"}},
		{"cut-down copy", Options{OriginalSHA256: original, Omitted: []string{"thinking (3 blocks)", "<b>secrets</b>: 2 replaced"}}, []string{
			"- **Session file SHA-256:** `" + original + "`",
			"- **Shared copy SHA-256:** `" + own + "`",
			"- **Left out:** thinking (3 blocks); \\<b\\>secrets\\</b\\>: 2 replaced",
		}, nil},
		{"same hash", Options{OriginalSHA256: strings.ToUpper(own)}, []string{"- **Session file SHA-256:** `" + own + "`"}, []string{"Shared copy"}},
		{"link", Options{Link: "https://x.example/p.html"}, []string{
			"- **Page:** [open the conversation](https://x.example/p.html?leafId=a4&targetId=a4)"}, nil},
		{"from", Options{From: s.Entry("a2"), Leaf: s.Entry("a3")}, []string{
			"- **Conversation:** 11 entries on the path from `a2` to `a3` (8 earlier entries not included)",
			"- **Models:** ``anthropic/claude-`x`<img src=x onerror=alert('model')>``, `anthropic/claude-other`",
		}, []string{"the session's leaf", "Usage"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			md := export(t, s, tt.o)
			hdr := md[:strings.Index(md, "\n\n*")]
			for _, w := range tt.want {
				if !strings.Contains(hdr, w) {
					t.Errorf("header lacks %q:\n%s", w, hdr)
				}
			}
			for _, w := range tt.not {
				if strings.Contains(hdr, w) {
					t.Errorf("header has %q:\n%s", w, hdr)
				}
			}
		})
	}
}

// TestParts checks how content blocks are shown: pictures as notes,
// thinking and long output folded, errors noted.
func TestParts(t *testing.T) {
	png := "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
	big := strings.Repeat("A", 4*40000)
	long := strings.Repeat("output line\n", 40)
	data := session(
		map[string]any{"type": "message", "message": map[string]any{"role": "user", "content": []any{
			textBlock("look at this"),
			map[string]any{"type": "image", "mimeType": "image/png", "data": png},
			map[string]any{"type": "image", "mimeType": "image/jpeg", "data": big},
		}}},
		assistant(thinkingBlock("I think **so**."), map[string]any{"type": "thinking", "thinking": "", "redacted": true},
			textBlock("Reading."), callBlock("c1", "read", map[string]any{"path": "main.go"}), callBlock("c2", "bash", map[string]any{"command": "ls"})),
		result("c1", "read", "package main\n"),
		result("c2", "bash", long),
		map[string]any{"type": "message", "message": map[string]any{"role": "bashExecution", "command": "make", "output": "fail\n", "exitCode": 2, "cancelled": false, "truncated": false}},
	)
	s := loadBytes(t, data)
	md := export(t, s, Options{})
	out := githubHTML(md)
	for _, w := range []string{
		"[image: image/png, 70 bytes]", "[image: image/jpeg, 117 KB]",
		"<details><summary>Thinking · 15 characters</summary>",
		"<em>Thinking (redacted by the provider)</em>",
		"<strong>Tool call:</strong> <code>read</code>",
		`<pre><code class="language-json">{`,
		`<pre><code class="language-sh">ls`,
		`<pre><code class="language-go">package main`,
		"<details><summary>Output · 40 lines, 479 characters</summary>",
		"<em>exit code 2</em>",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("missing %q in\n%s", w, out)
		}
	}
	if strings.Contains(md, png) || strings.Contains(md, "AAAAAAAA") {
		t.Error("picture data in the export")
	}
	for _, p := range htmlProblems(md, out) {
		t.Error(p)
	}
}

func TestDeterministic(t *testing.T) {
	var buf bytes.Buffer
	if err := sessiongen.Generate(&buf, sessiongen.Config{Entries: 300, Shape: sessiongen.ShapeBranched, Seed: 7, Images: 2, ImageBytes: 2000}); err != nil {
		t.Fatal(err)
	}
	for _, o := range []Options{{}, {Limit: 20000, Link: "https://x.example/"}} {
		a := export(t, loadBytes(t, buf.Bytes()), o)
		b := export(t, loadBytes(t, buf.Bytes()), o)
		if a != b {
			t.Errorf("two exports with %+v differ", o)
		}
	}
}

// TestLimitEveryFixture exports each fixture at many limits: never over,
// and never unsafe.
func TestLimitEveryFixture(t *testing.T) {
	for _, file := range []string{hostileFixture, demoFixture} {
		s := load(t, file)
		full := Length(export(t, s, Options{}))
		for limit := full + 10; limit > 2000; limit = limit * 3 / 4 {
			var buf bytes.Buffer
			if err := Write(&buf, s, Options{Limit: limit}); err != nil {
				if errors.Is(err, ErrLimitTooSmall) {
					break
				}
				t.Fatal(err)
			}
			md := buf.String()
			if n := Length(md); n > limit {
				t.Errorf("%s at %d: %d characters", file, limit, n)
			}
			for _, p := range htmlProblems(md, githubHTML(md)) {
				t.Errorf("%s at %d: %s", file, limit, p)
			}
			for _, p := range mdProblems(md) {
				t.Errorf("%s at %d: %s", file, limit, p)
			}
		}
	}
}

// TestEmpty: a session with no entries, or an unreadable leaf's path, is
// still a header.
func TestEmpty(t *testing.T) {
	s := loadBytes(t, session())
	for _, o := range []Options{{}, {Limit: 2000, Link: "https://x.example/"}} {
		md := export(t, s, o)
		if !strings.Contains(md, "- **Conversation:** none (the session has no entries)") {
			t.Errorf("with %+v:\n%s", o, md)
		}
		if strings.Contains(md, "#### ") {
			t.Errorf("entries in an empty export:\n%s", md)
		}
	}
	var buf bytes.Buffer
	if err := Write(&buf, s, Options{From: &sessiontree.Entry{ID: "x"}}); err == nil {
		t.Error("From in an empty session: no error")
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

package mdpage

import (
	"bytes"
	"encoding/hex"
	"errors"
	"regexp"
	"strings"
	"testing"

	"canopy/internal/sessiongen"
	"canopy/sessiontree"
)

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

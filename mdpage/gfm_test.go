package mdpage

import (
	"regexp"
	"strings"
	"testing"

	"canopy/sessiontree"
)

const (
	autolinkFixture = "../testdata/markdown/autolinks.jsonl"
	viewerFixture   = "../testdata/markdown/viewers.jsonl"
)

// autolinkPayloads put text that GitHub's extended autolinks (www.,
// scheme://, addresses, mailto: and xmpp:) would make a link of right
// before raw HTML: the www. autolink runs over the raw text to the next
// space or "<", the backslash that escapes the "<" included, and the
// HTML after it was live in cmark-gfm.
var autolinkPayloads = []string{
	"x www.evil.com<img src=//evil.example/x.png> y",
	"y\twww.e.com<img src=x onerror=alert(1)>",
	"(www.y.io<b>) *www.z.io<i>* _www.q.io<u>_ ~www.r.io<s>~ WWW.X.IO<b>",
	"http://x.io<svg onload=alert(3)> https://x.io/a<b> ftp://x.io<b> HTTPS://X.IO<b>",
	"mail a@b.co<b>, mailto:c@d.co, xmpp:e@f.co/r<b>, a.b-c_d+e@x-y.example.com",
}

// TestAutolinks puts the payloads in every text the export writes
// outside code: assistant text, summaries, an extension message (parsed
// as Markdown), and the session's name, a label, an error and an abort
// message, the header's notes and version (written as text). No text may
// become a link or markup, in goldmark (with its Linkify) or in
// cmark-gfm; the text must still be shown.
func TestAutolinks(t *testing.T) {
	for _, payload := range autolinkPayloads {
		t.Run(head(payload, 20), func(t *testing.T) {
			data := session(
				map[string]any{"type": "session_info", "name": payload},
				user("look"),
				map[string]any{"type": "message", "message": map[string]any{"role": "assistant", "content": []any{textBlock("plain " + payload)},
					"stopReason": "error", "errorMessage": payload}},
				map[string]any{"type": "label", "targetId": "e2", "label": payload},
				map[string]any{"type": "message", "message": map[string]any{"role": "assistant", "content": []any{textBlock("x")},
					"stopReason": "aborted", "errorMessage": payload}},
				map[string]any{"type": "compaction", "summary": payload, "firstKeptEntryId": "e3", "tokensBefore": 1},
				map[string]any{"type": "custom_message", "customType": "note", "content": payload, "display": true},
			)
			s := loadBytes(t, data)
			md := export(t, s, Options{Version: payload, Omitted: []string{payload}})
			checkNoMarkup(t, md)
			// Shown as text: what the payload says, the "<" as "&lt;".
			out := strings.ReplaceAll(githubHTML(md), "\u2060", "")
			want := strings.ReplaceAll(strings.ReplaceAll(flat(payload), "<", "&lt;"), ">", "&gt;")
			for _, where := range []string{"Agent session", "Session named", "Error:", "Aborted", "label “", "Exported by:", "Left out:"} {
				i := strings.Index(out, where)
				if i < 0 {
					t.Errorf("no %q", where)
					continue
				}
				line := out[i:]
				line = line[:strings.IndexByte(line, '\n')]
				if !strings.Contains(line, want) {
					t.Errorf("%s: %q does not show %q", where, line, want)
				}
			}
		})
	}
	s := load(t, autolinkFixture)
	checkNoMarkup(t, export(t, s, Options{}))
}

// checkNoMarkup: no markup but the export's own, and no link but those it
// writes, as goldmark and cmark-gfm read md.
func checkNoMarkup(t *testing.T, md string) {
	t.Helper()
	for _, p := range mdProblems(md) {
		t.Errorf("Markdown: %s", p)
	}
	for _, p := range htmlProblems(md, githubHTML(md)) {
		t.Errorf("HTML: %s", p)
	}
	for _, p := range cmarkProblems(t, md) {
		t.Error(p)
	}
	if t.Failed() {
		t.Logf("Markdown:\n%s", md)
	}
}

// TestTextAutolinkEscapes: the text writer's own rules, one by one.
func TestTextAutolinkEscapes(t *testing.T) {
	tests := []struct{ in, want string }{
		{"www.x.io", `www\.x.io`},
		{"WwW.x.io", `WwW\.x.io`},
		{"awww.x", `awww\.x`},
		{"http://x", `http\://x`},
		{"xmpp:a", `xmpp\:a`},
		{"Note: this", "Note: this"},
		{"a@b.co", "a@\u2060b.co"},
		{"@octocat", "@octocat"},
		{"cc @octocat", "cc @octocat"},
		{"a_@b", "a\\_@\u2060b"},
		{"x@", "x@"},
		{"Plan:", "Plan:"},
		{"a\u202eb", `a\[U+202E\]b`},
	}
	for _, tt := range tests {
		w := textWriter{}
		w.text(tt.in)
		if got := w.sb.String(); got != tt.want {
			t.Errorf("%q written %q, want %q", tt.in, got, tt.want)
		}
	}
	// Across two texts written one after the other.
	for _, tt := range []struct{ a, b, want string }{
		{"see http:", "//x.io", `see http:\//x.io`},
		{"a@", "b.co", "a@\u2060b.co"},
		{"www", ".x.io", `www\.x.io`},
	} {
		w := textWriter{}
		w.text(tt.a)
		w.text(tt.b)
		if got := w.sb.String(); got != tt.want {
			t.Errorf("%q then %q written %q, want %q", tt.a, tt.b, got, tt.want)
		}
	}
	// In a link's text no autolink is made: no word joiner.
	if got := linkText("a@b.co"); got != "a@b.co" {
		t.Errorf("link text %q", got)
	}
}

var viewerRe = regexp.MustCompile(`language-(mermaid|mmd|geojson|topojson|stl|math)\b`)

// TestLiveViewers: fences GitHub would draw (a diagram, a map fetching
// tiles, a model, math) are shown as text, from assistant Markdown and
// from files read and written; and "$" in text is escaped, so that no
// math is drawn.
func TestLiveViewers(t *testing.T) {
	data := session(
		user("show"),
		assistant(
			textBlock("```mermaid\ngraph TD\n  A-->B\n```\n\n```MERMAID\nx\n```\n\n```geojson\n{}\n```\n\n```topojson\n{}\n```\n\n```stl\nsolid a\n```\n\n```math\nx^2\n```\n\n```go\nx := 1\n```\n\nCost $x^2$ and $$y$$ and $`z`$."),
			callBlock("c1", "read", map[string]any{"path": "data/area.geojson"}),
			callBlock("c2", "write", map[string]any{"path": "docs/flow.mermaid", "content": "graph TD\n  A-->B"}),
			callBlock("c3", "write", map[string]any{"path": "m.stl", "content": "solid a"}),
			callBlock("c4", "read", map[string]any{"path": "x.mmd"}),
		),
		result("c1", "read", `{"type":"Point","coordinates":[2.35,48.85]}`),
		result("c4", "read", "graph TD"),
	)
	for _, s := range []*testSession{{"inline", loadBytes(t, data)}, {"fixture", load(t, viewerFixture)}} {
		md := export(t, s.s, Options{})
		for _, out := range []string{githubHTML(md), cmarkOrEmpty(t, md)} {
			if m := viewerRe.FindString(out); m != "" {
				t.Errorf("%s: %s in\n%s", s.name, m, out)
			}
		}
		checkNoMarkup(t, md)
		if s.name == "inline" {
			if !strings.Contains(md, "Cost \\$x^2\\$ and \\$\\$y\\$\\$ and \\$`z`\\$.") {
				t.Errorf("$ not escaped:\n%s", md)
			}
			if n := strings.Count(md, "```text\n"); n != 11 {
				t.Errorf("%d fences of text, want 11 (6 in the answer, 2 files written, 2 read, and the prompt): \n%s", n, md)
			}
			if !strings.Contains(md, "```go\n") {
				t.Error("a plain language is not kept")
			}
		}
	}
}

type testSession struct {
	name string
	s    *sessiontree.Session
}

func cmarkOrEmpty(t *testing.T, md string) string {
	out, _ := cmark(t, md)
	return out
}

// TestSanitizeStructure: emphasis and lists keep their structure when
// written again, as goldmark and cmark-gfm read them.
func TestSanitizeStructure(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string // in the HTML of both
		not      []string
		count    map[string]int
	}{
		{"em in em", "_*a*_ and *_b_*", []string{"<em>a</em>", "<em>b</em>"}, []string{"<strong>"}, nil},
		{"strong in strong", "__**a**__", []string{"<strong>a</strong>"}, []string{"<em>"}, nil},
		{"em in em, not all of it", "_*a* b_ and _b *a*_", []string{"<em>a b</em>", "<em>b a</em>"}, []string{"<strong>"}, nil},
		{"em then em", "*a*_b_ and **c**__d__", []string{"<em>ab</em>", "<strong>cd</strong>"}, []string{"**", "*a"}, nil},
		{"em then strong", "*a*__b__ and __c__*d*", []string{"<em>a</em><strong>b</strong>", "<strong>c</strong><em>d</em>"}, nil, nil},
		{"strong in em", "_a **b** c_ and *__b__ c*", []string{"<em>a <strong>b</strong> c</em>", "<strong>b</strong> c</em>"}, nil, nil},
		{"em and strong", "***a***", []string{"<strong>a</strong>"}, nil, map[string]int{"<em>": 1}},
		{"bullet lists", "* a\n\n- b\n\n+ c\n\n- d", nil, nil, map[string]int{"<ul>": 4, "<li>": 4}},
		{"ordered lists", "1. a\n\n1) b\n\n1. c", nil, nil, map[string]int{"<ol>": 3, "<li>": 3}},
		{"nested lists", "- a\n  * b\n\n  - c", nil, nil, map[string]int{"<ul>": 3}},
		{"one list", "- a\n- b\n\n- c", nil, nil, map[string]int{"<ul>": 1, "<li>": 3}},
	}
	z := newSanitizer()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			md := strings.Join(z.markdown(clean(tt.in)), "\n") + "\n"
			outs := map[string]string{"goldmark": githubHTML(md)}
			if out, ok := cmark(t, md); ok {
				outs["cmark-gfm"] = out
			}
			for name, out := range outs {
				for _, w := range tt.want {
					if !strings.Contains(out, w) {
						t.Errorf("%s: missing %q\nMarkdown:\n%s\nHTML:\n%s", name, w, md, out)
					}
				}
				for _, w := range tt.not {
					if strings.Contains(out, w) {
						t.Errorf("%s: unexpected %q\nMarkdown:\n%s\nHTML:\n%s", name, w, md, out)
					}
				}
				for w, n := range tt.count {
					if got := strings.Count(out, w); got != n {
						t.Errorf("%s: %d %q, want %d\nMarkdown:\n%s\nHTML:\n%s", name, got, w, n, md, out)
					}
				}
			}
			checkNoMarkup(t, md)
		})
	}
}

// TestClean: what the export keeps of session text, and of a program's
// output, which shows as a terminal shows it.
func TestClean(t *testing.T) {
	tests := []struct{ in, text, output string }{
		{"plain\ttext\n", "plain\ttext\n", "plain\ttext\n"},
		{"a\r\nb", "a\nb", "a\nb"},
		{"\x1b[1;31mFAIL\x1b[0m ok", "FAIL ok", "FAIL ok"},
		{"\x1b]0;title\x07x \x1b]8;;https://e.example/\x1b\\link\x1b]8;;\x1b\\", "x link", "x link"},
		{"\x1b(Bx\x1b7y\x1b", "xy", "xy"},
		{"a\x07b\x7fc\u009bd\x00e", "abcd\uFFFDe", "abcd\uFFFDe"},
		{"\x1b]unterminated\nnext", "\nnext", "\nnext"},
		{"\x1b[12", "", ""},
		{"\xff", "\uFFFD", "\uFFFD"},
		// A lone CR: a line break in text, a carriage return in output.
		{"Downloading 10%\rDownloading 55%\rDownloading 100%\ndone", "Downloading 10%\nDownloading 55%\nDownloading 100%\ndone", "Downloading 100%\ndone"},
		{"long line\rshort", "long line\nshort", "shortline"},
		{"50%\r\x1b[2K\rok", "50%\n\nok", "ok"},
		{"abc\x1b[K\rx\x1b[K", "abc\nx", "x"},
		{"abcdef\x1b[3G_", "abcdef_", "ab_def"},
		{"abc\bX", "abcX", "abX"},
		{"a\x1b[5Cb", "ab", "a     b"},
		{"end\r", "end\n", "end"},
	}
	for _, tt := range tests {
		if got := clean(tt.in); got != tt.text {
			t.Errorf("clean(%q) = %q, want %q", tt.in, got, tt.text)
		}
		if got := cleanOutput(tt.in); got != tt.output {
			t.Errorf("cleanOutput(%q) = %q, want %q", tt.in, got, tt.output)
		}
	}
	// Cursor motion cannot make the output much longer than the input.
	in := strings.Repeat("\x1b[999Gx\n", 1000)
	if n := len(cleanOutput(in)); n > 2*len(in)+16 {
		t.Errorf("%d bytes of output from %d", n, len(in))
	}
}

// TestReadable: terminal escapes and redraws in tool output, control and
// bidi characters in headings and names, and what a tool result's
// heading says of its call.
func TestReadable(t *testing.T) {
	data := session(
		map[string]any{"type": "session_info", "name": "fix \x1b[31mred\x1b[0m\x07 \u202eevil\u202c name"},
		map[string]any{"type": "message", "id": "u1", "message": map[string]any{"role": "user", "content": "run it \x1b[1mnow\x1b[0m"}},
		assistant(textBlock("Text with \x1b[32mcolour\x1b[0m and \u2066isolate\u2069."),
			callBlock("c1", "bash", map[string]any{"command": "go test ./..."}),
			callBlock("c2", "read", map[string]any{"path": "src/x.go"}),
			callBlock("c3", "bash", map[string]any{"command": "make build &&\nmake test"}),
			callBlock("c4", "bash", map[string]any{"command": strings.Repeat("x", 100)}),
			callBlock("c5", "grep", map[string]any{"pattern": "TODO"}),
		),
		result("c1", "bash", "\x1b[32mPASS\x1b[0m\nDownloading 10%\rDownloading 55%\rDownloading 100%\nok \x1b]8;;https://e.example/\x1b\\link\x1b]8;;\x1b\\"),
		result("c2", "read", "package x\n"),
		result("c3", "bash", "built"),
		result("c4", "bash", "long"),
		result("c5", "grep", "found"),
		map[string]any{"type": "message", "message": map[string]any{"role": "bashExecution", "command": "npm i", "output": "\x1b[2K\r[#   ] 1/4\r\x1b[2K\r[####] 4/4\nadded 4 packages\n", "exitCode": 0}},
		map[string]any{"type": "label", "targetId": "u1", "label": "\u202eabc\x1b[0m\x01"},
		map[string]any{"type": "message", "message": map[string]any{"role": "toolResult", "toolCallId": "none", "toolName": "to\u202eol", "content": []any{textBlock("x")}}},
	)
	s := loadBytes(t, data)
	md := export(t, s, Options{})
	checkNoMarkup(t, md)
	for _, want := range []string{
		"### Agent session `test-session`: fix red \\[U+202E\\]evil\\[U+202C\\] name",
		"```text\nrun it now\n```",
		"Text with colour and \\[U+2066\\]isolate\\[U+2069\\].",
		"#### Tool result · `bash` `go test ./...` · `e4`",
		"```\nPASS\nDownloading 100%\nok link\n```",
		"#### Tool result · `read` `src/x.go` · `e5`",
		"#### Tool result · `bash` `make build && …` · `e6`",
		"#### Tool result · `bash` `" + strings.Repeat("x", 60) + "…` · `e7`",
		"#### Tool result · `grep` · `e8`",
		"```\n[####] 4/4\nadded 4 packages\n```",
		"#### User · `u1` · label “\\[U+202E\\]abc”",
		"#### Tool result · `\"to\\u202eol\"` · `e11`",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("missing %q", want)
		}
	}
	if strings.ContainsAny(md, "\x1b\x07\x01\u202e\u202c\u2066\u2069") {
		t.Errorf("a control or bidi character is left:\n%s", md)
	}
	if t.Failed() {
		t.Logf("Markdown:\n%s", md)
	}
}

package htmlpage

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// plainCases are texts at the edge of what plainMarkdown accepts.
var plainCases = []struct {
	src   string
	plain bool
}{
	{"Running the tests to see the current state.", true},
	{"One line.\nAnother line.", true},
	{"First paragraph.\n\n\nSecond, \"quoted\" (and 100% sure)!\n", true},
	{"\n\nLeading blank lines, trailing ones\n\n\n", true},
	{"Non-ASCII, café, 日本語, emoji 🎉.", true},
	{"x = y + z; a-b {c} ^d $e", true},
	{"Visit WWW.example.com today", false},
	{"see https://example.com", false},
	{"a `code` span", true},
	{"`code` first, ``two `ticks` here`` and `a <b> & \"c\"`", true},
	{"`  spaces  ` and ` ` and `\t`", true},
	{"```go\nfence\n```", true},
	{"Before:\n\n```go\nfunc f() {\n\treturn\n}\n```\n\nAfter.", true},
	{"```\n<b> & \"x\"  \n\n  indented\n```", true},
	{"```\n```", true},
	{"```python\n```\n\n- item", true},
	{"```\nunclosed", false},
	{"```go\ncode\n````", false},
	{"```go\ncode\n  ```\n```", false},
	{"```\ncode\n```\nright after", false},
	{"right before\n```\ncode\n```", false},
	{"```go run\ncode\n```", false},
	{"```go \ncode\n```", false},
	{"```\ncar\rriage\n```", false},
	{"```\n~~~\n```", false},
	{"```\nhttp://x in code [a](b)\n```\n\nText: fine.", true},
	{"````\nfour\n````", false},
	{"an `unclosed span", false},
	{"a span `across\nlines`", false},
	{"a `` mismatch `", false},
	{"`a@b.c` in code", false},
	{"`*not emphasis*` and `[not](a link)`", true},
	{"1. a list", false},
	{"- item", true},
	{"- one\n- two `code`\n- three", true},
	{"Intro:\n\n- one\n- two\n\nAfter.", true},
	// A list interrupts a paragraph: the paragraph, then a tight list.
	{"Intro:\n- one", true},
	{"Intro:\n- one\n- two `x`", true},
	{"Two\nlines:\n- one\n- two", true},
	{"- a\n\nIntro:\n- one", true},
	{"Intro:\n- one\n\nAfter.\n- two", true},
	{"Intro:\n- one\n\n```go\nx := 1\n```", true},
	{"Intro:\n- one\nlazy", false},        // the line continues the item
	{"Intro:\n- one\n\n- two", false},     // one loose list
	{"Intro:\n- one\nmore\n- two", false}, // text between items
	{"Intro:\n-  one", false},             // indented item text
	{"Intro:\n- ", false},                 // an empty item does not interrupt
	// Task items (TaskList).
	{"Intro:\n- [x] done", true},
	{"- [ ] todo\n- [x] done\n- [X] Done `x`", true},
	{"- [x] a\n- b", true},
	{"- [x] see [docs]", true},
	{"- [x]", false},
	{"- [x] ", false},
	{"- [x]done", false},
	{"- [y] no", false},
	{"- [ ]  two spaces", false},
	{"- [\t] tab", false},
	{"- [x] 1. step", false},
	{"- [x] [ ] twice", false},
	{"Intro:\n- # heading", false},
	{"- one\nlazy continuation", false},
	{"- one\n\n- two", false},
	{"- one\n\n\n- two", false},
	{"- one\n\nText.\n\n- two", true},
	{"- ", false},
	{"-  two spaces", false},
	{"- - nested", false},
	{"- 1. ordered", false},
	{"- [ ] task", true},
	{"- [x] task", true},
	{"- \tindented", false},
	{"- ```\ncode\n```", false},
	{"-no space", false},
	{"- item\n-", false},
	{"- item\n---", false},
	{"rows[len(rows)-1] panics", true},
	{"a [b] c", true},
	{"[b] at a line's start", false},
	{"a [link](x)", false},
	{"a [ref]\n\n[ref]: https://x", false},
	{"a [ref] with a [ref]: not a definition", false},
	{"![image] alone", true},
	{"customer_id and a__b and x_1", true},
	{"_leading", false},
	{"trailing_", false},
	{"a _b", false},
	{"é_x", false},
	{"a_ b", false},
	{"+ item", false},
	{"Title\n===", false},
	{"Title\n---", false},
	{"    indented code", false},
	{"trailing spaces  \nbreak", false},
	{"a <b>tag</b>", false},
	{"a & b", false},
	{"*emphasis*", false},
	{"snake_case", true},
	{"# heading", false},
	{"> quote", false},
	{"a | table", false},
	{"~~struck~~", false},
	{"mail me@example.com", false},
	{"tab\there, a tab within a line", true},
	{"\tat a line's start: code", false},
	{"a tab at a line's end\t\nnext", false},
	{"a tab at the end\t", false},
	{"The plan: first this, then that.", true},
	{"key: value\nother: 2", true},
	{"head\n:--", false},
	{"x\nhead\n:-:\nbody", false},
	{": at a line's start", false},
	{"see http://example.com", false},
	{"see HTTPS://example.com", false},
	{"ftp://files.example.com/x", false},
	{"a colon: and http without a scheme", false},
	{"broken \xff utf-8", false},
	{"ends with a space ", false},
}

func TestPlainMarkdown(t *testing.T) {
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range plainCases {
		got, ok := plainMarkdown(c.src, r.hl)
		if ok != c.plain {
			t.Errorf("plainMarkdown(%q): plain %v, want %v", c.src, ok, c.plain)
			continue
		}
		if ok {
			checkPlainMarkdown(t, r, c.src, got)
		}
	}
}

// checkPlainMarkdown requires plainMarkdown's html for src to be goldmark's.
func checkPlainMarkdown(tb testing.TB, r *Renderer, src, html string) {
	tb.Helper()
	var want bytes.Buffer
	if err := r.md.Convert([]byte(src), &want); err != nil {
		tb.Fatal(err)
	}
	if html != want.String() {
		tb.Fatalf("plainMarkdown(%q)\n%q\ngoldmark\n%q", src, html, want.String())
	}
}

// FuzzPlainMarkdown: for every text plainMarkdown accepts, goldmark's HTML.
func FuzzPlainMarkdown(f *testing.F) {
	r, err := New()
	if err != nil {
		f.Fatal(err)
	}
	for _, c := range plainCases {
		f.Add(c.src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if html, ok := plainMarkdown(src, r.hl); ok {
			checkPlainMarkdown(t, r, src, html)
		}
	})
}

// TestPlainMarkdownRandom checks texts drawn from the characters
// plainMarkdown accepts, with newlines, blank lines and spaces where they
// matter, and a few it does not: more of them than the fuzzer reaches. One
// draw is of pieces of prose and lists, the other of blocks, most of them
// fenced code, with what can go wrong around and in a fence.
func TestPlainMarkdownRandom(t *testing.T) {
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"a", "Z", "7", " ", " ", "\n", "\n\n", ".", ",", ";", "?", "'", `"`, "%", "/", "(", ")",
		"-", "!", "=", "+", "{", "}", "^", "$", "é", "日", "🎉", "\u00a0", "\u2028", "www", "w.", "--", "==", "1.", "x",
		":", "\t", "http", "https://a.io", "ftp:", "HTTP://x.y", ":/", "a@b.c",
		"`", "``", "```", "`x`", " ` ", "<", "&", "\\", "*", "_", "\r",
		"- ", "\n- ", "\n\n- ", "-  ", "[", "]", "](", "]:", "[x]", "![", "_", "a_b", "__",
		"\n- [ ] ", "\n- [x] ", "- [X] ", "[ ]"}
	prose := func() string {
		var b strings.Builder
		for range 1 + rng.IntN(12) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		return b.String()
	}
	blocks := []string{"Some text.", "- an item\n- another", "a_b [c]", "*x*"}
	langs := []string{"", "go", "js", "python", "nosuchlang", "go run", "go ", "c++"}
	code := []string{"x := 1", "\tindented", "    four", "", "  ", "<b> & \"q\"", "`tick`", "``", "  ```", "````", "~~~",
		"\r", "\x00", "é日", "http://a.io", "- item", "# not a heading", "\t\tdeep"}
	seps := []string{"\n\n", "\n\n", "\n\n\n", "\n"}
	fenced := func() string {
		var b strings.Builder
		for k := range 1 + rng.IntN(4) {
			if k > 0 {
				b.WriteString(seps[rng.IntN(len(seps))])
			}
			if rng.IntN(3) == 0 {
				b.WriteString(blocks[rng.IntN(len(blocks))])
				continue
			}
			b.WriteString("```" + langs[rng.IntN(len(langs))] + "\n")
			for range rng.IntN(4) {
				b.WriteString(code[rng.IntN(len(code))] + "\n")
			}
			if rng.IntN(10) > 0 { // else unclosed
				b.WriteString("```")
			}
		}
		return b.String()
	}
	n := 20000
	if testing.Short() {
		n = 2000
	}
	for _, draw := range []struct {
		name string
		text func() string
	}{{"prose", prose}, {"fenced", fenced}} {
		accepted := 0
		for range n {
			src := draw.text()
			if html, ok := plainMarkdown(src, r.hl); ok {
				checkPlainMarkdown(t, r, src, html)
				accepted++
			}
		}
		if accepted < n/10 {
			t.Fatalf("%s: only %d of %d texts accepted: the test checks little", draw.name, accepted, n)
		}
	}
}

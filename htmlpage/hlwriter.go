package htmlpage

import (
	"strings"

	"github.com/alecthomas/chroma/v2"
)

// writeTokens writes tokens as HTML, byte for byte what chroma's HTML
// formatter writes with classes and no surrounding <pre>, with the types
// in plain written as text, the quotes and ">" left as they are (the
// formatter escapes them, but in text they need no reference) and the
// class names unquoted: each token in a span of its class, split at line
// ends into one span per line, plain text without a span, and < & escaped.
// FuzzTokenWriter holds it to the formatter.
//
// Unquoted because a class of chroma's is a short name (kd, s2, c1) that
// needs no quotes in HTML, and a code-heavy page has spans by the million:
// two bytes each were 3 MB of the 100,000-entry benchmark page.
//
// It is a copy of the formatter's loop because the formatter cannot write
// these bytes (it quotes classes, escapes `"`, `'` and `>`): they would
// take a rewrite of its output (formatterString in hlwriter_test.go: a
// regexp for the classes, a Replacer for the references), and that path
// costs (issue 34; 2-core EPYC shared with other work; `canopy export
// FILE -o OUT`, wall seconds, medians of 5-7 alternating runs, this
// against a binary writing through formatterString): code-10MB 0.234
// against 0.263 (CPU 0.41 against 0.47), a 10 MB Claude Code transcript
// 0.181 against 0.203 (CPU 0.305 against 0.358), a 2 MB one 0.065 against
// 0.074, code-100k 4.5 against 5.4 (3 runs), before-compaction 0.061
// against 0.064, large-session the same: 11-17% of a code-heavy export,
// where the formatter goes through fmt and a []Token copy of the whole
// text split into lines, allocating per token. Writing the tokens alone
// (BenchmarkTokenWriter, this package's plainmd.go and the page's
// index.js): 0.25 ms against 1.41 and 0.09 against 0.41.
func writeTokens(b *strings.Builder, it chroma.Iterator, plain map[chroma.TokenType]bool) {
	// The formatter drops a last line made of one empty token; an empty
	// token is therefore held back until the next one shows it is not that.
	var held *chroma.Token
	afterNewline := true // the previous token ended a line (or there was none)
	for t := it(); t != chroma.EOF; t = it() {
		if held != nil {
			writeToken(b, *held, plain)
			held, afterNewline = nil, false
		}
		if t.Value == "" && afterNewline {
			held = &t
			continue
		}
		writeToken(b, t, plain)
		afterNewline = strings.HasSuffix(t.Value, "\n")
	}
}

// writeToken writes one token: in spans of its class, one per line, or
// escaped text when it has no class.
func writeToken(b *strings.Builder, t chroma.Token, plain map[chroma.TokenType]bool) {
	cls := ""
	if !plain[t.Type] {
		cls = tokenClass(t.Type)
	}
	if cls == "" {
		htmlEscapeCode(b, t.Value)
		return
	}
	v := t.Value
	for {
		line := v
		if i := strings.IndexByte(v, '\n'); i >= 0 {
			line = v[:i+1]
		}
		b.WriteString(`<span class=`)
		b.WriteString(cls)
		b.WriteString(`>`)
		htmlEscapeCode(b, line)
		b.WriteString(`</span>`)
		v = v[len(line):]
		if v == "" {
			return
		}
	}
}

// tokenClass is the CSS class chroma's formatter gives a token type: its
// own, else its nearest ancestor's ("" for none), as Formatter.class.
func tokenClass(t chroma.TokenType) string {
	for t != 0 {
		if cls, ok := chroma.StandardTypes[t]; ok {
			return cls
		}
		t = t.Parent()
	}
	return chroma.StandardTypes[t]
}

// htmlEscapeCode escapes what html.EscapeString does, less the quotes and
// ">", which in text need no reference: "<" and "&" are all that can start
// markup. Code is full of ">" ("=>", "->", ">=", generics, shell
// redirections): three bytes each were 0.7 MB of the code-heavy
// benchmark's page.
func htmlEscapeCode(b *strings.Builder, s string) {
	for {
		i := strings.IndexAny(s, "<&")
		if i < 0 {
			b.WriteString(s)
			return
		}
		b.WriteString(s[:i])
		switch s[i] {
		case '<':
			b.WriteString("&lt;")
		default:
			b.WriteString("&amp;")
		}
		s = s[i+1:]
	}
}

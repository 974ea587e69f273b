package mdpage

import (
	"bytes"
	"html"
	"strings"
	"unicode/utf8"
)

// escaped are the ASCII characters text is written with a backslash
// before: everything that can begin or end inline markup in CommonMark and
// GitHub's flavour (emphasis * _ ~, code `, links and images [ ] !, raw
// HTML and autolinks <, entities &, tables |, math $) or a block (# > at
// any place a line may start). A backslash before ASCII punctuation always
// stands for that character, so escaped text is read as text by any
// CommonMark parser, whatever surrounds it.
var escaped = func() (t [128]bool) {
	for _, c := range "\\`*_~[]!<>&|$#" {
		t[c] = true
	}
	return t
}()

// textWriter writes text as Markdown, escaped. lineStart says whether the
// next character starts a line (of the paragraph or cell being written),
// where a few more characters could start a block.
type textWriter struct {
	sb        bytes.Buffer
	lineStart bool
	flat      bool // a heading or a cell: line breaks are written as spaces
	link      bool // a link's text, where no autolink is made

	// Where the last span of emphasis or strikethrough written ends,
	// and its delimiter (see inlineWriter.delimited).
	closeAt   int
	closeMark string
}

// text writes s, escaped.
func (w *textWriter) text(s string) {
	for {
		line, rest, more := strings.Cut(s, "\n")
		w.line(line)
		if !more {
			return
		}
		w.newline()
		s = rest
	}
}

func (w *textWriter) newline() {
	if w.flat {
		w.sb.WriteByte(' ')
		return
	}
	w.sb.WriteByte('\n')
	w.lineStart = true
}

// raw writes our own markup.
func (w *textWriter) raw(s string) {
	if s == "" {
		return
	}
	w.sb.WriteString(s)
	w.lineStart = false
}

// line writes s, a text without line breaks, escaped.
func (w *textWriter) line(s string) {
	if s == "" {
		return
	}
	if w.lineStart {
		// Leading white space would be dropped by the parser, or make
		// an indented code block at the start of a paragraph.
		s = strings.TrimLeft(s, " \t")
		if s == "" {
			return
		}
		s = w.blockStart(s)
		w.lineStart = false
	}
	w.inline(s)
}

// blockStart writes what s starts with, escaped, if it could start a
// block at a line's start, and returns the rest of s.
func (w *textWriter) blockStart(s string) string {
	switch s[0] {
	case '-', '+', '=':
		// A list item, a setext underline, a thematic break.
		w.sb.WriteByte('\\')
		w.sb.WriteByte(s[0])
		return s[1:]
	}
	// An ordered list item: digits then "." or ")".
	i := 0
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	if i > 0 && i < len(s) && (s[i] == '.' || s[i] == ')') {
		w.sb.WriteString(s[:i])
		w.sb.WriteByte('\\')
		w.sb.WriteByte(s[i])
		return s[i+1:]
	}
	return s
}

// inline writes s with a backslash before each character that could
// start or end inline markup there.
func (w *textWriter) inline(s string) {
	// Written up to s[from], with a backslash before each escaped
	// character. before is the k characters written before s[i] (fewer at
	// the start of the text).
	from := 0
	flush := func(i int) {
		w.sb.WriteString(s[from:i])
		from = i
	}
	before := func(i, k int) string {
		if i-k >= from {
			return s[i-k : i]
		}
		flush(i)
		b := w.sb.Bytes()
		return string(b[max(0, len(b)-k):])
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		esc := false
		switch {
		case c < 128 && escaped[c]:
			esc = true
		case c == ':':
			// "http:", "xmpp:": a scheme, where GitHub's extended
			// autolinks start (http://, https://, ftp://; mailto: and
			// xmpp: before an address, see "@"). Not "Note: ", nor a
			// colon that ends the text: see "/".
			p := before(i, 1)
			esc = p != "" && isAlnum(p[0]) && i+1 < len(s) && s[i+1] != ' ' && s[i+1] != '\t'
		case c == '/':
			// "://" across two texts: the colon was not escaped.
			p := before(i, 2)
			esc = len(p) == 2 && isAlnum(p[0]) && p[1] == ':'
		case c == '.':
			// "www." starts an extended autolink, which runs over the
			// raw text to the next space or "<", a backslash
			// included: the "<" it escapes would start raw HTML.
			esc = strings.EqualFold(before(i, 3), "www")
		case isAlnum(c) && (i > 0 && s[i-1] == '@' || i == 0 && bytes.HasSuffix(w.sb.Bytes(), []byte("@"))):
			// An address (a@b.c, mailto:a@b.c, xmpp:a@b.c) becomes a
			// link after parsing, from the text itself: escapes do not
			// stop it. A word joiner (U+2060, invisible) after the "@"
			// does, where the "@" follows a character of an address;
			// an "@" after a space (a mention) is left as it is.
			if p := before(i, 2); !w.link && len(p) == 2 && isEmailChar(p[0]) {
				flush(i)
				w.sb.WriteString("\u2060")
			}
		case c == 0xe2:
			if r, size := utf8.DecodeRuneInString(s[i:]); bidi(r) {
				flush(i)
				w.sb.WriteString(`\[` + bidiName(r)[1:len(bidiName(r))-1] + `\]`)
				from = i + size
				i += size - 1
			}
		}
		if esc {
			flush(i)
			w.sb.WriteByte('\\')
		}
	}
	flush(len(s))
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// isEmailChar: the characters of an address's local part, as GitHub's
// extended email autolink reads it.
func isEmailChar(c byte) bool { return isAlnum(c) || c == '.' || c == '+' || c == '-' || c == '_' }

// inlineText is s as escaped Markdown on one line: for text we place in
// headings, list items and notes.
func inlineText(s string) string {
	w := textWriter{flat: true}
	w.text(flat(s))
	return w.sb.String()
}

// linkText is inlineText for the text of a link we make: no autolink is
// made there, so an address needs no word joiner.
func linkText(s string) string {
	w := textWriter{flat: true, link: true}
	w.text(flat(s))
	return w.sb.String()
}

// htmlText escapes s for our own <summary>: it is an HTML block, so
// Markdown is not read there, and entities are.
func htmlText(s string) string { return html.EscapeString(flat(s)) }

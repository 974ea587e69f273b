package mdexport

import (
	"html"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Length is how Limit counts a text: in UTF-16 code units, with every line
// break counted twice. Reports differ on what GitHub's "maximum is 65536
// characters" counts (code points, UTF-16 units as a browser's textarea
// does, or bytes against a larger limit), and a browser submits a form's
// text with CR LF line breaks. This count is at least each of those for
// any text: a code point is one or two units, a line break is submitted as
// two characters, and UTF-8 needs at most three bytes per unit, so a text
// of 65,536 by this count is also under 65,536 code points, 65,536 UTF-16
// units with CR LF breaks, and 262,144 bytes.
func Length(s string) int {
	n := 0
	for _, r := range s {
		n += runeLength(r)
	}
	return n
}

func runeLength(r rune) int {
	switch {
	case r == '\n':
		return 2
	case r >= 0x10000:
		return 2
	}
	return 1
}

// clean makes session text fit for Markdown: valid UTF-8 (broken bytes
// become U+FFFD, as a browser shows them), line breaks as LF (a lone CR is
// a line break to Markdown, and it must not end a fence's line where we
// do not expect it), and no NUL (which Markdown reads as U+FFFD anyway).
func clean(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if strings.ContainsAny(s, "\r\x00") {
		s = strings.ReplaceAll(s, "\r\n", "\n")
		s = strings.ReplaceAll(s, "\r", "\n")
		s = strings.ReplaceAll(s, "\x00", "\uFFFD")
	}
	return s
}

// flat is clean text on one line: for headings, list items and summaries.
func flat(s string) string {
	s = clean(s)
	if strings.ContainsAny(s, "\n\t") {
		s = strings.NewReplacer("\n", " ", "\t", " ").Replace(s)
	}
	return s
}

// shorten cuts a one-line text (a label, a URL shown as text) to n runes.
func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for k := 0; k < n; k++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i] + "…"
}

// longestRun is the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return longest
}

// fence puts text in a fenced code block that nothing in it can close: a
// fence closes only on a line of at least as many of the same character,
// and ours is longer than any run of that character anywhere in the text.
// Backticks unless tildes make a shorter fence. info (a language) is ours,
// made of [a-z0-9+#.-] only: a backtick fence's info may not hold a
// backtick. The text is clean (no CR: a lone CR would start a line).
func fence(text, info string) string {
	b := max(3, longestRun(text, '`')+1)
	t := max(3, longestRun(text, '~')+1)
	mark := strings.Repeat("`", b)
	if t < b {
		mark = strings.Repeat("~", t)
	}
	text = strings.TrimRight(text, "\n")
	var sb strings.Builder
	sb.Grow(len(text) + 2*len(mark) + len(info) + 3)
	sb.WriteString(mark)
	sb.WriteString(info)
	sb.WriteByte('\n')
	if text != "" {
		sb.WriteString(text)
		sb.WriteByte('\n')
	}
	sb.WriteString(mark)
	return sb.String()
}

// fenceInfo keeps a language name only if it is plain: letters, digits and
// + # . - _ (c++, c#, objective-c), at most 32 of them.
func fenceInfo(lang string) string {
	if len(lang) > 32 {
		return ""
	}
	for i := 0; i < len(lang); i++ {
		c := lang[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("+#.-_", c) >= 0) {
			return ""
		}
	}
	return strings.ToLower(lang)
}

// codeSpan writes s as a code span: the delimiter is one backtick longer
// than any run of backticks in s, so no run inside can close it, and a
// space pads both ends when s starts or ends with a backtick or a space
// (the parser removes exactly one from each end). In a table cell a pipe
// must be escaped even in code (GFM splits cells first); the parser
// removes the backslash again. An empty s has no code span: "".
func codeSpan(s string, inTable bool) string {
	s = flat(s)
	if s == "" {
		return ""
	}
	if inTable {
		s = strings.ReplaceAll(s, "|", `\|`)
	}
	mark := strings.Repeat("`", longestRun(s, '`')+1)
	pad := ""
	allSpace := strings.Trim(s, " ") == ""
	if !allSpace && (s[0] == '`' || s[len(s)-1] == '`' || s[0] == ' ' && s[len(s)-1] == ' ') {
		pad = " "
	}
	return mark + pad + s + pad + mark
}

// idSpan shows an entry id, a model name or another short session string
// as code, cut at 200 characters. One with control characters (a line
// break would end a heading) is shown Go-quoted.
func idSpan(id string) string {
	id = shorten(id, 200)
	if id == "" || strings.IndexFunc(id, func(r rune) bool { return r < ' ' || r == 0x7f }) >= 0 || !utf8.ValidString(id) {
		return codeSpan(strconv.Quote(id), false)
	}
	return codeSpan(id, false)
}

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
	sb        strings.Builder
	lineStart bool
	flat      bool // a heading or a cell: line breaks are written as spaces
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
		switch s[0] {
		case '-', '+', '=':
			// A list item, a setext underline, a thematic break.
			w.sb.WriteByte('\\')
			w.sb.WriteByte(s[0])
			s = s[1:]
		default:
			// An ordered list item: digits then "." or ")".
			i := 0
			for i < len(s) && '0' <= s[i] && s[i] <= '9' {
				i++
			}
			if i > 0 && i < len(s) && (s[i] == '.' || s[i] == ')') {
				w.sb.WriteString(s[:i])
				w.sb.WriteByte('\\')
				w.sb.WriteByte(s[i])
				s = s[i+1:]
			}
		}
		w.lineStart = false
	}
	from := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		esc := c < 128 && escaped[c]
		// "scheme://" is where GitHub's extended autolinks start: escaping
		// the colon keeps text that was not a link from becoming one.
		if c == ':' && strings.HasPrefix(s[i+1:], "//") {
			esc = true
		}
		if esc {
			w.sb.WriteString(s[from:i])
			w.sb.WriteByte('\\')
			from = i
		}
	}
	w.sb.WriteString(s[from:])
}

// inlineText is s as escaped Markdown on one line: for text we place in
// headings, list items and notes.
func inlineText(s string) string {
	w := textWriter{flat: true}
	w.text(flat(s))
	return w.sb.String()
}

// htmlText escapes s for our own <summary>: it is an HTML block, so
// Markdown is not read there, and entities are.
func htmlText(s string) string { return html.EscapeString(flat(s)) }

// safeDestination reports whether a link target may stay a link: web and
// mail links only. Everything else (javascript:, vbscript:, data:, file:,
// relative and unknown schemes) is shown as text. It returns the target
// trimmed as it will be written.
func safeDestination(dest string) (string, bool) {
	d := strings.TrimFunc(dest, func(r rune) bool { return r <= ' ' || r == 0x7f })
	lower := strings.ToLower(d)
	for _, scheme := range []string{"https://", "http://", "mailto:"} {
		if strings.HasPrefix(lower, scheme) && len(d) > len(scheme) {
			return d, true
		}
	}
	return "", false
}

// destination writes a safe link target (see safeDestination) for an
// inline link "[text](here)": white space and control characters
// percent-encoded, and the characters that could end the target, open
// an entity, split a table cell or escape something escaped with a
// backslash. The scheme at its start is written as it is, so the link's
// target starts with it whatever parser reads it.
func destination(d string) string {
	var sb strings.Builder
	for i := 0; i < len(d); i++ {
		c := d[i]
		switch {
		case c <= ' ' || c == 0x7f:
			sb.WriteString("%" + strings.ToUpper(strconv.FormatUint(uint64(c)|0x100, 16)[1:]))
		case c == '&' && !entityLike(d[i:]):
			// A query's separator, left as it is when it cannot be
			// read as an entity ("&copy;" would be ©).
			sb.WriteByte(c)
		case strings.IndexByte("\\()<>&|\"'[]`", c) >= 0:
			sb.WriteByte('\\')
			sb.WriteByte(c)
		default:
			sb.WriteByte(c)
		}
	}
	return sb.String()
}

// entityLike reports whether s starts with something an entity reference
// could be read from: "&", letters, digits or "#", then ";".
func entityLike(s string) bool {
	for i := 1; i < len(s) && i < 40; i++ {
		c := s[i]
		switch {
		case c == ';':
			return i > 1
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '#':
		default:
			return false
		}
	}
	return false
}

// thousands writes n with thousands separators: 12,345.
func thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var sb strings.Builder
	if neg {
		sb.WriteByte('-')
	}
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			sb.WriteByte(',')
		}
		sb.WriteByte(s[i])
	}
	return sb.String()
}

// plural is "1 block", "2 blocks".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return thousands(n) + " " + many
}

// cutText keeps the start of s that counts at most limit (Length), at a
// line's end when one is in its second half; removed is how many
// characters (code points) were cut.
func cutText(s string, limit int) (kept string, removed int) {
	n := 0
	for i, r := range s {
		n += runeLength(r)
		if n > limit {
			kept = s[:i]
			if j := strings.LastIndexByte(kept, '\n'); j > 0 && j >= len(kept)/2 {
				kept = kept[:j]
			}
			return kept, utf8.RuneCountInString(s[len(kept):])
		}
	}
	return s, 0
}

// lineCount is the number of lines of s, without its final line break.
func lineCount(s string) int {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return 0
	}
	return strings.Count(s, "\n") + 1
}

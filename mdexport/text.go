package mdexport

import (
	"bytes"
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
// do not expect it), no NUL (which Markdown reads as U+FFFD anyway), and
// no terminal escape sequences (colours, titles, hyperlinks: ESC [ …, ESC ]
// …) or other control characters but tab and line break, which a browser
// would show as nothing or as boxes.
func clean(s string) string { return cleanText(s, false) }

// cleanOutput is clean for what a program printed: a lone CR returns to
// the start of the line as on a terminal, so a progress bar redrawn a
// hundred times shows as its last state, and so do backspaces and the
// escape sequences that erase a line or move along it (ESC [ K, G, C, D).
func cleanOutput(s string) string { return cleanText(s, true) }

func cleanText(s string, terminal bool) string {
	if !needsCleaning(s) {
		return s
	}
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if terminal && redraws(s) {
		return emulate(s)
	}
	var sb strings.Builder
	sb.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
				continue
			}
			sb.WriteByte('\n')
			i++
		case c == 0:
			sb.WriteString("\uFFFD")
			i++
		case c == 0x1b:
			i, _, _ = escapeSequence(s, i)
		case c < ' ' && c != '\t' && c != '\n' || c == 0x7f:
			i++
		case c == 0xc2 && i+1 < len(s) && s[i+1] < 0xa0:
			i += 2 // a C1 control, U+0080 to U+009F
		default:
			sb.WriteByte(c)
			i++
		}
	}
	return sb.String()
}

// needsCleaning reports whether s has anything clean changes.
func needsCleaning(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < ' ' && c != '\t' && c != '\n' || c == 0x7f || c == 0xc2 && i+1 < len(s) && s[i+1] < 0xa0 {
			return true
		}
	}
	return !utf8.ValidString(s)
}

// redraws reports whether output s moves back on a line: a lone CR, a
// backspace or an escape sequence.
func redraws(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\r':
			if i+1 == len(s) || s[i+1] != '\n' {
				return true
			}
		case '\b', 0x1b:
			return true
		}
	}
	return false
}

// emulate writes valid UTF-8 output s as a terminal would show it, line by
// line: each character is written at the cursor, over what was there; a
// lone CR takes the cursor back to the line's start, a backspace one
// column back; ESC [ K erases (to the end, from the start, or all of the
// line), ESC [ G, C and D move the cursor; other escape sequences and
// control characters show nothing. Every character is one column (wide
// characters are not measured), and other cursor motions (up, down) are
// not followed: their lines show one after another.
func emulate(s string) string {
	var sb strings.Builder
	sb.Grow(len(s))
	var line []rune
	cur := 0
	// Spaces written to reach a column past a line's end, at most as many
	// as the output has bytes: a few bytes of ESC [ 9999 G must not make
	// kilobytes.
	pad := len(s)
	put := func(r rune) {
		for len(line) < cur && pad > 0 {
			line = append(line, ' ')
			pad--
		}
		cur = min(cur, len(line))
		if cur < len(line) {
			line[cur] = r
		} else {
			line = append(line, r)
		}
		cur++
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\n':
			sb.WriteString(string(line))
			sb.WriteByte('\n')
			line, cur = line[:0], 0
			i++
		case c == '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
				continue
			}
			cur = 0
			i++
		case c == '\b':
			cur = max(0, cur-1)
			i++
		case c == 0x1b:
			var final byte
			var n int
			i, final, n = escapeSequence(s, i)
			switch final {
			case 'K':
				switch n {
				case 0, -1:
					line = line[:min(cur, len(line))]
				case 1:
					for k := 0; k <= cur && k < len(line); k++ {
						line[k] = ' '
					}
				case 2:
					line = line[:0]
				}
			case 'G':
				cur = max(1, n) - 1
			case 'C':
				cur += max(1, n)
			case 'D':
				cur = max(0, cur-max(1, n))
			}
		case c == 0:
			put('\uFFFD')
			i++
		case c < ' ' && c != '\t' || c == 0x7f:
			i++
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			if r < 0xa0 && r >= 0x80 {
				i += size // a C1 control
				continue
			}
			put(r)
			i += size
		}
	}
	sb.WriteString(string(line))
	return sb.String()
}

// escapeSequence reads the escape sequence that starts at s[i] (ESC, as
// ECMA-48 defines them): where it ends and, for a control sequence (ESC
// [), its final byte and first parameter (-1 when it has none). A
// sequence cut short ends where it stops being one; a string (ESC ] …,
// as in titles and hyperlinks, ESC P, X, ^ and _) ends at BEL or ESC \,
// or else at the end of its line.
func escapeSequence(s string, i int) (end int, final byte, param int) {
	j := i + 1
	if j == len(s) {
		return j, 0, -1
	}
	switch c := s[j]; {
	case c == '[':
		j++
		param = -1
		for ; j < len(s) && s[j] >= '0' && s[j] <= '9'; j++ {
			param = min(max(param, 0)*10+int(s[j]-'0'), 1<<20)
		}
		for j < len(s) && s[j] >= 0x30 && s[j] <= 0x3f {
			j++ // other parameters: not used
		}
		for j < len(s) && s[j] >= 0x20 && s[j] <= 0x2f {
			j++
		}
		if j < len(s) && s[j] >= 0x40 && s[j] <= 0x7e {
			return j + 1, s[j], param
		}
		return j, 0, -1
	case c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_':
		for j++; j < len(s); j++ {
			switch s[j] {
			case 0x07:
				return j + 1, 0, -1
			case '\n':
				return j, 0, -1
			case 0x1b:
				if j+1 < len(s) && s[j+1] == '\\' {
					return j + 2, 0, -1
				}
				return j, 0, -1
			}
		}
		return j, 0, -1
	case c >= 0x20 && c <= 0x2f:
		for j < len(s) && s[j] >= 0x20 && s[j] <= 0x2f {
			j++
		}
		if j < len(s) && s[j] >= 0x30 && s[j] <= 0x7e {
			return j + 1, 0, -1
		}
		return j, 0, -1
	case c >= 0x30 && c <= 0x7e:
		return j + 1, 0, -1
	}
	return j, 0, -1
}

// bidi reports whether r is a bidirectional embedding, override or
// isolate (U+202A to U+202E, U+2066 to U+2069): in a heading or a name it
// could make the text read in another order than it is written.
func bidi(r rune) bool {
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

// bidiName is how a bidi control is shown: "[U+202E]".
func bidiName(r rune) string {
	return "[U+" + strings.ToUpper(strconv.FormatInt(int64(r), 16)) + "]"
}

// flat is clean text on one line: for headings, list items and summaries.
// Bidi controls are shown by name.
func flat(s string) string {
	s = clean(s)
	if strings.ContainsAny(s, "\n\t") {
		s = strings.NewReplacer("\n", " ", "\t", " ").Replace(s)
	}
	if strings.IndexByte(s, 0xe2) >= 0 && strings.IndexFunc(s, bidi) >= 0 { // their first byte in UTF-8
		var sb strings.Builder
		for _, r := range s {
			if bidi(r) {
				sb.WriteString(bidiName(r))
			} else {
				sb.WriteRune(r)
			}
		}
		s = sb.String()
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
// + # . - _ (c++, c#, objective-c), at most 32 of them. The languages
// GitHub draws rather than shows (a diagram, a map that fetches tiles, a
// 3D model, a formula) become text: what a session holds is shown as the
// text it is.
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
	lang = strings.ToLower(lang)
	if liveViewers[lang] {
		return "text"
	}
	return lang
}

// liveViewers are the fence languages GitHub renders as something other
// than code: Mermaid diagrams (and .mmd files), GeoJSON and TopoJSON maps,
// STL models, and math.
var liveViewers = map[string]bool{
	"mermaid": true, "mmd": true, "geojson": true, "topojson": true, "stl": true, "math": true,
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
// break would end a heading) or bidi controls is shown Go-quoted.
func idSpan(id string) string {
	id = shorten(id, 200)
	if id == "" || strings.IndexFunc(id, func(r rune) bool { return r < ' ' || r >= 0x7f && r < 0xa0 || bidi(r) }) >= 0 || !utf8.ValidString(id) {
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

package mdpage

// Fences, code spans and one-line text: session text written into
// Markdown so that nothing in it can end the construct it is in.

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

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

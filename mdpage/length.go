package mdpage

import (
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

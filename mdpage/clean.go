package mdpage

import (
	"strings"
	"unicode/utf8"
)

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

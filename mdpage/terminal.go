package mdpage

import (
	"strings"
	"unicode/utf8"
)

// What a terminal shows of a program's output: the Markdown export shows a
// progress bar redrawn a hundred times as its last state.

// emulate writes valid UTF-8 output s as a terminal would show it, line by
// line: each character is written at the cursor, over what was there; a
// lone CR takes the cursor back to the line's start, a backspace one
// column back; ESC [ K erases (to the end, from the start, or all of the
// line), ESC [ G, C and D move the cursor; other escape sequences and
// control characters show nothing. Every character is one column (wide
// characters are not measured), and other cursor motions (up, down) are
// not followed: their lines show one after another.
func emulate(s string) string {
	// Spaces written to reach a column past a line's end, at most as many
	// as the output has bytes: a few bytes of ESC [ 9999 G must not make
	// kilobytes.
	t := screen{pad: len(s)}
	t.sb.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\n':
			t.newline()
			i++
		case c == '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
				continue
			}
			t.cur = 0
			i++
		case c == '\b':
			t.cur = max(0, t.cur-1)
			i++
		case c == 0x1b:
			var final byte
			var n int
			i, final, n = escapeSequence(s, i)
			t.control(final, n)
		case c == 0:
			t.put('\uFFFD')
			i++
		case c < ' ' && c != '\t' || c == 0x7f:
			i++
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			if r < 0xa0 && r >= 0x80 {
				i += size // a C1 control
				continue
			}
			t.put(r)
			i += size
		}
	}
	t.sb.WriteString(string(t.line))
	return t.sb.String()
}

// screen is emulate's terminal: the lines written so far, the line under
// the cursor and the cursor's column on it.
type screen struct {
	sb   strings.Builder
	line []rune
	cur  int
	pad  int // spaces left to pad with (see emulate)
}

// put writes r at the cursor, over what is there, padding the line with
// spaces up to the cursor while pad lasts, and moves the cursor on.
func (t *screen) put(r rune) {
	for len(t.line) < t.cur && t.pad > 0 {
		t.line = append(t.line, ' ')
		t.pad--
	}
	t.cur = min(t.cur, len(t.line))
	if t.cur < len(t.line) {
		t.line[t.cur] = r
	} else {
		t.line = append(t.line, r)
	}
	t.cur++
}

// newline ends the line under the cursor and starts an empty one.
func (t *screen) newline() {
	t.sb.WriteString(string(t.line))
	t.sb.WriteByte('\n')
	t.line, t.cur = t.line[:0], 0
}

// control follows a control sequence with final byte final and first
// parameter n: ESC [ K erases, ESC [ G, C and D move the cursor; the
// others show nothing.
func (t *screen) control(final byte, n int) {
	switch final {
	case 'K':
		switch n {
		case 0, -1:
			t.line = t.line[:min(t.cur, len(t.line))]
		case 1:
			for k := 0; k <= t.cur && k < len(t.line); k++ {
				t.line[k] = ' '
			}
		case 2:
			t.line = t.line[:0]
		}
	case 'G':
		t.cur = max(1, n) - 1
	case 'C':
		t.cur += max(1, n)
	case 'D':
		t.cur = max(0, t.cur-max(1, n))
	}
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

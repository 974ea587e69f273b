package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// termSafe escapes the control characters in s (C0 but tab, DEL, C1, and
// invalid UTF-8) the way Go quotes them (\x1b, \u009b), and leaves every
// printable character as it is. Session text (names, ids, paths, models,
// messages in diagnostics) is written by models, tools and web pages: a
// terminal must not run the escape sequences it may hold.
func termSafe(s string) string {
	clean := true
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if unsafeRune(r, n) {
			clean = false
			break
		}
		i += n
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case unsafeRune(r, n):
			q := strconv.QuoteRuneToASCII(r) // '\x1b', '\u009b'
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// unsafeRune reports a rune a terminal may act on rather than print.
// Newlines are escaped too: one message is one line.
func unsafeRune(r rune, size int) bool {
	switch {
	case r == utf8.RuneError && size == 1:
		return true
	case r == '\t':
		return false
	case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0:
		return true
	case r == '\u2028', r == '\u2029':
		return true
	// Bidirectional overrides and isolates reorder what is shown
	// (CVE-2021-42574, "Trojan Source").
	case r >= '\u202a' && r <= '\u202e', r >= '\u2066' && r <= '\u2069':
		return true
	}
	return false
}

// printLine writes one line to w, built from format and args, with the
// control characters of the arguments escaped.
func printLine(w io.Writer, format string, args ...any) {
	line := termSafe(fmt.Sprintf(strings.TrimSuffix(format, "\n"), args...))
	io.WriteString(w, line+"\n")
}

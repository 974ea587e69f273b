// Package text holds the small wording helpers every package that writes
// for people uses: numbers with thousands separators, counted nouns, and
// strings defaulted, prefixed or put on one line. One place, so that a
// count reads the same on a page, in an archive index and in a Markdown
// export.
package text

import (
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Thousands writes f as %.0f does, with a comma between each group of
// three digits: 1234567 is "1,234,567".
func Thousands(f float64) string {
	var buf [32]byte
	return string(AppendThousands(buf[:0], f))
}

// AppendThousands appends Thousands(f) to b. Without fmt: the small print
// of an assistant message has four such numbers, and fmt was a third of
// its time.
func AppendThousands(b []byte, f float64) []byte {
	var num [32]byte
	var s []byte
	if f == math.Trunc(f) && math.Abs(f) < 1<<53 && !(f == 0 && math.Signbit(f)) {
		// A whole number, as token counts are: the digits %.0f writes,
		// without the float formatting.
		s = strconv.AppendInt(num[:0], int64(f), 10)
	} else {
		s = strconv.AppendFloat(num[:0], f, 'f', 0, 64) // as %.0f
	}
	if len(s) > 0 && s[0] == '-' {
		b, s = append(b, '-'), s[1:]
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b = append(b, ',')
		}
		b = append(b, c)
	}
	return b
}

// Count writes n with the noun that fits it: "1 entry", "2,048 entries".
func Count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return Thousands(float64(n)) + " " + many
}

// Or is s, or def when s is empty.
func Or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// Prefixed is prefix+s, or nothing when s is empty.
func Prefixed(prefix, s string) string {
	if s == "" {
		return ""
	}
	return prefix + s
}

// OneLine replaces each line break and tab in s with a space, keeping
// every other character where it was.
func OneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' || r == '\r' {
			return ' '
		}
		return r
	}, s)
}

// Clip folds each run of white space in s to one space and cuts the result
// to at most n runes, the last of them an ellipsis when it was cut.
func Clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n-1])) + "…"
}

// Spent is a time spent, as the page's figures and the comparison of two
// branches write it: "52s", "14 min", "2 h 05 min".
func Spent(d time.Duration) string {
	switch {
	case d < time.Minute:
		return strconv.Itoa(int(d.Seconds())) + "s"
	case d < time.Hour:
		return strconv.Itoa(int(d.Minutes())) + " min"
	}
	m := int(d.Minutes()) % 60
	return strconv.Itoa(int(d.Hours())) + " h " + string(rune('0'+m/10)) + string(rune('0'+m%10)) + " min"
}

package render

import (
	"strings"
	"testing"
)

// The reference's wording, written the obvious way: the whole text put on
// one line, trimmed, then cut. flatten and cut must say the same while
// copying only what they keep.
func flattenSpec(s string, n int) string {
	s = strings.TrimSpace(strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' || r == '\r' {
			return ' '
		}
		return r
	}, s))
	return cutSpec(s, n)
}

func cutSpec(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "..."
	}
	return s
}

var rowTextCases = []string{
	"", " ", "short", "  padded\n\t", strings.Repeat("x", 100), strings.Repeat("x", 101),
	strings.Repeat("x", 100) + "   \n ", strings.Repeat("y", 99) + " z", strings.Repeat("é", 150),
	"\n\nline one\nline two\r\n", strings.Repeat("ab ", 40) + "\xff\xfe tail", "\xff" + strings.Repeat("\xc3", 120),
	strings.Repeat(" ", 200) + "late", "\u3000ideographic space\u3000",
}

func TestFlattenAndCut(t *testing.T) {
	for _, s := range rowTextCases {
		for _, n := range []int{0, 1, 5, 40, 100} {
			if got, want := flatten(s, n), flattenSpec(s, n); got != want {
				t.Errorf("flatten(%q, %d) = %q, want %q", s, n, got, want)
			}
			if got, want := cut(s, n), cutSpec(s, n); got != want {
				t.Errorf("cut(%q, %d) = %q, want %q", s, n, got, want)
			}
		}
	}
}

func FuzzFlatten(f *testing.F) {
	for _, s := range rowTextCases {
		f.Add(s, 100)
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		n = max(0, n%200)
		if got, want := flatten(s, n), flattenSpec(s, n); got != want {
			t.Errorf("flatten(%q, %d) = %q, want %q", s, n, got, want)
		}
		if got, want := cut(s, n), cutSpec(s, n); got != want {
			t.Errorf("cut(%q, %d) = %q, want %q", s, n, got, want)
		}
	})
}

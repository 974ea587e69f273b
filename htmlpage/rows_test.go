package htmlpage

import (
	"strings"
	"testing"

	"canopy/sessiontree"
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

// TestRowWithoutEnvelope: a gateway's envelope above a prompt is not the
// row's text, so that rows can be told apart; a prompt without one reads
// as the reference writes it.
func TestRowWithoutEnvelope(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"System: [2026-04-05 10:00:00 GMT+7] WhatsApp gateway connected\n\nConversation info (untrusted metadata):\n```json\n{\"sender\": \"+62812\"}\n```\n\n[WhatsApp +62812 2026-04-05 10:02] call Ana at five", "user: call Ana at five"},
		{"  plain\nprompt", "user: plain prompt"},
	} {
		e := &sessiontree.Entry{Type: sessiontree.TypeMessage, Role: sessiontree.RoleUser, Detail: &sessiontree.Detail{}}
		b := &sessiontree.Body{Message: &sessiontree.Message{Role: sessiontree.RoleUser, Content: sessiontree.Blocks{{Type: "text", Text: c.text}}}}
		if got := rowOf(e, b).text; got != c.want {
			t.Errorf("row of %q: %q, want %q", c.text, got, c.want)
		}
	}
}

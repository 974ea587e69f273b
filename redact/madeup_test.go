// Made-up values: stand-ins that tests and documentation name as such,
// templates with a repeated group, hex in both cases; and the real values
// next to them that must still be found.

package redact

import (
	"fmt"
	"strings"
	"testing"
)

// TestMadeUpValues: a value the name calls fake, a template that repeats
// one group, hex digits in both cases are left alone; the same values
// under plain names, and real tokens of the same shapes, are not.
func TestMadeUpValues(t *testing.T) {
	r := newRedactor(t)
	for seed := uint64(1); seed <= 20; seed++ {
		g := newFakeGen(seed)
		// (no x: a random xxxx would make it a placeholder)
		v := g.str("abcdefghijkmnpqrstuvwyz23456789", 20) + g.str(csUpper, 4) + g.str(csDigit, 2)
		hex40 := g.str(csHex, 40)
		mixedHex := strings.ToUpper(hex40[:20]) + hex40[20:] + "a1"
		name := fmt.Sprintf("seed %d", seed)
		for _, text := range []string{
			`nonMatchingToken := "` + v + `"`,
			`NON_MATCHING_SECRET=` + v,
			`fakeToken = "` + v + `"`,
			`dummy_api_key: ` + v,
			`mockApiKey = '` + v + `'`,
			`INVALID_PASSWORD=` + v,
			`"token3": "xoxp-1234-1234-1234-` + g.str(csHex, 32) + `"`,
			`license_key = "` + g.str(csUpper, 5) + "-ABCD-ABCD-ABCD-" + g.str(csUpper+csDigit, 5) + `"`,
			`meraki-api-key: ` + mixedHex,
			`auth_token = 0x` + mixedHex,
		} {
			expectNone(t, r, name, text)
		}
		for _, c := range []struct{ kind, secret, text string }{
			{"generic-secret", v, `matchingToken := "` + v + `"`},
			{"generic-secret", v, `mockingbird_token = "` + v + `"`},
			{"generic-secret", v, `invalidate_secret = "` + v + `"`},
			{"generic-secret", hex40, `api_token: ` + hex40},
			{"generic-secret", strings.ToUpper(hex40), `AUTH_TOKEN=` + strings.ToUpper(hex40)},
		} {
			expectOne(t, r, name+" "+c.text, c.kind, c.secret, c.text)
		}
		slack := "xoxp-" + g.digits(12) + "-" + g.digits(12) + "-" + g.digits(13) + "-" + g.str(csHex, 32)
		if _, rep := r.Text("SLACK_TOKEN=" + slack); len(rep.Findings) == 0 {
			t.Errorf("%s: %s not found", name, slack)
		}
	}
}

func TestRepeatedGroup(t *testing.T) {
	for _, c := range []struct {
		v    string
		want bool
	}{
		{"12345678-ABCD-ABCD-ABCD-1234567890AB", true},
		{"xoxp-1234-1234-1234-4ddbc191d40ee098cbaae6f3523ada2d", true},
		{"A3-XXXXXX-XXXXX-XXXXX-XXXXX", true},
		{"abc.abc.abc", true},
		{"ABCD-ABCD-EFGH-ABCD", false}, // not in a row
		{"ab-ab-ab-ab", false},         // groups of 2: dates, versions
		{"ABCDABCDABCD", false},        // no separators: base64 of repeated bytes has such runs too
		{"xoxb-123456789012-123456789013-abc", false},
		{"", false},
	} {
		if got := repeatedGroup(c.v); got != c.want {
			t.Errorf("repeatedGroup(%q) = %v, want %v", c.v, got, c.want)
		}
	}
}

func TestIdentWords(t *testing.T) {
	for _, c := range []struct{ ident, want string }{
		{"nonMatchingToken", "non Matching Token"},
		{"NON_MATCHING_TOKEN", "NON MATCHING TOKEN"},
		{"mock-api.key2", "mock api key2"},
		{"apiKey2Value", "api Key2 Value"},
		{"$fake_token", "fake token"},
		{"__a__", "a"},
		{"", ""},
	} {
		var got []string
		for w := range identWords(c.ident) {
			got = append(got, w)
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("identWords(%q) = %q, want %q", c.ident, got, c.want)
		}
	}
}

// Character sets and the small tests on text that the matchers share:
// classes of characters, entropy, case-insensitive search, quotes, lines.

package redact

import (
	"math"
	"strings"
)

type charset [256]bool

func mkset(spec string) *charset {
	var cs charset
	for i := 0; i < len(spec); i++ {
		if i+2 < len(spec) && spec[i+1] == '-' {
			for c := int(spec[i]); c <= int(spec[i+2]); c++ {
				cs[c] = true
			}
			i += 2
			continue
		}
		cs[spec[i]] = true
	}
	return &cs
}

const (
	setAlnum      = iota
	setWord       // A-Za-z0-9_
	setB64URL     // A-Za-z0-9_-
	setB64        // A-Za-z0-9+/
	setHex        // 0-9a-fA-F
	setHexLower   // 0-9a-f
	setUpperDigit // A-Z0-9
	setAlnumDash  // A-Za-z0-9-
	setBearer     // RFC 6750 b64token
	setHeaderValue
	setValue   // generic assignment value characters
	setIdent   // identifier tail characters
	setWebhook // webhook path characters
	setBech32Upper
	setScheme
	setUser // a user name in Basic credentials
	nSets
)

var sets = [nSets]*charset{
	setAlnum:       mkset("A-Za-z0-9"),
	setWord:        mkset("A-Za-z0-9_"),
	setB64URL:      mkset("A-Za-z0-9_-"),
	setB64:         mkset("A-Za-z0-9+/"),
	setHex:         mkset("0-9a-fA-F"),
	setHexLower:    mkset("0-9a-f"),
	setUpperDigit:  mkset("A-Z0-9"),
	setAlnumDash:   mkset("A-Za-z0-9-"),
	setBearer:      mkset("A-Za-z0-9._~+/=-"),
	setHeaderValue: mkset("A-Za-z0-9._~+/=@-"),
	setValue:       valueSet(),
	setIdent:       mkset("A-Za-z0-9_.-"),
	setWebhook:     mkset("A-Za-z0-9_/+-"),
	setBech32Upper: mkset("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"),
	setScheme:      mkset("A-Za-z0-9+.-"),
	setUser:        mkset("A-Za-z0-9._@+-"),
}

// valueSet: printable ASCII except blanks, quotes and the punctuation that
// ends a value in code, URLs and shells.
func valueSet() *charset {
	var cs charset
	for c := 0x21; c < 0x7f; c++ {
		cs[c] = true
	}
	for _, c := range []byte("\"'`,;()<>[]{}\\&|") {
		cs[c] = false
	}
	return &cs
}

func isAlnum(b byte) bool { return sets[setAlnum][b] }

func entropy(s string) float64 {
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	n := float64(len(s))
	h := 0.0
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}

func classes(s string) (lower, upper, digit bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z':
			lower = true
		case 'A' <= c && c <= 'Z':
			upper = true
		case '0' <= c && c <= '9':
			digit = true
		}
	}
	return
}

func allIn(s string, id int) bool {
	cs := sets[id]
	for i := 0; i < len(s); i++ {
		if !cs[s[i]] {
			return false
		}
	}
	return true
}

func exactSet(v string, id, n int) bool { return len(v) == n && allIn(v, id) }

func mixedCase(s string) bool {
	l, u, _ := classes(s)
	return l && u
}

func hasDigitLetter(s string) bool {
	l, u, dg := classes(s)
	return dg && (l || u)
}

func isLetter(c byte) bool {
	c |= 0x20
	return 'a' <= c && c <= 'z'
}

// containsFold: ASCII case-insensitive strings.Contains for a lower-case
// needle.
func containsFold(s, lowerNeedle string) bool {
	n := len(lowerNeedle)
	if n == 0 {
		return true
	}
	c0 := lowerNeedle[0]
	for i := 0; i+n <= len(s); i++ {
		if lowerByte(s[i]) != c0 {
			continue
		}
		j := 1
		for j < n && lowerByte(s[i+j]) == lowerNeedle[j] {
			j++
		}
		if j == n {
			return true
		}
	}
	return false
}

// trimQuotes narrows [a, b) past the quotes around a value.
func trimQuotes(s string, a, b int) (int, int) {
	for a < b && (s[a] == '"' || s[a] == '\'' || s[a] == '`') {
		a++
	}
	for b > a && (s[b-1] == '"' || s[b-1] == '\'' || s[b-1] == '`') {
		b--
	}
	return a, b
}

// lineAround returns the lines of s that hold [a, b).
func lineAround(s string, a, b int) string {
	ls := strings.LastIndexByte(s[:a], '\n') + 1
	le := strings.IndexByte(s[b:], '\n')
	if le < 0 {
		return s[ls:]
	}
	return s[ls : b+le]
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

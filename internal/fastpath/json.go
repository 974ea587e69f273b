// Package fastpath holds the hand-written twins of library calls that pay
// their way: each does exactly what a library call does, which a fuzz test
// beside it holds it to, in a fraction of the time, on a path every
// command takes. A twin is kept here only while it saves clearly (about a
// tenth or more) of an export or a load on a benchmark input; the others
// were folded back into their library (render's tree JSON: the export took
// the same time through the JSON encoder). Twins that need the types of
// the package they serve stay there, with their measured gain:
// render.writeEntry (the entry template) and render.plainMarkdown
// (goldmark).
//
// ValidJSON and ScanJSON stand for jsontext.Value.IsValid (and a search for
// a picture). IsValid reads strings, most of a session's bytes, one byte
// at a time; ScanJSON reads them eight bytes at a time. Measured
// (sessiontree's BenchmarkTwins, -cpu 1, on the two corpus sessions, a
// code-heavy one and the 100,000-entry generated one): ScanJSON checks
// every line in 1.9/0.85/8.2/96 ms where IsValid and a search for a picture
// take 3.2/2.4/13.7/201 ms, 25-52% of the load (BenchmarkLoad, -cpu 1:
// 5.2/3.0/14.2/337 ms). Of a whole export (canopy export, CPU time,
// medians of 5-21 runs, against the same binary with IsValid and a search
// for a picture): 7-11% of gen-100k and 10% of chain-50k, 2-4% of gen-10k
// and before-compaction, nothing measurable on large-session and
// code-10MB; and more of every command that only loads (inspect, scan).
package fastpath

import (
	"encoding/binary"
	"math/bits"
)

// MaxDepth is jsontext's limit on nesting: a text with more objects and
// arrays open at once is not valid JSON to it, nor to ValidJSON.
const MaxDepth = 10000

// ValidJSON reports whether b is one JSON value with only whitespace
// around it: what jsontext.Value(b).IsValid reports with invalid UTF-8 and
// duplicate names allowed (jsontext.AllowInvalidUTF8, AllowDuplicateNames),
// and FuzzValidJSON holds it to that. Every line of a session is checked
// with it before the load walks it.
func ValidJSON(b []byte) bool {
	valid, _ := ScanJSON(b)
	return valid
}

// ScanJSON is ValidJSON, also telling whether a valid b holds a picture: an
// object member "type" whose value is "image", at any depth, as pi writes
// a picture's content block. (Found here, where every string is read
// anyway: a search of each chunk for `"type":"image"` took 90 ms of CPU
// at 100,000 entries, 7% of the load.)
func ScanJSON(b []byte) (valid, image bool) {
	// Bit d of objects: the container open at depth d is an object.
	var objects [MaxDepth/64 + 1]uint64
	depth := 0
	i := 0
	isType := false // the value at i is a "type" member's
	for {
		// A value starts at i, after any whitespace.
		i = skipSpace(b, i)
		if i >= len(b) {
			return false, false
		}
		switch c := b[i]; c {
		case '{', '[':
			if depth == MaxDepth {
				return false, false
			}
			i = skipSpace(b, i+1)
			if i >= len(b) {
				return false, false
			}
			if c == '{' {
				objects[depth/64] |= 1 << (depth % 64)
				depth++
				if b[i] != '}' {
					if i, isType = validName(b, i); i < 0 {
						return false, false
					}
					continue // to the member's value
				}
			} else {
				objects[depth/64] &^= 1 << (depth % 64)
				depth++
				if b[i] != ']' {
					isType = false
					continue // to the first element
				}
			}
			i++ // an empty object or array
			depth--
		default:
			var img bool
			if i, img = skipScalar(b, i, isType); i < 0 {
				return false, false
			}
			image = image || img
		}
		// After a value: close what ends here, then a comma leads to
		// the next value.
		for {
			i = skipSpace(b, i)
			if depth == 0 {
				return i == len(b), image && i == len(b)
			}
			if i >= len(b) {
				return false, false
			}
			inObject := objects[(depth-1)/64]&(1<<((depth-1)%64)) != 0
			c := b[i]
			if c == ',' {
				i++
				isType = false
				if inObject {
					if i, isType = validName(b, skipSpace(b, i)); i < 0 {
						return false, false
					}
				}
				break
			}
			if inObject && c == '}' || !inObject && c == ']' {
				i++
				depth--
				continue
			}
			return false, false
		}
	}
}

// skipScalar reads the string, literal or number at i and returns the
// index after it, or -1, and whether it is the string "image" as the value
// of a "type" member (isType).
func skipScalar(b []byte, i int, isType bool) (int, bool) {
	switch b[i] {
	case '"':
		start := i
		i = skipString(b, i)
		return i, i >= 0 && isType && string(b[start:i]) == `"image"`
	case 't':
		return literal(b, i, "true"), false
	case 'f':
		return literal(b, i, "false"), false
	case 'n':
		return literal(b, i, "null"), false
	}
	return skipNumber(b, i), false
}

// literal returns the index after lit at i, or -1 when it is not there.
func literal(b []byte, i int, lit string) int {
	if len(b)-i >= len(lit) && string(b[i:i+len(lit)]) == lit {
		return i + len(lit)
	}
	return -1
}

// skipSpace returns the index of the first byte at or after i that is not
// JSON whitespace.
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t') {
		i++
	}
	return i
}

// validName reads an object member's name and its colon, from i; it
// returns the index after the colon, or -1, and whether the name is "type".
func validName(b []byte, i int) (int, bool) {
	if i >= len(b) || b[i] != '"' {
		return -1, false
	}
	start := i
	if i = skipString(b, i); i < 0 {
		return -1, false
	}
	isType := string(b[start:i]) == `"type"`
	i = skipSpace(b, i)
	if i >= len(b) || b[i] != ':' {
		return -1, false
	}
	return i + 1, isType
}

const (
	lows  = 0x0101010101010101
	highs = 0x8080808080808080
)

// skipString reads the string whose opening quote is at i and returns the
// index after its closing quote, or -1 when it is not a valid string:
// a control character, an unknown escape or a \u without four hex digits,
// or no end. Any other byte is allowed, broken UTF-8 and lone surrogates
// included, as jsontext allows them with AllowInvalidUTF8.
func skipString(b []byte, i int) int {
	i++
	for {
		// Eight bytes at a time while none of them is a quote, a
		// backslash or a control character. (Sixteen were no faster: in
		// a session one byte in ten is a quote or a backslash.)
		for len(b)-i >= 8 {
			if m := special(binary.LittleEndian.Uint64(b[i:])); m != 0 {
				i += bits.TrailingZeros64(m) / 8
				break
			}
			i += 8
		}
		if i >= len(b) {
			return -1
		}
		switch c := b[i]; {
		case c == '"':
			return i + 1
		case c == '\\':
			if i+1 >= len(b) {
				return -1
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if len(b)-i < 6 || !isHex(b[i+2]) || !isHex(b[i+3]) || !isHex(b[i+4]) || !isHex(b[i+5]) {
					return -1
				}
				i += 6
			default:
				return -1
			}
		case c < 0x20:
			return -1
		default:
			i++
		}
	}
}

// special sets the high bit of the lowest of x's eight bytes that is a
// quote, a backslash or a control character, if any (and perhaps of bytes
// above it): a borrow reaches only the bytes above the one it starts at.
func special(x uint64) uint64 {
	q := x ^ (lows * '"')
	s := x ^ (lows * '\\')
	m := (x - lows*0x20) | (q - lows) | (s - lows)
	return m & ^x & highs // a byte >= 0x80 is none of the three
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// skipNumber reads the number that starts at i and returns the index after
// it, or -1: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func skipNumber(b []byte, i int) int {
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i >= len(b):
		return -1
	case b[i] == '0':
		i++
	case '1' <= b[i] && b[i] <= '9':
		i = skipDigits(b, i+1)
	default:
		return -1
	}
	if i < len(b) && b[i] == '.' {
		j := skipDigits(b, i+1)
		if j == i+1 {
			return -1
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := skipDigits(b, i)
		if j == i {
			return -1
		}
		i = j
	}
	return i
}

func skipDigits(b []byte, i int) int {
	for i < len(b) && '0' <= b[i] && b[i] <= '9' {
		i++
	}
	return i
}

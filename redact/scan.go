// The JSON scanner: the input walked as JSON values, a unit emitted for
// every string token and, where the input is not valid JSON, for every
// line; JSON strings decoded with a map back to their raw bytes.

package redact

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"unicode/utf8"

	"canopy/internal/fastpath"
)

// Unit flags.
const (
	uPlain      = 1 << iota // a line of plain text (not part of valid JSON)
	uEscaped                // a JSON string whose raw contents hold escapes
	uKey                    // a JSON object key
	uKeyEscaped             // the member's key (keyStart:keyEnd) holds escapes
)

// unit is one piece of text to scan: the raw contents of a JSON string
// (without its quotes) or a whole line of plain text.
type unit struct {
	start, end       int
	keyStart, keyEnd int // for an object member's string value: its key's raw contents (keyEnd < 0: none)
	line             int
	flags            uint8
}

// maxDepth bounds nesting like encoding/json does; deeper input is treated
// as plain text.
const maxDepth = fastpath.MaxDepth

// scanner walks the input as a sequence of JSON values separated by
// whitespace (JSONL, a single document, pretty-printed or not), emitting a
// unit for every string token. Where the input stops being valid JSON, the
// lines of the broken "segment" (from the start of the line on which its
// first value began to the end of the line with the error) are retracted
// (hits already found there from string units are dropped) and emitted
// again as plain-text units, one per line; scanning resumes on the next line.
//
// It is a twin of the library path, jsontext.Decoder read token by token
// (libScan in scanlib_test.go: the same units, held together by
// FuzzScanner and TestScannerMatchesLibrary), kept because it pays.
// `go test ./redact -run X -bench 'Scan$' -count 8` on a quiet machine
// (2 cores, ±2%): 1.2 ms instead of 1.7 on the corpus's large-session
// (1 MB), 2.6 instead of 3.1 on before-compaction (2.4 MB), 9.9 instead of
// 13.0 on a code-heavy generated session (code-10MB) and 8.4 instead of
// 15.2 on the benchmarks' gen-10k (8.7 MB): 1.2 to 1.8 times as fast, and
// Redact as a whole 7% to 17% faster on the same inputs. The library path
// pays a call and the decoder's state per token, and a second pass over
// each string for its escapes and its line.
type scanner struct {
	data      []byte
	i         int
	line      int // 1-based line of position i
	lineStart int
	stack     []byte
	emit      func(unit)
	retract   func(from, to int)
}

// strClass: 0 for bytes that may appear unescaped in a JSON string.
var strClass = func() (t [256]byte) {
	for c := 0; c < 0x20; c++ {
		t[c] = 1
	}
	t['"'] = 2
	t['\\'] = 3
	return
}()

func (sc *scanner) run() {
	n := len(sc.data)
	sc.line, sc.lineStart = 1, 0
	segStart, segLine, lastEndLine := -1, 0, -1
	for {
		sc.ws()
		if sc.i >= n {
			return
		}
		if segStart < 0 || lastEndLine < sc.line {
			segStart, segLine = sc.lineStart, sc.line
		}
		if sc.value() {
			lastEndLine = sc.line
			continue
		}
		errEnd := n
		if sc.i < n {
			if k := bytes.IndexByte(sc.data[sc.i:], '\n'); k >= 0 {
				errEnd = sc.i + k
			}
		}
		sc.retract(segStart, errEnd)
		p, ln := segStart, segLine
		for {
			e := errEnd
			if k := bytes.IndexByte(sc.data[p:errEnd], '\n'); k >= 0 {
				e = p + k
			}
			if e > p {
				sc.emit(unit{start: p, end: e, keyEnd: -1, line: ln, flags: uPlain})
			}
			if e >= errEnd {
				break
			}
			p, ln = e+1, ln+1
		}
		sc.line = ln + 1
		sc.i = min(n, errEnd+1)
		sc.lineStart = sc.i
		segStart, lastEndLine = -1, -1
	}
}

func (sc *scanner) ws() {
	d := sc.data
	for sc.i < len(d) {
		switch d[sc.i] {
		case ' ', '\t', '\r':
			sc.i++
		case '\n':
			sc.i++
			sc.line++
			sc.lineStart = sc.i
		default:
			return
		}
	}
}

// value parses one JSON value at sc.i, emitting its string units.
func (sc *scanner) value() bool {
	d := sc.data
	sc.stack = sc.stack[:0]
	keyS, keyE, keyEsc := -1, -1, false
	for {
		sc.ws()
		if sc.i >= len(d) {
			return false
		}
		complete := true
		switch c := d[sc.i]; {
		case c == '{' || c == '[':
			sc.i++
			sc.ws()
			closer := byte('}')
			if c == '[' {
				closer = ']'
			}
			if sc.i < len(d) && d[sc.i] == closer {
				sc.i++
				break
			}
			if len(sc.stack) >= maxDepth {
				return false
			}
			sc.stack = append(sc.stack, c)
			if c == '{' && !sc.member(&keyS, &keyE, &keyEsc) {
				return false
			}
			complete = false
		case c == '"':
			s, e, esc, ok := sc.str()
			if !ok {
				return false
			}
			u := unit{start: s, end: e, keyStart: keyS, keyEnd: keyE, line: sc.line}
			if esc {
				u.flags |= uEscaped
			}
			if keyEsc {
				u.flags |= uKeyEscaped
			}
			sc.emit(u)
		default:
			if !sc.scalar(c) {
				return false
			}
		}
		if !complete {
			continue
		}
		keyS, keyE, keyEsc = -1, -1, false
		// After a complete value: close containers until more is expected.
	after:
		for {
			if len(sc.stack) == 0 {
				return true
			}
			sc.ws()
			if sc.i >= len(d) {
				return false
			}
			c, top := d[sc.i], sc.stack[len(sc.stack)-1]
			switch {
			case c == ',':
				sc.i++
				if top == '{' && !sc.member(&keyS, &keyE, &keyEsc) {
					return false
				}
				break after
			case (top == '{' && c == '}') || (top == '[' && c == ']'):
				sc.i++
				sc.stack = sc.stack[:len(sc.stack)-1]
			default:
				return false
			}
		}
	}
}

// scalar parses the number, true, false or null at sc.i (c: its first
// byte).
func (sc *scanner) scalar(c byte) bool {
	switch {
	case c == '-' || ('0' <= c && c <= '9'):
		return sc.number()
	case c == 't':
		return sc.lit("true")
	case c == 'f':
		return sc.lit("false")
	case c == 'n':
		return sc.lit("null")
	}
	return false
}

// member parses `"key" :` and records the key for the value that follows.
func (sc *scanner) member(keyS, keyE *int, keyEsc *bool) bool {
	sc.ws()
	if sc.i >= len(sc.data) || sc.data[sc.i] != '"' {
		return false
	}
	s, e, esc, ok := sc.str()
	if !ok {
		return false
	}
	u := unit{start: s, end: e, keyEnd: -1, line: sc.line, flags: uKey}
	if esc {
		u.flags |= uEscaped
	}
	sc.emit(u)
	sc.ws()
	if sc.i >= len(sc.data) || sc.data[sc.i] != ':' {
		return false
	}
	sc.i++
	*keyS, *keyE, *keyEsc = s, e, esc
	return true
}

// str scans a string token at sc.i (an opening quote); it returns the raw
// contents' span.
func (sc *scanner) str() (start, end int, escaped, ok bool) {
	d := sc.data
	i := sc.i + 1
	start = i
	for {
		// Eight bytes at a time while none is a quote, a backslash or a
		// control character, then straight to the first that is: in
		// transcripts, where code puts an escape every few dozen bytes,
		// the jump instead of a walk to it made the scanner 20% faster.
		for i+8 <= len(d) {
			if m := special(binary.LittleEndian.Uint64(d[i:])); m != 0 {
				i += bits.TrailingZeros64(m) / 8
				goto found
			}
			i += 8
		}
		for i < len(d) && strClass[d[i]] == 0 {
			i++
		}
	found:
		if i >= len(d) {
			sc.i = i
			return 0, 0, false, false
		}
		switch strClass[d[i]] {
		case 1: // control character
			sc.i = i
			return 0, 0, false, false
		case 2:
			sc.i = i + 1
			return start, i, escaped, true
		case 3:
			escaped = true
			if i+1 >= len(d) {
				sc.i = i
				return 0, 0, false, false
			}
			switch d[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(d) || !isHex4(d[i+2:i+6]) {
					sc.i = i
					return 0, 0, false, false
				}
				i += 6
			default:
				sc.i = i
				return 0, 0, false, false
			}
		}
	}
}

// special sets the high bit of the lowest of x's eight bytes that is a
// quote, a backslash or a control character, if any (and perhaps of bytes
// above it: a borrow only reaches the bytes above the one it starts at).
// A byte >= 0x80 is none of the three; XOR with a quote or a backslash
// keeps a byte's high bit, so one mask of x clears them all.
func special(x uint64) uint64 {
	m := (x - lsb*0x20) | (x ^ lsb*'"' - lsb) | (x ^ lsb*'\\' - lsb)
	return m &^ x & msb
}

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

func isHex4(b []byte) bool {
	for _, c := range b {
		if !sets[setHex][c] {
			return false
		}
	}
	return true
}

func (sc *scanner) lit(w string) bool {
	if !bytes.HasPrefix(sc.data[sc.i:], []byte(w)) {
		return false
	}
	sc.i += len(w)
	return true
}

func (sc *scanner) number() bool {
	d, i := sc.data, sc.i
	digits := func() int {
		j := i
		for i < len(d) && '0' <= d[i] && d[i] <= '9' {
			i++
		}
		return i - j
	}
	if d[i] == '-' {
		i++
	}
	if i < len(d) && d[i] == '0' {
		i++
	} else if digits() == 0 {
		return false
	}
	if i < len(d) && d[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	sc.i = i
	return true
}

// decodeJSONString appends the decoded raw contents of a valid JSON string
// to buf. If withMap, it also returns, for each decoded byte, the offset in
// raw of the escape (or byte) it came from, plus len(raw) at the end. Lone
// surrogates become U+FFFD (as encoding/json does); invalid UTF-8 is kept.
func decodeJSONString(buf, raw []byte, withMap bool) ([]byte, []int32) {
	out := buf
	var rawOf []int32
	if withMap {
		rawOf = make([]int32, 0, len(raw)+1)
	}
	mark := func(from, n int) {
		if withMap {
			for k := 0; k < n; k++ {
				rawOf = append(rawOf, int32(from))
			}
		}
	}
	for i := 0; i < len(raw); {
		if raw[i] != '\\' {
			j := bytes.IndexByte(raw[i:], '\\')
			if j < 0 {
				j = len(raw) - i
			}
			out = append(out, raw[i:i+j]...)
			if withMap {
				for k := i; k < i+j; k++ {
					rawOf = append(rawOf, int32(k))
				}
			}
			i += j
			continue
		}
		from := i
		switch raw[i+1] {
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r := rune(hex4(raw[i+2 : i+6]))
			i += 6
			if 0xD800 <= r && r < 0xDC00 && i+6 <= len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
				if r2 := rune(hex4(raw[i+2 : i+6])); 0xDC00 <= r2 && r2 < 0xE000 {
					r = 0x10000 + (r-0xD800)<<10 + (r2 - 0xDC00)
					i += 6
				}
			}
			if 0xD800 <= r && r < 0xE000 {
				r = utf8.RuneError
			}
			n := len(out)
			out = utf8.AppendRune(out, r)
			mark(from, len(out)-n)
			continue
		default: // " \ /
			out = append(out, raw[i+1])
		}
		mark(from, 1)
		i += 2
	}
	if withMap {
		rawOf = append(rawOf, int32(len(raw)))
	}
	return out, rawOf
}

func hex4(b []byte) int {
	v := 0
	for _, c := range b {
		v <<= 4
		switch {
		case c <= '9':
			v |= int(c - '0')
		case c >= 'a':
			v |= int(c - 'a' + 10)
		default:
			v |= int(c - 'A' + 10)
		}
	}
	return v
}

// rawSpan maps a decoded span to the raw span covering whole escapes.
func rawSpan(rawOf []int32, a, b int) (int, int) {
	n := len(rawOf) - 1
	rs := int(rawOf[a])
	for b < n && b > 0 && rawOf[b] == rawOf[b-1] {
		b++
	}
	return rs, int(rawOf[b])
}

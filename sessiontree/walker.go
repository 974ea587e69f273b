package sessiontree

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// walker reads JSON that is known to be valid, without a tokenizer: a
// line is checked once, when the session is loaded (fastpath.ValidJSON, which is
// jsontext.Value.IsValid made faster, then readHead), and Entry.Raw
// checks by CRC that the bytes read again are the same ones, so the
// readers built on it (readHead, readBody) only need to walk them.
// Strings are found with bytes.IndexByte and copied as they are unless
// they hold an escape or broken UTF-8 (jsontext.AppendUnquote then reads
// them).
//
// Why: json.Unmarshal's tokenizer checks every byte as it goes, and an
// export reads every entry twice (its head at load, all of it to render
// it). Decoding the bodies of the 100,000 entries of a generated 85 MB
// session took 1.3 s on one core with json.Unmarshal, 0.77 s with readBody.
//
// Measured (BenchmarkTwins and BenchmarkDecode, -cpu 1, on the two corpus
// sessions, a code-heavy one and the 100,000-entry generated one): readBody
// reads every entry in 3.1/2.7/14.4/265 ms where json.Unmarshal takes
// 9.4/3.4/23.3/315 ms, which saves 56/20/37/19% of decoding the entries
// (BenchmarkDecode: 4.9/2.5/15.3/216 ms). (readHead's gain is told in
// headreader.go, ValidJSON's in internal/fastpath.)
//
// The readers' switches over member names are generated from the structs'
// json tags (walk_gen.go, by internal/walkgen), so that a field is declared
// once: in its struct. Each reader is held to json.Unmarshal, field for
// field, null for null and error for error, by a fuzz test on arbitrary
// JSON (FuzzWalkerBody, FuzzWalkerHead); on anything else the walker
// returns errSyntax, never panics.
//
//go:generate go run ./internal/walkgen
type walker struct {
	b []byte
	i int
	// mistyped: a field of a Body had the wrong JSON type. json.Unmarshal
	// goes on and fails at the end; so does readBody.
	mistyped bool
}

var (
	errMistyped = errors.New("a field has the wrong JSON type")
	errSyntax   = errors.New("not valid JSON")
)

// readBody decodes raw (one JSON object) into b.
func readBody(raw []byte, b *Body) error {
	w := walker{b: raw}
	if _, err := w.objectBody(b); err != nil {
		return err
	}
	if err := w.end(); err != nil {
		return err
	}
	if w.mistyped {
		return errMistyped
	}
	return nil
}

// ws skips white space.
func (w *walker) ws() {
	for w.i < len(w.b) {
		switch w.b[w.i] {
		case ' ', '\t', '\n', '\r':
			w.i++
		default:
			return
		}
	}
}

// kind is the kind of the next value, as jsontext.Kind: '"', '{', '[',
// 't', 'f', 'n', '0' for a number; 0 at the end.
func (w *walker) kind() byte {
	w.ws()
	if w.i >= len(w.b) {
		return 0
	}
	switch c := w.b[w.i]; c {
	case '"', '{', '[', 't', 'f', 'n':
		return c
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return '0'
	}
	return 0
}

// rawString reads a string, returning it with its quotes.
func (w *walker) rawString() ([]byte, error) {
	if w.kind() != '"' {
		return nil, errSyntax
	}
	start := w.i
	for j := start + 1; ; {
		k := bytes.IndexByte(w.b[j:], '"')
		if k < 0 {
			return nil, errSyntax
		}
		q := j + k
		// The quote ends the string unless an odd number of
		// backslashes escape it.
		n := 0
		for p := q - 1; p > start && w.b[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			w.i = q + 1
			return w.b[start:w.i], nil
		}
		j = q + 1
	}
}

// text reads a string, returning its text.
func (w *walker) text() (string, error) {
	raw, err := w.rawString()
	if err != nil {
		return "", err
	}
	return unquote(raw), nil
}

// unquote is the text of a string as the decoder reads it.
func unquote(raw []byte) string {
	in := raw[1 : len(raw)-1]
	esc := bytes.IndexByte(in, '\\')
	if !utf8.Valid(in) {
		// Broken UTF-8 reads as U+FFFD (the error only says there was
		// some).
		out, _ := jsontext.AppendUnquote(nil, raw)
		return string(out)
	}
	if esc < 0 {
		return string(in)
	}
	// Text with escapes: runs between them are copied whole. \u escapes
	// (and their surrogate pairs) are left to jsontext.
	var b strings.Builder
	b.Grow(len(in))
	for esc >= 0 {
		b.Write(in[:esc])
		if esc+1 >= len(in) {
			break // cannot be: the string is valid JSON
		}
		var c byte
		switch in[esc+1] {
		case '"', '\\', '/':
			c = in[esc+1]
		case 'b':
			c = '\b'
		case 'f':
			c = '\f'
		case 'n':
			c = '\n'
		case 'r':
			c = '\r'
		case 't':
			c = '\t'
		default:
			out, _ := jsontext.AppendUnquote(nil, raw)
			return string(out)
		}
		b.WriteByte(c)
		in = in[esc+2:]
		esc = bytes.IndexByte(in, '\\')
	}
	b.Write(in)
	return b.String()
}

// number reads the number at w.i: its value as strconv.ParseFloat gives
// it, and false where ParseFloat fails (out of range). An integer of up to
// 15 digits, what sessions hold most (token counts, times), is exact in a
// float64 and computed here: ParseFloat, and the string it takes, cost
// more than the digits.
func (w *walker) number() (float64, bool) {
	start, i := w.i, w.i
	neg := i < len(w.b) && w.b[i] == '-'
	if neg {
		i++
	}
	var n uint64
	digits := i
	for i < len(w.b) && '0' <= w.b[i] && w.b[i] <= '9' {
		n = n*10 + uint64(w.b[i]-'0')
		i++
	}
	if d := i - digits; d > 0 && d <= 15 && (i == len(w.b) || !numberByte[w.b[i]]) {
		w.i = i
		if neg {
			return -float64(n), true // -0 too
		}
		return float64(n), true
	}
	for i < len(w.b) && numberByte[w.b[i]] {
		i++
	}
	w.i = i
	f, err := strconv.ParseFloat(string(w.b[start:i]), 64)
	return f, err == nil
}

// numberByte: the bytes a JSON number is made of.
var numberByte = func() (t [256]bool) {
	for _, c := range []byte("-+.eE0123456789") {
		t[c] = true
	}
	return t
}()

// rawValue reads any value, returning its bytes.
func (w *walker) rawValue() ([]byte, error) {
	k := w.kind()
	start := w.i
	switch k {
	case '"':
		return w.rawString()
	case 't', 'n':
		w.i += 4
	case 'f':
		w.i += 5
	case '0':
		for w.i < len(w.b) && numberByte[w.b[w.i]] {
			w.i++
		}
	case '{', '[':
		depth := 0
		for w.i < len(w.b) {
			switch w.b[w.i] {
			case '"':
				if _, err := w.rawString(); err != nil {
					return nil, err
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
			}
			w.i++
			if depth == 0 {
				return w.b[start:w.i], nil
			}
		}
		return nil, errSyntax
	default:
		return nil, errSyntax
	}
	if w.i > len(w.b) {
		return nil, errSyntax
	}
	return w.b[start:w.i], nil
}

func (w *walker) skip() error {
	_, err := w.rawValue()
	return err
}

// at reports whether the next byte past white space is c.
func (w *walker) at(c byte) bool {
	w.ws()
	return w.i < len(w.b) && w.b[w.i] == c
}

// punct reads the punctuation c.
func (w *walker) punct(c byte) error {
	w.ws()
	if w.i >= len(w.b) || w.b[w.i] != c {
		return errSyntax
	}
	w.i++
	return nil
}

// array reads a JSON array (the next value is one), calling elem to read
// each element.
func (w *walker) array(elem func() error) error {
	if err := w.punct('['); err != nil {
		return err
	}
	for first := true; ; first = false {
		if w.at(']') {
			w.i++
			return nil
		}
		if !first {
			if err := w.punct(','); err != nil {
				return err
			}
		}
		if err := elem(); err != nil {
			return err
		}
	}
}

// end checks that nothing but white space follows the value read.
func (w *walker) end() error {
	if w.ws(); w.i != len(w.b) {
		return errSyntax
	}
	return nil
}

// object reads a JSON object, calling field for each member with its
// unquoted name (valid until the next read), or notes a mistyped value.
// null leaves the target as it is: callers zero it where json.Unmarshal
// would.
func (w *walker) object(field func(name []byte) error) (isNull bool, err error) {
	switch w.kind() {
	case '{':
		w.i++
	case 'n':
		return true, w.skip()
	default:
		w.mistyped = true
		return false, w.skip()
	}
	for first := true; ; first = false {
		if w.at('}') {
			w.i++
			return false, nil
		}
		if !first {
			if err := w.punct(','); err != nil {
				return false, err
			}
		}
		name, err := w.rawString()
		if err != nil {
			return false, err
		}
		if bytes.IndexByte(name, '\\') >= 0 {
			// An escaped name ("t\u0079pe") matches as what it spells.
			// (The error is for broken UTF-8, which matches no field.)
			name, _ = jsontext.AppendUnquote(nil, name)
		} else {
			name = name[1 : len(name)-1]
		}
		if err := w.punct(':'); err != nil {
			return false, err
		}
		if err := field(name); err != nil {
			return false, err
		}
	}
}

// blocks reads message content as Blocks.UnmarshalJSONFrom does: a string
// is one text block, an array is blocks, anything else is no content.
func (w *walker) blocks(bs *Blocks) error {
	switch w.kind() {
	case '"':
		text, err := w.text()
		if err == nil {
			*bs = Blocks{{Type: "text", Text: text}}
		}
		return err
	case '[':
	default:
		*bs = nil
		return w.skip()
	}
	// Read into an array on the stack, then copied to a slice of the
	// right size: growing the slice block by block allocated twice that,
	// 6% of what the export of a 100,000-entry session allocated.
	var buf [8]Block
	list := buf[:0]
	err := w.array(func() error {
		list = append(list, Block{})
		isNull, err := w.objectBlock(&list[len(list)-1])
		if isNull {
			list[len(list)-1] = Block{}
		}
		return err
	})
	*bs = append(make(Blocks, 0, len(list)), list...) // [] is not nil
	return err
}

// The scalars, with json.Unmarshal's rules: null is the zero value; any
// other JSON type is a mistyped field.

func (w *walker) str(s *string) error {
	switch w.kind() {
	case '"':
		text, err := w.text()
		if err == nil {
			*s = text
		}
		return err
	case 'n':
		*s = ""
	default:
		w.mistyped = true
	}
	return w.skip()
}

func (w *walker) boolean(b *bool) error {
	switch k := w.kind(); k {
	case 't', 'f', 'n':
		*b = k == 't'
	default:
		w.mistyped = true
	}
	return w.skip()
}

func (w *walker) float(f *float64) error {
	switch w.kind() {
	case '0':
		x, ok := w.number()
		*f = x
		if !ok {
			w.mistyped = true // out of range, as json.Unmarshal reports
		}
		return nil
	case 'n':
		*f = 0
	default:
		w.mistyped = true
	}
	return w.skip()
}

// intPtr reads an integer as json.Unmarshal reads one into a *int: digits
// only (no fraction or exponent), in range.
func (w *walker) intPtr(p **int) error {
	switch w.kind() {
	case '0':
		v, err := w.rawValue()
		if err != nil {
			return err
		}
		n, err := strconv.ParseInt(string(v), 10, strconv.IntSize)
		if err != nil {
			w.mistyped = true
			return nil
		}
		if *p == nil {
			*p = new(int)
		}
		**p = int(n)
		return nil
	case 'n':
		*p = nil
	default:
		w.mistyped = true
	}
	return w.skip()
}

// value keeps any JSON value as it is written (null included), as a
// jsontext.Value field does.
func (w *walker) value(v *jsontext.Value) error {
	raw, err := w.rawValue()
	if err != nil {
		return err
	}
	*v = append((*v)[:0], raw...)
	return nil
}

// DecodeArguments decodes a tool call's arguments (Block.Arguments) as
// json.Unmarshal, with its default options, decodes them into a
// map[string]any. (A walker of its own was measured, BenchmarkTwins: it
// saved 0.2-17 ms of 2.5-215 ms of decoding, under 10%, and lost on one
// real session, so it went.)
func DecodeArguments(raw jsontext.Value) (map[string]any, error) {
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return m, fmt.Errorf("tool call arguments: %w", err)
	}
	return m, nil
}

package sessiontree

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// bodyReader decodes an entry into a Body as json.Unmarshal(raw, &body,
// jsonOpts) would, field for field and null for null, failing where it
// fails (on a field of the wrong JSON type), but without a tokenizer: the
// entry was checked to be valid JSON when the session was loaded, and
// Entry.Raw checks that its bytes are the same ones, so it only needs to
// be walked. Strings are found with bytes.IndexByte and copied as they are
// unless they hold an escape or broken UTF-8 (jsontext.AppendUnquote then
// reads them). Decoding with json.Unmarshal, whose tokenizer checks every
// byte as it goes, took 1.3 s for the 100,000 entries of a generated 85 MB
// session on one core; this takes 0.77 s, and an export decodes every
// entry twice (DecodeOutline, then Decode).
//
// FuzzBodyReader holds it to json.Unmarshal on arbitrary JSON; on anything
// else it returns an error (errSyntax), never panics.
type bodyReader struct {
	b []byte
	i int
	// outline: thinking, pictures, command output and details are checked
	// for their type and skipped (DecodeOutline).
	outline bool
	// mistyped: a field had the wrong JSON type. json.Unmarshal goes on
	// and fails at the end; so does readBody.
	mistyped bool
}

var (
	errMistyped = errors.New("a field has the wrong JSON type")
	errSyntax   = errors.New("not valid JSON")
)

// readBody decodes raw (one JSON object) into b.
func readBody(raw []byte, b *Body, outline bool) error {
	br := bodyReader{b: raw, outline: outline}
	if err := br.body(b); err != nil {
		return err
	}
	if br.ws(); br.i != len(raw) {
		return errSyntax
	}
	if br.mistyped {
		return errMistyped
	}
	return nil
}

// ws skips white space.
func (br *bodyReader) ws() {
	for br.i < len(br.b) {
		switch br.b[br.i] {
		case ' ', '\t', '\n', '\r':
			br.i++
		default:
			return
		}
	}
}

// kind is the kind of the next value, as jsontext.Kind: '"', '{', '[',
// 't', 'f', 'n', '0' for a number; 0 at the end.
func (br *bodyReader) kind() byte {
	br.ws()
	if br.i >= len(br.b) {
		return 0
	}
	switch c := br.b[br.i]; c {
	case '"', '{', '[', 't', 'f', 'n':
		return c
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return '0'
	}
	return 0
}

// rawString reads a string, returning it with its quotes.
func (br *bodyReader) rawString() ([]byte, error) {
	if br.kind() != '"' {
		return nil, errSyntax
	}
	start := br.i
	for j := start + 1; ; {
		k := bytes.IndexByte(br.b[j:], '"')
		if k < 0 {
			return nil, errSyntax
		}
		q := j + k
		// The quote ends the string unless an odd number of
		// backslashes escape it.
		n := 0
		for p := q - 1; p > start && br.b[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			br.i = q + 1
			return br.b[start:br.i], nil
		}
		j = q + 1
	}
}

// unquote is the text of a string as the decoder reads it.
func unquote(raw []byte) string {
	in := raw[1 : len(raw)-1]
	if bytes.IndexByte(in, '\\') < 0 && utf8.Valid(in) {
		return string(in)
	}
	// Escapes, or broken UTF-8 (which reads as U+FFFD: the error only
	// says there was some).
	out, _ := jsontext.AppendUnquote(nil, raw)
	return string(out)
}

// rawValue reads any value, returning its bytes.
func (br *bodyReader) rawValue() ([]byte, error) {
	k := br.kind()
	start := br.i
	switch k {
	case '"':
		return br.rawString()
	case 't', 'n':
		br.i += 4
	case 'f':
		br.i += 5
	case '0':
		for br.i < len(br.b) && strings.IndexByte("-+.eE0123456789", br.b[br.i]) >= 0 {
			br.i++
		}
	case '{', '[':
		depth := 0
		for br.i < len(br.b) {
			switch br.b[br.i] {
			case '"':
				if _, err := br.rawString(); err != nil {
					return nil, err
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
			}
			br.i++
			if depth == 0 {
				return br.b[start:br.i], nil
			}
		}
		return nil, errSyntax
	default:
		return nil, errSyntax
	}
	if br.i > len(br.b) {
		return nil, errSyntax
	}
	return br.b[start:br.i], nil
}

func (br *bodyReader) skip() error {
	_, err := br.rawValue()
	return err
}

// at reports whether the next byte past white space is c.
func (br *bodyReader) at(c byte) bool {
	br.ws()
	return br.i < len(br.b) && br.b[br.i] == c
}

// punct reads the punctuation c.
func (br *bodyReader) punct(c byte) error {
	br.ws()
	if br.i >= len(br.b) || br.b[br.i] != c {
		return errSyntax
	}
	br.i++
	return nil
}

// object reads a JSON object, calling field for each member with its
// unquoted name (valid until the next read), or notes a mistyped value.
// null leaves the target as it is: callers zero it where json.Unmarshal
// would.
func (br *bodyReader) object(field func(name []byte) error) (isNull bool, err error) {
	switch br.kind() {
	case '{':
		br.i++
	case 'n':
		return true, br.skip()
	default:
		br.mistyped = true
		return false, br.skip()
	}
	for first := true; ; first = false {
		if br.at('}') {
			br.i++
			return false, nil
		}
		if !first {
			if err := br.punct(','); err != nil {
				return false, err
			}
		}
		name, err := br.rawString()
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
		if err := br.punct(':'); err != nil {
			return false, err
		}
		if err := field(name); err != nil {
			return false, err
		}
	}
}

func (br *bodyReader) body(b *Body) error {
	_, err := br.object(func(name []byte) error {
		switch string(name) {
		case "message":
			return br.message(&b.Message)
		case "content":
			return br.blocks(&b.Content)
		case "details":
			return br.bulkValue(&b.Details)
		case "data":
			return br.bulkValue(&b.Data)
		case "fromHook":
			return br.boolean(&b.FromHook)
		case "fromExtension":
			return br.boolean(&b.FromExtension)
		}
		return br.skip()
	})
	return err
}

// message reads into *mp: a member given twice fills the same Message, as
// json.Unmarshal does through a pointer.
func (br *bodyReader) message(mp **Message) error {
	if br.kind() == '{' && *mp == nil {
		*mp = new(Message)
	}
	m := *mp
	isNull, err := br.object(func(name []byte) error {
		switch string(name) {
		case "role":
			return br.str(&m.Role)
		case "content":
			return br.blocks(&m.Content)
		case "timestamp":
			return br.float(&m.Timestamp)
		case "api":
			return br.str(&m.API)
		case "provider":
			return br.str(&m.Provider)
		case "model":
			return br.str(&m.Model)
		case "usage":
			return br.usage(&m.Usage)
		case "stopReason":
			return br.str(&m.StopReason)
		case "errorMessage":
			return br.str(&m.ErrorMessage)
		case "toolCallId":
			return br.str(&m.ToolCallID)
		case "toolName":
			return br.str(&m.ToolName)
		case "details":
			return br.bulkValue(&m.Details)
		case "isError":
			return br.boolean(&m.IsError)
		case "command":
			return br.str(&m.Command)
		case "output":
			return br.bulkStr(&m.Output)
		case "exitCode":
			return br.intPtr(&m.ExitCode)
		case "cancelled":
			return br.boolean(&m.Cancelled)
		case "truncated":
			return br.boolean(&m.Truncated)
		case "fullOutputPath":
			return br.str(&m.FullOutputPath)
		case "excludeFromContext":
			return br.boolean(&m.ExcludeFromContext)
		case "customType":
			return br.str(&m.CustomType)
		case "display":
			return br.boolean(&m.Display)
		}
		return br.skip()
	})
	if isNull {
		*mp = nil
	}
	return err
}

// blocks reads message content as Blocks.UnmarshalJSONFrom does: a string
// is one text block, an array is blocks, anything else is no content.
func (br *bodyReader) blocks(bs *Blocks) error {
	switch br.kind() {
	case '"':
		raw, err := br.rawString()
		if err != nil {
			return err
		}
		*bs = Blocks{{Type: "text", Text: unquote(raw)}}
		return nil
	case '[':
		br.i++
	default:
		*bs = nil
		return br.skip()
	}
	list := Blocks{}
	for first := true; ; first = false {
		if br.at(']') {
			br.i++
			*bs = list
			return nil
		}
		if !first {
			if err := br.punct(','); err != nil {
				return err
			}
		}
		list = append(list, Block{})
		if err := br.block(&list[len(list)-1]); err != nil {
			return err
		}
	}
}

func (br *bodyReader) block(b *Block) error {
	isNull, err := br.object(func(name []byte) error {
		switch string(name) {
		case "type":
			return br.str(&b.Type)
		case "text":
			return br.str(&b.Text)
		case "thinking":
			return br.bulkStr(&b.Thinking)
		case "redacted":
			return br.boolean(&b.Redacted)
		case "data":
			return br.bulkStr(&b.Data)
		case "mimeType":
			return br.str(&b.MimeType)
		case "id":
			return br.str(&b.ID)
		case "name":
			return br.str(&b.Name)
		case "arguments":
			return br.value(&b.Arguments)
		}
		return br.skip()
	})
	if isNull {
		*b = Block{}
	}
	return err
}

func (br *bodyReader) usage(up **Usage) error {
	if br.kind() == '{' && *up == nil {
		*up = new(Usage)
	}
	u := *up
	isNull, err := br.object(func(name []byte) error {
		switch string(name) {
		case "input":
			return br.float(&u.Input)
		case "output":
			return br.float(&u.Output)
		case "cacheRead":
			return br.float(&u.CacheRead)
		case "cacheWrite":
			return br.float(&u.CacheWrite)
		case "totalTokens":
			return br.float(&u.TotalTokens)
		case "cost":
			return br.cost(&u.Cost)
		}
		return br.skip()
	})
	if isNull {
		*up = nil
	}
	return err
}

func (br *bodyReader) cost(c *UsageCost) error {
	isNull, err := br.object(func(name []byte) error {
		switch string(name) {
		case "input":
			return br.float(&c.Input)
		case "output":
			return br.float(&c.Output)
		case "cacheRead":
			return br.float(&c.CacheRead)
		case "cacheWrite":
			return br.float(&c.CacheWrite)
		case "total":
			return br.float(&c.Total)
		}
		return br.skip()
	})
	if isNull {
		*c = UsageCost{}
	}
	return err
}

// The scalars, with json.Unmarshal's rules: null is the zero value; any
// other JSON type is a mistyped field.

func (br *bodyReader) str(s *string) error {
	switch br.kind() {
	case '"':
		raw, err := br.rawString()
		if err != nil {
			return err
		}
		*s = unquote(raw)
		return nil
	case 'n':
		*s = ""
	default:
		br.mistyped = true
	}
	return br.skip()
}

// bulkStr is str, but in an outline only checks the type.
func (br *bodyReader) bulkStr(s *string) error {
	if !br.outline {
		return br.str(s)
	}
	switch br.kind() {
	case '"', 'n':
	default:
		br.mistyped = true
	}
	return br.skip()
}

func (br *bodyReader) boolean(b *bool) error {
	switch k := br.kind(); k {
	case 't', 'f', 'n':
		*b = k == 't'
	default:
		br.mistyped = true
	}
	return br.skip()
}

func (br *bodyReader) float(f *float64) error {
	switch br.kind() {
	case '0':
		v, err := br.rawValue()
		if err != nil {
			return err
		}
		x, err := strconv.ParseFloat(string(v), 64)
		*f = x
		if err != nil {
			br.mistyped = true // out of range, as json.Unmarshal reports
		}
		return nil
	case 'n':
		*f = 0
	default:
		br.mistyped = true
	}
	return br.skip()
}

// intPtr reads an integer as json.Unmarshal reads one into a *int: digits
// only (no fraction or exponent), in range.
func (br *bodyReader) intPtr(p **int) error {
	switch br.kind() {
	case '0':
		v, err := br.rawValue()
		if err != nil {
			return err
		}
		n, err := strconv.ParseInt(string(v), 10, strconv.IntSize)
		if err != nil {
			br.mistyped = true
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
		br.mistyped = true
	}
	return br.skip()
}

// value keeps any JSON value as it is written (null included), as a
// jsontext.Value field does.
func (br *bodyReader) value(v *jsontext.Value) error {
	raw, err := br.rawValue()
	if err != nil {
		return err
	}
	*v = append((*v)[:0], raw...)
	return nil
}

// bulkValue is value, but in an outline only skips.
func (br *bodyReader) bulkValue(v *jsontext.Value) error {
	if br.outline {
		return br.skip()
	}
	return br.value(v)
}

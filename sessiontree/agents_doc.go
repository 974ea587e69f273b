package sessiontree

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// docReader reads a session that is one JSON document (an Amp thread, a
// Hermes snapshot, Cline's API history): the document whole, its records
// the elements of one array, each an entry at its place in the input, as
// a Flue document's entries are. A syntax error part way keeps the
// records read before it.
type docReader struct {
	s      *Session
	d      *jsontext.Decoder
	data   []byte // the document, past a byte-order mark
	bom    int
	line   int // the line lineAt is on
	lineAt int
	format string // for messages: "Amp thread"
}

// newDocReader reads the whole input.
func newDocReader(s *Session, in *input, p *probe, format string) (*docReader, error) {
	data, err := in.all(p.first)
	if err != nil {
		return nil, err
	}
	r := &docReader{s: s, line: 1, format: format}
	if bytes.HasPrefix(data, bom) {
		data, r.bom = data[len(bom):], len(bom)
	}
	r.data = data
	r.d = jsontext.NewDecoder(bytes.NewReader(data), jsonOpts)
	return r, nil
}

// lineOf is the 1-based line of the byte at off (offsets only grow).
func (r *docReader) lineOf(off int) int {
	if off > r.lineAt {
		r.line += bytes.Count(r.data[r.lineAt:off], []byte{'\n'})
		r.lineAt = off
	}
	return r.line
}

// fail ends the read at a syntax error: an error when no record was
// read, else a diagnostic, keeping the records read.
func (r *docReader) fail(err error) error {
	off := int(r.d.InputOffset())
	for off < len(r.data) && bytes.IndexByte([]byte(" \t\r\n,:"), r.data[off]) >= 0 {
		off++
	}
	if len(r.s.Entries) == 0 {
		return fmt.Errorf("line %d: %s: %s: %w", r.lineOf(off), r.format, describe(err), ErrNotSession)
	}
	r.s.diag(r.lineOf(off), SevError, "%s cut short, later messages lost: %s", r.format, describe(err))
	return nil
}

// object reads the document's top-level object, calling member with each
// member's name; member reads or skips its value.
func (r *docReader) object(member func(name string) error) error {
	if tok, err := r.d.ReadToken(); err != nil {
		return r.fail(err)
	} else if tok.Kind() != '{' {
		return fmt.Errorf("%s is not a JSON object: %w", r.format, ErrNotSession)
	}
	for r.d.PeekKind() == '"' {
		tok, err := r.d.ReadToken()
		if err == nil {
			err = member(tok.String())
		}
		if err != nil {
			return r.fail(err)
		}
	}
	if _, err := r.d.ReadToken(); err != nil {
		return r.fail(err)
	}
	return nil
}

// records reads an array of records, calling rec with each object, its
// offset in the input and its line; an element that is not an object is
// reported and skipped.
func (r *docReader) records(rec func(raw []byte, off int64, line int)) error {
	d := r.d
	if d.PeekKind() != '[' {
		if err := d.SkipValue(); err != nil {
			return err
		}
		r.s.diag(0, SevError, "%s: its messages are not an array", r.format)
		return nil
	}
	if _, err := d.ReadToken(); err != nil {
		return err
	}
	for d.PeekKind() != ']' {
		v, err := d.ReadValue()
		if err != nil {
			return err
		}
		at := int(d.InputOffset()) - len(v)
		raw := r.data[at : at+len(v)]
		ln := r.lineOf(at)
		if v.Kind() != '{' {
			r.s.diag(ln, SevError, "message skipped: not a JSON object")
			continue
		}
		if !utf8.Valid(raw) {
			r.s.diag(ln, SevWarning, "%s", badUTF8)
		}
		rec(raw, int64(r.bom+at), ln)
	}
	_, err := d.ReadToken()
	return err
}

// str reads a member's value as a string, "" when it is none.
func (r *docReader) str() (string, error) {
	var v lstr
	err := json.UnmarshalDecode(r.d, &v, jsonOpts)
	return string(v), err
}

// num reads a member's value as a number, 0 when it is none.
func (r *docReader) num() (float64, error) {
	var v lnum
	err := json.UnmarshalDecode(r.d, &v, jsonOpts)
	return float64(v), err
}

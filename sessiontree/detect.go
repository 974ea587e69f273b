package sessiontree

import (
	"bytes"
	"fmt"
	"io"
	"math"

	"github.com/go-json-experiment/json/jsontext"
)

// A reader reads one format of session file into the tree model. A new
// format (Claude Code, Codex) is one new file: a reader, and its place in
// readers.
type reader interface {
	// detect reports whether the input is in this format, from what p
	// shows of its start. It reads no more than it must: most inputs are
	// told by their first line.
	detect(p *probe) bool
	// read reads the whole input into s: Format, Version, Header, the
	// entries in file order (each with an ID, its ParentID as written, its
	// Line and place in the input), what the format stores beyond them,
	// and the problems found as diagnostics. It returns an error, wrapping
	// ErrNotSession, only when the input holds no session at all. The
	// tree (ids made unique, parents, children, labels, the leaf) is then
	// built from the entries the same way for every format (Session.build).
	// first is the input's first chunk (see input.next); line formats
	// decode theirs with decodeLines, documents read theirs whole with
	// input.all.
	read(s *Session, in *input, first []byte) error
}

// readers are the formats canopy reads, in the order they are tried: the
// first whose detect says yes reads the input. pi JSONL is last, and says
// yes to anything: an input no reader claims is read as JSONL, where what
// is not a session line is reported line by line (or, when nothing is, as
// not a session).
func readers() []reader {
	return []reader{flueReader{}, piReader{}}
}

// probe is what detection sees of the input's start.
type probe struct {
	in    *input
	bom   int    // the length of the byte-order mark the input starts with (0 or 3)
	chunk []byte // the first chunk: whole lines, past the byte-order mark
	line  []byte // its first line, without its line end
}

// newProbe looks at the input's first chunk.
func newProbe(in *input, first []byte) *probe {
	p := &probe{in: in, chunk: first}
	if bytes.HasPrefix(first, bom) {
		p.bom, p.chunk = len(bom), first[len(bom):]
	}
	p.line = p.chunk
	if i := bytes.IndexByte(p.line, '\n'); i >= 0 {
		p.line = p.line[:i]
	}
	return p
}

// body reads the whole input from its start, past the byte-order mark:
// for a format whose first line does not tell it (a pretty-printed
// document).
func (p *probe) body() io.Reader {
	return io.NewSectionReader(p.in.src.readerAt(), int64(p.bom), math.MaxInt64-int64(p.bom))
}

// read detects the input's format and reads it with that format's reader.
func (s *Session) read(in *input) error {
	first, err := in.next()
	if err != nil {
		return err
	}
	p := newProbe(in, first)
	for _, r := range readers() {
		if r.detect(p) {
			return r.read(s, in, first)
		}
	}
	return fmt.Errorf("no reader for this input: %w", ErrNotSession) // never: pi takes anything
}

// jsonDocument reports whether the input's first chunk starts like a JSON
// object or array spread over lines (pretty-printed), whose first line
// alone is not JSON: a settings file or an export of another tool, which
// deserves one message that says so, not "line 1: malformed JSON".
func jsonDocument(first []byte) bool {
	first = bytes.TrimPrefix(first, bom)
	t := bytes.TrimLeft(first, " \t\r\n")
	if len(t) == 0 || (t[0] != '{' && t[0] != '[') {
		return false
	}
	line, _, more := bytes.Cut(t, []byte("\n"))
	return more && !jsontext.Value(bytes.TrimSpace(line)).IsValid()
}

// errJSONDocument is the error for an input jsonDocument recognises.
var errJSONDocument = fmt.Errorf("a JSON document of several lines, not a session canopy reads (a pi session is JSONL, one JSON object per line; a Flue document is one object with \"entries\"): %w", ErrNotSession)

package sessiontree

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"unicode"
	"unicode/utf8"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// flueReader reads a Flue session document: one JSON object whose
// "entries" are pi entries, with the leaf stored ("leafId") and child
// tasks listed ("metadata.taskSessions").
type flueReader struct{}

// detect: a JSON object with an "entries" member and no "type". A
// pretty-printed document spans many lines, so a first line that is not a
// whole object but opens one is probed too, top-level names only, until
// "entries" or "type" tells.
func (flueReader) agent() Agent { return Agent{Formats: []string{FormatFlue}, Document: true} }

func (flueReader) detect(p *probe) bool {
	var probe struct {
		Type    present `json:"type"`
		Entries present `json:"entries"`
	}
	if json.Unmarshal(bytes.TrimSpace(p.line), &probe, jsonOpts) == nil {
		return bool(probe.Entries) && !bool(probe.Type)
	}
	// Past leading white space, as bytes.TrimSpace reads it (Unicode's).
	r := bufio.NewReader(p.body())
	for {
		c, _, err := r.ReadRune()
		if err != nil {
			return false
		}
		if !unicode.IsSpace(c) {
			if c != '{' {
				return false
			}
			r.UnreadRune()
			break
		}
	}
	d := jsontext.NewDecoder(r, jsonOpts)
	if tok, err := d.ReadToken(); err != nil || tok.Kind() != '{' {
		return false
	}
	for d.PeekKind() == '"' {
		tok, err := d.ReadToken()
		if err != nil {
			return false
		}
		switch tok.String() {
		case "entries":
			return true
		case "type":
			return false
		}
		if d.SkipValue() != nil {
			return false
		}
	}
	return false
}

// present notes that a member exists, without decoding it.
type present bool

func (p *present) UnmarshalJSONFrom(d *jsontext.Decoder) error {
	*p = true
	return d.SkipValue()
}

// read reads the document whole (it is one JSON value), then keeps only
// where its entries are: entries keep their place in the input, not a
// copy, and a syntax error part way keeps what came before.
func (flueReader) read(s *Session, in *input, p *probe) error {
	data, err := in.all(p.first)
	if err != nil {
		return err
	}
	s.HasImages = bytes.Contains(data, imageMark)
	s.Format, s.Version = FormatFlue, 3
	// Detection looked past a UTF-8 byte-order mark; the decoder must
	// start past it too, or a document with one fails to load.
	f := &flueDocument{s: s}
	if bytes.HasPrefix(data, bom) {
		data, f.bom = data[len(bom):], len(bom)
	}
	f.data, f.line = data, 1
	f.d = jsontext.NewDecoder(bytes.NewReader(data), jsonOpts)
	return f.read()
}

// imageMark is how a picture's content block starts, as pi writes it.
var imageMark = []byte(`"type":"image"`)

// flueDocument is the state of reading one Flue document.
type flueDocument struct {
	s      *Session
	d      *jsontext.Decoder
	data   []byte // the document, past a byte-order mark
	bom    int    // the byte-order mark's length: data's offset in the input
	line   int    // the line lineAt is on
	lineAt int
}

// lineOf is the 1-based line of the byte at off (offsets only grow).
func (f *flueDocument) lineOf(off int) int {
	if off > f.lineAt {
		f.line += bytes.Count(f.data[f.lineAt:off], []byte{'\n'})
		f.lineAt = off
	}
	return f.line
}

// fail ends the read at a syntax error: an error when no entry was read,
// else a diagnostic, keeping the entries read.
func (f *flueDocument) fail(err error) error {
	// InputOffset is just past the last value read: skip the separators
	// after it so the line is where the broken value starts (in a
	// pretty-printed document it named the line before).
	off := int(f.d.InputOffset())
	for off < len(f.data) && bytes.IndexByte([]byte(" \t\r\n,:"), f.data[off]) >= 0 {
		off++
	}
	if len(f.s.Entries) == 0 {
		return fmt.Errorf("line %d: %s: %w", f.lineOf(off), describe(err), ErrNotSession)
	}
	f.s.diag(f.lineOf(off), SevError, "document cut short, later entries lost: %s", describe(err))
	return nil
}

// read reads the top-level members.
func (f *flueDocument) read() error {
	d, s := f.d, f.s
	if _, err := d.ReadToken(); err != nil {
		return f.fail(err)
	}
	// A leafId given twice: a string, then another value, leaves it set
	// (as optStr reads a member given twice).
	var leafID optStr
	sawLeaf := false
	for d.PeekKind() == '"' {
		tok, err := d.ReadToken()
		if err != nil {
			return f.fail(err)
		}
		switch name := tok.String(); name {
		case "entries":
			err = f.entries()
		case "leafId":
			sawLeaf = true
			err = json.UnmarshalDecode(d, &leafID, jsonOpts)
		case "metadata":
			err = f.metadata()
		case "version":
			var v lnum
			if err = json.UnmarshalDecode(d, &v, jsonOpts); err == nil {
				s.Version = int(v)
			}
		case "id", "sessionId", "createdAt":
			var v lstr
			if err = json.UnmarshalDecode(d, &v, jsonOpts); err == nil && name == "createdAt" {
				s.Header.Timestamp = string(v)
			} else if err == nil {
				s.Header.ID = string(v)
			}
		default:
			err = d.SkipValue()
		}
		if err != nil {
			return f.fail(err)
		}
	}
	if _, err := d.ReadToken(); err != nil {
		return f.fail(err)
	}
	s.stored = &storedLeaf{stored: sawLeaf, set: leafID.Set, id: leafID.V}
	return nil
}

// entries reads the "entries" member: an array of pi entries.
func (f *flueDocument) entries() error {
	d, s := f.d, f.s
	if d.PeekKind() != '[' {
		if err := d.SkipValue(); err != nil {
			return err
		}
		s.diag(0, SevError, "entries is not an array")
		return nil
	}
	if _, err := d.ReadToken(); err != nil {
		return err
	}
	var h head
	for d.PeekKind() != ']' {
		v, err := d.ReadValue()
		if err != nil {
			return err
		}
		at := int(d.InputOffset()) - len(v)
		raw := f.data[at : at+len(v)]
		ln := f.lineOf(at)
		h = head{}
		if err := decodeHead(raw, &h); err != nil {
			s.diag(ln, SevError, "entry skipped: %s", describe(err))
			continue
		}
		if !utf8.Valid(raw) {
			s.diag(ln, SevWarning, "%s", badUTF8)
		}
		e := &Entry{}
		e.fill(&h, s.noDetail)
		e.ID, e.ParentID, e.Line = h.ID.V, h.ParentID.V, ln
		e.place(s.src, int64(f.bom+at), raw)
		if e.ID == "" {
			e.ID = "L" + strconv.Itoa(ln)
			s.diag(ln, SevWarning, "entry has no id; using %s", e.ID)
		}
		e.Index = len(s.Entries)
		s.Entries = append(s.Entries, e)
	}
	_, err := d.ReadToken()
	return err
}

// metadata keeps the "metadata" member as written, and the child tasks it
// lists.
func (f *flueDocument) metadata() error {
	v, err := f.d.ReadValue()
	if err != nil {
		return err
	}
	s := f.s
	s.Metadata = bytes.Clone(v)
	var md struct {
		TaskSessions []ChildSession `json:"taskSessions"`
	}
	if json.Unmarshal(s.Metadata, &md, jsonOpts) != nil {
		s.diag(0, SevWarning, "metadata.taskSessions unreadable")
	}
	s.ChildSessions = md.TaskSessions
	return nil
}

// flueCut writes a cut as a Flue document: pi's entries (piCutEntry), the
// leaf when it is kept, and the document's metadata.
type flueCut struct{ piCut }

func (flueReader) cut(s *Session) Cut { return flueCut{piCut{s}} }

func (f flueCut) Write(keep []bool, leaf *Entry, o CutOptions, c *CutCounts) ([]byte, error) {
	var out bytes.Buffer
	out.WriteString(`{"version":3,"entries":[`)
	first := true
	err := piCutEntries(f.s, keep, o, c, func(raw []byte) {
		if !first {
			out.WriteByte(',')
		}
		first = false
		out.Write(raw)
	})
	if err != nil {
		return nil, err
	}
	out.WriteString(`],"leafId":`)
	if leaf != nil && keep[leaf.Index] {
		id, _ := json.Marshal(leaf.ID)
		out.Write(id)
	} else {
		out.WriteString("null")
	}
	if len(f.s.Metadata) > 0 {
		out.WriteString(`,"metadata":`)
		out.Write(f.s.Metadata)
	}
	out.WriteString("}\n")
	return out.Bytes(), nil
}

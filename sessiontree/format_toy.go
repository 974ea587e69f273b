package sessiontree

import (
	"fmt"

	"github.com/go-json-experiment/json"

	"canopy/internal/jsonobj"
)

// FormatToy is a toy chat log: one {"id", "after", "who", "said", "at"}
// object per line, "after" naming the line it answers.
const FormatToy = "toy"

type toyReader struct{}

func (toyReader) agent() Agent { return Agent{Formats: []string{FormatToy}} }

// toyHead is what a line holds.
type toyHead struct {
	ID    string `json:"id"`
	After string `json:"after"`
	Who   string `json:"who"`
	Said  string `json:"said"`
	At    string `json:"at"`
}

func (toyReader) detect(p *probe) bool {
	var h toyHead
	return json.Unmarshal(p.line, &h) == nil && h.Who != "" && h.ID != ""
}

type toyLine struct {
	rawLine
	entry *Entry
	err   error
	blank bool
}

func (l *toyLine) decodeRaw(raw rawLine, e *Entry, src *source, _ interner) {
	l.rawLine, l.entry = raw, e
	text, lead := trimSpace(l.text)
	l.text = nil
	if l.blank = len(text) == 0; l.blank {
		return
	}
	var h toyHead
	if l.err = json.Unmarshal(text, &h); l.err != nil {
		return
	}
	e.start(&l.rawLine, src, lead, text, h.At)
	e.ID, e.ParentID, e.Type, e.Role = h.ID, h.After, TypeMessage, RoleUser
	if h.Who != "user" {
		e.Role = RoleAssistant
	}
}

func (toyReader) read(s *Session, in *input, p *probe) error {
	lines, err := decodeRecords(in, p, newSlabDecoder[toyLine](in.src))
	if err != nil {
		return err
	}
	s.Format = FormatToy
	for i := range lines {
		if l := &lines[i]; !s.skipped(&l.rawLine, l.blank, l.err) {
			l.entry.Detail = s.noDetail
			s.keep(l.entry)
		}
	}
	if len(s.Entries) == 0 {
		return fmt.Errorf("no line of this toy log could be read: %w", ErrNotSession)
	}
	s.src.body = toyBody{}
	return nil
}

// toyBody decodes a line into pi's shape: a message of one text block.
type toyBody struct{}

func (toyBody) decode(e *Entry, raw []byte) (*Body, error) {
	var h toyHead
	if err := json.Unmarshal(raw, &h); err != nil {
		return nil, err
	}
	return &Body{Message: &Message{Role: e.Role, Content: Blocks{{Type: "text", Text: h.Said}}}}, nil
}

// toyCut writes the kept lines at their places, "after" rewritten when the
// line it named was left out.
type toyCut struct{ s *Session }

func (toyReader) cut(s *Session) Cut       { return toyCut{s} }
func (toyCut) Thinking(*Entry) (bool, int) { return false, 0 }
func (toyCut) Needed(*Entry) bool          { return true }
func (toyCut) Names([]bool, *Entry)        {}
func (f toyCut) Write(keep []bool, _ *Entry, _ CutOptions, _ *CutCounts) ([]byte, error) {
	lines, err := cutLines(f.s, keep, false, func(e *Entry) ([]byte, error) {
		raw, err := e.Raw()
		if err != nil || e.Parent == nil || keep[e.Parent.Index] {
			return raw, err
		}
		obj, err := jsonobj.Parse(raw)
		if err != nil {
			return nil, err
		}
		obj.SetString("after", KeptParent(e, keep))
		return obj.Encode(), nil
	})
	if err != nil {
		return nil, err
	}
	return writeCutLines(lines), nil
}

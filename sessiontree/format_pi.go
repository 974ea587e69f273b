package sessiontree

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"canopy/internal/jsonobj"
)

// piReader reads pi session JSONL, versions 1 to 3, and oh-my-pi's
// variants of it: one JSON object per line, a "session" header first
// (oh-my-pi may put a "title" line before it), then one entry per line.
// Old versions are migrated in memory, never in the file: migrateV1ToV2,
// migrateV2ToV3.
type piReader struct{}

func (piReader) agent() Agent {
	return Agent{Formats: []string{FormatPi, FormatOhMyPi}, Dirs: []string{".pi/agent/sessions"}}
}

// detect takes pi JSONL, and input with no JSON object at its start at
// all (text, binary, blank): read as pi, it is reported line by line, or
// as not a session.
func (piReader) detect(p *probe) bool {
	k := p.classify()
	return k == kindPi || k == kindText
}

// line is one line of a JSONL file and what decoding it gave. It is kept
// small: a 100,000-line file has 100,000 of them while it loads.
type line struct {
	rawLine            // without its text, once decoded
	entry   *Entry     // in a slab shared by the chunk's lines: one allocation
	err     error      // the line is not a JSON object
	x       *lineExtra // the rare fields; nil for most lines
	blank   bool
	hasID   bool // a non-empty string id
	model   bool // a model_change that has a "model" member (oh-my-pi's)
	image   bool // the line holds a picture
	badUTF8 bool // the line's strings hold bytes that are not UTF-8
}

// ok: the line is an object, the header or an entry.
func (l *line) ok() bool { return !l.blank && l.err == nil }

// lineExtra holds what only a header, a title line or a legacy compaction
// carries.
type lineExtra struct {
	firstKeptIndex *float64 // v1 compaction firstKeptEntryIndex; nil when absent
	version        int      // header: version member, 0 when missing
	cwd, title     string
	parentSession  string
	raw            jsontext.Value // a session header as written
}

func (l *line) extra() lineExtra {
	if l.x == nil {
		return lineExtra{}
	}
	return *l.x
}

// newLineDecoder returns a worker's decoder of pi lines. none is the
// session's shared empty Detail.
func newLineDecoder(src *source, none *Detail) func() lineDecoder[line] {
	return func() lineDecoder[line] {
		var h head
		it := interner{}
		return func(raws []rawLine, out []line) {
			// The chunk's entries live in one slab; the per-line records
			// are garbage once the load is done.
			slab := make([]Entry, len(raws))
			for i := range raws {
				l := &out[i]
				l.rawLine, l.entry = raws[i], &slab[i]
				decodeLine(&h, l, src, none)
				it.entry(l.entry)
				l.text = nil
			}
		}
	}
}

// decodeLine decodes the line's head into its entry.
func decodeLine(h *head, l *line, src *source, none *Detail) {
	text, lead := trimSpace(l.text)
	if len(text) == 0 {
		l.blank = true
		return
	}
	*h = head{}
	if err := decodeHead(text, h); err != nil {
		l.err = err
		return
	}
	// Valid JSON holds bytes of 0x80 and up only in strings, so this finds
	// broken UTF-8 in them; about 10 ms for 85 MB.
	l.badUTF8 = !utf8.Valid(text)
	e := l.entry
	e.fill(h, none)
	e.Line = int(l.n)
	e.place(src, l.off+int64(lead), text)
	e.ID, l.hasID = h.ID.V, h.ID.Set && h.ID.V != ""
	e.ParentID = h.ParentID.V
	l.image = h.image
	l.model = e.Type == TypeModelChange && bytes.Contains(text, []byte(`"model":`))
	if h.FirstKeptEntryIndex != nil || h.Version != nil || h.Cwd != "" || h.Title != "" || h.ParentSession != "" || e.Type == "session" {
		x := &lineExtra{cwd: string(h.Cwd), title: string(h.Title), parentSession: string(h.ParentSession)}
		if h.FirstKeptEntryIndex != nil {
			k := float64(*h.FirstKeptEntryIndex)
			x.firstKeptIndex = &k
		}
		if h.Version != nil {
			x.version = int(*h.Version)
		}
		if e.Type == "session" {
			// The header is kept whole: it is small, and the chunk it
			// is in is about to go.
			x.raw = bytes.Clone(text)
		}
		l.x = x
	}
}

// trimSpace is bytes.TrimSpace, also telling how many bytes it cut at the
// start: the result is a slice of b's array, so the difference of their
// capacities.
func trimSpace(b []byte) ([]byte, int) {
	t := bytes.TrimSpace(b)
	if len(t) == 0 {
		return nil, 0
	}
	return t, cap(b) - cap(t)
}

// read decodes every line, finds the header, then keeps the entries and
// migrates them to the current version.
func (piReader) read(s *Session, in *input, p *probe) error {
	lines, err := decodeRecords(in, p, newLineDecoder(in.src, s.noDetail))
	if err != nil {
		return err
	}
	headerAt, err := findHeader(s, lines, in)
	if err != nil {
		return err
	}
	s.readHeader(lines, headerAt)
	objects := s.collectEntries(lines, headerAt)
	if s.Version < 2 {
		s.migrateV1ToV2(lines, objects)
	}
	// migrateV2ToV3 renames a message role, so it is applied where a role
	// is read (Entry.fill at load, Entry.Decode to render), in every
	// version: there is nothing to do here.
	return nil
}

// findHeader returns the index of the header, the first "session" object
// (-1 when there is none), and notes whether any line holds a picture. An
// input with no object at all is no session: the error says what it is.
func findHeader(s *Session, lines []line, in *input) (int, error) {
	headerAt, valid := -1, 0
	sawEntry := false
	for i := range lines {
		l := &lines[i]
		if !l.ok() {
			continue
		}
		valid++
		s.HasImages = s.HasImages || l.image
		switch l.entry.Type {
		case "session":
			if headerAt < 0 {
				headerAt = i
				if sawEntry {
					s.diag(int(l.n), SevWarning, "session header is not the first line")
				}
			}
		case "title": // oh-my-pi's, before the header
		default:
			sawEntry = true
		}
	}
	if valid > 0 {
		return headerAt, nil
	}
	first, err := in.firstChunk()
	if err != nil {
		return 0, fmt.Errorf("reading the start again: %w", err)
	}
	if jsonDocument(first) {
		return 0, errJSONDocument
	}
	for i := range lines {
		if lines[i].err != nil {
			return 0, fmt.Errorf("line %d: %s: %w", int(lines[i].n), describe(lines[i].err), ErrNotSession)
		}
	}
	return 0, fmt.Errorf("empty file: %w", ErrNotSession) // blank lines at most
}

// readHeader sets the format, version and header from the header line, or,
// without one, tells a current file from a legacy one by its ids.
func (s *Session) readHeader(lines []line, headerAt int) {
	s.Format, s.Version = FormatPi, 1
	if headerAt < 0 {
		s.diag(0, SevWarning, "no session header; reading entries as they are")
		for i := range lines {
			if lines[i].ok() && lines[i].hasID {
				s.Version = 3
				break
			}
		}
		return
	}
	hl := &lines[headerAt]
	hx := hl.extra()
	s.Header = Header{ID: hl.entry.ID, Timestamp: hl.entry.Timestamp, Cwd: hx.cwd, Title: hx.title,
		ParentSession: hx.parentSession, Line: hl.entry.Line, Raw: hx.raw}
	if hx.version > 0 {
		s.Version = hx.version
	}
	if hx.title != "" {
		s.Format = FormatOhMyPi
	}
}

// collectEntries keeps the entries, in file order, and reports the lines
// skipped. It returns the file's objects in order, the header's place
// included (nil): the numbering a v1 firstKeptEntryIndex refers to.
func (s *Session) collectEntries(lines []line, headerAt int) []*Entry {
	n := 0
	for i := range lines {
		if lines[i].ok() {
			n++
		}
	}
	s.Entries = make([]*Entry, 0, n)
	var objects []*Entry
	if headerAt < 0 {
		objects = append(objects, nil) // keep the header's number 0
	}
	for i := range lines {
		l := &lines[i]
		if l.ok() && l.badUTF8 {
			s.diag(int(l.n), SevWarning, "%s", badUTF8)
		}
		switch {
		case l.blank:
			continue
		case l.err != nil:
			if l.last {
				s.diag(int(l.n), SevError, "truncated last line skipped (is the session still being written?): %s", describe(l.err))
			} else {
				s.diag(int(l.n), SevError, "line skipped: %s", describe(l.err))
			}
			continue
		case i == headerAt:
			objects = append(objects, nil)
			continue
		case l.entry.Type == "title" && (headerAt < 0 || i < headerAt):
			s.Format = FormatOhMyPi
			if s.Header.Title == "" {
				s.Header.Title = l.extra().title
			}
			continue
		case l.entry.Type == "session":
			s.diag(int(l.n), SevWarning, "extra session header skipped")
			continue
		}
		e := l.entry
		if s.Version >= 2 && !l.hasID {
			e.ID = "L" + strconv.Itoa(int(l.n))
			s.diag(int(l.n), SevWarning, "entry has no id; using %s", e.ID)
		}
		if isOhMyPiType(e, l.model) {
			s.Format = FormatOhMyPi
		}
		e.Index = len(s.Entries)
		s.Entries = append(s.Entries, e)
		objects = append(objects, e)
	}
	return objects
}

// migrateV1ToV2 is the reference's migration from version 1, in memory:
// version 1 entries have no ids, so each gets L<n>, n its line number
// (stable across runs, unlike the reference's random ids, so that links
// into pages made from old files keep working), and the entries form a
// chain in file order. A compaction's firstKeptEntryIndex, an index into
// the file's objects with the header at 0, becomes its firstKeptEntryId;
// an index out of range, or at the header, names no entry.
func (s *Session) migrateV1ToV2(lines []line, objects []*Entry) {
	var prev *Entry
	for _, e := range s.Entries {
		e.ID = "L" + strconv.Itoa(e.Line)
		e.ParentID = ""
		if prev != nil {
			e.ParentID = prev.ID
		}
		prev = e
	}
	for i := range lines {
		l := &lines[i]
		if !l.ok() || l.entry.Type != TypeCompaction || l.entry.FirstKeptID != "" || l.extra().firstKeptIndex == nil {
			continue
		}
		// A negative or fractional index is out of range too (it used
		// to be read as "absent", with no warning, or truncated).
		k := *l.extra().firstKeptIndex
		if k >= 0 && k < float64(len(objects)) && k == math.Trunc(k) && objects[int(k)] != nil {
			l.entry.FirstKeptID = objects[int(k)].ID
		} else {
			s.diag(l.entry.Line, SevWarning, "compaction firstKeptEntryIndex %v names no entry", k)
		}
	}
}

// migrateV2ToV3 is the reference's migration from version 2: the message
// role "hookMessage" became "custom". It is applied to every message, of
// every version (a later file that still has one reads the same), as its
// role is read: at load (Entry.Role) and when the entry is decoded whole
// (Message.Role).
func migrateV2ToV3(role string) string {
	if role == "hookMessage" {
		return RoleCustom
	}
	return role
}

// isOhMyPiType reports whether the entry is of a type only oh-my-pi
// writes; model tells that a model_change has a "model" member.
func isOhMyPiType(e *Entry, model bool) bool {
	switch e.Type {
	case "ttsr_injection", "session_init", "mode_change", "title_change", "service_tier_change":
		return true
	case TypeModelChange:
		return e.ModelRole != "" || model
	}
	return false
}

// piCut writes a cut as a pi JSONL file of version 3 in which every entry
// keeps its id: a legacy file's L<n> ids are written out, so links into a
// page made from the whole file still name the same entries. Extension
// state is kept, its data cut by NoHidden.
type piCut struct{ s *Session }

func (piReader) cut(s *Session) Cut { return piCut{s} }

func (piCut) Thinking(*Entry) (bool, int) { return false, 0 }
func (piCut) Needed(*Entry) bool          { return true }
func (piCut) Names([]bool, *Entry)        {}

func (f piCut) Write(keep []bool, _ *Entry, o CutOptions, c *CutCounts) ([]byte, error) {
	var out bytes.Buffer
	if err := piCutHeader(&out, f.s); err != nil {
		return nil, err
	}
	err := piCutEntries(f.s, keep, o, c, func(raw []byte) {
		out.Write(raw)
		out.WriteByte('\n')
	})
	return out.Bytes(), err
}

// piCutEntries rewrites each kept entry of s in pi's shape (piCutEntry),
// in file order, and hands it to put.
func piCutEntries(s *Session, keep []bool, o CutOptions, c *CutCounts, put func([]byte)) error {
	for _, e := range s.Entries {
		if !keep[e.Index] {
			continue
		}
		raw, err := piCutEntry(e, KeptParent(e, keep), o, c)
		if err != nil {
			return fmt.Errorf("entry %s (line %d): %w", e.ID, e.Line, err)
		}
		put(raw)
	}
	return nil
}

// piCutHeader writes the session header as version 3, keeping its fields.
func piCutHeader(out *bytes.Buffer, s *Session) error {
	h := jsonobj.Object{}
	if len(s.Header.Raw) > 0 {
		var err error
		if h, err = jsonobj.Parse(s.Header.Raw); err != nil {
			return fmt.Errorf("session header: %w", err)
		}
	} else {
		h.Set("type", jsontext.Value(`"session"`))
		if s.Header.ID != "" {
			h.SetString("id", s.Header.ID)
		}
	}
	h.Set("version", jsontext.Value("3"))
	if s.Header.Title != "" && h.Get("title") == nil {
		h.SetString("title", s.Header.Title)
	}
	out.Write(h.Encode())
	out.WriteByte('\n')
	return nil
}

// piCutEntry returns the entry's JSON with its id and parent written out
// and the content o leaves out removed. Members are kept in their order.
func piCutEntry(e *Entry, parent string, o CutOptions, c *CutCounts) ([]byte, error) {
	raw, err := e.Raw()
	if err != nil {
		return nil, err
	}
	obj, err := jsonobj.Parse(raw)
	if err != nil {
		return nil, err
	}
	obj.SetString("id", e.ID)
	if parent == "" {
		obj.Set("parentId", jsontext.Value("null"))
	} else {
		obj.SetString("parentId", parent)
	}
	if o.NoHidden && e.Type == TypeCustom && obj.Get("data") != nil {
		obj.Del("data")
		c.Data++
	}
	if e.Type != TypeMessage || !(o.NoThinking || o.NoToolOutput) {
		return obj.Encode(), nil
	}
	msgRaw := obj.Get("message")
	if msgRaw == nil {
		return obj.Encode(), nil
	}
	msg, err := jsonobj.Parse(msgRaw)
	if err != nil {
		return obj.Encode(), nil // not an object: nothing to cut
	}
	switch {
	case o.NoThinking && e.Role == RoleAssistant:
		if content := msg.Get("content"); content != nil {
			kept, dropped, err := dropBlocks(content, "thinking")
			if err == nil && dropped > 0 {
				msg.Set("content", kept)
				c.Thinking += dropped
			}
		}
	case o.NoToolOutput && e.Role == RoleToolResult:
		text, _ := json.Marshal(OutputLeftOut)
		msg.Set("content", jsontext.Value(`[{"type":"text","text":`+string(text)+`}]`))
		msg.Del("details")
		c.Outputs++
	case o.NoToolOutput && e.Role == RoleBashExecution:
		msg.SetString("output", OutputLeftOut)
		msg.Del("fullOutputPath")
		c.Outputs++
	}
	obj.Set("message", msg.Encode())
	return obj.Encode(), nil
}

// dropBlocks removes the content blocks of the types from a content array.
func dropBlocks(content jsontext.Value, types ...string) (jsontext.Value, int, error) {
	if k := content.Kind(); k != '[' {
		return content, 0, nil
	}
	var blocks []jsontext.Value
	if err := json.Unmarshal(content, &blocks); err != nil {
		return nil, 0, err
	}
	var out []jsontext.Value
	dropped := 0
	for _, b := range blocks {
		var head struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(b, &head) == nil && slices.Contains(types, head.Type) {
			dropped++
			continue
		}
		out = append(out, b)
	}
	if out == nil {
		out = []jsontext.Value{}
	}
	v, err := json.Marshal(out)
	return v, dropped, err
}

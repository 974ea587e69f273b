package sessiontree

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"strconv"
	"sync"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Formats a session can be read from.
const (
	FormatPi     = "pi"       // pi session JSONL, versions 1 to 3
	FormatOhMyPi = "oh-my-pi" // pi JSONL as the oh-my-pi fork writes it
	FormatFlue   = "flue"     // a Flue session document (one JSON object)
)

// Header is the session header: the first object of a pi JSONL file, or
// the top-level fields of a Flue document. It is not part of the tree.
type Header struct {
	ID            string
	Timestamp     string
	Cwd           string
	Title         string // oh-my-pi: header title, or a title line before the header
	ParentSession string
	Line          int            // 0 when there is no header line
	Raw           jsontext.Value // the header object as written, if any
}

// ChildSession is a child task session listed by a Flue document's
// metadata.taskSessions.
type ChildSession struct {
	Session    string `json:"session"`
	TaskID     string `json:"taskId"`
	StorageKey string `json:"storageKey"`
}

// Severity of a Diagnostic.
const (
	SevError   = "error"   // something in the input was skipped
	SevWarning = "warning" // something was repaired or is suspicious
)

// Diagnostic is a problem found in the input. Line is 1-based (0 when the
// problem has no single line).
type Diagnostic struct {
	Line     int    `json:"line"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
}

// maxDiagnostics bounds the list: a binary or garbled 100 MB file must not
// produce millions of messages. Session.Suppressed counts the rest.
const maxDiagnostics = 1000

// Session is a loaded session: its entries in file order, the tree they
// form, and what was wrong with the input.
type Session struct {
	File    string // the name used in messages: a path, or "-" for stdin
	Format  string
	Version int
	Header  Header
	Source  []byte // the input, byte for byte; entries' Raw point into it

	Entries []*Entry          // file order, header excluded
	Roots   []*Entry          // file order
	Labels  map[string]string // entry id to label, after replaying label entries
	Name    string            // latest non-empty session_info name, else the header title
	Leaf    *Entry            // the leaf on load; nil for an empty tree or a Flue null leaf

	ChildSessions []ChildSession // Flue metadata.taskSessions
	Metadata      jsontext.Value // Flue metadata, as written

	Diagnostics []Diagnostic
	Suppressed  int // diagnostics not kept beyond maxDiagnostics

	byID     map[string]*Entry
	noDetail *Detail   // shared by every entry without detail fields
	flueLeaf *flueLeaf // the leaf a Flue document stores
}

type flueLeaf struct {
	stored bool // the document has a leafId member
	set    bool // and it is a string (null: no leaf)
	id     string
}

// ErrNotSession is returned (wrapped) for input that holds no session at
// all: empty, binary, or not JSON.
var ErrNotSession = errors.New("not a session file")

// LoadFile reads and builds the session in the file at path. The file is
// only ever opened for reading.
func LoadFile(path string) (*Session, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("%s: is a directory: %w", path, ErrNotSession)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Load(data, path)
}

// Read reads all of r and builds the session; name is used in messages.
func Read(r io.Reader, name string) (*Session, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return Load(data, name)
}

// Load builds the session held in data, which it keeps (as Source) and
// never modifies. name is used in messages. Problems in the input become
// Diagnostics; an error is returned only when there is no session at all.
func Load(data []byte, name string) (*Session, error) {
	s := &Session{File: name, Source: data, Labels: map[string]string{}, noDetail: &Detail{}}
	body := bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, fmt.Errorf("%s: empty file: %w", name, ErrNotSession)
	}
	var err error
	if isFlueDocument(body) {
		err = s.loadFlue(data)
	} else {
		err = s.loadJSONL(data)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	s.build()
	return s, nil
}

func (s *Session) diag(line int, sev, format string, args ...any) {
	if len(s.Diagnostics) >= maxDiagnostics {
		s.Suppressed++
		return
	}
	s.Diagnostics = append(s.Diagnostics, Diagnostic{Line: line, Severity: sev, Message: fmt.Sprintf(format, args...)})
}

// present notes that a member exists, without decoding it.
type present bool

func (p *present) UnmarshalJSONFrom(d *jsontext.Decoder) error {
	*p = true
	return d.SkipValue()
}

// isFlueDocument tells a Flue document from JSONL: a JSON object with an
// "entries" member and no "type". Pretty-printed documents span many lines,
// so a first line that is not a whole object but opens one is probed too.
func isFlueDocument(body []byte) bool {
	first := body
	if i := bytes.IndexByte(body, '\n'); i >= 0 {
		first = body[:i]
	}
	var probe struct {
		Type    present `json:"type"`
		Entries present `json:"entries"`
	}
	if json.Unmarshal(bytes.TrimSpace(first), &probe, jsonOpts) == nil {
		return bool(probe.Entries) && !bool(probe.Type)
	}
	t := bytes.TrimSpace(body)
	if len(t) == 0 || t[0] != '{' {
		return false
	}
	// Not a one-line object: walk the document's top-level names only.
	d := jsontext.NewDecoder(bytes.NewReader(t), jsonOpts)
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

// rawLine is one physical line of a JSONL file.
type rawLine struct {
	text []byte // without the line end
	n    int32  // 1-based line number
	last bool   // the file's last line, with no newline after it
}

// splitLines cuts data into lines, as the records decodeLines fills in.
func splitLines(data []byte) []parsed {
	lines := make([]parsed, 0, bytes.Count(data, []byte{'\n'})+1)
	for n := 1; len(data) > 0; n++ {
		i := bytes.IndexByte(data, '\n')
		var text []byte
		last := false
		if i < 0 {
			text, data, last = data, nil, true
		} else {
			text, data = data[:i], data[i+1:]
		}
		if n == 1 {
			text = bytes.TrimPrefix(text, []byte("\xef\xbb\xbf"))
		}
		text = bytes.TrimSuffix(text, []byte{'\r'})
		lines = append(lines, parsed{rawLine: rawLine{text: text, n: int32(n), last: last}})
	}
	return lines
}

// parsed is one line and what decoding it gave. It is kept small: a
// 100,000-line file has 100,000 of them while it loads.
type parsed struct {
	rawLine
	entry *Entry // in a slab shared by all lines: one allocation
	err   error
	x     *lineExtra // the rare fields; nil for most lines
	blank bool
	hasID bool
}

// lineExtra holds what only a header, a title line or a legacy compaction
// carries.
type lineExtra struct {
	firstKeptIndex *float64 // v1 compaction firstKeptEntryIndex; nil when absent
	version        int      // header: version member, 0 when missing
	cwd, title     string
	parentSession  string
}

func (p *parsed) extra() lineExtra {
	if p.x == nil {
		return lineExtra{}
	}
	return *p.x
}

// decodeLines decodes every line, spread over the machine's cores: lines
// are independent, and decoding is the bulk of the load time.
func decodeLines(lines []parsed, none *Detail) []parsed {
	// Entries live in one slab; the per-line records are garbage once the
	// load is done.
	slab := make([]Entry, len(lines))
	for i := range lines {
		lines[i].entry = &slab[i]
	}
	workers := runtime.GOMAXPROCS(0)
	if len(lines) < 256 {
		workers = 1
	}
	chunk := (len(lines) + workers - 1) / workers
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		lo, hi := w*chunk, min((w+1)*chunk, len(lines))
		if lo >= hi {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			var h head
			in := interner{}
			for i := lo; i < hi; i++ {
				decodeLine(&h, &lines[i], none)
				in.entry(lines[i].entry)
			}
		}()
	}
	wg.Wait()
	return lines
}

func decodeLine(h *head, p *parsed, none *Detail) {
	l := p.rawLine
	text := bytes.TrimSpace(l.text)
	if len(text) == 0 {
		p.blank = true
		return
	}
	*h = head{}
	if err := decodeHead(text, h); err != nil {
		p.err = err
		return
	}
	p.entry.fill(h, none)
	p.entry.Line = int(l.n)
	p.entry.Raw = jsontext.Value(text)
	p.entry.ID, p.hasID = h.ID.V, h.ID.Set && h.ID.V != ""
	p.entry.ParentID = h.ParentID.V
	if h.FirstKeptEntryIndex != nil || h.Version != nil || h.Cwd != "" || h.Title != "" || h.ParentSession != "" {
		x := &lineExtra{cwd: string(h.Cwd), title: string(h.Title), parentSession: string(h.ParentSession)}
		if h.FirstKeptEntryIndex != nil {
			k := float64(*h.FirstKeptEntryIndex)
			x.firstKeptIndex = &k
		}
		if h.Version != nil {
			x.version = int(*h.Version)
		}
		p.x = x
	}
}

// interner shares one copy of the strings that repeat across entries
// (types, roles, models): a 100,000-entry session holds a handful of
// distinct values, not 100,000 copies of each. One per worker: no locks.
type interner map[string]string

func (in interner) str(s *string) {
	if *s == "" || len(*s) > 64 {
		return
	}
	if c, ok := in[*s]; ok {
		*s = c
		return
	}
	if len(in) < 4096 {
		in[*s] = *s
	}
}

func (in interner) entry(e *Entry) {
	// Only the entry's own fields: its Detail may be the shared empty one,
	// which workers must not write to.
	for _, s := range []*string{&e.Type, &e.Role, &e.Provider, &e.Model, &e.StopReason, &e.ToolName} {
		in.str(s)
	}
}

// describe turns a decode error into a short message for a diagnostic.
func describe(err error) string {
	if errors.Is(err, errNotObject) {
		return "not a JSON object"
	}
	var se *jsontext.SyntacticError
	if errors.As(err, &se) {
		return "malformed JSON: " + se.Err.Error()
	}
	var me *json.SemanticError
	if errors.As(err, &me) && me.JSONKind != '{' && me.JSONKind != 0 {
		return "not a JSON object"
	}
	return "malformed JSON: " + err.Error()
}

func (s *Session) loadJSONL(data []byte) error {
	results := decodeLines(splitLines(data), s.noDetail)

	// Header: the first "session" object. oh-my-pi may put a "title" line
	// before it.
	headerAt, valid := -1, 0
	sawEntry := false
	for i := range results {
		p := &results[i]
		if p.blank || p.err != nil {
			continue
		}
		valid++
		switch p.entry.Type {
		case "session":
			if headerAt < 0 {
				headerAt = i
				if sawEntry {
					s.diag(int(results[i].n), SevWarning, "session header is not the first line")
				}
			}
		case "title":
		default:
			sawEntry = true
		}
	}
	if valid == 0 {
		for i := range results {
			if results[i].err != nil {
				return fmt.Errorf("line %d: %s: %w", int(results[i].n), describe(results[i].err), ErrNotSession)
			}
		}
		return ErrNotSession
	}

	s.Format, s.Version = FormatPi, 1
	if headerAt >= 0 {
		hp := &results[headerAt]
		hx := hp.extra()
		s.Header = Header{ID: hp.entry.ID, Timestamp: hp.entry.Timestamp, Cwd: hx.cwd, Title: hx.title,
			ParentSession: hx.parentSession, Line: hp.entry.Line, Raw: hp.entry.Raw}
		if hx.version > 0 {
			s.Version = hx.version
		}
		if hx.title != "" {
			s.Format = FormatOhMyPi
		}
	} else {
		// No header: ids tell a current file from a legacy one.
		s.diag(0, SevWarning, "no session header; reading entries as they are")
		for i := range results {
			if results[i].err == nil && !results[i].blank && results[i].hasID {
				s.Version = 3
				break
			}
		}
	}

	n := 0
	for i := range results {
		if !results[i].blank && results[i].err == nil {
			n++
		}
	}
	s.Entries = make([]*Entry, 0, n)
	// objIndex counts every parsed object, header = 0: the v1
	// firstKeptEntryIndex refers to this numbering.
	var byObjIndex []*Entry
	if headerAt < 0 {
		byObjIndex = append(byObjIndex, nil) // keep the header's number 0
	}
	var prev *Entry
	for i := range results {
		p, l := &results[i], results[i].rawLine
		switch {
		case p.blank:
			continue
		case p.err != nil:
			if l.last {
				s.diag(int(l.n), SevError, "truncated last line skipped (is the session still being written?): %s", describe(p.err))
			} else {
				s.diag(int(l.n), SevError, "line skipped: %s", describe(p.err))
			}
			continue
		case i == headerAt:
			byObjIndex = append(byObjIndex, nil)
			continue
		case p.entry.Type == "title" && (headerAt < 0 || i < headerAt):
			s.Format = FormatOhMyPi
			if s.Header.Title == "" {
				s.Header.Title = p.extra().title
			}
			continue
		case p.entry.Type == "session":
			s.diag(int(l.n), SevWarning, "extra session header skipped")
			continue
		}
		e := p.entry
		if s.Version < 2 {
			// Migration v1 to v2, in memory: ids from line numbers, a chain.
			e.ID = "L" + strconv.Itoa(int(l.n))
			e.ParentID = ""
			if prev != nil {
				e.ParentID = prev.ID
			}
		} else if !p.hasID {
			e.ID = "L" + strconv.Itoa(int(l.n))
			s.diag(int(l.n), SevWarning, "entry has no id; using %s", e.ID)
		}
		if isOhMyPiType(e) {
			s.Format = FormatOhMyPi
		}
		e.Index = len(s.Entries)
		s.Entries = append(s.Entries, e)
		byObjIndex = append(byObjIndex, e)
		prev = e
	}
	if s.Version < 2 {
		// firstKeptEntryIndex indexes the file's objects with the header at
		// 0; an index out of range, or at the header, names no entry.
		for i := range results {
			p := &results[i]
			if p.blank || p.err != nil || p.entry.Type != TypeCompaction || p.entry.FirstKeptID != "" || p.extra().firstKeptIndex == nil {
				continue
			}
			// A negative or fractional index is out of range too (it used
			// to be read as "absent", with no warning, or truncated).
			k := *p.extra().firstKeptIndex
			if k >= 0 && k < float64(len(byObjIndex)) && k == math.Trunc(k) && byObjIndex[int(k)] != nil {
				p.entry.FirstKeptID = byObjIndex[int(k)].ID
			} else {
				s.diag(p.entry.Line, SevWarning, "compaction firstKeptEntryIndex %v names no entry", k)
			}
		}
	}
	return nil
}

func isOhMyPiType(e *Entry) bool {
	switch e.Type {
	case "ttsr_injection", "session_init", "mode_change", "title_change", "service_tier_change":
		return true
	case TypeModelChange:
		return e.ModelRole != "" || bytes.Contains(e.Raw, []byte(`"model":`))
	}
	return false
}

// loadFlue reads a Flue session document: one JSON object whose entries
// are pi entries, with the leaf stored. Entries are sliced out of data
// rather than copied, and a syntax error part way keeps what came before.
func (s *Session) loadFlue(data []byte) error {
	s.Format, s.Version = FormatFlue, 3
	// Load detects the format past a UTF-8 byte-order mark; the decoder
	// must start past it too, or a Flue document with a BOM fails to load.
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	d := jsontext.NewDecoder(bytes.NewReader(data), jsonOpts)
	line, lineAt := 1, 0
	lineOf := func(off int) int {
		if off > lineAt {
			line += bytes.Count(data[lineAt:off], []byte{'\n'})
			lineAt = off
		}
		return line
	}
	fail := func(err error) error {
		// InputOffset is just past the last value read: skip the
		// separators after it so the line is where the broken value starts
		// (in a pretty-printed document it named the line before).
		off := int(d.InputOffset())
		for off < len(data) && bytes.IndexByte([]byte(" \t\r\n,:"), data[off]) >= 0 {
			off++
		}
		if len(s.Entries) == 0 {
			return fmt.Errorf("line %d: %s: %w", lineOf(off), describe(err), ErrNotSession)
		}
		s.diag(lineOf(off), SevError, "document cut short, later entries lost: %s", describe(err))
		return nil
	}
	if _, err := d.ReadToken(); err != nil {
		return fail(err)
	}
	var leafID optStr
	sawLeaf := false
	var h head
	for d.PeekKind() == '"' {
		tok, err := d.ReadToken()
		if err != nil {
			return fail(err)
		}
		switch tok.String() {
		case "entries":
			if d.PeekKind() != '[' {
				if err := d.SkipValue(); err != nil {
					return fail(err)
				}
				s.diag(0, SevError, "entries is not an array")
				continue
			}
			if _, err := d.ReadToken(); err != nil {
				return fail(err)
			}
			for d.PeekKind() != ']' {
				v, err := d.ReadValue()
				if err != nil {
					return fail(err)
				}
				end := int(d.InputOffset())
				raw := data[end-len(v) : end]
				e := &Entry{}
				h = head{}
				ln := lineOf(end - len(v))
				if err := decodeHead(raw, &h); err != nil {
					s.diag(ln, SevError, "entry skipped: %s", describe(err))
					continue
				}
				e.fill(&h, s.noDetail)
				e.ID, e.ParentID, e.Line, e.Raw = h.ID.V, h.ParentID.V, ln, jsontext.Value(raw)
				if e.ID == "" {
					e.ID = "L" + strconv.Itoa(ln)
					s.diag(ln, SevWarning, "entry has no id; using %s", e.ID)
				}
				e.Index = len(s.Entries)
				s.Entries = append(s.Entries, e)
			}
			if _, err := d.ReadToken(); err != nil {
				return fail(err)
			}
		case "leafId":
			sawLeaf = true
			if err := json.UnmarshalDecode(d, &leafID, jsonOpts); err != nil {
				return fail(err)
			}
		case "metadata":
			v, err := d.ReadValue()
			if err != nil {
				return fail(err)
			}
			s.Metadata = bytes.Clone(v)
			var md struct {
				TaskSessions []ChildSession `json:"taskSessions"`
			}
			if json.Unmarshal(s.Metadata, &md, jsonOpts) != nil {
				s.diag(0, SevWarning, "metadata.taskSessions unreadable")
			}
			s.ChildSessions = md.TaskSessions
		case "version":
			var v lnum
			if err := json.UnmarshalDecode(d, &v, jsonOpts); err != nil {
				return fail(err)
			}
			s.Version = int(v)
		case "id", "sessionId":
			var v lstr
			if err := json.UnmarshalDecode(d, &v, jsonOpts); err != nil {
				return fail(err)
			}
			s.Header.ID = string(v)
		case "createdAt":
			var v lstr
			if err := json.UnmarshalDecode(d, &v, jsonOpts); err != nil {
				return fail(err)
			}
			s.Header.Timestamp = string(v)
		default:
			if err := d.SkipValue(); err != nil {
				return fail(err)
			}
		}
	}
	if _, err := d.ReadToken(); err != nil {
		return fail(err)
	}
	s.flueLeaf = &flueLeaf{stored: sawLeaf, set: leafID.Set, id: leafID.V}
	return nil
}

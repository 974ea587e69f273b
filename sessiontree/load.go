package sessiontree

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"hash/crc32"
	"hash/maphash"
	"io"
	"math"
	"os"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"unicode"

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

	// The input as it was loaded: its size, its SHA-256, and whether it
	// holds pictures. SourceReader and ReadSource read it again.
	Size      int64
	SHA256    [sha256.Size]byte
	HasImages bool // some line holds a member "type": "image" (a picture)

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
	src      *source   // where the entries' bytes are
}

type flueLeaf struct {
	stored bool // the document has a leafId member
	set    bool // and it is a string (null: no leaf)
	id     string
}

// ErrNotSession is returned (wrapped) for input that holds no session at
// all: empty, binary, or not JSON.
var ErrNotSession = errors.New("not a session file")

// LoadFile loads the session in the file at path. The file is only ever
// opened for reading, and it is kept open: an entry's bytes are read again
// when asked for (Entry.Raw, Decode), so that memory holds the entries,
// not the file. Close the session when done with it.
func LoadFile(path string) (*Session, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	switch {
	case fi.IsDir():
		f.Close()
		return nil, fmt.Errorf("%s: is a directory: %w", path, ErrNotSession)
	case !fi.Mode().IsRegular():
		// A pipe (canopy export <(...)) cannot be read twice: load it
		// into memory.
		defer f.Close()
		return Read(f, path)
	}
	s, err := load(&source{name: path, file: f, close: f.Close}, chunkSize)
	if err != nil {
		f.Close()
		return nil, err
	}
	return s, nil
}

// Read reads all of r and builds the session; name is used in messages.
// The session is held in memory.
func Read(r io.Reader, name string) (*Session, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return Load(data, name)
}

// Load builds the session held in data, which it keeps (entries' Raw are
// slices of it) and never modifies. name is used in messages. Problems in
// the input become Diagnostics; an error is returned only when there is no
// session at all.
func Load(data []byte, name string) (*Session, error) {
	if data == nil {
		data = []byte{} // a source with no data is a file
	}
	return load(&source{name: name, data: data}, chunkSize)
}

// chunkSize is how much of the input is read and decoded at a time: enough
// lines that handing them to a decoder costs nothing, few enough that
// memory holds a handful of chunks, not the file. A chunk holds at least
// one whole line, however long (a picture in base64 can be tens of MB).
const chunkSize = 256 << 10

// load reads the input from src a chunk at a time; chunk is the chunk size
// (tests cut inputs into tiny chunks).
func load(src *source, chunk int) (*Session, error) {
	s := &Session{File: src.name, Labels: map[string]string{}, noDetail: &Detail{}, src: src}
	// The SHA-256 is the session's, for the page and the archive. The
	// 64-bit hash is what SourceReader checks the bytes read again
	// against: on an 85 MB file, hash/maphash took 23-40 ms where a
	// second SHA-256 took 98 ms.
	sha := sha256.New()
	src.seed = maphash.MakeSeed()
	var check maphash.Hash
	check.SetSeed(src.seed)
	in := &input{src: src, chunk: chunk, hash: io.MultiWriter(sha, &check)}
	if src.data == nil {
		in.r = io.NewSectionReader(src.file, 0, math.MaxInt64)
	}
	if err := s.read(in); err != nil {
		return nil, fmt.Errorf("%s: %w", src.name, err)
	}
	s.Size, src.size = in.off, in.off
	sha.Sum(s.SHA256[:0])
	src.check = check.Sum64()
	s.build()
	return s, nil
}

// read reads and decodes the input, a JSONL file or a Flue document.
func (s *Session) read(in *input) error {
	first, err := in.next()
	if err != nil {
		return err
	}
	bom := 0
	if bytes.HasPrefix(first, []byte("\xef\xbb\xbf")) {
		bom = 3
	}
	line := first[bom:]
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	body := func() io.Reader { return io.NewSectionReader(in.src.readerAt(), int64(bom), math.MaxInt64-int64(bom)) }
	if isFlueDocument(line, body) {
		// A document is one JSON value: it is read whole, then only
		// where its entries are is kept.
		data, err := in.all(first)
		if err != nil {
			return err
		}
		s.HasImages = bytes.Contains(data, imageMark)
		return s.loadFlue(data)
	}
	return s.loadJSONL(in, first)
}

// jsonDocument reports whether the input's first chunk starts like a JSON
// object or array spread over lines (pretty-printed), whose first line
// alone is not JSON: a settings file or an export of another tool, which
// deserves one message that says so, not "line 1: malformed JSON".
func jsonDocument(first []byte) bool {
	first = bytes.TrimPrefix(first, []byte("\xef\xbb\xbf"))
	t := bytes.TrimLeft(first, " \t\r\n")
	if len(t) == 0 || (t[0] != '{' && t[0] != '[') {
		return false
	}
	line, _, more := bytes.Cut(t, []byte("\n"))
	return more && !jsontext.Value(bytes.TrimSpace(line)).IsValid()
}

// imageMark is how a picture's content block starts, as pi writes it.
var imageMark = []byte(`"type":"image"`)

// input reads the input a chunk of whole lines at a time, and hashes it.
type input struct {
	src   *source
	r     io.Reader   // the file, read in order; nil for memory
	chunk int         // bytes to read at a time
	off   int64       // the offset of the next chunk: at the end, the size
	carry []byte      // the start of a line the last chunk did not end
	free  chan []byte // buffers of decoded chunks, to read the next ones into
	eof   bool
	hash  io.Writer // the hashes of the bytes read
}

// next returns the next chunk: whole lines, the last of the input perhaps
// with no newline after it. It returns nil at the end of the input. A
// chunk read from a file is in a buffer of its own, until recycled.
func (in *input) next() ([]byte, error) {
	var c []byte
	if in.src.data != nil {
		c = in.cut(in.src.data[in.off:])
	} else {
		var err error
		if c, err = in.read(); err != nil {
			return nil, err
		}
	}
	if len(c) == 0 {
		return nil, nil
	}
	in.off += int64(len(c))
	return c, nil
}

// cut returns the first chunk of rest, held in memory: no copy.
func (in *input) cut(rest []byte) []byte {
	n := len(rest)
	if n > in.chunk {
		if i := bytes.LastIndexByte(rest[:in.chunk], '\n'); i >= 0 {
			n = i + 1
		} else if i := bytes.IndexByte(rest[in.chunk:], '\n'); i >= 0 {
			n = in.chunk + i + 1
		}
	}
	in.hash.Write(rest[:n])
	return rest[:n:n]
}

// read reads the next chunk from the file, growing the buffer while it
// holds no line end.
func (in *input) read() ([]byte, error) {
	buf := append(in.buffer(max(in.chunk, 2*len(in.carry))), in.carry...)
	in.carry = in.carry[:0]
	for !in.eof {
		if len(buf) == cap(buf) {
			if i := bytes.LastIndexByte(buf, '\n'); i >= 0 {
				in.carry = append(in.carry, buf[i+1:]...)
				return buf[:i+1], nil
			}
			buf = slices.Grow(buf, len(buf))
		}
		n, err := in.r.Read(buf[len(buf):cap(buf)])
		in.hash.Write(buf[len(buf) : len(buf)+n])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			in.eof = true
		} else if err != nil {
			return nil, err
		}
	}
	return buf, nil
}

// buffer returns an empty buffer of at least size bytes: one that a
// decoder is done with when there is one. Without them, the garbage of
// the chunks read, the size of the file, made the collector run ten
// times during a load rather than two or three.
func (in *input) buffer(size int) []byte {
	select {
	case b := <-in.free:
		if cap(b) >= size {
			return b[:0]
		}
	default:
	}
	return make([]byte, 0, size)
}

// recycle takes back a chunk read from the file once it is decoded.
func (in *input) recycle(b []byte) {
	if in.src.data != nil || cap(b) > 4*in.chunk {
		return // the input itself; or a long line's, better let go
	}
	select {
	case in.free <- b:
	default:
	}
}

// all returns the whole input, first being its first chunk.
func (in *input) all(first []byte) ([]byte, error) {
	if in.src.data != nil {
		in.hash.Write(in.src.data[in.off:])
		in.off = int64(len(in.src.data))
		return in.src.data, nil
	}
	data := first
	for {
		c, err := in.next()
		if err != nil || c == nil {
			return data, err
		}
		data = append(data, c...)
	}
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
// "entries" member and no "type". first is the input's first line, body
// reads the input from its start (past a byte-order mark). Pretty-printed
// documents span many lines, so a first line that is not a whole object
// but opens one is probed too.
func isFlueDocument(first []byte, body func() io.Reader) bool {
	var probe struct {
		Type    present `json:"type"`
		Entries present `json:"entries"`
	}
	if json.Unmarshal(bytes.TrimSpace(first), &probe, jsonOpts) == nil {
		return bool(probe.Entries) && !bool(probe.Type)
	}
	// Past leading white space, as bytes.TrimSpace reads it (Unicode's).
	r := bufio.NewReader(body())
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
	// Not a one-line object: walk the document's top-level names only.
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

// rawLine is one physical line of a JSONL file.
type rawLine struct {
	text []byte // without the line end; nil once decoded
	off  int64  // text's offset in the input
	n    int32  // 1-based line number
	last bool   // the file's last line, with no newline after it
}

// splitLines cuts a chunk of the input into lines, as the records
// decodeLine fills in. off is the chunk's offset in the input, first the
// number of its first line.
func splitLines(chunk []byte, off int64, first int32) []parsed {
	lines := make([]parsed, 0, bytes.Count(chunk, []byte{'\n'})+1)
	for n := first; len(chunk) > 0; n++ {
		i := bytes.IndexByte(chunk, '\n')
		var text []byte
		last := false
		if i < 0 {
			text, chunk, last = chunk, nil, true
		} else {
			text, chunk = chunk[:i], chunk[i+1:]
		}
		at := off
		off += int64(len(text)) + 1
		if n == 1 && bytes.HasPrefix(text, []byte("\xef\xbb\xbf")) {
			text, at = text[3:], at+3
		}
		text = bytes.TrimSuffix(text, []byte{'\r'})
		lines = append(lines, parsed{rawLine: rawLine{text: text, off: at, n: n, last: last}})
	}
	return lines
}

// parsed is one line and what decoding it gave. It is kept small: a
// 100,000-line file has 100,000 of them while it loads.
type parsed struct {
	rawLine
	entry *Entry // in a slab shared by the chunk's lines: one allocation
	err   error
	x     *lineExtra // the rare fields; nil for most lines
	blank bool
	hasID bool
	model bool // a model_change that has a "model" member (oh-my-pi's)
}

// lineExtra holds what only a header, a title line or a legacy compaction
// carries.
type lineExtra struct {
	firstKeptIndex *float64 // v1 compaction firstKeptEntryIndex; nil when absent
	version        int      // header: version member, 0 when missing
	cwd, title     string
	parentSession  string
	raw            jsontext.Value // a session header as written
}

func (p *parsed) extra() lineExtra {
	if p.x == nil {
		return lineExtra{}
	}
	return *p.x
}

// decodeChunks reads and decodes every line of the input, first being its
// first chunk. Chunks are decoded on every core while the next ones are
// read: lines are independent, and decoding is the bulk of the load time.
// A chunk's bytes are dropped once it is decoded, so memory holds a few
// chunks at a time, not the file.
func decodeChunks(in *input, first []byte, none *Detail) ([]parsed, bool, error) {
	workers := runtime.GOMAXPROCS(0)
	jobs := make(chan *chunk, workers)
	in.free = make(chan []byte, 2*workers+1) // every chunk that can be out at once
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var h head
			it := interner{}
			for c := range jobs {
				data := c.data
				c.decode(&h, it, in.src, none)
				in.recycle(data)
			}
		}()
	}
	var chunks []*chunk
	var err error
	line, off := int32(1), int64(0)
	for data := first; data != nil; {
		c := &chunk{data: data, lines: splitLines(data, off, line)}
		line += int32(len(c.lines))
		off += int64(len(data))
		chunks = append(chunks, c)
		jobs <- c
		if data, err = in.next(); err != nil {
			break
		}
	}
	close(jobs)
	wg.Wait()
	if err != nil {
		return nil, false, err
	}
	// The lines' records in one slice, for loadJSONL's passes over them.
	n, images := 0, false
	for _, c := range chunks {
		n += len(c.lines)
		images = images || c.images
	}
	lines := make([]parsed, 0, n)
	for _, c := range chunks {
		lines = append(lines, c.lines...)
	}
	return lines, images, nil
}

// chunk is a chunk of the input and its lines, decoded by one worker.
type chunk struct {
	data   []byte // nil once decoded
	lines  []parsed
	images bool // a line holds a picture
}

func (c *chunk) decode(h *head, it interner, src *source, none *Detail) {
	// The chunk's entries live in one slab; the per-line records are
	// garbage once the load is done.
	slab := make([]Entry, len(c.lines))
	for i := range c.lines {
		p := &c.lines[i]
		p.entry = &slab[i]
		h.image = false
		decodeLine(h, p, src, none)
		c.images = c.images || h.image
		it.entry(p.entry)
		p.text = nil
	}
	c.data = nil
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

func decodeLine(h *head, p *parsed, src *source, none *Detail) {
	l := p.rawLine
	text, lead := trimSpace(l.text)
	if len(text) == 0 {
		p.blank = true
		return
	}
	*h = head{}
	if err := decodeHead(text, h); err != nil {
		p.err = err
		return
	}
	e := p.entry
	e.fill(h, none)
	e.Line = int(l.n)
	e.place(src, l.off+int64(lead), text)
	e.ID, p.hasID = h.ID.V, h.ID.Set && h.ID.V != ""
	e.ParentID = h.ParentID.V
	p.model = e.Type == TypeModelChange && bytes.Contains(text, []byte(`"model":`))
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
		p.x = x
	}
}

// place records where the entry's bytes, raw, are: at off in src.
func (e *Entry) place(src *source, off int64, raw []byte) {
	e.src, e.off, e.n = src, off, len(raw)
	if src.data == nil {
		e.crc = crc32.Checksum(raw, castagnoli)
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

func (s *Session) loadJSONL(in *input, first []byte) error {
	results, images, err := decodeChunks(in, first, s.noDetail)
	if err != nil {
		return err
	}
	s.HasImages = images

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
		if jsonDocument(first) {
			return fmt.Errorf("a JSON document of several lines, not a session canopy reads (a pi session is JSONL, one JSON object per line; a Flue document is one object with \"entries\"): %w", ErrNotSession)
		}
		for i := range results {
			if results[i].err != nil {
				return fmt.Errorf("line %d: %s: %w", int(results[i].n), describe(results[i].err), ErrNotSession)
			}
		}
		return fmt.Errorf("empty file: %w", ErrNotSession) // blank lines at most
	}

	s.Format, s.Version = FormatPi, 1
	if headerAt >= 0 {
		hp := &results[headerAt]
		hx := hp.extra()
		s.Header = Header{ID: hp.entry.ID, Timestamp: hp.entry.Timestamp, Cwd: hx.cwd, Title: hx.title,
			ParentSession: hx.parentSession, Line: hp.entry.Line, Raw: hx.raw}
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
		if isOhMyPiType(e, p.model) {
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

// loadFlue reads a Flue session document: one JSON object whose entries
// are pi entries, with the leaf stored. Entries keep where they are in
// data, not a copy, and a syntax error part way keeps what came before.
func (s *Session) loadFlue(data []byte) error {
	s.Format, s.Version = FormatFlue, 3
	// Load detects the format past a UTF-8 byte-order mark; the decoder
	// must start past it too, or a Flue document with a BOM fails to load.
	bom := 0
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		data, bom = data[3:], 3
	}
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
				e.ID, e.ParentID, e.Line = h.ID.V, h.ParentID.V, ln
				e.place(s.src, int64(bom+end-len(v)), raw)
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

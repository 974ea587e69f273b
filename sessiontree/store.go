package sessiontree

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/go-json-experiment/json"
)

// Formats of the agents that keep their sessions in a store: a SQLite
// database holding many sessions, or a tree of small JSON files.
const (
	FormatOpenCode  = "opencode"   // OpenCode: opencode.db, or its older storage/ tree
	FormatCrush     = "crush"      // Crush: .crush/crush.db
	FormatGoose     = "goose"      // Goose: sessions.db
	FormatCursorIDE = "cursor-ide" // Cursor's editor: globalStorage/state.vscdb
)

// A store holds many sessions, in rows (a database) or in files of their
// own (OpenCode's storage/ tree), none of which is a session as a line
// format's file is. Canopy reads a store's session by making, at load, a
// document of it: pi JSONL (the shapes the renderers know), its first
// line a session header that names the store's format ("store"), then
// one line per message (and per tool result, compaction, bookkeeping
// record). The session is that document, held in memory: entries read
// their bytes from it, its cut is written in it and read back by the
// same reader (a header with "store" is detected as the store's format),
// and a page embeds it for download. The rows themselves are read once,
// from a private copy (openSnapshot): the user's files are never opened
// for writing.
//
// storeFormat is what one agent's store adds to that: how it is told
// from other stores, how its sessions are listed, and how one of them is
// written as a document.
type storeFormat interface {
	// format is the Session.Format of its sessions.
	format() string
	// agent is what its reader declares (reader.agent).
	agent() Agent
	// match tells the store from the tables of a database (nil for a
	// document: then doc is the input's first chunk).
	match(tables map[string]bool) bool
	// list lists the sessions of the store.
	list(db *snapshot) ([]StoreSession, error)
	// write writes the session id of the store as a document.
	write(db *snapshot, id string, w *docWriter) error
}

// storeFormats are the stores canopy reads.
func storeFormats() []storeFormat {
	return []storeFormat{openCodeDB{}, crushDB{}, gooseDB{}, cursorDB{}}
}

// storeReaders are the readers of the stores: tried before the line
// formats, since a store's document starts as a pi header does.
func storeReaders() []reader {
	var out []reader
	for _, f := range storeFormats() {
		out = append(out, storeReader{f})
	}
	return append(out, openCodeFiles{}, gooseExport{}, gooseLines{}, dbRefusal{})
}

// StoreSession is one session of a store, as canopy list shows it.
type StoreSession struct {
	ID       string
	Title    string
	Cwd      string
	Parent   string // the session that ran it, for a subagent's
	Created  time.Time
	Updated  time.Time
	Messages int
}

// sqliteMagic is how every SQLite database file starts.
const sqliteMagic = "SQLite format 3\x00"

// IsDatabase tells a file's first bytes that are a SQLite database's.
func IsDatabase(head []byte) bool { return bytes.HasPrefix(head, []byte(sqliteMagic)) }

// ErrNoSessionNamed is returned (wrapped) when a store holding several
// sessions is loaded without naming one (LoadOptions.Session).
var ErrNoSessionNamed = errors.New("name one with --session ID (canopy list FILE lists them)")

// storeProbe is what detection found of a store: the format, and the
// snapshot of the database it opened, which the format's read takes.
type storeProbe struct {
	format  storeFormat
	db      *snapshot
	tables  []string
	docHead *docHeader // a store's document: its header
	isDB    bool
	err     error // the database could not be opened
}

// store tells, once, whether the input is a store's database or a
// store's document, and which.
func (p *probe) storeKind() *storeProbe {
	if p.store != nil {
		return p.store
	}
	sp := &storeProbe{}
	p.store = sp
	if h := parseDocHeader(p.line); h != nil {
		sp.docHead = h
		for _, f := range storeFormats() {
			if f.format() == h.Store.Format {
				sp.format = f
			}
		}
		return sp
	}
	if !IsDatabase(p.first) {
		return sp
	}
	sp.isDB = true
	db, err := openSnapshot(p.in.src)
	if err != nil {
		sp.err = err
		return sp
	}
	tables, err := db.tables()
	if err != nil {
		db.close()
		sp.err = err
		return sp
	}
	for _, f := range storeFormats() {
		if f.match(tables) {
			sp.format, sp.db = f, db
			return sp
		}
	}
	db.close()
	for t := range tables {
		if strings.Contains(t, ".") {
			continue // a column
		}
		sp.tables = append(sp.tables, t)
	}
	slices.Sort(sp.tables)
	return sp
}

// close deletes the private copy of the database detection opened, if
// any: whoever makes a probe closes it.
func (p *probe) close() {
	if p.store != nil && p.store.db != nil {
		p.store.db.close()
		p.store.db = nil
	}
}

// storeReader reads one store's sessions: from its database, or from a
// document made of one (its cut).
type storeReader struct{ f storeFormat }

func (r storeReader) agent() Agent { return r.f.agent() }

func (r storeReader) detect(p *probe) bool {
	sp := p.storeKind()
	return sp.format != nil && sp.format.format() == r.f.format()
}

func (r storeReader) cut(s *Session) Cut { return piReader{}.cut(s) }

func (r storeReader) read(s *Session, in *input, p *probe) error {
	sp := p.storeKind()
	if sp.db == nil { // a document
		return readDocument(s, in, p, sp.docHead)
	}
	id := in.src.session
	if id == "" {
		list, err := r.f.list(sp.db)
		if err != nil {
			return err
		}
		switch len(list) {
		case 0:
			return notSession(fmt.Sprintf("a database of %s holding no session", r.f.format()))
		case 1:
			id = list[0].ID
		default:
			return fmt.Errorf("a database of %s holding %d sessions: %w", r.f.format(), len(list), ErrNoSessionNamed)
		}
	}
	w := &docWriter{format: r.f.format(), session: id}
	if err := r.f.write(sp.db, id, w); err != nil {
		return err
	}
	return loadDocument(s, in, w.bytes())
}

// loadDocument reads doc, a store's session made a document, as the
// session's input: in is made the document's, so that the load takes its
// size and hashes (the original file is closed with the session).
func loadDocument(s *Session, in *input, doc []byte) error {
	src := &source{name: in.src.name, data: doc, noSHA256: in.src.noSHA256, close: in.src.close}
	din := newInput(src, chunkSize)
	first, err := din.next()
	if err != nil {
		return err
	}
	s.src = src
	*in = *din
	p := newProbe(in, first)
	h := parseDocHeader(p.line)
	if h == nil {
		return fmt.Errorf("the document made of the store has no header: %w", ErrNotSession) // never
	}
	return readDocument(s, in, p, h)
}

// readDocument reads a store's document: pi JSONL, named by its header.
func readDocument(s *Session, in *input, p *probe, h *docHeader) error {
	if err := (piReader{}).read(s, in, p); err != nil {
		return err
	}
	s.Format, s.Version, s.FormatVersion = h.Store.Format, 1, h.Store.Version
	s.Header.Title = ""
	s.Name = h.Store.Title
	s.Header.ParentSession = h.Store.Parent
	for _, c := range h.Store.Children {
		s.ChildSessions = append(s.ChildSessions, ChildSession{Session: c.Session, TaskID: c.Call})
	}
	for _, e := range s.Entries {
		// The records the agent keeps for itself (steps, snapshots,
		// patches, retries) are written as custom entries.
		e.Bookkeeping = e.Type == TypeCustom
	}
	return nil
}

// docHeader is the first line of a store's document.
type docHeader struct {
	Type  string `json:"type"`
	Store struct {
		Format   string `json:"format"`
		Session  string `json:"session"`
		Title    string `json:"title,omitempty"`
		Parent   string `json:"parent,omitempty"`
		Version  string `json:"version,omitempty"`
		Children []struct {
			Session string `json:"session"`
			Call    string `json:"call,omitempty"`
		} `json:"children,omitempty"`
	} `json:"store"`
}

// parseDocHeader reads a store document's header line; nil for any
// other line.
func parseDocHeader(line []byte) *docHeader {
	line = bytes.TrimSpace(line)
	if !bytes.HasPrefix(line, []byte(`{"type":"session"`)) || !bytes.Contains(line, []byte(`"store":{`)) {
		return nil
	}
	var h docHeader
	if json.Unmarshal(line, &h, jsonOpts) != nil || h.Type != "session" || h.Store.Format == "" {
		return nil
	}
	return &h
}

// dbRefusal refuses a SQLite database of another program, or one that
// cannot be read, saying which.
type dbRefusal struct{}

func (dbRefusal) agent() Agent         { return Agent{} }
func (dbRefusal) cut(*Session) Cut     { return noCut{} }
func (dbRefusal) detect(p *probe) bool { return p.storeKind().isDB }

// peek: the refusal, as read gives it (canopy list passes over it).
func (r dbRefusal) peek(p *probe) (peekLines, error) { return nil, r.read(nil, nil, p) }

func (dbRefusal) read(_ *Session, _ *input, p *probe) error {
	sp := p.storeKind()
	if sp.err != nil {
		return fmt.Errorf("a SQLite database that cannot be read: %v: %w", sp.err, ErrNotSession)
	}
	tables := strings.Join(sp.tables[:min(len(sp.tables), 8)], ", ")
	if len(sp.tables) > 8 {
		tables += ", …"
	}
	return notSession(fmt.Sprintf("a SQLite database of another program (tables: %s)", cmp.Or(tables, "none")))
}

// Store is a database of sessions opened once (from its private copy)
// to read many of its sessions: canopy archive gives each a page.
type Store struct {
	path   string
	format storeFormat
	db     *snapshot
}

// OpenStore opens the store in the file at path (a database). ok is
// false, with no error, for a file that is not a store canopy reads. The
// file is never written to; Close deletes the private copy.
func OpenStore(path string) (st *Store, ok bool, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	head := make([]byte, len(sqliteMagic))
	if n, _ := io.ReadFull(f, head); !IsDatabase(head[:n]) {
		return nil, false, nil
	}
	db, err := openSnapshot(&source{name: path, file: f})
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", path, err)
	}
	tables, err := db.tables()
	if err != nil {
		db.close()
		return nil, false, fmt.Errorf("%s: %w", path, err)
	}
	for _, sf := range storeFormats() {
		if sf.match(tables) {
			return &Store{path: path, format: sf, db: db}, true, nil
		}
	}
	db.close()
	return nil, false, nil
}

// Format is the Session.Format of the store's sessions.
func (st *Store) Format() string { return st.format.format() }

// Sessions lists the store's sessions, newest first.
func (st *Store) Sessions() ([]StoreSession, error) {
	list, err := st.format.list(st.db)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", st.path, err)
	}
	slices.SortStableFunc(list, func(a, b StoreSession) int { return b.Updated.Compare(a.Updated) })
	return list, nil
}

// Load loads the session id of the store, held in memory: the same
// session LoadFileWith loads with LoadOptions.Session.
func (st *Store) Load(id string) (*Session, error) {
	w := &docWriter{format: st.format.format(), session: id}
	if err := st.format.write(st.db, id, w); err != nil {
		return nil, fmt.Errorf("%s: %w", st.path, err)
	}
	return Load(w.bytes(), st.path)
}

// Close deletes the store's private copy.
func (st *Store) Close() { st.db.close() }

// StoreSessions lists the sessions of the store in the file at path (a
// database): its format and sessions, newest first. ok is false, with no
// error, for a file that is not a store canopy reads (a line format's
// session is one session, listed as such). The file is never written to.
func StoreSessions(path string) (format string, list []StoreSession, ok bool, err error) {
	st, ok, err := OpenStore(path)
	if !ok || err != nil {
		return "", nil, ok, err
	}
	defer st.Close()
	list, err = st.Sessions()
	return st.Format(), list, err == nil, err
}

// IsStoreFile tells the name of a file that an agent keeps its sessions
// in, many to a file (Agent.StoreFiles): a database that canopy list and
// archive read when they walk a directory.
func IsStoreFile(name string) bool {
	for _, r := range readers() {
		if slices.Contains(r.agent().StoreFiles, name) {
			return true
		}
	}
	return false
}

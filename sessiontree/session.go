package sessiontree

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Formats a session can be read from.
const (
	FormatPi     = "pi"          // pi session JSONL, versions 1 to 3
	FormatOhMyPi = "oh-my-pi"    // pi JSONL as the oh-my-pi fork writes it
	FormatFlue   = "flue"        // a Flue session document (one JSON object)
	FormatClaude = "claude-code" // a Claude Code transcript (JSONL)
	FormatCodex  = "codex"       // a Codex rollout (JSONL)
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
	SevInfo    = "info"    // a reader's rule decided what the file leaves open (Entry.ParentGuessed)
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
	// FormatVersion is the version of the program that wrote the file, as
	// it writes it: Claude Code's "version" ("2.1.3"), Codex's cli_version
	// ("0.46.0"); "" for pi and Flue, whose Version says it all. Version
	// is then its major number.
	FormatVersion string
	Header        Header

	// The input as it was loaded: its size, its SHA-256 (zero when the
	// load was told not to take it: LoadOptions), and whether it holds
	// pictures. SourceReader and ReadSource read it again.
	Size      int64
	SHA256    [sha256.Size]byte
	HasImages bool // some line holds a member "type": "image" (a picture)

	Entries []*Entry          // file order, header excluded
	Roots   []*Entry          // file order
	Labels  map[string]string // entry id to label, after replaying label entries
	Name    string            // latest non-empty session_info name, else the header title
	Leaf    *Entry            // the leaf on load; nil for an empty tree or a Flue null leaf

	ChildSessions []ChildSession // Flue metadata.taskSessions

	// Claude Code's subagents. AgentID: the file is a subagent's
	// transcript, and this the agentId its lines carry. Sidechains: the
	// subagents' conversations written into the session's own file (see
	// SidechainOf); the subagents written into files of their own are
	// found by LoadSubagents.
	AgentID    string
	Sidechains []*Sidechain
	Metadata   jsontext.Value // Flue metadata, as written

	Diagnostics []Diagnostic
	Suppressed  int // diagnostics not kept beyond maxDiagnostics

	byID        map[string]*Entry
	sidechainOf []int32      // by entry index: index+1 into Sidechains, 0 for none
	links       *claudeLinks // the calls that run a subagent, and what they ran
	noDetail    *Detail      // shared by every entry without detail fields
	reader      reader       // the reader that read the session
	// guessParents: an orphan follows the entry before it (linkParents);
	// set by the readers of formats whose files lose parents.
	guessParents bool
	stored       *storedLeaf // the leaf the input stores, for formats that store one
	src          *source     // where the entries' bytes are

	// Grafted conversations (graft.go): the sessions whose entries were
	// appended (closed with s), each conversation, those under each call
	// entry, and by entry index the conversation it is in (index+1 into
	// grafts; 0: the session's own). top is the union-find of the trees
	// that sidechain grafts join (joinTrees). graftedInto: s was grafted
	// into another session, which owns it now.
	grafted     []*Session
	grafts      []*Graft
	graftsAt    map[*Entry][]*Graft
	graftOf     []int32
	top         []int32
	graftedInto bool
}

// storedLeaf is the leaf a format that stores one (Flue) names, or that a
// reader chose by the format's own rule (Claude Code: the last message of
// the main chain).
type storedLeaf struct {
	stored bool // the input has a leaf member
	set    bool // and it names an entry (not null)
	id     string
	entry  *Entry // the leaf a reader chose; id is then unused
}

// ErrNotSession is returned (wrapped) for input that holds no session at
// all: empty, binary, not JSON, or JSON of a kind canopy does not read
// (the error then says what it looks like).
var ErrNotSession = errors.New("not a session file")

// LoadFile loads the session in the file at path. The file is only ever
// opened for reading, and it is kept open: an entry's bytes are read again
// when asked for (Entry.Raw, Decode), so that memory holds the entries,
// not the file. Close the session when done with it.
func LoadFile(path string) (*Session, error) {
	return LoadFileWith(path, LoadOptions{})
}

// LoadFileWith is LoadFile, with opts.
func LoadFileWith(path string, opts LoadOptions) (*Session, error) {
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
		data, err := io.ReadAll(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return LoadWith(data, path, opts)
	}
	s, err := load(&source{name: path, file: f, close: f.Close, noSHA256: opts.NoSHA256, session: opts.Session, stop: opts.Stop}, chunkSize)
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
	return LoadWith(data, name, LoadOptions{})
}

// LoadOptions leave out of a load what its caller never uses.
type LoadOptions struct {
	// NoSHA256 leaves Session.SHA256 zero, for a caller that neither
	// shows nor stores it (canopy scan): on a 50 MB session, hashing was
	// a fifth of scan's CPU time. Everything else is as Load makes it.
	NoSHA256 bool
	// Session names the session to read of a store that holds several
	// (a database: store.go); ignored for a file of one session.
	Session string
	// Stop, when closed, stops the load of a line format (JSONL, read
	// from the input itself: not a store's session, nor a document read
	// whole) at its next chunk of lines: it fails with ErrStopped. For a
	// caller that learns, while it loads, that it will not use the
	// session (export, when the file holds credentials to replace: it
	// loads the redacted bytes instead).
	Stop <-chan struct{}
}

// ErrStopped is the error (wrapped) of a load stopped by LoadOptions.Stop.
var ErrStopped = errors.New("load stopped")

// LoadWith is Load, with opts.
func LoadWith(data []byte, name string, opts LoadOptions) (*Session, error) {
	if data == nil {
		data = []byte{} // a source with no data is a file
	}
	return load(&source{name: name, data: data, noSHA256: opts.NoSHA256, session: opts.Session, stop: opts.Stop}, chunkSize)
}

// load reads the input from src a chunk at a time; chunk is the chunk size
// (tests cut inputs into tiny chunks).
func load(src *source, chunk int) (*Session, error) {
	s := &Session{File: src.name, Labels: map[string]string{}, noDetail: &Detail{}, src: src}
	in := newInput(src, chunk)
	if err := s.read(in); err != nil {
		return nil, fmt.Errorf("%s: %w", src.name, err)
	}
	s.Size, src.size = in.off, in.off
	s.SHA256, src.check = in.sums()
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

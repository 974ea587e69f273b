// Package catalog lists the sessions on this machine that canopy reads
// (canopy list), and finds a session by its id (canopy export 6ec7): the
// agents' stores below the home directory (internal/stores), or the
// directories named. Only what a listing shows is read of each file: its
// size and time, and its first and last lines (sessiontree.Peeker).
package catalog

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"canopy/internal/stores"
	"canopy/internal/text"
	"canopy/sessiontree"
)

// Session is one session as canopy list shows it. The JSON names are a
// stable format for scripts.
type Session struct {
	ID            string `json:"id"`    // as the file records it, else the id in its name
	Agent         string `json:"agent"` // pi, oh-my-pi, flue, claude-code, codex, gateway
	FormatVersion string `json:"formatVersion,omitempty"`
	Project       string `json:"project"` // the working directory
	// Title is the session's own name, else its first prompt, else its id:
	// one line of at most TitleRunes characters.
	Title        string `json:"title"`
	Started      string `json:"started,omitempty"` // RFC 3339, UTC
	LastActivity string `json:"lastActivity"`      // RFC 3339, UTC
	Size         int64  `json:"size"`
	Path         string `json:"path"`
	// InStore: the session is one of the many of a database at Path (an
	// OpenCode, Crush, Goose or Cursor store), named by its ID:
	// canopy export PATH --session ID.
	InStore bool `json:"inStore,omitempty"`

	fileID string    // the id in the file's name
	last   time.Time // LastActivity, for sorting
}

// TitleRunes is how long a title may be: a line of a terminal.
const TitleRunes = sessiontree.TitleRunes

// Problem is a file that could not be read. Files that are not sessions
// are no problem: a listing passes over them.
type Problem struct {
	Path string
	Err  error
}

func (p Problem) Error() string { return p.Path + ": " + p.Err.Error() }

// Home is where List looks when given no directory: the agents' stores
// in the user's home directory.
func Home() ([]string, error) {
	dirs, err := stores.Home()
	if err != nil {
		return nil, fmt.Errorf("finding the agents' session stores: %w", err)
	}
	return dirs, nil
}

// List lists the sessions in dirs (each a directory, walked, or a file; a
// home directory stands for its agents' stores), newest first: by last
// activity, then by path. jobs files are read at once (0: a few per core).
func List(dirs []string, jobs int) ([]Session, []Problem) {
	files, problems := find(stores.Expand(dirs))
	out, more := describeAll(files, jobs)
	out = dropStoreTwins(out)
	slices.SortFunc(out, func(a, b Session) int {
		if c := b.last.Compare(a.last); c != 0 {
			return c
		}
		return strings.Compare(a.Path, b.Path)
	})
	return once(out), append(problems, more...)
}

// dropStoreTwins passes over a file's session that a database listed too
// holds (sessiontree.StoreTwin: OpenCode's storage/ files, which its 1.2
// copied into opencode.db): it is listed once, as the database's.
func dropStoreTwins(sessions []Session) []Session {
	inStore := map[[2]string]bool{}
	for _, s := range sessions {
		if s.InStore {
			inStore[[2]string{filepath.Clean(s.Path), s.ID}] = true
		}
	}
	if len(inStore) == 0 {
		return sessions
	}
	return slices.DeleteFunc(sessions, func(s Session) bool {
		db, id, ok := sessiontree.StoreTwin(s.Path)
		return ok && !s.InStore && inStore[[2]string{filepath.Clean(db), id}]
	})
}

// once keeps the first of sessions that are copies of one another: the
// same file name, agent, id, size and last activity (a Codex rollout left
// in sessions/ when a copy went to archived_sessions/). Listed twice, its
// id would name two sessions. A copy under another name is listed: it
// may be kept apart on purpose.
func once(sessions []Session) []Session {
	type key struct {
		name, agent, id string
		size            int64
		last            string
	}
	seen := map[key]bool{}
	out := sessions[:0]
	for _, s := range sessions {
		k := key{filepath.Base(s.Path), s.Agent, s.ID, s.Size, s.LastActivity}
		if !seen[k] {
			seen[k] = true
			out = append(out, s)
		}
	}
	return out
}

// describeAll peeks at every file on a pool of workers: reading is mostly
// waiting for the disk, the rest short, so a few per core.
func describeAll(files []file, jobs int) ([]Session, []Problem) {
	if jobs <= 0 {
		jobs = max(4, 2*runtime.GOMAXPROCS(0))
	}
	type result struct {
		s   []Session
		ok  bool
		err error
	}
	results := make([]result, len(files))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(jobs, len(files)) {
		wg.Go(func() {
			var pk sessiontree.Peeker
			for i := range next {
				s, err := describeFile(&pk, files[i])
				results[i] = result{s, err == nil, err}
			}
		})
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()
	var out []Session
	var problems []Problem
	for i, r := range results {
		switch {
		case r.ok:
			out = append(out, r.s...)
		case !errors.Is(r.err, sessiontree.ErrNotSession):
			problems = append(problems, Problem{files[i].path, r.err})
		}
	}
	return out, problems
}

// describeFile lists the sessions of one file: the one it is, or those of
// the store it is (a database: named as an agent names its store, or
// found not to be a session of one), read from a private copy of it.
func describeFile(pk *sessiontree.Peeker, f file) ([]Session, error) {
	if !sessiontree.IsStoreFile(filepath.Base(f.path)) {
		s, err := describe(pk, f)
		if err == nil {
			return []Session{s}, nil
		}
		if _, _, ok, _ := sessiontree.StoreSessions(f.path); !ok {
			return nil, err
		}
	}
	format, list, ok, err := sessiontree.StoreSessions(f.path)
	if err != nil || !ok {
		if err == nil {
			err = fmt.Errorf("a database of no agent canopy reads: %w", sessiontree.ErrNotSession)
		}
		return nil, err
	}
	var size int64
	if fi, err := os.Stat(f.path); err == nil {
		size = fi.Size()
	}
	out := make([]Session, 0, len(list))
	for _, st := range list {
		s := Session{ID: st.ID, Agent: format, Project: st.Cwd, Size: size, Path: f.path, InStore: true,
			Title: text.Clip(cmp.Or(st.Title, st.ID), TitleRunes), last: st.Updated.UTC().Truncate(time.Second)}
		if !st.Created.IsZero() {
			s.Started = st.Created.UTC().Format(time.RFC3339)
		}
		s.LastActivity = s.last.Format(time.RFC3339)
		out = append(out, s)
	}
	return out, nil
}

// describe peeks at one file. It never writes to it, nor locks it.
func describe(pk *sessiontree.Peeker, f file) (Session, error) {
	fh, err := os.Open(f.path)
	if err != nil {
		return Session{}, err
	}
	defer fh.Close()
	fi, err := fh.Stat()
	if err != nil {
		return Session{}, err
	}
	if !fi.Mode().IsRegular() {
		// Named like a session, but a FIFO or a device (a race with the
		// walk, or a file named on the command line): never read.
		return Session{}, fmt.Errorf("not a regular file: %w", sessiontree.ErrNotSession)
	}
	p, err := peek(pk, fh, fi.Size())
	if _, _, twin := sessiontree.StoreTwin(f.path); err != nil && twin && errors.Is(err, sessiontree.ErrNotSession) {
		// An OpenCode storage/ info file: its messages are files beside
		// it, which a peek at the file alone does not see.
		p, err = sessiontree.PeekFile(f.path)
	}
	if err != nil {
		return Session{}, err
	}
	s := Session{
		Agent: p.Format, FormatVersion: p.FormatVersion, Project: p.Cwd,
		Size: fi.Size(), Path: f.path, fileID: fileID(f.path),
	}
	s.ID = cmp.Or(p.ID, sessiontree.SessionID(p.Format, f.path), s.fileID)
	if f.gateway && (p.Format == sessiontree.FormatPi || p.Format == sessiontree.FormatOhMyPi) {
		s.Agent = "gateway"
	}
	if s.Project == "" && sessiontree.AgentOf(p.Format).ProjectDirs {
		// The directory Claude Code keeps the project's sessions in,
		// named after it with '/' made '-': it cannot be decoded.
		s.Project = filepath.Base(filepath.Dir(f.path))
	}
	s.Title = text.Clip(cmp.Or(p.Name, sessiontree.PromptTitle(p.Prompt), s.ID), TitleRunes)
	if t, ok := parseTime(p.Started); ok {
		s.Started = t.Format(time.RFC3339)
	}
	// The last line's time, else the file's: a copied file's modification
	// time is when it was copied.
	s.last = fi.ModTime().UTC()
	if t, ok := parseTime(p.Last); ok {
		s.last = t
	}
	s.LastActivity = s.last.Format(time.RFC3339)
	return s, nil
}

// maxDecompressed bounds what is decompressed of a compressed session to
// list it, as export bounds it by default (its --max-input).
const maxDecompressed = 512 << 20

// peek peeks at the session in fh, of size bytes: a compressed one
// (gzip, zstd: told by its first bytes, as every command tells it) is
// decompressed whole first, its last lines being at the end of the
// stream. Compressed sessions are old ones, kept: few in a store.
func peek(pk *sessiontree.Peeker, fh *os.File, size int64) (sessiontree.Peek, error) {
	head := make([]byte, sessiontree.MagicSize)
	n, _ := fh.ReadAt(head, 0)
	c := sessiontree.Sniff(head[:n])
	if c == sessiontree.Uncompressed {
		return pk.Peek(fh, size)
	}
	data, err := sessiontree.Decompress(io.NewSectionReader(fh, 0, size), c, maxDecompressed, sessiontree.SizeHint(fh, size, c))
	if err != nil {
		return sessiontree.Peek{}, err
	}
	return pk.Peek(bytes.NewReader(data), int64(len(data)))
}

func parseTime(s string) (time.Time, bool) {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, false
	}
	return t.UTC().Truncate(time.Second), true
}

// uuidAtEnd finds the id a session file's name ends with: Claude Code's
// <uuid>.jsonl, Codex's rollout-<time>-<uuid>.jsonl, pi's
// <time>_<uuid>.jsonl, a gateway's <sessionId>.jsonl.
var uuidAtEnd = regexp.MustCompile(`[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// fileID is the id in a session file's name: the uuid it ends with, else
// the name without its extension.
func fileID(path string) string {
	base := sessiontree.TrimCompressedExt(filepath.Base(path))
	base = strings.TrimSuffix(base, filepath.Ext(base))
	if id := uuidAtEnd.FindString(base); id != "" {
		return id
	}
	return base
}

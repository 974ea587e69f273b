package archive

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"canopy/export"
	"canopy/sessiontree"
)

// Source formats, as the manifest names them.
const (
	FormatJSONL   = "jsonl"         // pi (or oh-my-pi) session JSONL; the loader tells versions apart
	FormatFlue    = "flue"          // a Flue session document
	FormatGateway = "gateway-store" // a gateway's sessions.json
)

// Source is one file found under the archive's sources.
type Source struct {
	Path   string // as found: the SRC argument joined with the path below it
	Rel    string // slash-separated name inside the archive: the SRC's base name, then the path below it
	Format string
	// Explicit is true for a file named on the command line: a file that
	// is not a session is then an error, not a stranger to skip.
	Explicit bool
	Gateway  *GatewayInfo // the store's labels, for a transcript it lists
	Rotation *Rotation    // what rotated it, for a transcript a gateway rotated
	Locked   bool         // a lock file is beside it: it is archived as it stands
	InStore  bool         // it is in a gateway store's directory
	Session  string       // the session it is of a database (FormatStore: stores.go)
	store    *sessiontree.Store
}

// Problem is a source that could not be archived, and why.
type Problem struct {
	Path  string `json:"path"`
	Error string `json:"error"`
}

// Discover walks the sources (files and directories, recursively, in
// lexical order) and returns what it found, gateway stores first resolved
// into labels for their transcripts. skip names directories never to enter
// (the archive's own output). Unreadable paths are returned as problems.
func Discover(srcs []string, skip ...string) ([]Source, []Problem) {
	d := &discovery{skipped: map[string]bool{}, locks: map[string]bool{}}
	for _, s := range skip {
		if abs, err := filepath.Abs(s); err == nil {
			d.skipped[abs] = true
		}
	}
	for _, src := range srcs {
		d.source(filepath.Clean(src))
	}
	found := d.found
	sort.SliceStable(found, func(i, j int) bool { return found[i].Path < found[j].Path })
	// A file reached twice (a SRC inside another) is archived once.
	uniq := found[:0]
	for i, s := range found {
		if i > 0 && s.Path == found[i-1].Path {
			uniq[len(uniq)-1].Explicit = uniq[len(uniq)-1].Explicit || s.Explicit
			continue
		}
		uniq = append(uniq, s)
	}
	// A session kept as a transcript and as a snapshot (Hermes Agent's
	// <id>.jsonl and session_<id>.json) is archived once, as its
	// transcript, unless the snapshot was named on the command line.
	paths := make([]string, len(uniq))
	for i, s := range uniq {
		paths[i] = s.Path
	}
	if twins := sessiontree.SnapshotTwins(paths); twins != nil {
		uniq = slices.DeleteFunc(uniq, func(s Source) bool { return twins[s.Path] && !s.Explicit })
	}
	uniq, more := expandStores(uniq)
	uniq = dropStoreTwins(uniq)
	markTranscripts(uniq, d.locks)
	problems := append(append(d.problems, more...), labelGatewayTranscripts(uniq)...)
	return uniq, problems
}

// A database's sessions are each a source, read from the database's
// private copy until closeStores closes it.
//
// DiscoverStore is Discover, and also lists what the gateway stores'
// directories hold that is not archived, each with the reason (not
// errors: a store's lock files and backups of itself are expected).
func DiscoverStore(srcs []string, skip ...string) (found []Source, problems, passed []Problem) {
	found, problems = Discover(srcs, skip...)
	return found, problems, storeLeftovers(found, problems)
}

// discovery is what Discover has found so far.
type discovery struct {
	found    []Source
	problems []Problem
	skipped  map[string]bool // absolute paths of directories not to enter
	locks    map[string]bool // lock files met (<transcript>.lock), by path
}

func (d *discovery) problem(p string, err error) {
	d.problems = append(d.problems, Problem{p, err.Error()})
}

// source adds one SRC: a file named on the command line, or every session
// file in a directory.
func (d *discovery) source(src string) {
	fi, err := os.Stat(src) // a SRC that is a link is followed
	switch {
	case err != nil:
		d.problem(src, err)
	case fi.IsDir():
		d.walk(src)
	case !fi.Mode().IsRegular():
		d.problems = append(d.problems, Problem{src, export.NotRegular(fi.Mode())})
	default:
		d.found = append(d.found, Source{Path: src, Rel: rootName(src), Format: formatByName(src), Explicit: true})
	}
}

// walk adds the session files in the directory src. A SRC that is a link
// to a directory: the directory it names is walked (links met inside it
// are not followed), and its files are named below the link, as the user
// named them.
func (d *discovery) walk(src string) {
	root := src
	if li, err := os.Lstat(src); err == nil && li.Mode()&fs.ModeSymlink != 0 {
		if root, err = filepath.EvalSymlinks(src); err != nil {
			d.problem(src, err)
			return
		}
	}
	shown := func(p string) string {
		if root == src {
			return p
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return p
		}
		return filepath.Join(src, rel)
	}
	base := rootName(src)
	err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			d.problem(shown(p), err)
			if e != nil && e.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if e.IsDir() {
			return d.enter(p, p == root, e.Name())
		}
		f := formatByName(e.Name())
		if strings.HasSuffix(e.Name(), ".jsonl"+lockSuffix) {
			d.locks[shown(p)] = true
		}
		switch t := e.Type(); {
		case strings.HasPrefix(e.Name(), "."), f == "", t&fs.ModeSymlink != 0:
			return nil // hidden, not a session's name, or a link (not followed inside a SRC)
		case !t.IsRegular():
			// Named like a session, but a FIFO or a device: reading it
			// could wait forever, or never end.
			d.problems = append(d.problems, Problem{shown(p), export.NotRegular(t)})
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		d.found = append(d.found, Source{Path: shown(p), Rel: path.Join(base, filepath.ToSlash(rel)), Format: f})
		return nil
	})
	if err != nil {
		d.problem(src, err)
	}
}

// rootName is what a SRC is named in the archive: its base name; an
// agent's store or session file kept in a project (Crush's
// <project>/.crush, Aider's <project>/.aider.chat.history.md) is named
// after its project, without the leading dot that would hide it
// ("app/crush"), so that two projects' stores are told apart and no page
// is in a hidden directory.
func rootName(src string) string {
	abs, err := filepath.Abs(src)
	if err != nil {
		abs = src
	}
	base := filepath.Base(abs)
	if sessiontree.IsProjectStoreDir(base) || slices.Contains(sessiontree.ProjectFiles(), base) {
		if project := filepath.Base(filepath.Dir(abs)); project != "." && project != string(filepath.Separator) {
			return project + "/" + strings.TrimPrefix(base, ".")
		}
	}
	return base
}

// enter says whether the walk goes into the directory p: not into a
// hidden one below the root (.git, our staging directories) unless an
// agent keeps a project's store there (Crush's .crush), nor into the
// archive's own output.
func (d *discovery) enter(p string, root bool, name string) error {
	if !root && strings.HasPrefix(name, ".") && !sessiontree.IsProjectStoreDir(name) {
		return fs.SkipDir
	}
	if abs, err := filepath.Abs(p); err == nil && d.skipped[abs] {
		return fs.SkipDir
	}
	return nil
}

// formatByName guesses a file's format from its name; "" means not a
// session file at all. A .json file may still turn out not to be a Flue
// document: the loader decides. A compressed transcript (.jsonl.gz,
// .jsonl.zst) is a session as its .jsonl would be: the loader tells the
// compression by its bytes. Other compressed files are left alone: a
// .json.gz is more likely a cache than a session, and each is
// decompressed in memory to be told.
func formatByName(name string) string {
	base := filepath.Base(name)
	if stem := sessiontree.TrimCompressedExt(base); stem != base {
		if strings.HasSuffix(stem, ".jsonl") {
			return FormatJSONL
		}
		return ""
	}
	switch {
	case base == "sessions.json":
		return FormatGateway
	case strings.HasSuffix(base, ".jsonl"):
		return FormatJSONL
	case isRotated(base):
		return FormatJSONL
	case strings.HasSuffix(base, ".json"):
		return FormatFlue
	case sessiontree.IsStoreFile(base):
		return FormatStore
	}
	return ""
}

// dropStoreTwins passes over a file holding a session that a database
// found too holds (sessiontree.StoreTwin: OpenCode's storage/ files,
// copied into opencode.db): it is archived once, from the database,
// unless the file was named on the command line.
func dropStoreTwins(found []Source) []Source {
	inStore := map[[2]string]bool{}
	for _, s := range found {
		if s.Session != "" {
			file, _ := storeFile(s.Path)
			inStore[[2]string{filepath.Clean(file), s.Session}] = true
		}
	}
	if len(inStore) == 0 {
		return found
	}
	return slices.DeleteFunc(found, func(s Source) bool {
		db, id, ok := sessiontree.StoreTwin(s.Path)
		return ok && !s.Explicit && s.Session == "" && inStore[[2]string{filepath.Clean(db), id}]
	})
}

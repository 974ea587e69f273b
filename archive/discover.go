package archive

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"canopy/internal/outpath"
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
}

// GatewayInfo is what a gateway store says of one transcript.
type GatewayInfo struct {
	Store           string  `json:"store"` // the sessions.json, by its Source.Path
	Key             string  `json:"key"`   // agent:<id>:main, cron:<job>, …
	SessionID       string  `json:"sessionId"`
	Topic           string  `json:"topic,omitempty"` // the thread id of a topic transcript
	DisplayName     string  `json:"displayName,omitempty"`
	ChatType        string  `json:"chatType,omitempty"`
	Provider        string  `json:"provider,omitempty"`
	Subject         string  `json:"subject,omitempty"`
	UpdatedAt       string  `json:"updatedAt,omitempty"`
	InputTokens     float64 `json:"inputTokens,omitempty"`
	OutputTokens    float64 `json:"outputTokens,omitempty"`
	TotalTokens     float64 `json:"totalTokens,omitempty"`
	ContextTokens   float64 `json:"contextTokens,omitempty"`
	CompactionCount float64 `json:"compactionCount,omitempty"`
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
	var found []Source
	var problems []Problem
	skipped := map[string]bool{}
	for _, s := range skip {
		if abs, err := filepath.Abs(s); err == nil {
			skipped[abs] = true
		}
	}
	for _, src := range srcs {
		src = filepath.Clean(src)
		fi, err := os.Stat(src) // a SRC that is a link is followed
		if err != nil {
			problems = append(problems, Problem{src, err.Error()})
			continue
		}
		if !fi.IsDir() {
			if !fi.Mode().IsRegular() {
				problems = append(problems, Problem{src, notRegular(fi.Mode())})
				continue
			}
			found = append(found, Source{Path: src, Rel: filepath.Base(src), Format: formatByName(src), Explicit: true})
			continue
		}
		// A SRC that is a link to a directory: the directory it names is
		// walked (links met inside it are not followed), and its files are
		// named below the link, as the user named them.
		root := src
		if li, err := os.Lstat(src); err == nil && li.Mode()&fs.ModeSymlink != 0 {
			if root, err = filepath.EvalSymlinks(src); err != nil {
				problems = append(problems, Problem{src, err.Error()})
				continue
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
		base := filepath.Base(src)
		if abs, err := filepath.Abs(src); err == nil {
			base = filepath.Base(abs)
		}
		err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				problems = append(problems, Problem{shown(p), err.Error()})
				if d != nil && d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			name := d.Name()
			if d.IsDir() {
				if p != root && strings.HasPrefix(name, ".") {
					return fs.SkipDir // .git, our staging directories
				}
				if abs, err := filepath.Abs(p); err == nil && skipped[abs] {
					return fs.SkipDir
				}
				return nil
			}
			if strings.HasPrefix(name, ".") {
				return nil
			}
			f := formatByName(name)
			if f == "" {
				return nil
			}
			switch t := d.Type(); {
			case t&fs.ModeSymlink != 0:
				return nil // links inside a SRC are not followed
			case !t.IsRegular():
				// Named like a session, but a FIFO or a device: reading it
				// could wait forever, or never end.
				problems = append(problems, Problem{shown(p), notRegular(t)})
				return nil
			}
			rel, _ := filepath.Rel(root, p)
			found = append(found, Source{Path: shown(p), Rel: path.Join(base, filepath.ToSlash(rel)), Format: f})
			return nil
		})
		if err != nil {
			problems = append(problems, Problem{src, err.Error()})
		}
	}
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
	found = uniq
	problems = append(problems, labelGatewayTranscripts(found)...)
	return found, problems
}

// notRegular is the problem reported for a source that is not a regular
// file: it is skipped, never opened.
func notRegular(m fs.FileMode) string {
	return "is " + outpath.Kind(m) + ", not a regular file: not read"
}

// formatByName guesses a file's format from its name; "" means not a
// session file at all. A .json file may still turn out not to be a Flue
// document: the loader decides.
func formatByName(name string) string {
	base := filepath.Base(name)
	switch {
	case base == "sessions.json":
		return FormatGateway
	case strings.HasSuffix(base, ".jsonl"):
		return FormatJSONL
	case strings.HasSuffix(base, ".json"):
		return FormatFlue
	}
	return ""
}

// storeEntry is one session of a gateway's sessions.json. Numbers and
// strings are read leniently: a store written by another version may
// differ in types, and a label is not worth refusing the transcript for.
type storeEntry struct {
	SessionID       jsontext.Value `json:"sessionId"`
	UpdatedAt       jsontext.Value `json:"updatedAt"`
	SessionFile     jsontext.Value `json:"sessionFile"`
	ChatType        jsontext.Value `json:"chatType"`
	DisplayName     jsontext.Value `json:"displayName"`
	Provider        jsontext.Value `json:"provider"`
	Subject         jsontext.Value `json:"subject"`
	InputTokens     jsontext.Value `json:"inputTokens"`
	OutputTokens    jsontext.Value `json:"outputTokens"`
	TotalTokens     jsontext.Value `json:"totalTokens"`
	ContextTokens   jsontext.Value `json:"contextTokens"`
	CompactionCount jsontext.Value `json:"compactionCount"`
}

func str(v jsontext.Value) string {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s
	}
	var f float64
	if json.Unmarshal(v, &f) == nil {
		return fmt.Sprint(f)
	}
	return ""
}

func num(v jsontext.Value) float64 {
	var f float64
	if json.Unmarshal(v, &f) == nil {
		return f
	}
	return 0
}

// maxStoreSize bounds what is read of a sessions.json: it holds labels,
// not transcripts.
const maxStoreSize = 64 << 20

// readStore parses a gateway's sessions.json: session key to entry.
func readStore(p string) (map[string]storeEntry, error) {
	f, err := outpath.OpenRegular(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxStoreSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxStoreSize {
		return nil, fmt.Errorf("larger than %d MB: not a session store", maxStoreSize>>20)
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var raw map[string]jsontext.Value
	if err := json.Unmarshal(data, &raw, jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)); err != nil {
		return nil, fmt.Errorf("not a session store: %w", err)
	}
	out := make(map[string]storeEntry, len(raw))
	for k, v := range raw {
		var e storeEntry
		if json.Unmarshal(v, &e, jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)) != nil {
			continue // not an object: not a session
		}
		out[k] = e
	}
	return out, nil
}

// labelGatewayTranscripts gives every transcript a gateway store lists
// that store's labels, and its topic transcripts the same key with their
// thread id. A key whose transcript is not among the sources is ignored.
func labelGatewayTranscripts(found []Source) []Problem {
	var problems []Problem
	byPath := make(map[string]int, len(found))
	for i, s := range found {
		byPath[s.Path] = i
	}
	for _, st := range found {
		if st.Format != FormatGateway {
			continue
		}
		store, err := readStore(st.Path)
		if err != nil {
			problems = append(problems, Problem{st.Path, err.Error()})
			continue
		}
		dir := filepath.Dir(st.Path)
		keys := make([]string, 0, len(store))
		for k := range store {
			keys = append(keys, k)
		}
		sort.Strings(keys) // two keys naming one transcript: the first in order labels it
		for _, key := range keys {
			e := store[key]
			id := str(e.SessionID)
			file := str(e.SessionFile)
			var transcript string
			switch {
			case file != "" && !filepath.IsAbs(file):
				transcript = filepath.Join(dir, file)
			case file != "":
				// An absolute path from the machine that wrote the store:
				// the transcript is looked for beside the store.
				transcript = filepath.Join(dir, filepath.Base(file))
			case id != "" && !strings.ContainsAny(id, `/\`):
				transcript = filepath.Join(dir, id+".jsonl")
			default:
				continue
			}
			info := GatewayInfo{
				Store: st.Path, Key: key, SessionID: id,
				DisplayName: str(e.DisplayName), ChatType: str(e.ChatType), Provider: str(e.Provider),
				Subject: str(e.Subject), UpdatedAt: updatedAt(e.UpdatedAt),
				InputTokens: num(e.InputTokens), OutputTokens: num(e.OutputTokens), TotalTokens: num(e.TotalTokens),
				ContextTokens: num(e.ContextTokens), CompactionCount: num(e.CompactionCount),
			}
			if i, ok := byPath[transcript]; ok && found[i].Gateway == nil {
				g := info
				found[i].Gateway = &g
			}
			// Topic threads: <transcript base>-topic-<thread>.jsonl.
			prefix := strings.TrimSuffix(filepath.Base(transcript), ".jsonl") + "-topic-"
			for i := range found {
				s := &found[i]
				if s.Gateway != nil || s.Format != FormatJSONL || filepath.Dir(s.Path) != dir {
					continue
				}
				base := filepath.Base(s.Path)
				if thread, ok := strings.CutPrefix(base, prefix); ok {
					g := info
					g.Topic = strings.TrimSuffix(thread, ".jsonl")
					s.Gateway = &g
				}
			}
		}
	}
	return problems
}

// updatedAt reads a store's updatedAt: ms since the epoch, or a string.
func updatedAt(v jsontext.Value) string {
	var ms float64
	if json.Unmarshal(v, &ms) == nil && ms > 0 {
		return msTime(ms)
	}
	return str(v)
}

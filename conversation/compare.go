package conversation

import (
	"strings"
	"time"

	"github.com/go-json-experiment/json"

	"canopy/sessiontree"
)

// Fork is where the paths to two entries part, what a comparison of two
// branches shows: At, the last entry both paths hold (nil when they share
// none: two roots), and A and B, each path's entries after it, in path
// order. A side is empty when its end is on the other's path (at or above
// the fork).
type Fork struct {
	At   *sessiontree.Entry
	A, B []*sessiontree.Entry
}

// ForkOf is the fork of the paths to a and b. It walks each path once
// (no recursion: any depth).
func ForkOf(s *sessiontree.Session, a, b *sessiontree.Entry) Fork {
	pa, pb := s.Path(a), s.Path(b)
	k := 0
	for k < len(pa) && k < len(pb) && pa[k] == pb[k] {
		k++
	}
	f := Fork{A: pa[k:], B: pb[k:]}
	if k > 0 {
		f.At = pa[k-1]
	}
	return f
}

// FileChange is a file that a tool call wrote or edited: the files a
// branch touched, in a comparison.
type FileChange struct {
	Path string
	// Call is the call's index among the message's tool calls (its card
	// on the page is the Call-th), Tool its name in pi's terms.
	Call int
	Tool string
}

// MaxPathLen bounds a path as a comparison keeps it (in bytes, cut at a
// rune): a path is session text, and a hostile one may be megabytes.
const MaxPathLen = 1024

// FilesChanged is what the tool calls of an assistant message wrote or
// edited, in call order: pi's write and edit (path or file_path), which
// Claude Code's Write, Edit and MultiEdit read as, and Codex's
// apply_patch (read as an edit: each file its patch adds, updates or
// deletes). Any other entry, or one that cannot be decoded, changed none.
// The message is decoded (Entry.ToolCalls, known at load, says first
// whether it has calls).
func FilesChanged(e *sessiontree.Entry) []FileChange {
	if !mayChange(e) {
		return nil
	}
	b, err := e.Decode()
	if err != nil {
		return nil
	}
	return FilesIn(e, b)
}

// mayChange: e is a message whose calls may change files.
func mayChange(e *sessiontree.Entry) bool {
	return e.Type == sessiontree.TypeMessage && e.Role == sessiontree.RoleAssistant && e.ToolCalls > 0
}

// FilesIn is FilesChanged of e decoded as b (nil: it could not be), for
// a writer that has decoded it already.
func FilesIn(e *sessiontree.Entry, b *sessiontree.Body) []FileChange {
	if b == nil || b.Message == nil || !mayChange(e) {
		return nil
	}
	var out []FileChange
	call := 0
	for i := range b.Message.Content {
		blk := &b.Message.Content[i]
		if blk.Type != "toolCall" {
			continue
		}
		for _, p := range changedPaths(blk) {
			out = append(out, FileChange{Path: clip(p), Call: call, Tool: blk.Name})
		}
		call++
	}
	return out
}

// changedPaths are the files one call writes or edits.
func changedPaths(blk *sessiontree.Block) []string {
	if blk.Name != "write" && blk.Name != "edit" {
		return nil
	}
	var args struct {
		Path     string `json:"path"`
		FilePath string `json:"file_path"`
		Patch    string `json:"patch"`
	}
	if json.Unmarshal(blk.Arguments, &args) != nil {
		return nil
	}
	if args.Patch != "" { // Codex's apply_patch: the files are in the patch
		if files := patchFiles(args.Patch); len(files) > 0 {
			return files
		}
	}
	if p := strings.TrimSpace(args.Path); p != "" {
		return []string{p}
	}
	if p := strings.TrimSpace(args.FilePath); p != "" {
		return []string{p}
	}
	return nil
}

// patchFiles lists the files an apply_patch patch adds, updates or
// deletes, once each, in order.
func patchFiles(patch string) []string {
	var files []string
	seen := map[string]bool{}
	for l := range strings.SplitSeq(patch, "\n") {
		for _, op := range []string{"*** Update File: ", "*** Add File: ", "*** Delete File: "} {
			if f, ok := strings.CutPrefix(l, op); ok {
				if f = strings.TrimSpace(f); f != "" && !seen[f] {
					seen[f] = true
					files = append(files, f)
				}
			}
		}
	}
	return files
}

// clip cuts a path to MaxPathLen bytes, at a rune, marked with "…".
func clip(p string) string {
	if len(p) <= MaxPathLen {
		return p
	}
	cut := MaxPathLen
	for cut > 0 && !isRuneStart(p[cut]) {
		cut--
	}
	return p[:cut] + "…"
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// TouchedFile is one file a side of a comparison changed: its path, and
// the last entry (and call in it) that changed it on that side.
type TouchedFile struct {
	Path  string
	Entry *sessiontree.Entry
	Call  int
	Count int // calls on the side that changed it
}

// FilesTouched lists the files the entries changed, each once, in the
// order they were first changed, with the last change of each.
func FilesTouched(entries []*sessiontree.Entry) []TouchedFile {
	var out []TouchedFile
	at := map[string]int{}
	for _, e := range entries {
		for _, c := range FilesChanged(e) {
			i, ok := at[c.Path]
			if !ok {
				i = len(out)
				at[c.Path] = i
				out = append(out, TouchedFile{Path: c.Path})
			}
			out[i].Entry, out[i].Call = e, c.Call
			out[i].Count++
		}
	}
	return out
}

// Span is the time the entries took: from the earliest timestamp to the
// latest (a clock may step back between lines). ok is false when fewer
// than one entry has a timestamp.
func Span(entries []*sessiontree.Entry) (d time.Duration, ok bool) {
	var first, last time.Time
	for _, e := range entries {
		if !e.TimeOK {
			continue
		}
		if !ok || e.Time.Before(first) {
			first = e.Time
		}
		if !ok || e.Time.After(last) {
			last = e.Time
		}
		ok = true
	}
	return last.Sub(first), ok
}

package archive

import (
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"canopy/internal/outpath"
	"canopy/sessiontree"
)

// Rotation kinds: what a gateway made of a transcript it no longer
// writes to.
const (
	RotationReset   = "reset"   // <id>.jsonl.reset.<time>: left by /reset, /new or a daily reset
	RotationDeleted = "deleted" // <id>.jsonl.deleted.<time>: the session was deleted
	RotationBackup  = "backup"  // <id>.jsonl.backup, <id>.jsonl.bak.<time>: a copy kept aside
)

// Rotation says what a rotated transcript is, read from its name.
type Rotation struct {
	Kind string `json:"kind"`         // reset, deleted, backup
	At   string `json:"at,omitempty"` // when, RFC 3339 UTC (the name's time as written, if it is not one)
}

// rotatedName splits a rotated transcript's file name into the name the
// live transcript had (<id>.jsonl) and what rotated it; ok is false for
// any other name.
func rotatedName(base string) (live string, r Rotation, ok bool) {
	i := strings.LastIndex(base, ".jsonl.")
	if i <= 0 {
		return "", Rotation{}, false
	}
	live, rest := base[:i+len(".jsonl")], base[i+len(".jsonl."):]
	if rest == "backup" || rest == "bak" {
		return live, Rotation{Kind: RotationBackup}, true
	}
	kind, stamp, found := strings.Cut(rest, ".")
	if !found || stamp == "" {
		return "", Rotation{}, false
	}
	switch kind {
	case "reset":
		r.Kind = RotationReset
	case "deleted":
		r.Kind = RotationDeleted
	case "bak":
		r.Kind = RotationBackup
	default:
		return "", Rotation{}, false
	}
	r.At = rotationTime(stamp)
	return live, r, true
}

// rotationTime reads the time in a rotated name: an ISO time with its
// colons written as dashes (2026-02-02T20-29-47.344Z), or ms since the
// epoch. A time it cannot read is kept as written.
func rotationTime(s string) string {
	if date, clock, ok := strings.Cut(s, "T"); ok {
		if t, err := time.Parse(time.RFC3339Nano, date+"T"+strings.ReplaceAll(clock, "-", ":")); err == nil {
			return t.UTC().Format(time.RFC3339)
		}
	}
	if ms, ok := decode[float64]([]byte(s)); ok && ms > 1e11 {
		return msTime(ms)
	}
	return s
}

// pageStem is the name a source's page is made from, less its
// extension: a rotated transcript's name with what rotated it kept
// (abc.reset.2026-02-02T20-29-47.344Z), any other name less its
// extension, a compressed one's (.gz, .zst) first.
func pageStem(rel string) string {
	dir, base := "", rel
	if i := strings.LastIndex(rel, "/"); i >= 0 {
		dir, base = rel[:i+1], rel[i+1:]
	}
	if live, _, ok := rotatedName(base); ok {
		return dir + strings.TrimSuffix(live, ".jsonl") + strings.TrimPrefix(base, live)
	}
	rel = sessiontree.TrimCompressedExt(rel) // x.jsonl.gz: x.html, as x.jsonl's
	return strings.TrimSuffix(rel, path.Ext(rel))
}

// lockSuffix marks a transcript a gateway is writing: <transcript>.lock.
const lockSuffix = ".lock"

// markTranscripts marks rotated transcripts with what rotated them, and
// those that have a lock file beside them:
// they are archived as they stand. locks holds the lock files the walk
// met; a file named on the command line is looked for its lock itself.
func markTranscripts(found []Source, locks map[string]bool) {
	for i := range found {
		s := &found[i]
		if s.Format != FormatJSONL {
			continue
		}
		if _, r, ok := rotatedName(filepath.Base(s.Path)); ok {
			s.Rotation = &r
		}
		if locks[s.Path+lockSuffix] {
			s.Locked = true
		} else if s.Explicit {
			if _, err := os.Lstat(s.Path + lockSuffix); err == nil {
				s.Locked = true
			}
		}
	}
}

// storeLeftovers lists what each gateway store's directory holds that
// the archive does not take in (lock files, backups of the store,
// anything else), each with the reason. problems are the paths already
// reported.
func storeLeftovers(found []Source, problems []Problem) []Problem {
	taken := map[string]bool{}
	for _, s := range found {
		taken[s.Path] = true
	}
	for _, p := range problems {
		taken[p.Path] = true
	}
	var out []Problem
	seen := map[string]bool{}
	for _, st := range found {
		if st.Format != FormatGateway {
			continue
		}
		dir := filepath.Dir(st.Path)
		if seen[dir] {
			continue
		}
		seen[dir] = true
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue // the walk has reported it
		}
		for _, e := range entries {
			p := filepath.Join(dir, e.Name())
			if taken[p] {
				continue
			}
			if why := leftoverReason(e, p, taken); why != "" {
				out = append(out, Problem{p, why})
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// leftoverReason says why the file p of a store is not archived; "" for
// a directory the walk enters (its files are archived, or listed, there).
func leftoverReason(e os.DirEntry, p string, taken map[string]bool) string {
	name := e.Name()
	t := e.Type()
	switch {
	case e.IsDir() && strings.HasPrefix(name, "."):
		return "not archived: a hidden directory (not entered)"
	case e.IsDir():
		return ""
	case t&os.ModeSymlink != 0:
		return "not archived: a symbolic link (links inside a SRC are not followed)"
	case !t.IsRegular():
		return "not archived: " + outpath.Kind(t)
	case strings.HasSuffix(name, lockSuffix) && taken[strings.TrimSuffix(p, lockSuffix)]:
		return "not archived: a lock file; " + strings.TrimSuffix(name, lockSuffix) + " is archived as it stood, marked locked"
	case strings.HasSuffix(name, lockSuffix):
		return "not archived: a lock file, of a transcript not in the store"
	case strings.HasPrefix(name, "."):
		return "not archived: a hidden file"
	}
	return "not archived: not a transcript (<id>.jsonl, <id>-topic-<thread>.jsonl, or one rotated: .jsonl.reset.<time>, .jsonl.deleted.<time>, .jsonl.bak.<time>, .jsonl.backup)"
}

// foreignBase is the base name of a path written on any system: a store
// written on Windows names C:\Users\…\sessions\<id>.jsonl.
func foreignBase(p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[i+1:]
	}
	return p
}

// foreignAbs reports whether p is absolute on some system: /…, C:\…,
// C:/…, \\server\….
func foreignAbs(p string) bool {
	switch {
	case filepath.IsAbs(p), strings.HasPrefix(p, `\`), strings.HasPrefix(p, "/"):
		return true
	case len(p) >= 3 && p[1] == ':' && (p[2] == '\\' || p[2] == '/') && ('a' <= p[0]|0x20 && p[0]|0x20 <= 'z'):
		return true
	}
	return false
}

func isRotated(base string) bool {
	_, _, ok := rotatedName(base)
	return ok
}

package catalog

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"canopy/sessiontree"
)

// file is a file named like a session.
type file struct {
	path    string
	gateway bool // a gateway's sessions.json is beside it
}

// find lists the files named like sessions in roots (directories, walked
// in lexical order, or files), each once. Directories that cannot be read
// are problems; a root that does not exist is one too.
func find(roots []string) ([]file, []Problem) {
	var files []file
	var problems []Problem
	for _, root := range roots {
		fi, err := os.Stat(root) // a root that is a link is followed
		switch {
		case err != nil:
			problems = append(problems, Problem{root, err})
		case fi.IsDir():
			f, p := walk(root)
			files, problems = append(files, f...), append(problems, p...)
		default:
			files = append(files, file{path: root}) // named: read whatever its name
		}
	}
	slices.SortFunc(files, func(a, b file) int { return strings.Compare(a.path, b.path) })
	return slices.CompactFunc(files, func(a, b file) bool { return a.path == b.path }), problems
}

// walk lists the session files below root. Hidden directories, links and
// Claude Code's subagent transcripts are passed over: a subagent is part
// of its session (canopy export draws it there), not a session to list.
func walk(root string) ([]file, []Problem) {
	var files []file
	var problems []Problem
	gateway := map[string]bool{} // directories holding a sessions.json
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			problems = append(problems, Problem{p, err})
			if d != nil && d.IsDir() && p != root {
				return fs.SkipDir
			}
			return nil
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (strings.HasPrefix(name, ".") && !sessiontree.IsProjectStoreDir(name) || name == "subagents") {
				return fs.SkipDir
			}
			return nil
		}
		if name == "sessions.json" {
			gateway[filepath.Dir(p)] = true
			return nil
		}
		if d.Type().IsRegular() && sessionName(name) {
			files = append(files, file{path: p})
		}
		return nil
	})
	paths := make([]string, len(files))
	for i := range files {
		files[i].gateway = gateway[filepath.Dir(files[i].path)]
		paths[i] = files[i].path
	}
	// A session kept as a transcript and as a snapshot is listed once.
	if twins := sessiontree.SnapshotTwins(paths); twins != nil {
		files = slices.DeleteFunc(files, func(f file) bool { return twins[f.path] })
	}
	return files, problems
}

// sessionName tells a file's name that may be a session's: JSONL, or a
// JSON document (Flue), but not a subagent's transcript, its meta file, a
// gateway's store, nor a hidden file. Rotated transcripts (.jsonl.reset.*
// and the like) are earlier sessions a gateway keeps: canopy archive
// keeps them, a listing of sessions does not. A compressed transcript
// (.jsonl.gz, .jsonl.zst) is listed as its .jsonl would be.
func sessionName(name string) bool {
	name = sessiontree.TrimCompressedExt(name)
	switch {
	case strings.HasPrefix(name, "."),
		strings.HasPrefix(name, "agent-") && strings.HasSuffix(name, ".jsonl"),
		strings.HasSuffix(name, ".meta.json"):
		return false
	}
	return strings.HasSuffix(name, ".jsonl") || strings.HasSuffix(name, ".json") || sessiontree.IsStoreFile(name)
}

// Package stores names where coding agents keep their sessions below a
// home directory: the one list that canopy archive (a home given as SRC)
// and canopy list (the sessions on this machine) both read.
package stores

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"canopy/sessiontree"
)

// locations are the agents' session stores, below a home directory,
// slash-separated, as each format's reader declares them
// (sessiontree.Agent.Dirs). Read-only: canopy never writes there.
var locations = sessiontree.StoreDirs()

// In lists the agents' session stores in the directory dir, when dir is a
// home directory holding any of them (or an agent's own directory,
// ~/.claude, ~/.codex, ~/.pi); nil otherwise. Those an agent keeps in
// each project (Crush's <project>/.crush, Aider's history file) are
// looked for below a home, in a bounded walk (projectStores). A home holds much else
// (projects' own .json and .jsonl files, caches, an agent's prompt
// history) that is not sessions, and would take long to read through: a
// caller given a home reads its stores instead.
func In(dir string) []string {
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() {
		return nil
	}
	base := filepath.Base(dir)
	if abs, err := filepath.Abs(dir); err == nil {
		base = filepath.Base(abs)
	}
	var out []string
	for _, store := range locations {
		rel := store
		if agent, below, _ := strings.Cut(store, "/"); agent == base {
			rel = below // dir is the agent's own directory
		}
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return nil // not a home: the caller walks it as it is
	}
	return append(out, projectStores(dir, maxDepth, maxDirs)...)
}

// The bounds of the walk for projects' stores below a home: projects
// are rarely deeper than ~/src/org/repo, and a home's directories are
// many; a walk past them would cost a listing more than a second.
const (
	maxDepth = 4     // directories below the home: ~/a/b/c/d/.crush
	maxDirs  = 20000 // directories read, at most
)

// notProjects are directories that hold no one's project, only what tools
// install or build: the walk does not enter them.
var notProjects = map[string]bool{
	"node_modules": true, "vendor": true, "target": true, "dist": true, "build": true,
	"__pycache__": true, "venv": true, "site-packages": true, "Library": true,
	"snap": true, "go": true, "AppData": true,
}

// projectStores are the directories in which agents keep a project's
// store (sessiontree.ProjectStoreDirs: Crush's <project>/.crush) holding
// a database of theirs, and the session files agents keep in a project
// (sessiontree.ProjectFiles: Aider's <project>/.aider.chat.history.md),
// in the home and the projects below it: a walk breadth
// first, in lexical order, that enters no hidden directory, no link and
// none of notProjects, at most depth levels down and maxDirs directories
// read. A home's stores are found by name; a project's may be anywhere.
func projectStores(home string, depth, limit int) []string {
	names, files := sessiontree.ProjectStoreDirs(), sessiontree.ProjectFiles()
	if len(names) == 0 && len(files) == 0 {
		return nil
	}
	type dir struct {
		path  string
		depth int
	}
	var out []string
	queue := []dir{{home, 0}}
	for read := 0; len(queue) > 0 && read < limit; read++ {
		d := queue[0]
		queue = queue[1:]
		entries, err := os.ReadDir(d.path)
		if err != nil {
			continue
		}
		for _, e := range entries {
			name := e.Name()
			p := filepath.Join(d.path, name)
			if !e.IsDir() { // a link is not a directory here: not followed
				if e.Type().IsRegular() && slices.Contains(files, name) {
					out = append(out, p) // a project's session file
				}
				continue
			}
			switch {
			case slices.Contains(names, name):
				if holdsStore(p) {
					out = append(out, p)
				}
			case strings.HasPrefix(name, "."), notProjects[name], d.depth+1 > depth:
			default:
				queue = append(queue, dir{p, d.depth + 1})
			}
		}
	}
	return out
}

// holdsStore tells a directory holding a file named as an agent names its
// database.
func holdsStore(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if e.Type().IsRegular() && sessiontree.IsStoreFile(e.Name()) {
			return true
		}
	}
	return false
}

// Expand replaces each directory of dirs that is a home (In) with the
// stores it holds; the others are kept as they are.
func Expand(dirs []string) []string {
	var out []string
	for _, d := range dirs {
		if s := In(d); len(s) > 0 {
			out = append(out, s...)
			continue
		}
		out = append(out, d)
	}
	return out
}

// Home lists the stores in the user's home directory: the sessions on
// this machine. It fails only when there is no home directory.
func Home() ([]string, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return nil, err
	}
	return In(home), nil
}

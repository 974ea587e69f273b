// Package stores names where coding agents keep their sessions below a
// home directory: the one list that canopy archive (a home given as SRC)
// and canopy list (the sessions on this machine) both read.
package stores

import (
	"os"
	"path/filepath"
	"strings"

	"canopy/sessiontree"
)

// locations are the agents' session stores, below a home directory,
// slash-separated, as each format's reader declares them
// (sessiontree.Agent.Dirs). Read-only: canopy never writes there.
var locations = sessiontree.StoreDirs()

// In lists the agents' session stores in the directory dir, when dir is a
// home directory holding any of them (or an agent's own directory,
// ~/.claude, ~/.codex, ~/.pi); nil otherwise. A home holds much else
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
	return out
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

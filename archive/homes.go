package archive

import (
	"os"
	"path/filepath"
	"strings"
)

// agentStores are where coding agents keep their sessions, below a home
// directory. Read-only.
var agentStores = [...]string{
	".claude/projects",         // Claude Code: <project>/<session>.jsonl and its subagents
	".codex/sessions",          // Codex: YYYY/MM/DD/rollout-*.jsonl
	".codex/archived_sessions", // Codex: the rollouts it archived
	".pi/agent/sessions",       // pi
}

// HomeStores lists the agents' session stores in the directory dir, when
// dir is a home directory holding any of them (or an agent's own
// directory, ~/.claude, ~/.codex, ~/.pi); nil otherwise. Such a SRC is
// archived as if its stores had been named instead: a home holds much
// else (projects' own .json and .jsonl files, caches, an agent's prompt
// history) that is not sessions, and would take long to read through.
func HomeStores(dir string) []string {
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() {
		return nil
	}
	base := filepath.Base(dir)
	if abs, err := filepath.Abs(dir); err == nil {
		base = filepath.Base(abs)
	}
	var out []string
	for _, store := range agentStores {
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

// expandHomes replaces each SRC that is a home directory (HomeStores)
// with the stores it holds.
func expandHomes(srcs []string) []string {
	var out []string
	for _, s := range srcs {
		if stores := HomeStores(s); len(stores) > 0 {
			out = append(out, stores...)
			continue
		}
		out = append(out, s)
	}
	return out
}

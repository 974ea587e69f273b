package archive

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"canopy/internal/pagetest"
)

func TestHomeStores(t *testing.T) {
	dir := t.TempDir()
	home := agentsHome(t, dir)
	write(t, filepath.Join(home, ".pi", "agent", "sessions", "--work--", "s.jsonl"), "")
	mk := func(p string) string {
		t.Helper()
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	other := filepath.Join(dir, "other")
	mk(filepath.Join(other, ".claude", "projects"))
	for _, tc := range []struct {
		name, src string
		want      []string // below home (below other, for the second)
	}{
		{"a home", home, []string{".claude/projects", ".codex/sessions", ".pi/agent/sessions"}},
		{"a home with Claude Code's only", other, []string{".claude/projects"}},
		{"Claude Code's directory", filepath.Join(home, ".claude"), []string{".claude/projects"}},
		{"Codex's directory", filepath.Join(home, ".codex"), []string{".codex/sessions"}},
		{"a store itself", filepath.Join(home, ".claude", "projects"), nil},
		{"a directory of sessions", mk(filepath.Join(dir, "sessions")), nil},
		{"a file", filepath.Join(home, "src", "app", "notes.jsonl"), nil},
		{"nothing there", filepath.Join(dir, "missing"), nil},
	} {
		var got []string
		for _, s := range HomeStores(tc.src) {
			root := home
			if strings.HasPrefix(s, other) {
				root = other
			}
			rel, err := filepath.Rel(root, s)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, filepath.ToSlash(rel))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// One run, or three shards merged: the same archive, links and nested
// rows included.
func TestArchiveAgentsSharded(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	home := agentsHome(t, dir)
	run(t, []string{home}, "single", Options{})
	shardRun(t, []string{home}, "merged", 3, []int{1, 2, 0})
	sameBytes(t, "single", "merged")
	checkAgentsIndex(t, "merged")
}

// A session's page draws its subagents: it is made again when one of
// them changes, though its own file does not; the others are kept.
// (agentsHome's home is dir/home.)
func TestArchiveAgentsIncremental(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	home := agentsHome(t, dir)
	run(t, []string{home}, "out", Options{})
	before := manifest(t, "out")
	// The same home named another way (relative): nothing changed.
	res := run(t, []string{"home"}, "out", Options{})
	if res.Rendered != 0 {
		t.Errorf("a run with nothing changed rendered %d pages", res.Rendered)
	}
	a2 := filepath.Join(home, ".claude", "projects", "-home-me-src-app", "s1", "subagents", "agent-a2.jsonl")
	lines := strings.SplitAfter(mustRead(t, a2), "\n")
	appendTo(t, a2, strings.Replace(lines[1], `"uuid":"a2-2"`, `"uuid":"a2-3"`, 1))
	res = run(t, []string{home}, "out", Options{})
	after := manifest(t, "out")
	var changed []string
	for _, p := range after.Pages {
		for _, q := range before.Pages {
			if p.Path == q.Path && p.Key != q.Key && !ownPage(p.Path) && !inSearch(p.Path) {
				changed = append(changed, filepath.Base(p.Source))
			}
		}
	}
	slices.Sort(changed)
	if want := []string{"agent-a2.jsonl", "s1.jsonl"}; !slices.Equal(changed, want) || res.Rendered != 2 {
		t.Errorf("after a subagent changed, pages made again: %v (%d rendered), want %v", changed, res.Rendered, want)
	}
}

// Meta files that say two subagents ran each other: each is listed
// under its session, and the breadcrumbs end.
func TestRelateAgentsCycle(t *testing.T) {
	ss := []Session{
		{Source: "/p/s.jsonl", Page: "sessions/s.html", Format: "claude-code", ID: "S", Title: "session"},
		{Source: "/p/s/subagents/agent-a.jsonl", Page: "sessions/a.html", Format: "claude-code", ID: "S", Started: "1", Agent: &AgentInfo{ID: "a", RunBy: "b"}},
		{Source: "/p/s/subagents/agent-b.jsonl", Page: "sessions/b.html", Format: "claude-code", ID: "S", Started: "2", Agent: &AgentInfo{ID: "b", RunBy: "a"}},
		{Source: "/p/s/subagents/agent-c.jsonl", Page: "sessions/c.html", Format: "claude-code", ID: "S", Started: "0", Agent: &AgentInfo{ID: "c", RunBy: "b"}},
		{Source: "/p/agent-d.jsonl", Page: "sessions/d.html", Format: "claude-code", ID: "S", Agent: &AgentInfo{ID: "d"}},
		{Source: "/q/agent-e.jsonl", Page: "sessions/e.html", Format: "claude-code", ID: "S", Agent: &AgentInfo{ID: "e"}},
	}
	r := relate(ss)
	if want := []int{-1, 0, 1, 2, 0, -1}; !slices.Equal(r.AgentOf, want) {
		t.Errorf("AgentOf %v, want %v", r.AgentOf, want)
	}
	if want := []int{-1, 0, 0, 0, 0, -1}; !slices.Equal(r.Top, want) {
		t.Errorf("Top %v, want %v", r.Top, want)
	}
	if want := []int{4, 1}; !slices.Equal(r.Agents[0], want) { // d has no start: first
		t.Errorf("the session's subagents %v, want %v", r.Agents[0], want)
	}
	for i := range ss {
		if n := nav(ss, r, i); len(n.Trail) > len(ss)+2 {
			t.Errorf("session %d: a trail of %d", i, len(n.Trail))
		}
	}
}

// --redact: the words of a subagent's meta file, shown in the index and
// in links, are redacted too.
func TestArchiveAgentsRedacts(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	home := agentsHome(t, dir)
	secret := "ghp_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7c"
	write(t, filepath.Join(home, ".claude", "projects", "-home-me-src-app", "s1", "subagents", "agent-a1.meta.json"),
		`{"agentType": "Explore", "description": "Push with `+secret+`", "toolUseId": "toolu_A"}`)
	run(t, []string{home}, "out", Options{Redact: true})
	for name, b := range tree(t, "out") {
		if strings.Contains(pagetest.InflateStore(t, string(b)), secret) {
			t.Errorf("%s holds the secret", name)
		}
	}
	if !strings.Contains(mustRead(t, "out/index.html"), "Explore subagent: Push with [REDACTED:") {
		t.Errorf("the index does not show the redacted description")
	}
}

package stores

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func touch(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, nil, 0o644); err != nil {
		t.Fatal(err)
	}
}

// Crush keeps a store in each project (<project>/.crush/crush.db), Aider
// its history (<project>/.aider.chat.history.md): a home's projects are
// looked through for them, within bounds, and only .crush directories
// holding a database count.
func TestProjectStoresOfAHome(t *testing.T) {
	h := t.TempDir()
	if err := os.MkdirAll(filepath.Join(h, ".claude", "projects"), 0o755); err != nil {
		t.Fatal(err)
	}
	touch(t, filepath.Join(h, "src", "app", ".crush", "crush.db"))
	touch(t, filepath.Join(h, "work", ".crush", "crush.db"))
	touch(t, filepath.Join(h, "src", "empty", ".crush", "logs", "crush.log")) // no database
	touch(t, filepath.Join(h, "src", "app", "node_modules", "x", ".crush", "crush.db"))
	touch(t, filepath.Join(h, ".cache", "y", ".crush", "crush.db"))
	touch(t, filepath.Join(h, "a", "b", "c", "d", "e", ".crush", "crush.db")) // too deep
	touch(t, filepath.Join(h, "a", "b", "c", "d", ".crush", "crush.db"))
	touch(t, filepath.Join(h, "src", "calc", ".aider.chat.history.md"))
	touch(t, filepath.Join(h, "src", "calc", "node_modules", "x", ".aider.chat.history.md"))
	var got []string
	for _, p := range In(h) {
		rel, _ := filepath.Rel(h, p)
		got = append(got, filepath.ToSlash(rel))
	}
	want := []string{".claude/projects", "work/.crush", "src/app/.crush", "src/calc/.aider.chat.history.md", "a/b/c/d/.crush"} // breadth first
	if !slices.Equal(got, want) {
		t.Errorf("stores %v, want %v", got, want)
	}
	// A directory that is no home is walked by its caller as it is.
	if got := In(filepath.Join(h, "src")); got != nil {
		t.Errorf("not a home: %v", got)
	}
	// The walk stops after its limit of directories read: the home, a,
	// src and work.
	if got := projectStores(h, maxDepth, 4); len(got) != 1 || filepath.Base(filepath.Dir(got[0])) != "work" {
		t.Errorf("bounded: %v", got)
	}
}

package catalog

import (
	"os"
	"path/filepath"
	"testing"

	"canopy/internal/sessiongen"
)

// TestListDatabase: each session of an agent's database is listed, with
// its id, title and project, the database as its path.
func TestListDatabase(t *testing.T) {
	dir := t.TempDir()
	if err := sessiongen.OpenCodeDB(filepath.Join(dir, "opencode.db"),
		`INSERT INTO session VALUES ('ses_a', NULL, '/src/a', 'First', '1', 1760000000000, 1760000100000)`,
		`INSERT INTO session VALUES ('ses_b', NULL, '/src/b', 'Second', '1', 1760000200000, 1760000300000)`,
	); err != nil {
		t.Fatal(err)
	}
	got, problems := List([]string{dir}, 1)
	if len(problems) > 0 || len(got) != 2 {
		t.Fatalf("%+v %v", got, problems)
	}
	if got[0].ID != "ses_b" || got[0].Title != "Second" || got[0].Project != "/src/b" || got[0].Agent != "opencode" ||
		!got[0].InStore || got[0].Path != filepath.Join(dir, "opencode.db") || got[0].LastActivity != "2025-10-09T08:58:20Z" {
		t.Errorf("%+v", got[0])
	}
	found, _ := Resolve([]string{dir}, "ses_a", 1)
	if len(found) != 1 || found[0].ID != "ses_a" {
		t.Errorf("resolve: %+v", found)
	}
}

// TestListBadDatabase: a database cut short, or of another program, is
// passed over (no panic), and no private copy is left behind.
func TestListBadDatabase(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "cut.db"), []byte("SQLite format 3\x00garbage"), 0o644)
	os.WriteFile(filepath.Join(dir, "opencode.db"), []byte("SQLite format 3\x00"), 0o644)
	got, problems := List([]string{filepath.Join(dir, "cut.db"), filepath.Join(dir, "opencode.db")}, 1)
	if len(got) != 0 {
		t.Errorf("%+v %v", got, problems)
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "canopy-db-*")); len(left) > 0 {
		t.Errorf("private copies left: %v", left)
	}
}

package main

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"canopy/internal/sessiongen"
)

// openCodeDB writes a small OpenCode database of two sessions in dir.
func openCodeDB(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "opencode.db")
	if err := sessiongen.OpenCodeDB(path,
		`INSERT INTO session VALUES ('ses_a/1', NULL, '/src/a', 'First', '1.2.0', 1760000000000, 1760000100000)`,
		`INSERT INTO session VALUES ('ses_b', NULL, '/src/b', 'Second', '1.2.0', 1760000200000, 1760000300000)`,
		`INSERT INTO message VALUES ('msg_1', 'ses_a/1', 1760000000000, '{"role":"user","time":{"created":1760000000000}}')`,
		`INSERT INTO part VALUES ('prt_1', 'msg_1', 'ses_a/1', '{"type":"text","text":"hello <script>alert(1)</script>"}')`,
		`INSERT INTO message VALUES ('msg_2', 'ses_a/1', 1760000001000, '{"role":"assistant","time":{"created":1760000001000},"modelID":"m","providerID":"p","cost":0.5,"tokens":{"input":1,"output":2,"cache":{"read":0,"write":0}}}')`,
		`INSERT INTO part VALUES ('prt_2', 'msg_2', 'ses_a/1', '{"type":"text","text":"hi there"}')`,
	); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestExportDatabaseSession(t *testing.T) {
	dir := t.TempDir()
	path := openCodeDB(t, dir)
	st, _, stderr := runCmd(t, dir, nil, "export", path)
	if st != exitFail || !strings.Contains(stderr, "holding 2 sessions: name one with --session ID") {
		t.Errorf("no session named: %d %q", st, stderr)
	}
	st, _, stderr = runCmd(t, dir, nil, "export", path, "--session", "ses_a/1")
	if st != exitOK {
		t.Fatalf("export: %d %s", st, stderr)
	}
	page, err := os.ReadFile(filepath.Join(dir, "opencode-ses_a_1.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), "hi there") || strings.Contains(string(page), "<script>alert(1)") {
		t.Errorf("the page does not show the reply, or runs the prompt's script")
	}
	st, out, stderr := runCmd(t, dir, nil, "export", "--format", "markdown", path, "--session", "ses_a/1", "-o", "-")
	if st != exitOK || !strings.Contains(out, "hi there") || !strings.Contains(out, "hello <script>") {
		t.Errorf("markdown: %d %s %s", st, out, stderr)
	}
	st, out, _ = runCmd(t, dir, nil, "inspect", path, "--session", "ses_b")
	if st != exitOK || !strings.Contains(out, "opencode, version 1.2.0") || !strings.Contains(out, "Second") {
		t.Errorf("inspect: %d %s", st, out)
	}
	// scan reads the session's rows, not the database's bytes.
	db, _ := sql.Open("sqlite", path)
	db.Exec(`INSERT INTO part VALUES ('prt_3', 'msg_2', 'ses_a/1', '{"type":"text","text":"key AKIAIOSFODNN7EXAMPLF"}')`)
	db.Close()
	st, out, _ = runCmd(t, dir, nil, "scan", path, "--session", "ses_a/1")
	if st != exitFail || !strings.Contains(out, "aws") && !strings.Contains(out, "AWS") {
		t.Errorf("scan: %d %s", st, out)
	}
	st, out, _ = runCmd(t, dir, nil, "list", dir)
	if st != exitOK || !strings.Contains(out, "ses_b") || !strings.Contains(out, "First") {
		t.Errorf("list: %d %s", st, out)
	}
}

// canopy usage DIR counts the sessions of a database in DIR (they failed
// as "no such file"), and leaves no private copy of it behind.
func TestUsageDatabase(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	dir := t.TempDir()
	openCodeDB(t, dir)
	st, out, stderr := runCmd(t, dir, nil, "usage", "--by", "agent", dir)
	if st != exitOK || stderr != "" {
		t.Fatalf("usage: %d %s", st, stderr)
	}
	if !strings.Contains(out, "opencode ") || !strings.Contains(out, "$0.50") {
		t.Errorf("usage of the database:\n%s", out)
	}
	if left, _ := filepath.Glob(filepath.Join(os.TempDir(), "canopy-db-*")); len(left) > 0 {
		t.Errorf("private copies left: %v", left)
	}
}

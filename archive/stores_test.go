package archive

import (
	"crypto/sha256"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "modernc.org/sqlite"
)

// writeOpenCodeDB writes an OpenCode database of two sessions at path,
// its rows left in its -wal file (copied while the writer holds it
// open), with one more message per extra.
func writeOpenCodeDB(t *testing.T, path string, extra int) {
	t.Helper()
	work := filepath.Join(t.TempDir(), "w.db")
	db, err := sql.Open("sqlite", work)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	stmts := []string{
		"PRAGMA journal_mode=WAL", "PRAGMA wal_autocheckpoint=0",
		`CREATE TABLE session (id TEXT PRIMARY KEY, parent_id TEXT, directory TEXT NOT NULL, title TEXT NOT NULL, version TEXT, time_created INTEGER, time_updated INTEGER)`,
		`CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, time_created INTEGER, data TEXT NOT NULL)`,
		`CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT NOT NULL, session_id TEXT NOT NULL, data TEXT NOT NULL)`,
		`INSERT INTO session VALUES ('ses_a', NULL, '/src/a', 'Fix the build', '1.2.0', 1760000000000, 1760000100000)`,
		`INSERT INTO session VALUES ('ses_b', NULL, '/src/b', 'Write docs', '1.2.0', 1760000200000, 1760000300000)`,
		`INSERT INTO message VALUES ('msg_1', 'ses_a', 1760000000000, '{"role":"user","time":{"created":1760000000000}}')`,
		`INSERT INTO part VALUES ('prt_1', 'msg_1', 'ses_a', '{"type":"text","text":"the build fails"}')`,
		`INSERT INTO message VALUES ('msg_2', 'ses_a', 1760000001000, '{"role":"assistant","time":{"created":1760000001000},"modelID":"m","providerID":"p","cost":0.25,"tokens":{"input":10,"output":5,"cache":{"read":0,"write":0}}}')`,
		`INSERT INTO part VALUES ('prt_2', 'msg_2', 'ses_a', '{"type":"text","text":"fixed it"}')`,
		`INSERT INTO message VALUES ('msg_3', 'ses_b', 1760000200000, '{"role":"user","time":{"created":1760000200000}}')`,
		`INSERT INTO part VALUES ('prt_3', 'msg_3', 'ses_b', '{"type":"text","text":"document it"}')`,
	}
	for i := range extra {
		stmts = append(stmts, `INSERT INTO message VALUES ('msg_9`+string(rune('0'+i))+`', 'ses_b', 1760000400000, '{"role":"user","time":{"created":1760000400000}}')`)
	}
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	for _, suffix := range []string{"", "-wal"} {
		data, err := os.ReadFile(work + suffix)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path+suffix, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// dirSums is each file of dir: its bytes' hash and its modification time.
func dirSums(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		data, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		fi, _ := e.Info()
		b.WriteString(e.Name() + " " + string(sha256.New().Sum(data)) + " " + fi.ModTime().String() + "\n")
	}
	return b.String()
}

// TestArchiveDatabase: every session of a database gets a page, the
// database (rows only in its log) is left as it was, a second run keeps
// the pages, and a new row in the log makes them again.
func TestArchiveDatabase(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir()) // where the private copies go: none may be left there
	dir := t.TempDir()
	src := filepath.Join(dir, "src", "opencode")
	os.MkdirAll(src, 0o755)
	writeOpenCodeDB(t, filepath.Join(src, "opencode.db"), 0)
	// Another program's database named as an agent names its store is
	// passed over.
	other, _ := sql.Open("sqlite", filepath.Join(src, "sessions.db"))
	other.Exec(`CREATE TABLE sessions (id INTEGER, user TEXT)`)
	other.Close()
	before := dirSums(t, src)
	out := filepath.Join(dir, "out")
	res := run(t, []string{src}, out, Options{})
	if res.Sessions != 2 || res.Rendered != 2 || len(res.Problems) > 0 {
		t.Fatalf("%+v", res)
	}
	if after := dirSums(t, src); after != before {
		t.Errorf("the database's directory changed:\n%s\n%s", before, after)
	}
	m := manifest(t, out)
	titles := map[string]string{}
	for _, s := range m.Sessions {
		titles[s.Page] = s.Format + " " + s.Title
	}
	if titles["sessions/opencode/opencode.db/ses_a.html"] != "opencode Fix the build" || titles["sessions/opencode/opencode.db/ses_b.html"] != "opencode Write docs" {
		t.Errorf("pages %v", titles)
	}
	page, _ := os.ReadFile(filepath.Join(out, "sessions/opencode/opencode.db/ses_a.html"))
	if !strings.Contains(string(page), "fixed it") {
		t.Error("the page does not show the reply")
	}
	if _, ok, err := Verify(out); !ok || err != nil {
		t.Errorf("verify: %v", err)
	}
	if res := run(t, []string{src}, out, Options{}); res.Rendered != 0 || res.Kept != 2 {
		t.Errorf("second run: %+v", res)
	}
	writeOpenCodeDB(t, filepath.Join(src, "opencode.db"), 1) // a new row, in the log only
	if res := run(t, []string{src}, out, Options{}); res.Rendered != 2 {
		t.Errorf("after a new row: %+v", res)
	}
	if _, ok, _ := Verify(out); !ok {
		t.Error("verify after the new row")
	}
	if left, _ := filepath.Glob(filepath.Join(os.TempDir(), "canopy-db-*")); len(left) > 0 {
		t.Errorf("private copies left: %v", left)
	}
}

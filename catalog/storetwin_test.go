package catalog

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"canopy/internal/sessiongen"
)

// ocHome is an OpenCode data directory as 1.2 leaves it: opencode.db,
// into which it copied its storage/ tree, and the tree still beside it;
// plus one session that is only in the files.
func ocHome(t *testing.T) string {
	dir := filepath.Join(t.TempDir(), "opencode")
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	write(t, filepath.Join(dir, "storage", "session", "p1", "ses_both.json"),
		`{"id":"ses_both","projectID":"p1","directory":"/src/a","title":"Both","version":"0.15.8","time":{"created":1760000000000,"updated":1760000100000}}`, t0)
	write(t, filepath.Join(dir, "storage", "message", "ses_both", "msg_1.json"), `{"id":"msg_1","sessionID":"ses_both","role":"user","time":{"created":1760000000000}}`, t0)
	write(t, filepath.Join(dir, "storage", "part", "msg_1", "prt_1.json"), `{"id":"prt_1","messageID":"msg_1","sessionID":"ses_both","type":"text","text":"hello"}`, t0)
	write(t, filepath.Join(dir, "storage", "session", "p1", "ses_files.json"),
		`{"id":"ses_files","projectID":"p1","directory":"/src/a","title":"Files only","version":"0.15.8","time":{"created":1760000000000,"updated":1760000100000}}`, t0)
	write(t, filepath.Join(dir, "storage", "message", "ses_files", "msg_2.json"), `{"id":"msg_2","sessionID":"ses_files","role":"user","time":{"created":1760000000000}}`, t0)
	write(t, filepath.Join(dir, "storage", "part", "msg_2", "prt_2.json"), `{"id":"prt_2","messageID":"msg_2","sessionID":"ses_files","type":"text","text":"only here"}`, t0)
	if err := sessiongen.OpenCodeDB(filepath.Join(dir, "opencode.db"),
		`INSERT INTO session VALUES ('ses_both', NULL, '/src/a', 'Both', '1.2.0', 1760000000000, 1760000100000)`,
		`INSERT INTO session VALUES ('ses_new', NULL, '/src/a', 'New', '1.2.0', 1760000200000, 1760000300000)`,
	); err != nil {
		t.Fatal(err)
	}
	return dir
}

// A session OpenCode keeps both in opencode.db and in its storage/ files
// is listed once, as the database's; one only in the files is listed
// (its info file read with the messages beside it).
func TestListOpenCodeStoreTwins(t *testing.T) {
	dir := ocHome(t)
	got, _ := List([]string{dir}, 0)
	var rows []string
	for _, s := range got {
		rows = append(rows, s.ID+" "+filepath.Base(s.Path))
	}
	sort.Strings(rows)
	if want := "ses_both opencode.db,ses_files ses_files.json,ses_new opencode.db"; strings.Join(rows, ",") != want {
		t.Errorf("listed %v, want %s", rows, want)
	}
}

package archive

import (
	"database/sql"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// A session OpenCode keeps both in opencode.db and in the storage/ files
// it copied them from is archived once, from the database; a session
// only in the files is archived from them.
func TestDiscoverOpenCodeStoreTwins(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	dir := filepath.Join(t.TempDir(), "opencode")
	for id, title := range map[string]string{"ses_both": "Both", "ses_files": "Files only"} {
		write(t, filepath.Join(dir, "storage", "session", "p1", id+".json"),
			`{"id":"`+id+`","projectID":"p1","directory":"/src/a","title":"`+title+`","version":"0.15.8","time":{"created":1760000000000,"updated":1760000100000}}`)
		write(t, filepath.Join(dir, "storage", "message", id, "msg_"+id+".json"), `{"id":"msg_`+id+`","sessionID":"`+id+`","role":"user","time":{"created":1760000000000}}`)
		write(t, filepath.Join(dir, "storage", "part", "msg_"+id, "prt_"+id+".json"), `{"id":"prt_`+id+`","messageID":"msg_`+id+`","sessionID":"`+id+`","type":"text","text":"hello"}`)
	}
	db, err := sql.Open("sqlite", filepath.Join(dir, "opencode.db"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		`CREATE TABLE session (id TEXT PRIMARY KEY, parent_id TEXT, directory TEXT NOT NULL, title TEXT NOT NULL, version TEXT, time_created INTEGER, time_updated INTEGER)`,
		`CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, time_created INTEGER, data TEXT NOT NULL)`,
		`CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT NOT NULL, session_id TEXT NOT NULL, data TEXT NOT NULL)`,
		`INSERT INTO session VALUES ('ses_both', NULL, '/src/a', 'Both', '1.2.0', 1760000000000, 1760000100000)`,
	} {
		if _, err := db.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	found, problems := Discover([]string{dir})
	defer closeStores(found)
	if len(problems) > 0 {
		t.Errorf("problems: %v", problems)
	}
	var got []string
	for _, s := range found {
		if strings.HasSuffix(s.Path, ".json") && !strings.Contains(s.Path, "/session/") {
			continue // messages and parts: not sessions, the loader says
		}
		got = append(got, filepath.Base(s.Path))
	}
	sort.Strings(got)
	if want := "opencode.db#session=ses_both,ses_files.json"; strings.Join(got, ",") != want {
		t.Errorf("found %v, want %s", got, want)
	}
}

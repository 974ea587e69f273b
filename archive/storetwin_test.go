package archive

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"canopy/internal/sessiongen"
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
	if err := sessiongen.OpenCodeDB(filepath.Join(dir, "opencode.db"),
		`INSERT INTO session VALUES ('ses_both', NULL, '/src/a', 'Both', '1.2.0', 1760000000000, 1760000100000)`,
	); err != nil {
		t.Fatal(err)
	}
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

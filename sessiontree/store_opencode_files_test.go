package sessiontree

import (
	"bytes"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestOpenCodeFiles: OpenCode's storage tree, written from the same rows
// as the database of TestOpenCodeDB, reads as the same session: the same
// document, line for line.
func TestOpenCodeFiles(t *testing.T) {
	path := makeDB(t, filepath.Join(t.TempDir(), "opencode.db"), false, append(openCodeSchema, openCodeRows...)...)
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	root := filepath.Join(t.TempDir(), "storage")
	put := func(rel string, data string) {
		p := filepath.Join(root, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The info file, pretty-printed as OpenCode writes it.
	put("session/p1/ses_main.json", "{\n  \"id\": \"ses_main\",\n  \"version\": \"1.2.3\",\n  \"projectID\": \"p1\",\n  \"directory\": \"/src/app\",\n  \"title\": \"Fix the parser\",\n  \"time\": {\n    \"created\": 1760000000000,\n    \"updated\": 1760000900000\n  }\n}\n")
	for _, q := range []struct{ query, dir string }{
		{`SELECT session_id, id, data FROM message`, "message"},
		{`SELECT message_id, id, data FROM part`, "part"},
	} {
		rows, err := db.Query(q.query)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var owner, id, data string
			rows.Scan(&owner, &id, &data)
			put(filepath.Join(q.dir, owner, id+".json"), data)
		}
		rows.Close()
	}
	fromDB, err := LoadFileWith(path, LoadOptions{Session: "ses_main"})
	if err != nil {
		t.Fatal(err)
	}
	fromFiles, err := LoadFile(filepath.Join(root, "session", "p1", "ses_main.json"))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := fromDB.ReadSource()
	b, _ := fromFiles.ReadSource()
	if !bytes.Equal(a, b) || fromFiles.Format != FormatOpenCode || fromFiles.Name != "Fix the parser" {
		t.Errorf("the tree's session is not the database's:\n%s\n%s", a, b)
	}
	// From standard input there is no tree to read the messages from.
	info, _ := os.ReadFile(filepath.Join(root, "session", "p1", "ses_main.json"))
	if _, err := Load(info, "-"); !errors.Is(err, ErrNotSession) {
		t.Errorf("info alone: %v", err)
	}
}

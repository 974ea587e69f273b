package archive

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeCrushDB writes a Crush database of one session at path.
func writeCrushDB(t *testing.T, path, title string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range []string{
		`CREATE TABLE sessions (id TEXT PRIMARY KEY, parent_session_id TEXT, title TEXT NOT NULL, message_count INTEGER NOT NULL DEFAULT 0,
		prompt_tokens INTEGER NOT NULL DEFAULT 0, completion_tokens INTEGER NOT NULL DEFAULT 0, cost REAL NOT NULL DEFAULT 0.0,
		updated_at INTEGER NOT NULL, created_at INTEGER NOT NULL, summary_message_id TEXT)`,
		`CREATE TABLE messages (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, role TEXT NOT NULL, parts TEXT NOT NULL DEFAULT '[]',
		model TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, finished_at INTEGER, provider TEXT, is_summary_message INTEGER NOT NULL DEFAULT 0)`,
		`INSERT INTO sessions VALUES ('s1', NULL, '` + title + `', 2, 100, 20, 0.01, 1760000100, 1760000000, NULL)`,
		`INSERT INTO messages VALUES ('m1', 's1', 'user', '[{"type":"text","data":{"text":"hello crush"}}]', '', 1760000000, 1760000000, NULL, NULL, 0)`,
		`INSERT INTO messages VALUES ('m2', 's1', 'assistant', '[{"type":"text","data":{"text":"hello back"}},{"type":"finish","data":{"reason":"end_turn","time":1760000010}}]', 'claude-sonnet-4', 1760000001, 1760000010, 1760000010, 'anthropic', 0)`,
	} {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

// canopy archive ~ finds Crush's stores in the home's projects
// (<project>/.crush/crush.db), and leaves them as they were.
func TestArchiveHomeFindsCrushProjects(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	write(t, filepath.Join(home, ".pi", "agent", "sessions", "--work--", "s.jsonl"),
		`{"type":"session","version":3,"id":"p1","timestamp":"2026-01-01T00:00:00Z","cwd":"/work"}`+"\n"+
			`{"type":"message","id":"e1","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":"hi pi"}}`+"\n")
	writeCrushDB(t, filepath.Join(home, "src", "app", ".crush", "crush.db"), "App work")
	writeCrushDB(t, filepath.Join(home, "src", "lib", ".crush", "crush.db"), "Lib work")
	before := dirSums(t, filepath.Join(home, "src", "app", ".crush"))
	out := filepath.Join(dir, "out")
	res := run(t, []string{home}, out, Options{})
	if res.Sessions != 3 || len(res.Problems) > 0 {
		t.Fatalf("%+v", res)
	}
	if after := dirSums(t, filepath.Join(home, "src", "app", ".crush")); after != before {
		t.Errorf("the project's store changed:\n%s\n%s", before, after)
	}
	var titles []string
	for _, s := range manifest(t, out).Sessions {
		if s.Format == "crush" {
			titles = append(titles, s.Title)
			// Named after its project, in no hidden directory.
			if !strings.HasPrefix(s.Page, "sessions/app/crush/crush.db/") && !strings.HasPrefix(s.Page, "sessions/lib/crush/crush.db/") {
				t.Errorf("page %s", s.Page)
			}
		}
	}
	if strings.Join(titles, ",") != "App work,Lib work" && strings.Join(titles, ",") != "Lib work,App work" {
		t.Errorf("crush sessions %v", titles)
	}
}

// canopy archive ~ finds Aider's history in a project of the home.
func TestArchiveHomeFindsAiderHistory(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	write(t, filepath.Join(home, ".pi", "agent", "sessions", "--work--", "s.jsonl"),
		`{"type":"session","version":3,"id":"p1","timestamp":"2026-01-01T00:00:00Z","cwd":"/work"}`+"\n"+
			`{"type":"message","id":"e1","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":"hi pi"}}`+"\n")
	write(t, filepath.Join(home, "src", "calc", ".aider.chat.history.md"), "\n# aider chat started at 2025-05-04 17:02:36\n\n"+
		"> Aider v0.82.2  \n> Main model: gemini/gemini-2.5-pro-exp-03-25 with diff-fenced edit format  \n\n"+
		"#### give me a quick overview of this repo  \n\nA calculator built with React.\n\n> Tokens: 3.2k sent, 222 received.  \n")
	out := filepath.Join(dir, "out")
	res := run(t, []string{home}, out, Options{})
	if res.Sessions != 2 || len(res.Problems) > 0 {
		t.Fatalf("%+v", res)
	}
	found := false
	for _, s := range manifest(t, out).Sessions {
		found = found || s.Format == "aider" && s.Title == "give me a quick overview of this repo"
	}
	if !found {
		t.Errorf("no page for the Aider history: %+v", manifest(t, out).Sessions)
	}
}

package sessiontree

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// crushSchema is Crush's tables, as far as canopy reads them.
var crushSchema = []string{
	`CREATE TABLE sessions (id TEXT PRIMARY KEY, parent_session_id TEXT, title TEXT NOT NULL, message_count INTEGER NOT NULL DEFAULT 0,
		prompt_tokens INTEGER NOT NULL DEFAULT 0, completion_tokens INTEGER NOT NULL DEFAULT 0, cost REAL NOT NULL DEFAULT 0.0,
		updated_at INTEGER NOT NULL, created_at INTEGER NOT NULL, summary_message_id TEXT)`,
	`CREATE TABLE messages (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, role TEXT NOT NULL, parts TEXT NOT NULL DEFAULT '[]',
		model TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, finished_at INTEGER, provider TEXT, is_summary_message INTEGER NOT NULL DEFAULT 0)`,
}

var crushRows = []string{
	`INSERT INTO sessions VALUES ('s1', NULL, 'Rename the flag', 4, 1200, 300, 0.042, 1760000300, 1760000000, NULL)`,
	`INSERT INTO sessions VALUES ('m2$$call_1', 's1', 'Find uses', 1, 10, 5, 0.001, 1760000200, 1760000100, NULL)`,
	`INSERT INTO messages VALUES ('m1', 's1', 'user', '[{"type":"text","data":{"text":"rename --verbose to --debug"}},{"type":"finish","data":{"reason":"stop","time":1760000000}}]', '', 1760000000, 1760000000, NULL, NULL, 0)`,
	`INSERT INTO messages VALUES ('m2', 's1', 'assistant', '[{"type":"reasoning","data":{"thinking":"grep first","signature":""}},{"type":"text","data":{"text":"Looking."}},{"type":"tool_call","data":{"id":"call_1","name":"agent","input":"{\"prompt\":\"find uses\"}","finished":true}},{"type":"tool_call","data":{"id":"call_2","name":"bash","input":"{\"command\":\"grep -r verbose\"}","finished":true}},{"type":"finish","data":{"reason":"tool_use","time":1760000010}}]', 'claude-sonnet-4', 1760000001, 1760000010, 1760000010, 'anthropic', 0)`,
	`INSERT INTO messages VALUES ('m3', 's1', 'tool', '[{"type":"tool_result","data":{"tool_call_id":"call_1","name":"agent","content":"main.go:12","metadata":"","is_error":false}},{"type":"tool_result","data":{"tool_call_id":"call_2","name":"bash","content":"no such file","metadata":"","is_error":true}}]', '', 1760000011, 1760000011, NULL, NULL, 0)`,
	`INSERT INTO messages VALUES ('m4', 's1', 'assistant', '[{"type":"text","data":{"text":"Renamed in **main.go**."}},{"type":"finish","data":{"reason":"end_turn","time":1760000020}}]', 'claude-sonnet-4', 1760000012, 1760000020, 1760000020, 'anthropic', 0)`,
	`INSERT INTO messages VALUES ('m5', 's1', 'assistant', '[{"type":"text","data":{"text":"Summary: the flag is renamed."}}]', 'claude-sonnet-4', 1760000030, 1760000030, NULL, 'anthropic', 1)`,
}

func TestCrushDB(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "proj", ".crush")
	os.MkdirAll(dir, 0o755)
	path := makeDB(t, filepath.Join(dir, "crush.db"), true, append(crushSchema, crushRows...)...)
	s, err := LoadFileWith(path, LoadOptions{Session: "s1"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Format != FormatCrush || s.Name != "Rename the flag" || s.Header.Cwd != filepath.Dir(dir) {
		t.Errorf("format %q name %q cwd %q", s.Format, s.Name, s.Header.Cwd)
	}
	var got []string
	for _, e := range s.Entries {
		got = append(got, e.ID+" "+e.Type+" "+e.Role+" "+e.StopReason)
	}
	want := []string{"m1 message user ", "m2 message assistant toolUse", "call_1.result message toolResult ",
		"call_2.result message toolResult ", "m4 message assistant stop", "m5 compaction  "}
	if !slices.Equal(got, want) {
		t.Errorf("entries:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	pairs := PairCalls(s)
	for _, id := range []string{"call_1", "call_2"} {
		if r := pairs.Result(s.Entry("m2"), id); r == nil {
			t.Errorf("call %s has no result", id)
		}
	}
	st := s.Stats(s.Entries)
	if st.Usage.Cost.Total != 0.042 || st.Usage.Input != 1200 {
		t.Errorf("usage %+v: want the session's recorded totals", st.Usage)
	}
	if len(s.ChildSessions) != 1 || s.ChildSessions[0].TaskID != "call_1" {
		t.Errorf("subagents %+v", s.ChildSessions)
	}
	b, err := s.Entry("m2").Decode()
	if err != nil || b.Message.Content[0].Thinking != "grep first" || string(b.Message.Content[2].Arguments) != `{"prompt":"find uses"}` {
		t.Errorf("reply: %+v %v", b, err)
	}
	if c := s.Entry("m5"); c.Summary != "Summary: the flag is renamed." {
		t.Errorf("summary %q", c.Summary)
	}
	_, list, ok, err := StoreSessions(path)
	if err != nil || !ok || len(list) != 2 || list[0].ID != "s1" || list[1].Parent != "s1" {
		t.Errorf("sessions %v %v %+v", ok, err, list)
	}
}

// TestOlderSchemas: databases written by older versions of the agents,
// without the columns added since, are read.
func TestOlderSchemas(t *testing.T) {
	dir := t.TempDir()
	crush := makeDB(t, filepath.Join(dir, "crush.db"), false,
		`CREATE TABLE sessions (id TEXT PRIMARY KEY, parent_session_id TEXT, title TEXT NOT NULL, message_count INTEGER, prompt_tokens INTEGER,
			completion_tokens INTEGER, cost REAL, updated_at INTEGER, created_at INTEGER)`,
		`CREATE TABLE messages (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, role TEXT NOT NULL, parts TEXT NOT NULL, model TEXT,
			created_at INTEGER, updated_at INTEGER, finished_at INTEGER)`,
		`INSERT INTO sessions VALUES ('s1', NULL, 'Old', 1, 1, 1, 0.5, 1760000000, 1760000000)`,
		`INSERT INTO messages VALUES ('m1', 's1', 'user', '[{"type":"text","data":{"text":"hi"}}]', '', 1760000000, 1760000000, NULL)`)
	goose := makeDB(t, filepath.Join(dir, "sessions.db"), false,
		`CREATE TABLE sessions (id TEXT PRIMARY KEY, description TEXT NOT NULL DEFAULT '', working_dir TEXT NOT NULL,
			created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP, updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP, total_tokens INTEGER,
			input_tokens INTEGER, output_tokens INTEGER, accumulated_total_tokens INTEGER, accumulated_input_tokens INTEGER,
			accumulated_output_tokens INTEGER)`,
		`CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, role TEXT NOT NULL,
			content_json TEXT NOT NULL, created_timestamp INTEGER NOT NULL, timestamp TIMESTAMP DEFAULT CURRENT_TIMESTAMP)`,
		`INSERT INTO sessions (id, description, working_dir) VALUES ('g1', 'Old goose', '/w')`,
		`INSERT INTO messages (session_id, role, content_json, created_timestamp) VALUES ('g1', 'user', '[{"type":"text","text":"hi"}]', 1760000000)`)
	for _, c := range []struct{ path, format, name string }{{crush, FormatCrush, "Old"}, {goose, FormatGoose, "Old goose"}} {
		s, err := LoadFile(c.path)
		if err != nil {
			t.Fatalf("%s: %v", c.path, err)
		}
		if s.Format != c.format || s.Name != c.name || len(s.Entries) != 1 {
			t.Errorf("%s: %q %q %d entries", c.path, s.Format, s.Name, len(s.Entries))
		}
		s.Close()
	}
}

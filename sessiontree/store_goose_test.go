package sessiontree

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// gooseSchema is Goose's tables (its schema 5), as far as canopy reads
// them.
var gooseSchema = []string{
	`CREATE TABLE sessions (id TEXT PRIMARY KEY, name TEXT NOT NULL DEFAULT '', description TEXT NOT NULL DEFAULT '',
		user_set_name BOOLEAN DEFAULT FALSE, session_type TEXT NOT NULL DEFAULT 'user', working_dir TEXT NOT NULL,
		created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP, updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP, extension_data TEXT DEFAULT '{}',
		total_tokens INTEGER, input_tokens INTEGER, output_tokens INTEGER, accumulated_total_tokens INTEGER,
		accumulated_input_tokens INTEGER, accumulated_output_tokens INTEGER, schedule_id TEXT, recipe_json TEXT, user_recipe_values_json TEXT)`,
	`CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL REFERENCES sessions(id), role TEXT NOT NULL,
		content_json TEXT NOT NULL, created_timestamp INTEGER NOT NULL, timestamp TIMESTAMP DEFAULT CURRENT_TIMESTAMP, tokens INTEGER, metadata_json TEXT)`,
}

var gooseRows = []string{
	`INSERT INTO sessions (id, name, working_dir, created_at, updated_at, accumulated_input_tokens, accumulated_output_tokens)
		VALUES ('20251009_1', 'List the files', '/home/me/app', '2025-10-09 08:53:20', '2025-10-09 09:00:00', 900, 120)`,
	`INSERT INTO messages (session_id, role, content_json, created_timestamp, metadata_json) VALUES ('20251009_1', 'user',
		'[{"type":"text","text":"what is in src?"}]', 1760000000, '{"userVisible":true,"agentVisible":true}')`,
	`INSERT INTO messages (session_id, role, content_json, created_timestamp, metadata_json) VALUES ('20251009_1', 'assistant',
		'[{"type":"thinking","thinking":"use the shell","signature":"x"},{"type":"text","text":"Listing."},{"type":"toolRequest","id":"tr_1","toolCall":{"status":"success","value":{"name":"developer__shell","arguments":{"command":"ls src"}}}},{"type":"toolRequest","id":"tr_2","toolCall":{"status":"error","error":"bad json"}}]', 1760000001, NULL)`,
	`INSERT INTO messages (session_id, role, content_json, created_timestamp, metadata_json) VALUES ('20251009_1', 'user',
		'[{"type":"toolResponse","id":"tr_1","toolResult":{"status":"success","value":[{"type":"text","text":"main.go"}]}},{"type":"toolResponse","id":"tr_2","toolResult":{"status":"error","error":"invalid call"}}]', 1760000002, NULL)`,
	`INSERT INTO messages (session_id, role, content_json, created_timestamp, metadata_json) VALUES ('20251009_1', 'assistant',
		'[{"type":"text","text":"src holds **main.go**."}]', 1760000003, NULL)`,
	`INSERT INTO messages (session_id, role, content_json, created_timestamp, metadata_json) VALUES ('20251009_1', 'user',
		'[{"type":"text","text":"Summary of the conversation so far."}]', 1760000004, '{"userVisible":false,"agentVisible":true}')`,
}

func TestGooseDB(t *testing.T) {
	path := makeDB(t, filepath.Join(t.TempDir(), "sessions.db"), true, append(gooseSchema, gooseRows...)...)
	s, err := LoadFile(path) // one session: no --session needed
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Format != FormatGoose || s.Name != "List the files" || s.Header.Cwd != "/home/me/app" || s.Header.Timestamp != "2025-10-09T08:53:20.000Z" {
		t.Errorf("format %q name %q cwd %q time %q", s.Format, s.Name, s.Header.Cwd, s.Header.Timestamp)
	}
	var got []string
	for _, e := range s.Entries {
		got = append(got, e.ID+" "+e.Role)
	}
	want := []string{"m1 user", "m2 assistant", "tr_1.result toolResult", "tr_2.result toolResult", "m4 assistant", "m5 custom"}
	if !slices.Equal(got, want) {
		t.Errorf("entries:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	pairs := PairCalls(s)
	if pairs.Result(s.Entry("m2"), "tr_1") == nil || pairs.Result(s.Entry("m2"), "tr_2") == nil {
		t.Error("calls not paired with their responses")
	}
	b, err := s.Entry("m2").Decode()
	if err != nil || b.Message.Content[2].Name != "developer__shell" || string(b.Message.Content[2].Arguments) != `{"command":"ls src"}` {
		t.Errorf("reply: %+v %v", b, err)
	}
	b, err = s.Entry("tr_2.result").Decode()
	if err != nil || !b.Message.IsError || b.Message.Content[0].Text != "invalid call" {
		t.Errorf("failed response: %+v %v", b, err)
	}
	if st := s.Stats(s.Entries); st.Usage.Input != 900 || st.Usage.Output != 120 {
		t.Errorf("usage %+v", st.Usage)
	}
	if s.Entry("m5").CustomType != "agent only" {
		t.Errorf("a message the user never saw: %+v", s.Entry("m5"))
	}
}

// TestGooseExport: a session Goose exported (pretty-printed JSON, its
// conversation inline) reads as the database's would.
func TestGooseExport(t *testing.T) {
	doc := `{
  "id": "20251009_1",
  "working_dir": "/home/me/app",
  "name": "List the files",
  "session_type": "user",
  "created_at": "2025-10-09T08:53:20Z",
  "updated_at": "2025-10-09T09:00:00Z",
  "extension_data": {},
  "accumulated_input_tokens": 900,
  "accumulated_output_tokens": 120,
  "conversation": [
    {"role": "user", "created": 1760000000, "content": [{"type": "text", "text": "what is in src?"}], "metadata": {"userVisible": true, "agentVisible": true}},
    {"id": "msg_x", "role": "assistant", "created": 1760000001, "content": [{"type": "toolRequest", "id": "tr_1", "toolCall": {"status": "success", "value": {"name": "developer__shell", "arguments": {"command": "ls src"}}}}]},
    {"role": "user", "created": 1760000002, "content": [{"type": "toolResponse", "id": "tr_1", "toolResult": {"status": "success", "value": {"content": [{"type": "text", "text": "main.go"}], "isError": false}}}]},
    {"role": "assistant", "created": 1760000003, "content": [{"type": "text", "text": "src holds main.go."}]}
  ],
  "message_count": 4
}
`
	s, err := Load([]byte(doc), "export.json")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range s.Entries {
		got = append(got, e.ID+" "+e.Role)
	}
	want := []string{"m1 user", "msg_x assistant", "tr_1.result toolResult", "m4 assistant"}
	if s.Format != FormatGoose || s.Name != "List the files" || !slices.Equal(got, want) {
		t.Errorf("format %q name %q entries %v", s.Format, s.Name, got)
	}
	b, err := s.Entry("tr_1.result").Decode()
	if err != nil || b.Message.Content[0].Text != "main.go" {
		t.Errorf("response: %+v %v", b, err)
	}
	if st := s.Stats(s.Entries); st.Usage.Input != 900 {
		t.Errorf("usage %+v", st.Usage)
	}
}

// TestGooseLines: a session Goose kept as JSONL before its database: the
// metadata line, then a message a line.
func TestGooseLines(t *testing.T) {
	data := jsonl(
		`{"working_dir":"/home/me/app","description":"Old session","schedule_id":null,"message_count":2,"total_tokens":30,"accumulated_input_tokens":20,"accumulated_output_tokens":10}`,
		`{"role":"user","created":1740000000,"content":[{"type":"text","text":"hello"}]}`,
		`not json`,
		`{"role":"assistant","created":1740000001,"content":[{"type":"text","text":"hi"}]}`,
	)
	s, err := Load(data, "/x/sessions/20250220_1.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range s.Entries {
		got = append(got, e.ID+" "+e.Type+" "+e.Role)
	}
	want := []string{"L2 message user", "L4 message assistant"}
	if s.Format != FormatGoose || s.Name != "Old session" || s.Header.ID != "20250220_1" || !slices.Equal(got, want) {
		t.Errorf("format %q name %q id %q entries %v", s.Format, s.Name, s.Header.ID, got)
	}
	if st := s.Stats(s.Entries); st.Usage.Input != 20 || st.Usage.Output != 10 {
		t.Errorf("usage %+v", st.Usage)
	}
	if len(s.Diagnostics) != 1 || s.Diagnostics[0].Line != 3 || s.Diagnostics[0].Severity != SevError {
		t.Errorf("diagnostics %+v", s.Diagnostics)
	}
}

// Goose's newer schema records the session's provider, model and cost:
// the replies are the model's, and the cost is Goose's, else estimated.
func TestGooseSessionModel(t *testing.T) {
	schema := []string{
		`CREATE TABLE sessions (id TEXT PRIMARY KEY, name TEXT NOT NULL DEFAULT '', description TEXT NOT NULL DEFAULT '',
		working_dir TEXT NOT NULL, created_at TIMESTAMP, updated_at TIMESTAMP, input_tokens INTEGER, output_tokens INTEGER,
		accumulated_input_tokens INTEGER, accumulated_output_tokens INTEGER, accumulated_cost REAL, provider_name TEXT, model_config_json TEXT)`,
		`CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, role TEXT NOT NULL,
		content_json TEXT NOT NULL, created_timestamp INTEGER NOT NULL, metadata_json TEXT)`,
		`INSERT INTO messages (session_id, role, content_json, created_timestamp) VALUES ('s1', 'user', '[{"type":"text","text":"count the Go lines"}]', 1761203400)`,
		`INSERT INTO messages (session_id, role, content_json, created_timestamp) VALUES ('s1', 'assistant', '[{"type":"text","text":"4,211 lines."}]', 1761203410)`,
	}
	for _, tc := range []struct {
		name, row string
		cost      float64
		estimated bool
	}{
		{"no cost recorded", `INSERT INTO sessions VALUES ('s1', 'count', '', '/src', '2025-10-23 07:10:00', '2025-10-23 07:14:00', 0, 0, 12000, 600, NULL, 'anthropic', '{"model_name":"claude-sonnet-4-20250514","context_limit":200000}')`, 0, true},
		{"cost recorded", `INSERT INTO sessions VALUES ('s1', 'count', '', '/src', '2025-10-23 07:10:00', '2025-10-23 07:14:00', 0, 0, 12000, 600, 0.045, 'anthropic', '{"model_name":"claude-sonnet-4-20250514"}')`, 0.045, false},
	} {
		path := makeDB(t, filepath.Join(t.TempDir(), "sessions.db"), false, append(schema, tc.row)...)
		s, err := LoadFileWith(path, LoadOptions{Session: "s1"})
		if err != nil {
			t.Fatal(err)
		}
		reply := s.Entries[len(s.Entries)-1]
		st := s.Stats(s.Entries)
		if reply.Model != "claude-sonnet-4-20250514" || reply.Provider != "anthropic" {
			t.Errorf("%s: reply model %q/%q", tc.name, reply.Provider, reply.Model)
		}
		if st.Usage.Input != 12000 || st.Usage.Cost.Total != tc.cost || (st.EstimatedCost > 0) != tc.estimated {
			t.Errorf("%s: usage %+v, estimated %v", tc.name, st.Usage, st.EstimatedCost)
		}
		s.Close()
	}
}

// An exported session names its provider and model as the database does
// (provider_name, model_config): the replies are the model's, priced.
func TestGooseExportModel(t *testing.T) {
	doc := `{"id": "20251023_4", "working_dir": "/src", "name": "count", "created_at": "2025-10-23T07:10:00Z",
  "accumulated_input_tokens": 12840, "accumulated_output_tokens": 610,
  "provider_name": "anthropic", "model_config": {"model_name": "claude-sonnet-4-20250514", "context_limit": 200000},
  "conversation": [
    {"role": "user", "created": 1761203400, "content": [{"type": "text", "text": "how many lines of Go?"}]},
    {"role": "assistant", "created": 1761203410, "content": [{"type": "text", "text": "4,211."}]}
  ]}`
	s, err := Load([]byte(doc), "export.json")
	if err != nil {
		t.Fatal(err)
	}
	reply := s.Entries[len(s.Entries)-1]
	if reply.Model != "claude-sonnet-4-20250514" || reply.Provider != "anthropic" {
		t.Errorf("reply model %q/%q", reply.Provider, reply.Model)
	}
	if st := s.Stats(s.Entries); st.Usage.Input != 12840 || st.EstimatedCost <= 0 {
		t.Errorf("usage %+v, estimated %v", st.Usage, st.EstimatedCost)
	}
}

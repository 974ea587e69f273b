package sessiontree

import (
	"crypto/sha256"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// makeDB creates a SQLite database at path from stmts, in WAL mode with
// automatic checkpoints off. With keepWAL, the rows are left in the -wal
// file (the files are copied to dir while the writer still holds the
// database open, as an agent does) and path is that copy; else the
// database is closed, its log checkpointed into it.
func makeDB(t *testing.T, path string, keepWAL bool, stmts ...string) string {
	t.Helper()
	work := path
	if keepWAL {
		work = filepath.Join(t.TempDir(), "writer.db")
	}
	db, err := sql.Open("sqlite", work)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	for _, s := range append([]string{"PRAGMA journal_mode=WAL", "PRAGMA wal_autocheckpoint=0"}, stmts...) {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	if keepWAL {
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
	return path
}

// openCodeSchema is OpenCode's tables, as far as canopy reads them.
var openCodeSchema = []string{
	`CREATE TABLE project (id TEXT PRIMARY KEY, worktree TEXT)`,
	`CREATE TABLE session (id TEXT PRIMARY KEY, project_id TEXT, parent_id TEXT, slug TEXT, directory TEXT NOT NULL,
		title TEXT NOT NULL, version TEXT NOT NULL, time_created INTEGER, time_updated INTEGER)`,
	`CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, time_created INTEGER, time_updated INTEGER, data TEXT NOT NULL)`,
	`CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT NOT NULL, session_id TEXT NOT NULL, time_created INTEGER, time_updated INTEGER, data TEXT NOT NULL)`,
}

// openCodeRows are a session with a prompt, a reply of two steps (a
// thought, a call that completed and one that failed, then text), a
// subagent's task, a compaction with its summary, and a child session.
var openCodeRows = []string{
	`INSERT INTO session VALUES ('ses_main', 'p1', NULL, 's', '/src/app', 'Fix the parser', '1.2.3', 1760000000000, 1760000900000)`,
	`INSERT INTO session VALUES ('ses_child', 'p1', 'ses_main', 's2', '/src/app', 'Explore (@explore subagent)', '1.2.3', 1760000100000, 1760000200000)`,
	`INSERT INTO message VALUES ('msg_01', 'ses_main', 1760000000000, 0, '{"role":"user","time":{"created":1760000000000},"agent":"build","model":{"providerID":"anthropic","modelID":"claude-sonnet-4"}}')`,
	`INSERT INTO part VALUES ('prt_01', 'msg_01', 'ses_main', 0, 0, '{"type":"text","text":"Why does parse fail on empty input?"}')`,
	`INSERT INTO message VALUES ('msg_02', 'ses_main', 1760000001000, 0, '{"role":"assistant","time":{"created":1760000001000,"completed":1760000009000},"parentID":"msg_01","modelID":"claude-sonnet-4","providerID":"anthropic","mode":"build","cost":0.03,"tokens":{"input":300,"output":40,"reasoning":0,"cache":{"read":1000,"write":20}},"finish":"stop"}')`,
	`INSERT INTO part VALUES ('prt_02', 'msg_02', 'ses_main', 0, 0, '{"type":"step-start","snapshot":"abc"}')`,
	`INSERT INTO part VALUES ('prt_03', 'msg_02', 'ses_main', 0, 0, '{"type":"reasoning","text":"Look at parse.go first.","time":{"start":1,"end":2}}')`,
	`INSERT INTO part VALUES ('prt_04', 'msg_02', 'ses_main', 0, 0, '{"type":"tool","callID":"call_read","tool":"read","state":{"status":"completed","input":{"filePath":"/src/app/parse.go"},"output":"package parse","title":"parse.go","metadata":{},"time":{"start":1,"end":2}}}')`,
	`INSERT INTO part VALUES ('prt_05', 'msg_02', 'ses_main', 0, 0, '{"type":"tool","callID":"call_bash","tool":"bash","state":{"status":"error","input":{"command":"go test"},"error":"exit status 1","time":{"start":1,"end":2}}}')`,
	`INSERT INTO part VALUES ('prt_06', 'msg_02', 'ses_main', 0, 0, '{"type":"step-finish","reason":"tool-calls","cost":0.01,"tokens":{"input":100,"output":10,"reasoning":5,"cache":{"read":500,"write":0}}}')`,
	`INSERT INTO part VALUES ('prt_07', 'msg_02', 'ses_main', 0, 0, '{"type":"step-start","snapshot":"def"}')`,
	`INSERT INTO part VALUES ('prt_08', 'msg_02', 'ses_main', 0, 0, '{"type":"tool","callID":"call_task","tool":"task","state":{"status":"completed","input":{"description":"Explore","prompt":"find callers","subagent_type":"explore"},"output":"three callers","metadata":{"sessionId":"ses_child"},"time":{"start":1,"end":2}}}')`,
	`INSERT INTO part VALUES ('prt_09', 'msg_02', 'ses_main', 0, 0, '{"type":"text","text":"The empty input reaches **next** before the check."}')`,
	`INSERT INTO part VALUES ('prt_10', 'msg_02', 'ses_main', 0, 0, '{"type":"step-finish","reason":"stop","cost":0.02,"tokens":{"input":200,"output":30,"reasoning":0,"cache":{"read":500,"write":20}}}')`,
	`INSERT INTO part VALUES ('prt_11', 'msg_02', 'ses_main', 0, 0, '{"type":"patch","hash":"abc","files":["/src/app/parse.go"]}')`,
	`INSERT INTO message VALUES ('msg_03', 'ses_main', 1760000500000, 0, '{"role":"user","time":{"created":1760000500000}}')`,
	`INSERT INTO part VALUES ('prt_12', 'msg_03', 'ses_main', 0, 0, '{"type":"compaction","auto":true}')`,
	`INSERT INTO message VALUES ('msg_04', 'ses_main', 1760000501000, 0, '{"role":"assistant","time":{"created":1760000501000},"parentID":"msg_03","summary":true,"modelID":"claude-sonnet-4","providerID":"anthropic","cost":0.005,"tokens":{"input":50,"output":20,"reasoning":0,"cache":{"read":0,"write":0}}}')`,
	`INSERT INTO part VALUES ('prt_13', 'msg_04', 'ses_main', 0, 0, '{"type":"text","text":"We fixed the empty-input check."}')`,
	`INSERT INTO message VALUES ('msg_10', 'ses_child', 1760000100000, 0, '{"role":"user","time":{"created":1760000100000}}')`,
	`INSERT INTO part VALUES ('prt_20', 'msg_10', 'ses_child', 0, 0, '{"type":"text","text":"find callers"}')`,
}

func TestOpenCodeDB(t *testing.T) {
	path := makeDB(t, filepath.Join(t.TempDir(), "opencode.db"), false, append(openCodeSchema, openCodeRows...)...)
	s, err := LoadFileWith(path, LoadOptions{Session: "ses_main"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Format != FormatOpenCode || s.Name != "Fix the parser" || s.Header.Cwd != "/src/app" || s.Header.ID != "ses_main" {
		t.Errorf("format %q name %q cwd %q id %q", s.Format, s.Name, s.Header.Cwd, s.Header.ID)
	}
	var got []string
	for _, e := range s.Entries {
		got = append(got, e.ID+" "+e.Type+" "+e.Role)
	}
	want := []string{
		"msg_01 message user",
		"prt_11 custom ", // the patch: bookkeeping, written as it is met
		"msg_02 message assistant",
		"call_read.result message toolResult",
		"call_bash.result message toolResult",
		"prt_07 message assistant",
		"call_task.result message toolResult",
		"msg_03 compaction ",
		"msg_04 message assistant",
	}
	if !slices.Equal(got, want) {
		t.Errorf("entries:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, e := range s.Entries {
		if e.Bookkeeping != (e.Type == TypeCustom) {
			t.Errorf("%s: bookkeeping %v", e.ID, e.Bookkeeping)
		}
	}
	// One chain, the leaf the last reply.
	if len(s.Roots) != 1 || s.Leaf == nil || s.Leaf.ID != "msg_04" {
		t.Errorf("roots %d, leaf %v", len(s.Roots), s.Leaf)
	}
	first := s.Entry("msg_02")
	if first.Usage == nil || first.Usage.Cost.Total != 0.01 || first.Usage.Output != 15 || first.StopReason != "toolUse" || first.Model != "claude-sonnet-4" {
		t.Errorf("first step: usage %+v stop %q model %q", first.Usage, first.StopReason, first.Model)
	}
	st := s.Stats(s.Entries)
	if d := st.Usage.Cost.Total - 0.035; d > 1e-9 || d < -1e-9 {
		t.Errorf("cost %v, want the steps' 0.03 and the summary's 0.005", st.Usage.Cost.Total)
	}
	pairs := PairCalls(s)
	for _, c := range []struct{ call, id string }{{"msg_02", "call_read"}, {"msg_02", "call_bash"}, {"prt_07", "call_task"}} {
		if r := pairs.Result(s.Entry(c.call), c.id); r == nil || r.ID != c.id+".result" {
			id := c.id
			t.Errorf("call %s has no result", id)
		}
	}
	b, err := s.Entry("call_bash.result").Decode()
	if err != nil || !b.Message.IsError || b.Message.Content[0].Text != "exit status 1" {
		t.Errorf("failed call's result: %+v %v", b, err)
	}
	b, err = first.Decode()
	if err != nil || len(b.Message.Content) != 3 || b.Message.Content[0].Thinking != "Look at parse.go first." ||
		b.Message.Content[1].Name != "read" || string(b.Message.Content[1].Arguments) != `{"filePath":"/src/app/parse.go"}` {
		t.Errorf("first step's blocks: %+v %v", b, err)
	}
	if c := s.Entry("msg_03"); c.Summary != "We fixed the empty-input check." {
		t.Errorf("compaction summary %q", c.Summary)
	}
	if len(s.ChildSessions) != 1 || s.ChildSessions[0].Session != "ses_child" || s.ChildSessions[0].TaskID != "call_task" {
		t.Errorf("child sessions %+v", s.ChildSessions)
	}
	// A cut is written in the document's form and read back as OpenCode's.
	cut, err := s.Cut().Write(allKept(s), s.Leaf, CutOptions{NoThinking: true}, &CutCounts{})
	if err != nil {
		t.Fatal(err)
	}
	back, err := Load(cut, "cut")
	if err != nil || back.Format != FormatOpenCode || back.Name != "Fix the parser" || len(back.Entries) != len(s.Entries) {
		t.Fatalf("cut read back: %v %+v", err, back)
	}
}

func allKept(s *Session) []bool {
	keep := make([]bool, len(s.Entries))
	for i := range keep {
		keep[i] = true
	}
	return keep
}

func TestStoreSessions(t *testing.T) {
	path := makeDB(t, filepath.Join(t.TempDir(), "opencode.db"), false, append(openCodeSchema, openCodeRows...)...)
	format, list, ok, err := StoreSessions(path)
	if err != nil || !ok || format != FormatOpenCode || len(list) != 2 {
		t.Fatalf("%q %v %v %+v", format, ok, err, list)
	}
	if list[0].ID != "ses_main" || list[0].Messages != 4 || list[1].Parent != "ses_main" || list[0].Title != "Fix the parser" {
		t.Errorf("sessions %+v", list)
	}
	// Without a session named, a database of several is refused, saying so.
	if _, err := LoadFile(path); !errors.Is(err, ErrNoSessionNamed) {
		t.Errorf("no session named: %v", err)
	}
	if _, err := LoadFileWith(path, LoadOptions{Session: "ses_none"}); !errors.Is(err, ErrNotSession) || !strings.Contains(err.Error(), "ses_none") {
		t.Errorf("a session not in the database: %v", err)
	}
	// A line format's file is no store.
	p := filepath.Join(t.TempDir(), "s.jsonl")
	os.WriteFile(p, jsonl(header, user("u1", "")), 0o644)
	if _, _, ok, err := StoreSessions(p); ok || err != nil {
		t.Errorf("a pi session listed as a store: %v %v", ok, err)
	}
}

// dirState is each file in dir: its bytes' hash and its modification time.
func dirState(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		fi, _ := os.Stat(p)
		out[e.Name()] = string(sha256.New().Sum(data)) + fi.ModTime().Format(time.RFC3339Nano)
	}
	return out
}

// TestDatabaseWAL: rows that are only in the -wal file are read, and
// reading changes nothing in the database's directory: no file made, none
// changed (bytes and times).
func TestDatabaseWAL(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // where the private copies go: none may be left
	dir := t.TempDir()
	path := makeDB(t, filepath.Join(dir, "opencode.db"), true, append(openCodeSchema, openCodeRows...)...)
	if fi, err := os.Stat(path + "-wal"); err != nil || fi.Size() == 0 {
		t.Fatalf("the fixture has no log: %v", err)
	}
	// The main file alone holds none of the rows.
	alone := filepath.Join(t.TempDir(), "alone.db")
	data, _ := os.ReadFile(path)
	os.WriteFile(alone, data, 0o644)
	if _, err := LoadFileWith(alone, LoadOptions{Session: "ses_main"}); err == nil {
		t.Fatalf("the fixture's main file holds its rows (%d bytes)", len(data))
	}
	before := dirState(t, dir)
	old := time.Now().Add(-time.Hour)
	for name := range before {
		os.Chtimes(filepath.Join(dir, name), old, old)
	}
	before = dirState(t, dir)
	s, err := LoadFileWith(path, LoadOptions{Session: "ses_main"})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Entries) != 9 || s.Name != "Fix the parser" {
		t.Errorf("%d entries, name %q: the log's rows were not read", len(s.Entries), s.Name)
	}
	s.Close()
	if _, list, ok, err := StoreSessions(path); !ok || err != nil || len(list) != 2 {
		t.Errorf("listing: %v %v %d", ok, err, len(list))
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "canopy-db-*")); len(left) > 0 {
		t.Errorf("private copies left: %v", left)
	}
	after := dirState(t, dir)
	if len(after) != len(before) {
		t.Errorf("files before %v, after %v", keys(before), keys(after))
	}
	for name, st := range before {
		if after[name] != st {
			t.Errorf("%s changed", name)
		}
	}
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func TestDatabaseRefused(t *testing.T) {
	path := makeDB(t, filepath.Join(t.TempDir(), "other.db"), false, `CREATE TABLE notes (id INTEGER, body TEXT)`)
	_, err := LoadFile(path)
	if !errors.Is(err, ErrNotSession) || !strings.Contains(err.Error(), "SQLite database of another program (tables: notes)") {
		t.Errorf("another program's database: %v", err)
	}
}

// TestDocBadUTF8: text of a row that is not UTF-8 keeps its line, its bad
// bytes written as U+FFFD.
func TestDocBadUTF8(t *testing.T) {
	w := &docWriter{format: FormatCrush, session: "s"}
	w.message("m", time.Time{}, &docMessage{Role: RoleUser, Content: []docBlock{docText("a\xffb")}})
	s, err := Load(w.bytes(), "doc")
	if err != nil || len(s.Entries) != 1 {
		t.Fatalf("%v %d", err, len(s.Entries))
	}
	if b, err := s.Entries[0].Decode(); err != nil || b.Message.Content[0].Text != "a\uFFFDb" {
		t.Errorf("%+v %v", b, err)
	}
}

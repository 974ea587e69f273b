package sessiontree

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// agents1Fixture reads a session of this package's test data
// (testdata/<dir>/<name>).
func agents1Fixture(t testing.TB, dir, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

const geminiLog = "session-2026-03-04T08-00-a1b2c3d4.jsonl"

// TestGeminiLog: the update log read as the conversation it records: a
// message rewritten is read at its last write, a rewind is a branch, the
// metadata the header.
func TestGeminiLog(t *testing.T) {
	ids := []string{"u1", "L3", "g1", "g1/result-1", "g1/result-2", "L6", "g2", "i1", "u2", "e1", "L11", "u3", "g3", "w1", "L15"}
	runLoadCases(t, []loadCase{{
		name:   "log",
		in:     agents1Fixture(t, "gemini", geminiLog),
		format: FormatGemini,
		ids:    ids, roots: []string{"u1"}, leaf: "L15",
		path: []string{"u1", "g1", "g1/result-1", "g1/result-2", "g2", "i1", "u3", "g3", "w1", "L15"},
		// The rewind to u2: u2 and e1 stay, a branch of their own; u3
		// follows the message before u2.
		children: map[string][]string{
			"u1":          {"L3", "g1"},
			"g1":          {"g1/result-1"},
			"g1/result-2": {"L6", "g2"},
			"i1":          {"u2", "L11", "u3"},
			"u2":          {"e1"},
		},
		check: checkGeminiLog,
	}})
}

func checkGeminiLog(t *testing.T, s *Session) {
	if s.Header.ID != "a1b2c3d4-0000-4000-8000-000000000001" || s.Header.Line != 1 || s.Version != 2 ||
		s.Name != "Count and describe the Go files" || s.FormatLabel() != "gemini-cli, version 2" {
		t.Errorf("header %+v, version %d, name %q", s.Header, s.Version, s.Name)
	}
	g1 := mustEntry(t, s, "g1")
	if g1.Line != 5 || g1.Model != "gemini-2.5-pro" || g1.Provider != "google" || g1.ToolCalls != 2 ||
		!reflect.DeepEqual(g1.CallIDs, []string{"glob-1", "shell-1"}) {
		t.Errorf("g1 (its last write) %+v", g1)
	}
	// input 1200 less 200 cached; the 30 thoughts' tokens are output
	if want := (Usage{Input: 1000, Output: 70, CacheRead: 200, TotalTokens: 1470}); g1.Usage == nil || *g1.Usage != want {
		t.Errorf("g1 usage %+v, want %+v", g1.Usage, want)
	}
	for _, c := range []struct{ id, typ, role, custom string }{
		{"L3", TypeCustom, "", "$set"},
		{"i1", TypeMessage, RoleCustom, "info"},
		{"w1", TypeMessage, RoleCustom, "warning"},
		{"L11", TypeCustom, "", "rewind"},
		{"L15", TypeSessionInfo, "", ""},
		{"e1", TypeMessage, RoleAssistant, ""},
	} {
		e := mustEntry(t, s, c.id)
		if e.Type != c.typ || e.Role != c.role || e.CustomType != c.custom {
			t.Errorf("%s: %s/%s/%q, want %s/%s/%q", c.id, e.Type, e.Role, e.CustomType, c.typ, c.role, c.custom)
		}
	}
	if e := mustEntry(t, s, "L11"); !e.Bookkeeping {
		t.Error("a rewind is bookkeeping")
	}
	if e := mustEntry(t, s, "e1"); e.StopReason != "error" {
		t.Errorf("e1 stop %q", e.StopReason)
	}
	if leaves, points := s.Shape(); leaves != 2 || points != 1 {
		t.Errorf("%d leaves, %d branch points; want 2, 1", leaves, points)
	}
	checkGeminiBodies(t, s)
	st := s.Stats(s.Entries)
	if st.ToolCalls != 2 || st.Messages[RoleToolResult] != 2 || !st.CostEstimated || len(st.Models) != 2 {
		t.Errorf("stats %+v", st)
	}
}

// checkGeminiBodies: prompts, thoughts, calls and results, notices and
// errors decode as pi's.
func checkGeminiBodies(t *testing.T, s *Session) {
	if m := body(t, s, "u1").Message; m == nil || m.Role != RoleUser || len(m.Content) != 1 || m.Content[0].Text != "List the Go files and count their lines" {
		t.Errorf("u1 %+v", m)
	}
	m := body(t, s, "g1").Message
	var kinds []string
	for _, b := range m.Content {
		kinds = append(kinds, b.Type+":"+b.Name)
	}
	if !reflect.DeepEqual(kinds, []string{"thinking:", "toolCall:glob", "toolCall:bash"}) ||
		!strings.Contains(m.Content[0].Thinking, "Finding files") || m.Content[2].ID != "shell-1" ||
		string(m.Content[2].Arguments) != `{"command":"wc -l *.go"}` || m.Usage == nil || m.Model != "gemini-2.5-pro" {
		t.Errorf("g1 %v %+v", kinds, m)
	}
	r1 := body(t, s, "g1/result-1").Message
	if r1.ToolCallID != "glob-1" || r1.ToolName != "glob" || r1.IsError || r1.Content[0].Text != "main.go\nutil.go" {
		t.Errorf("result 1 %+v", r1)
	}
	r2 := body(t, s, "g1/result-2").Message
	if r2.ToolCallID != "shell-1" || r2.ToolName != "bash" || !r2.IsError || r2.Content[0].Text != "wc: permission denied" {
		t.Errorf("result 2 %+v", r2)
	}
	if m := body(t, s, "e1").Message; m.ErrorMessage != "[API Error: quota exceeded]" {
		t.Errorf("e1 %+v", m)
	}
	if m := body(t, s, "w1").Message; m.Role != RoleCustom || m.CustomType != "warning" || m.Content[0].Text != "Context is 80% full." {
		t.Errorf("w1 %+v", m)
	}
	if b := body(t, s, "L11"); !strings.Contains(string(b.Data), `"$rewindTo":"u2"`) {
		t.Errorf("rewind data %s", b.Data)
	}
	if r := PairCalls(s).Result(mustEntry(t, s, "g1"), "shell-1"); r == nil || r.ID != "g1/result-2" {
		t.Errorf("shell-1 paired with %v", r)
	}
}

// TestGeminiDocument: the older .json session, pretty-printed or on one
// line, is read as a log that holds each message once.
func TestGeminiDocument(t *testing.T) {
	oneLine := `{"sessionId":"s1","projectHash":"h","startTime":"2026-03-04T08:00:00.000Z","messages":[` +
		`{"id":"a","timestamp":"2026-03-04T08:00:01.000Z","type":"user","content":"hi"},` +
		`{"id":"b","timestamp":"2026-03-04T08:00:02.000Z","type":"gemini","content":"hello","model":"gemini-2.5-pro",` +
		`"toolCalls":[{"id":"c1","name":"read_file","args":{"file_path":"a.go"},"status":"success","result":[{"functionResponse":{"id":"c1","name":"read_file","response":{"output":"package a"}}}]}]},` +
		`{"id":"c","timestamp":"2026-03-04T08:00:03.000Z","type":"gemini","content":"done"}]}`
	runLoadCases(t, []loadCase{{
		name:   "pretty",
		in:     agents1Fixture(t, "gemini", "session-legacy.json"),
		format: FormatGemini,
		ids:    []string{"m1", "m2"}, roots: []string{"m1"}, leaf: "m2", path: []string{"m1", "m2"},
		check: func(t *testing.T, s *Session) {
			if s.Version != 1 || s.Header.ID != "92f625c6-a764-48e3-b922-3766d41f9c4c" || mustEntry(t, s, "m2").Line != 13 {
				t.Errorf("version %d header %+v line %d", s.Version, s.Header, mustEntry(t, s, "m2").Line)
			}
			if m := body(t, s, "m2").Message; m.Role != RoleAssistant || m.Content[0].Text != "There are two files." {
				t.Errorf("m2 %+v", m)
			}
		},
	}, {
		name:   "one line",
		in:     []byte(oneLine + "\n"),
		format: FormatGemini,
		ids:    []string{"a", "b", "b/result-1", "c"}, roots: []string{"a"}, leaf: "c",
		path: []string{"a", "b", "b/result-1", "c"},
		check: func(t *testing.T, s *Session) {
			if m := body(t, s, "b/result-1").Message; m.ToolCallID != "c1" || m.Content[0].Text != "package a" {
				t.Errorf("result %+v", m)
			}
		},
	}})
}

// TestGeminiRewinds: a rewind to an id not in the conversation empties
// it (a new root); one at the end of the file leaves the leaf on the
// surviving messages; an earlier write of a message is no entry.
func TestGeminiRewinds(t *testing.T) {
	meta := `{"sessionId":"s","projectHash":"h","startTime":"2026-03-04T08:00:00.000Z"}`
	msg := func(id, typ, text string) string {
		return `{"id":"` + id + `","timestamp":"2026-03-04T08:00:01.000Z","type":"` + typ + `","content":"` + text + `"}`
	}
	runLoadCases(t, []loadCase{{
		name:   "unknown target",
		in:     jsonl(meta, msg("a", "user", "x"), `{"$rewindTo":"zz"}`, msg("b", "user", "y")),
		format: FormatGemini,
		ids:    []string{"a", "L3", "b"}, roots: []string{"a", "L3", "b"}, leaf: "b", path: []string{"b"},
	}, {
		name:   "rewind last",
		in:     jsonl(meta, msg("a", "user", "x"), msg("b", "gemini", "y"), `{"$rewindTo":"b"}`),
		format: FormatGemini,
		ids:    []string{"a", "b", "L4"}, roots: []string{"a"}, leaf: "L4", path: []string{"a", "L4"},
	}, {
		name:   "rewritten",
		in:     jsonl(meta, msg("a", "user", "x"), msg("b", "gemini", "draft"), msg("b", "gemini", "final")),
		format: FormatGemini,
		ids:    []string{"a", "b"}, roots: []string{"a"}, leaf: "b", path: []string{"a", "b"},
		check: func(t *testing.T, s *Session) {
			if e := mustEntry(t, s, "b"); e.Line != 4 || body(t, s, "b").Message.Content[0].Text != "final" {
				t.Errorf("b at line %d", e.Line)
			}
		},
	}})
}

// TestGeminiDocumentCut: a cut of a .json session is the JSONL the CLI
// writes today, which reads back as the same conversation.
func TestGeminiDocumentCut(t *testing.T) {
	s, err := Load(agents1Fixture(t, "gemini", "session-legacy.json"), "s.json")
	if err != nil {
		t.Fatal(err)
	}
	keep := make([]bool, len(s.Entries))
	for i := range keep {
		keep[i] = true
	}
	var counts CutCounts
	out, err := s.Cut().Write(keep, s.Leaf, CutOptions{NoToolOutput: true}, &counts)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(out), "\n"); n != 3 {
		t.Errorf("%d lines:\n%s", n, out)
	}
	cut, err := Load(out, "cut.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if cut.Format != FormatGemini || cut.Version != 2 || cut.Header.ID != s.Header.ID || !reflect.DeepEqual(ids(cut.Entries), ids(s.Entries)) {
		t.Errorf("cut %s %d %q %v", cut.Format, cut.Version, cut.Header.ID, ids(cut.Entries))
	}
	if m := body(t, cut, "m2").Message; m.Content[0].Text != "There are two files." {
		t.Errorf("m2 %+v", m)
	}
}

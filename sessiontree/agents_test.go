package sessiontree

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// agentFixture reads a file of this package's test data.
func agentFixture(t testing.TB, rel string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", rel))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// agentCases are the test sessions of the agents read as chains: what
// each must read as.
var agentCases = []struct {
	file, format string
	entries      int
	roles        map[string]int // messages by role, as Stats counts them
	calls        int
	prompt       string // the first prompt's text, as decoded
	reply        string // text in some reply
	model        string // the last reply's
	input        float64
	output       float64
	cost         float64 // recorded
	bookkeeping  int
	version      string
	unanswered   bool // the format records calls without their results
}{
	{file: "kimi/wire.jsonl", format: FormatKimi, entries: 25, version: "1.3",
		roles: map[string]int{RoleUser: 2, RoleAssistant: 5, RoleToolResult: 2}, calls: 2,
		prompt: "List the Go files and fix the failing test.", reply: "nothing fails",
		input: 1600, output: 145, bookkeeping: 13},
	{file: "kimi/kimi-code-wire.jsonl", format: FormatKimi, entries: 11, version: "2.0",
		roles: map[string]int{RoleUser: 1, RoleAssistant: 2, RoleToolResult: 1}, calls: 1,
		prompt: "What is in go.mod?", reply: "example.com/app", model: "kimi-k2-turbo-preview",
		input: 860, output: 50, bookkeeping: 6},
	{file: "amp/T-3f1c2a9e-1b2c-4d5e-8f90-a1b2c3d4e5f6.json", format: FormatAmp, entries: 8, version: "42",
		roles: map[string]int{RoleUser: 2, RoleAssistant: 4, RoleToolResult: 2}, calls: 3,
		prompt: "Why does TestRetry fail sometimes?", reply: "real clock", model: "claude-sonnet-4-20250514",
		input: 18, output: 210},
	{file: "cursor/5b0e8c1a-2f3d-4e5f-9a0b-1c2d3e4f5a6b.jsonl", format: FormatCursor, entries: 9,
		roles: map[string]int{RoleUser: 2, RoleAssistant: 4, RoleToolResult: 2}, calls: 3,
		prompt: "Rename the config loader to LoadConfig.", reply: "main.go now calls LoadConfig", bookkeeping: 1},
	{file: "cursor/no-ids.jsonl", format: FormatCursor, entries: 5, unanswered: true,
		roles: map[string]int{RoleUser: 1, RoleAssistant: 1}, calls: 2,
		prompt: "ship it", reply: "Tagged **v1.2.0**", bookkeeping: 2},
	{file: "hermes/20260101_100000_5a3e2ff1.jsonl", format: FormatHermes, entries: 7,
		roles: map[string]int{RoleUser: 2, RoleAssistant: 3, RoleToolResult: 1, RoleCustom: 1}, calls: 1,
		prompt: "How much disk is free?", reply: "40 GB", model: "claude-sonnet-4"},
	{file: "hermes/session_20260101_100000_5a3e2ff1.json", format: FormatHermes, entries: 4,
		roles: map[string]int{RoleUser: 1, RoleAssistant: 2, RoleToolResult: 1}, calls: 1,
		prompt: "Check the weather in Paris.", reply: "cloudy in Paris", model: "gpt-4o"},
	{file: "cline/task1/api_conversation_history.json", format: FormatCline, entries: 6,
		roles: map[string]int{RoleUser: 1, RoleAssistant: 3, RoleToolResult: 2}, calls: 2,
		prompt: "Add a --verbose flag to the CLI.", reply: "Switched to **pflag**", model: "claude-sonnet-4-20250514",
		input: 1260, output: 180, cost: 0.0198},
	{file: "cline/cli/1767261600000.messages.json", format: FormatCline, entries: 4,
		roles: map[string]int{RoleUser: 1, RoleAssistant: 2, RoleToolResult: 1}, calls: 1,
		prompt: "Count the TODOs in src/.", reply: "**3** TODOs", model: "claude-sonnet-4-20250514",
		input: 930, output: 60},
	{file: "aider/.aider.chat.history.md", format: FormatAider, entries: 13,
		roles:  map[string]int{RoleUser: 4, RoleAssistant: 3, RoleCustom: 6},
		prompt: "add a greet function to hello.py", reply: ">>>>>>> REPLACE", model: "claude-3-5-sonnet-20241022",
		input: 6600, output: 177, cost: 0.0233},
}

func TestAgentFormats(t *testing.T) {
	for _, c := range agentCases {
		t.Run(c.file, func(t *testing.T) {
			s := loadAgent(t, c.file)
			if s.Format != c.format || len(s.Entries) != c.entries {
				t.Fatalf("read as %s with %d entries, want %s with %d", s.Format, len(s.Entries), c.format, c.entries)
			}
			if c.version != "" && s.FormatVersion != c.version {
				t.Errorf("version %q, want %q", s.FormatVersion, c.version)
			}
			if len(s.Diagnostics) > 0 {
				t.Errorf("diagnostics: %v", s.Diagnostics)
			}
			if len(s.Roots) != 1 || s.Leaf != s.Entries[len(s.Entries)-1] || len(s.Path(s.Leaf)) != c.entries {
				t.Fatalf("not one chain in file order: %d roots, leaf %v", len(s.Roots), idOf(s.Leaf))
			}
			st := s.Stats(s.Entries)
			for role, n := range c.roles {
				if st.Messages[role] != n {
					t.Errorf("%d %s messages, want %d (%v)", st.Messages[role], role, n, st.Messages)
				}
			}
			if st.ToolCalls != c.calls {
				t.Errorf("%d tool calls, want %d", st.ToolCalls, c.calls)
			}
			if st.Usage.Input != c.input || st.Usage.Output != c.output || math.Abs(st.Usage.Cost.Total-c.cost) > 1e-9 {
				t.Errorf("usage %+v, want input %v output %v cost %v", st.Usage, c.input, c.output, c.cost)
			}
			book := 0
			for _, e := range s.Entries {
				if e.Bookkeeping {
					book++
				}
			}
			if book != c.bookkeeping {
				t.Errorf("%d bookkeeping entries, want %d", book, c.bookkeeping)
			}
			checkAgentBodies(t, s, c.prompt, c.reply, c.model, c.unanswered)
		})
	}
}

// loadAgent loads a test session, from memory and as a file, and checks
// that both read the same.
func loadAgent(t *testing.T, file string) *Session {
	t.Helper()
	data := agentFixture(t, file)
	orig := bytes.Clone(data)
	s, err := Load(data, filepath.Join("testdata", file)) // its name finds the files beside it (Cline's)
	if err != nil {
		t.Fatal(err)
	}
	fromFile, err := LoadFile(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	defer fromFile.Close()
	sameSession(t, fromFile, s)
	checkInvariants(t, s)
	if !bytes.Equal(data, orig) {
		t.Fatal("the input was changed")
	}
	return s
}

// checkAgentBodies decodes every entry: the first prompt is prompt, some
// reply holds reply, every call has its result, each result its call.
func checkAgentBodies(t *testing.T, s *Session, prompt, reply, model string, unanswered bool) {
	t.Helper()
	firstPrompt, sawReply, lastModel := "", false, ""
	pairs := PairCalls(s)
	for _, e := range s.Entries {
		b, err := e.Decode()
		if err != nil {
			t.Fatalf("entry %s does not decode: %v", e.ID, err)
		}
		m := b.Message
		if e.Type == TypeCustom && len(b.Data) == 0 {
			t.Errorf("entry %s: state without its record", e.ID)
		}
		if m == nil {
			continue
		}
		if m.Role != e.Role {
			t.Errorf("entry %s: role %q at load, %q decoded", e.ID, e.Role, m.Role)
		}
		text := blocksText(m.Content)
		if e.Role == RoleUser && firstPrompt == "" {
			firstPrompt = text
		}
		if e.Role == RoleAssistant {
			sawReply = sawReply || strings.Contains(text, reply)
			if e.Model != "" {
				lastModel = e.Model
			}
			for _, id := range e.CallIDs {
				if pairs.Result(e, id) == nil && !unanswered {
					t.Errorf("call %s of %s has no result", id, e.ID)
				}
			}
			calls := 0
			for _, bl := range m.Content {
				if bl.Type == "toolCall" {
					calls++
					if !slices.Contains(callsOf(s, e), bl.ID) {
						t.Errorf("entry %s shows call %q, which the load did not count", e.ID, bl.ID)
					}
				}
			}
			if !e.Continues && calls != e.ToolCalls {
				t.Errorf("entry %s decodes %d calls, counted %d", e.ID, calls, e.ToolCalls)
			}
		}
		if e.Role == RoleToolResult && !pairs.Paired(e) {
			t.Errorf("result %s answers no call", e.ID)
		}
	}
	if firstPrompt != prompt {
		t.Errorf("first prompt %q, want %q", firstPrompt, prompt)
	}
	if !sawReply {
		t.Errorf("no reply holds %q", reply)
	}
	if lastModel != model {
		t.Errorf("model %q, want %q", lastModel, model)
	}
}

// callsOf are the call ids of e's turn: its own and its later records'.
func callsOf(s *Session, e *Entry) []string {
	ids := slices.Clone(e.CallIDs)
	for _, o := range s.Entries[e.Index+1:] {
		if !o.Continues && !o.Bookkeeping {
			break
		}
		ids = append(ids, o.CallIDs...)
	}
	return ids
}

// TestAgentCuts writes each session's cut, every entry kept, without
// thinking and tool output, and reads it back: the same format, the same
// entries, with what was cut counted and gone.
func TestAgentCuts(t *testing.T) {
	for _, c := range agentCases {
		t.Run(c.file, func(t *testing.T) {
			s := loadAgent(t, c.file)
			// As scope does: an entry of thinking only is left out whole.
			cut := s.Cut()
			keep := make([]bool, len(s.Entries))
			var kept []*Entry
			for i, e := range s.Entries {
				thinking, _ := cut.Thinking(e)
				if keep[i] = !thinking; keep[i] {
					kept = append(kept, e)
				}
			}
			var counts CutCounts
			out, err := cut.Write(keep, s.Leaf, CutOptions{NoThinking: true, NoToolOutput: true}, &counts)
			if err != nil {
				t.Fatal(err)
			}
			back, err := Load(out, c.file)
			if err != nil {
				t.Fatalf("the cut does not read back: %v\n%s", err, out)
			}
			if back.Format != s.Format || len(back.Entries) != len(kept) {
				t.Fatalf("cut read back as %s, %d entries; want %s, %d\n%s", back.Format, len(back.Entries), s.Format, len(kept), out)
			}
			for i, e := range back.Entries {
				if e.ID != kept[i].ID || e.Role != kept[i].Role {
					t.Fatalf("entry %d is %s %s, was %s %s", i, e.ID, e.Role, kept[i].ID, kept[i].Role)
				}
			}
			if c.roles[RoleToolResult] > 0 && counts.Outputs == 0 {
				t.Errorf("no tool output cut")
			}
			if c.roles[RoleToolResult] > 0 && !bytes.Contains(out, []byte(OutputLeftOut)) {
				t.Errorf("the cut does not say where output was left out")
			}
			for _, e := range back.Entries {
				b, err := e.Decode()
				if err != nil {
					t.Fatal(err)
				}
				if b.Message == nil {
					continue
				}
				for _, bl := range b.Message.Content {
					if bl.Type == "thinking" {
						t.Errorf("entry %s keeps its thinking", e.ID)
					}
				}
			}
		})
	}
}

// TestAgentDetection: each test session is told by its content alone,
// under any name; what is not an agent's is not claimed.
func TestAgentDetection(t *testing.T) {
	for _, c := range agentCases {
		s, err := Load(agentFixture(t, c.file), "renamed.txt")
		if err != nil || s.Format != c.format {
			t.Errorf("%s under another name: %v, %v", c.file, s, err)
		}
	}
	notSessions := []struct{ name, data string }{
		{"markdown", "# Notes\n\n#### not a prompt\n\n> quoted\n"},
		{"aider mark later", "hello\n# aider chat started at 2026-01-01 10:00:00\n"},
		{"role lines", `{"role":"user","content":"hi"}` + "\n" + `{"role":"assistant","content":"yo"}` + "\n"},
		{"array of messages", `[{"role":"user","content":"hi"},{"role":"assistant","content":"yo"}]`},
		{"thread id only", `{"id":"T-1","name":"x"}`},
		{"messages without hermes", "{\n \"messages\": [],\n \"title\": \"x\"\n}\n"},
		{"kimi-like type", `{"type":"metadata"}` + "\n"},
	}
	for _, c := range notSessions {
		s, err := Load([]byte(c.data), c.name)
		if err == nil {
			for _, f := range agentFormats {
				if s.Format == f {
					t.Errorf("%s read as %s", c.name, f)
				}
			}
			continue
		}
		if !errors.Is(err, ErrNotSession) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

var agentFormats = []string{FormatKimi, FormatAmp, FormatCursor, FormatHermes, FormatCline, FormatAider}

// TestAgentsClaimNoOtherFile: no test file of another format (the
// repository's test data) is read as one of these agents'.
func TestAgentsClaimNoOtherFile(t *testing.T) {
	var files []string
	for _, pat := range []string{"../testdata/*/*.json*", "../testdata/*/*/*.json*", "../testdata/*/*.md", "testdata/shape/*"} {
		m, _ := filepath.Glob(pat)
		files = append(files, m...)
	}
	if len(files) < 20 {
		t.Fatalf("only %d files found", len(files))
	}
	for _, f := range files {
		s, err := LoadFile(f)
		if err != nil {
			continue
		}
		for _, a := range agentFormats {
			if s.Format == a {
				t.Errorf("%s read as %s", f, a)
			}
		}
		s.Close()
	}
}

// TestAgentDamage: a broken record is reported at its line and the rest
// loads; a document cut short keeps what came before; members of odd
// types cost nothing.
func TestAgentDamage(t *testing.T) {
	cases := []struct {
		name, data, format string
		entries            int
		diagLine           int
	}{
		{"kimi broken line", `{"type":"metadata","protocol_version":"1.3"}` + "\n" +
			`{"timestamp":1,"message":{"type":"TurnBegin","payload":{"user_input":"hi"}}}` + "\nnot json\n" +
			`{"timestamp":2,"message":{"type":"ToolResult","payload":{"tool_call_id":7,"return_value":"x"}}}` + "\n", FormatKimi, 2, 3},
		{"amp cut short", "{\"v\":1,\"id\":\"T-x\",\"messages\":[\n{\"role\":\"user\",\"content\":\"hi\"},\n{\"role\":\"assistant\",\"content\":[{\"type\":\"text\"", FormatAmp, 1, 3},
		{"cursor odd members", `{"role":"user","message":{"content":[{"type":"text","text":"<user_query>q</user_query>"}]}}` + "\n" +
			`{"role":"assistant","message":{"content":7}}` + "\n" + `[1]` + "\n", FormatCursor, 2, 3},
		{"hermes odd calls", `{"role":"session_meta","model":7}` + "\n" + `{"role":"assistant","tool_calls":"x","content":["a"]}` + "\n", FormatHermes, 1, 0},
		{"cline non-object", `[{"role":"user","content":"<task>x</task>"},3,{"role":"assistant","content":[{"type":"tool_use","id":5}]}]`, FormatCline, 2, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := Load([]byte(c.data), "x")
			if err != nil {
				t.Fatal(err)
			}
			if s.Format != c.format || len(s.Entries) != c.entries {
				t.Fatalf("read as %s with %d entries, want %s with %d", s.Format, len(s.Entries), c.format, c.entries)
			}
			if c.diagLine > 0 && (len(s.Diagnostics) == 0 || s.Diagnostics[0].Line != c.diagLine) {
				t.Errorf("diagnostics %v, want one at line %d", s.Diagnostics, c.diagLine)
			}
			for _, e := range s.Entries {
				if _, err := e.Decode(); err != nil {
					t.Errorf("entry %s: %v", e.ID, err)
				}
			}
		})
	}
}

// TestAgentHeaders: what a session says of itself beyond its messages.
func TestAgentHeaders(t *testing.T) {
	amp := loadAgent(t, "amp/T-3f1c2a9e-1b2c-4d5e-8f90-a1b2c3d4e5f6.json")
	if h := amp.Header; h.ID != "T-3f1c2a9e-1b2c-4d5e-8f90-a1b2c3d4e5f6" || h.Cwd != "/home/me/retry" || h.Timestamp != "2026-01-01T10:00:00Z" || amp.Name != "Fix the flaky retry test" {
		t.Errorf("Amp header %+v, name %q", h, amp.Name)
	}
	kimi := loadAgent(t, "kimi/wire.jsonl")
	if kimi.Header.ID != "kimi" || kimi.Header.Line != 1 { // named by its directory
		t.Errorf("Kimi header %+v", kimi.Header)
	}
	if c := kimi.Entries[len(kimi.Entries)-9]; c.Type != TypeCompaction || c.TokensBefore != 4280 {
		t.Errorf("Kimi compaction %s %s, %v tokens before", c.ID, c.Type, c.TokensBefore)
	}
	cline := loadAgent(t, "cline/task1/api_conversation_history.json")
	if cline.Header.ID != "task1" {
		t.Errorf("Cline task id %q", cline.Header.ID)
	}
	aider := loadAgent(t, "aider/.aider.chat.history.md")
	if e := aider.Entries[0]; e.CustomType != CustomAiderRun || !e.TimeOK || e.Time.Format("2006-01-02 15:04") != "2026-01-01 10:00" {
		t.Errorf("Aider run start %+v", e)
	}
}

// TestAgentTurnUsage: records of one reply are one turn, whose first
// record holds the usage of them all (Stats counts no other).
func TestAgentTurnUsage(t *testing.T) {
	doc := `{"v":1,"id":"T-u","messages":[
{"role":"user","content":"go"},
{"role":"assistant","content":[{"type":"text","text":"a"}],"usage":{"model":"claude-sonnet-4","inputTokens":10,"outputTokens":1}},
{"role":"assistant","content":[{"type":"tool_use","id":"c","name":"Bash","input":{}}],"usage":{"model":"claude-sonnet-4","inputTokens":20,"outputTokens":2}},
{"role":"user","content":[{"type":"tool_result","toolUseID":"c","run":{"status":"done","result":"ok"}}]}]}`
	s, err := Load([]byte(doc), "t.json")
	if err != nil {
		t.Fatal(err)
	}
	head, next := s.Entries[1], s.Entries[2]
	if !next.Continues || head.Usage == nil || head.Usage.Input != 30 || head.Usage.Output != 3 || next.Usage != nil || head.ToolCalls != 1 {
		t.Fatalf("head %+v %+v, next continues %v %+v", head, head.Usage, next.Continues, next.Usage)
	}
	if st := s.Stats(s.Entries); st.Usage.Input != 30 || st.ToolCalls != 1 || st.Messages[RoleAssistant] != 1 {
		t.Errorf("stats %+v", st)
	}
	b, err := head.Decode()
	if err != nil || len(b.Message.Content) != 2 || len(b.Message.Streamed) != 1 || b.Message.Streamed[0].ID != next.ID {
		t.Errorf("the turn decodes to %+v, %v", b.Message, err)
	}
}

// TestAgentPeeks: canopy list's peek of each test session names its
// format and its first prompt, as the load does.
func TestAgentPeeks(t *testing.T) {
	var pk Peeker
	for _, c := range agentCases {
		data := agentFixture(t, c.file)
		p, err := pk.Peek(bytes.NewReader(data), int64(len(data)))
		if err != nil || p.Format != c.format || p.Prompt != c.prompt {
			t.Errorf("%s: peek %+v, %v; want %s, %q", c.file, p, err, c.format, c.prompt)
		}
	}
}

// TestSessionID: an agent that names a session by its directory (Kimi's
// <id>/wire.jsonl, Cline's tasks/<id>/api_conversation_history.json)
// gives that name as the id, to canopy list as to a load; a file of
// another name, or of another agent, has no such id.
func TestSessionID(t *testing.T) {
	for _, c := range []struct{ format, path, want string }{
		{FormatKimi, "/h/.kimi/sessions/4f2a/0be84c98/wire.jsonl", "0be84c98"},
		{FormatCline, "/h/tasks/1730000000000/api_conversation_history.json", "1730000000000"},
		{FormatKimi, "/h/copy-of-wire.jsonl", ""},
		{FormatClaude, "/h/p/wire.jsonl", ""},
		{FormatKimi, "wire.jsonl", ""},
	} {
		if got := SessionID(c.format, c.path); got != c.want {
			t.Errorf("SessionID(%s, %s) = %q, want %q", c.format, c.path, got, c.want)
		}
	}
}

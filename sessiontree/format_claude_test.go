package sessiontree

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// fixture reads a file of ../testdata.
func fixture(t testing.TB, dir, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// body decodes the entry with the id, failing the test when it cannot.
func body(t *testing.T, s *Session, id string) *Body {
	t.Helper()
	b, err := mustEntry(t, s, id).Decode()
	if err != nil {
		t.Fatalf("Decode %s: %v", id, err)
	}
	return b
}

// msg is the decoded message of the entry with the id.
func msg(t *testing.T, s *Session, id string) *Message {
	t.Helper()
	m := body(t, s, id).Message
	if m == nil {
		t.Fatalf("%s decodes to no message", id)
	}
	return m
}

// blockTypes lists the types of the blocks.
func blockTypes(b Blocks) []string {
	var out []string
	for _, blk := range b {
		out = append(out, blk.Type)
	}
	return out
}

// onlyText is the text of content that must be one text block.
func onlyText(t *testing.T, id string, b Blocks) string {
	t.Helper()
	if len(b) != 1 || b[0].Type != "text" {
		t.Fatalf("%s: content %v, want one text block", id, blockTypes(b))
	}
	return b[0].Text
}

func TestClaudeSession(t *testing.T) {
	runLoadCases(t, []loadCase{{
		name:   "session",
		in:     fixture(t, "claude", "session.jsonl"),
		format: FormatClaude, version: 2,
		ids: []string{"L1", "L2", "u1", "a1", "a2", "a3", "r1", "a4", "r2", "p1", "a5", "a6", "a7", "r3", "r4", "h1",
			"a8", "r5", "a9", "sc1", "sc2", "r6", "a10", "r7", "a11", "r8", "a12", "r9", "a13", "r10", "a14", "r11", "a15",
			"s1", "u2", "u3", "u4", "u5", "u6", "u7", "u8", "e1", "s2", "a16", "s3", "L46", "L47", "L48", "L49", "L50", "m1", "sc3"},
		// Lines without a uuid (snapshots, queue operations, titles) and
		// the sidechain are roots of their own.
		roots: []string{"L1", "L2", "u1", "sc1", "L46", "L47", "L48", "L49", "L50"},
		// The last main-chain message: not the sidechain line, the stop
		// hook notice or the unknown line after it.
		leaf: "a16",
		path: []string{"u1", "a1", "a2", "a3", "r1", "a4", "r2", "p1", "a5", "a6", "a7", "r3", "r4", "h1", "a8", "r5",
			"a9", "r6", "a10", "r7", "a11", "r8", "a12", "r9", "a13", "r10", "a14", "r11", "a15", "s1", "u2", "u3", "u4",
			"u5", "u6", "u7", "u8", "e1", "s2", "a16"},
		children: map[string][]string{"sc2": {"sc3"}, "a16": {"s3"}, "s3": {"m1"}},
		check:    checkClaudeSession,
	}})
}

func checkClaudeSession(t *testing.T, s *Session) {
	if s.FormatVersion != "2.1.3" || s.Header.ID != "7f3c2a10-5b6e-4c1d-9a2f-1e0b3c4d5e6f" || s.Header.Cwd != "/work/p" {
		t.Errorf("format version %q, header %+v", s.FormatVersion, s.Header)
	}
	// custom-title wins over ai-title, agent-name and the summary.
	if s.Name != "Parser returns errors" {
		t.Errorf("name %q", s.Name)
	}
	checkClaudeTurns(t, s)
	checkClaudeKinds(t, s)
	checkClaudeBodies(t, s)
	// The context: one message for a streamed reply, no notices, and no
	// extension state.
	ctx := ctxRefs(s.Context(s.Leaf))
	for _, id := range []string{"a2", "a3", "a6", "a7", "s1", "s2", "p1"} {
		if slices.ContainsFunc(ctx, func(r string) bool { return strings.HasSuffix(r, ":"+id) }) {
			t.Errorf("context holds %s: %v", id, ctx)
		}
	}
	for _, r := range []string{"assistant:a1", "toolResult:r1", "custom:h1", "bashExecution:u5", "user:u7"} {
		if !slices.Contains(ctx, r) {
			t.Errorf("context lacks %s: %v", r, ctx)
		}
	}
	st := s.Stats(s.Path(s.Leaf))
	if st.Messages[RoleAssistant] != 13 || st.ToolCalls != 11 || st.Errors != 1 || st.Usage.Output != 220 {
		t.Errorf("path stats %+v", st)
	}
}

// checkClaudeTurns: a reply streamed over lines is one turn, on its first
// line; calls and results pair by id.
func checkClaudeTurns(t *testing.T, s *Session) {
	for _, c := range []struct {
		id        string
		calls     []string
		stop      string
		output    float64
		continues []string
	}{
		{"a1", []string{"toolu_read"}, "toolUse", 50, []string{"a2", "a3"}},
		{"a5", []string{"toolu_bash", "toolu_grep"}, "toolUse", 60, []string{"a6", "a7"}},
		{"a15", nil, "stop", 10, nil},
	} {
		e := mustEntry(t, s, c.id)
		if !reflect.DeepEqual(e.CallIDs, c.calls) || e.ToolCalls != len(c.calls) || e.StopReason != c.stop ||
			e.Usage == nil || e.Usage.Output != c.output || e.Continues {
			t.Errorf("%s: calls %v, stop %q, usage %+v, continues %v", c.id, e.CallIDs, e.StopReason, e.Usage, e.Continues)
		}
		for _, id := range c.continues {
			o := mustEntry(t, s, id)
			if !o.Continues || o.CallIDs != nil || o.Usage != nil || o.StopReason != "" {
				t.Errorf("%s: continues %v, calls %v, usage %v, stop %q", id, o.Continues, o.CallIDs, o.Usage, o.StopReason)
			}
			if m := msg(t, s, id); m.Role != RoleAssistant || len(m.Content) != 0 || m.Model != "claude-opus-4-5-20251101" {
				t.Errorf("%s decodes to %+v", id, m)
			}
		}
	}
	for id, want := range map[string][2]string{
		"r1": {"toolu_read", "read"}, "r2": {"toolu_edit", "edit"}, "r3": {"toolu_bash", "bash"},
		"r4": {"toolu_grep", "grep"}, "r5": {"toolu_todo", "TodoWrite"}, "r6": {"toolu_task", "Task"},
		"r7": {"toolu_mcp", "mcp__github__get_issue"}, "r8": {"toolu_multi", "edit"}, "r9": {"toolu_write", "write"},
		"r10": {"toolu_glob", "find"}, "r11": {"toolu_fetch", "web_fetch"},
	} {
		e := mustEntry(t, s, id)
		if e.Role != RoleToolResult || e.ToolCallID != want[0] || e.ToolName != want[1] {
			t.Errorf("%s: role %s, call %q, tool %q; want %v", id, e.Role, e.ToolCallID, e.ToolName, want)
		}
	}
}

// checkClaudeKinds: what each line that is no plain message reads as.
func checkClaudeKinds(t *testing.T, s *Session) {
	for _, c := range []struct {
		id, typ, role, custom string
		display, notice       bool
	}{
		{"L1", TypeCustom, "", "file-history-snapshot", false, false},
		{"L2", TypeCustom, "", "queue-operation", false, false},
		{"p1", TypeCustom, "", "progress", false, false},
		{"s1", TypeCustom, "", "system: turn_duration", false, false},
		{"m1", TypeCustom, "", "mystery-line", false, false},
		{"L46", TypeCustom, "", "custom-title", false, false},
		{"h1", TypeMessage, RoleCustom, "hook: PostToolUse:Grep", false, false},
		{"u2", TypeMessage, RoleUser, "", false, false},
		{"u3", TypeMessage, RoleCustom, "command caveat", false, false},
		{"u4", TypeMessage, RoleCustom, "command output", true, false},
		{"u5", TypeMessage, RoleBashExecution, "", false, false},
		{"u6", TypeMessage, RoleCustom, "command output", true, false},
		{"u8", TypeMessage, RoleCustom, "meta", false, false},
		{"e1", TypeMessage, RoleAssistant, "", false, false},
		{"s2", TypeMessage, RoleCustom, "api_error", true, true},
		{"s3", TypeMessage, RoleCustom, "stop_hook_summary", true, true},
	} {
		e := mustEntry(t, s, c.id)
		if e.Type != c.typ || e.Role != c.role || e.CustomType != c.custom || e.Display != c.display || e.Notice != c.notice {
			t.Errorf("%s: type %q role %q custom %q display %v notice %v; want %+v", c.id, e.Type, e.Role,
				e.CustomType, e.Display, e.Notice, c)
		}
	}
	if e := mustEntry(t, s, "e1"); e.StopReason != "error" || e.Model != "" {
		t.Errorf("API error: stop %q, model %q", e.StopReason, e.Model)
	}
}

// checkClaudeBodies: entries decode into pi's shapes, for the page's
// cards.
func checkClaudeBodies(t *testing.T, s *Session) {
	a1 := msg(t, s, "a1")
	if got := blockTypes(a1.Content); !reflect.DeepEqual(got, []string{"thinking", "text", "toolCall"}) {
		t.Fatalf("a1 blocks %v", got)
	}
	if c := a1.Content[2]; c.Name != "read" || c.ID != "toolu_read" || !strings.Contains(string(c.Arguments), `"file_path":"/work/p/parse.go"`) {
		t.Errorf("a1 call %+v", c)
	}
	if a1.Usage == nil || a1.Usage.Output != 50 || a1.StopReason != "toolUse" || a1.Provider != "anthropic" {
		t.Errorf("a1 usage %+v stop %q", a1.Usage, a1.StopReason)
	}
	if got := blockTypes(msg(t, s, "a5").Content); !reflect.DeepEqual(got, []string{"text", "toolCall", "toolCall"}) {
		t.Errorf("a5 blocks %v", got)
	}
	// A read shows the file as it is, without Claude Code's line numbers.
	if r1 := msg(t, s, "r1"); onlyText(t, "r1", r1.Content) != "package p\n\nfunc Parse() {}\n" || r1.ToolName != "read" {
		t.Errorf("r1 %+v", r1)
	}
	// An edit's diff is its structured patch, as pi writes a diff.
	for id, want := range map[string]string{
		"r2": `{"diff":" 1 package p\n 2 \n-3 func Parse() {}\n+3 func Parse() error { return nil }"}`,
		"r8": `{"diff":" ...\n 8 \tdefer f()\n-9 \tParse()\n+9 \tif err := Parse(); err != nil {\n+10 \t\tlog.Fatal(err)\n+11 \t}\n 12 }"}`,
	} {
		if got := string(msg(t, s, id).Details); got != want {
			t.Errorf("%s details\n got  %s\n want %s", id, got, want)
		}
	}
	if r3 := msg(t, s, "r3"); !r3.IsError || !strings.Contains(onlyText(t, "r3", r3.Content), "is not used") {
		t.Errorf("r3 %+v", r3)
	}
	for id, want := range map[string]string{
		"u2": "/model opus",
		"u3": "Caveat: The messages below were generated by the user while running local commands. DO NOT respond to these messages or otherwise consider them in your response unless the user explicitly asks you to.",
		"u4": "Set model to opus (claude-opus-4-5)",
		"u6": " M main.go\n M parse.go\n?? parse_test.go",
		"h1": "Remember: run gofmt after editing.",
		"s2": "API error 529: Overloaded (retry 1 of 10)",
		"s3": "Stop hook: notify-send done",
	} {
		if got := onlyText(t, id, msg(t, s, id).Content); got != want {
			t.Errorf("%s: %q, want %q", id, got, want)
		}
	}
	if m := msg(t, s, "u5"); m.Command != "git status --short" {
		t.Errorf("u5 command %q", m.Command)
	}
	if m := msg(t, s, "u7"); !reflect.DeepEqual(blockTypes(m.Content), []string{"image", "text"}) || m.Content[0].MimeType != "image/png" {
		t.Errorf("u7 %+v", m.Content)
	}
	if m := msg(t, s, "e1"); !strings.HasPrefix(m.ErrorMessage, "API Error: 529") || len(m.Content) != 0 || m.StopReason != "error" {
		t.Errorf("e1 %+v", m)
	}
	if m := msg(t, s, "u3"); m.CustomType != "command caveat" || m.Display {
		t.Errorf("u3 %+v", m)
	}
	raw, _ := mustEntry(t, s, "p1").Raw()
	if b := body(t, s, "p1"); b.Message != nil || string(b.Data) != string(raw) {
		t.Errorf("p1: the line is not its data: %s", b.Data)
	}
}

func TestClaudeCompaction(t *testing.T) {
	runLoadCases(t, []loadCase{{
		name:   "compaction and a rewind",
		in:     fixture(t, "claude", "compaction.jsonl"),
		format: FormatClaude, version: 2,
		ids:   []string{"u1", "a1", "u2", "a2", "u2b", "a3", "c1", "cs1", "u3", "a4"},
		roots: []string{"u1"},
		leaf:  "a4",
		// The compaction joins the tree at its logical parent: one tree.
		path:     []string{"u1", "a1", "u2b", "a3", "c1", "cs1", "u3", "a4"},
		children: map[string][]string{"a1": {"u2", "u2b"}, "a3": {"c1"}},
		check: func(t *testing.T, s *Session) {
			c := mustEntry(t, s, "c1")
			if c.Type != TypeCompaction || c.TokensBefore != 156910 || !strings.HasSuffix(c.Summary, "Renamed Foo to Baz in store.go.") {
				t.Errorf("compaction %+v %+v", c, c.Detail)
			}
			cs := mustEntry(t, s, "cs1")
			if cs.Role != RoleCustom || cs.CustomType != "compact summary" || cs.Display || !cs.Notice {
				t.Errorf("summary message %+v %+v", cs, cs.Detail)
			}
			// The compaction stands for its summary message.
			if got := ctxRefs(s.Context(s.Leaf)); !reflect.DeepEqual(got, []string{"compactionSummary:c1", "user:u3", "assistant:a4"}) {
				t.Errorf("context %v", got)
			}
			if s.Name != "" || s.FormatVersion != "2.0.76" {
				t.Errorf("name %q version %q", s.Name, s.FormatVersion)
			}
		},
	}})
}

func TestClaudeOldVersion(t *testing.T) {
	runLoadCases(t, []loadCase{{
		name:   "1.0",
		in:     fixture(t, "claude", "old-1.0.jsonl"),
		format: FormatClaude, version: 1,
		ids:   []string{"L1", "L2", "o1", "o2", "o3", "o4", "o5", "o6"},
		roots: []string{"L1", "L2", "o1"},
		leaf:  "o6",
		check: func(t *testing.T, s *Session) {
			// The summary whose leaf is in the file names it; the other
			// is another session's.
			if s.Name != "Setting up CI" {
				t.Errorf("name %q", s.Name)
			}
			o2 := mustEntry(t, s, "o2")
			if o2.Usage == nil || o2.Usage.Cost.Total != 0.0123 || !reflect.DeepEqual(o2.CallIDs, []string{"toolu_o"}) {
				t.Errorf("o2 usage %+v calls %v", o2.Usage, o2.CallIDs)
			}
			if mustEntry(t, s, "o3").ToolName != "write" {
				t.Errorf("o3 tool %q", mustEntry(t, s, "o3").ToolName)
			}
			if got := onlyText(t, "o5", msg(t, s, "o5").Content); got != "/init" {
				t.Errorf("o5 %q", got)
			}
		},
	}})
}

func TestClaudeSubagent(t *testing.T) {
	runLoadCases(t, []loadCase{{
		name: "subagent transcript", in: fixture(t, "claude", "agent-a1b2c3.jsonl"),
		format: FormatClaude, leaf: "g4", path: []string{"g1", "g2", "g3", "g4"},
	}})
}

// claudeJSONL is a transcript line of the type, with the members given.
func claudeJSONL(typ, uuid, parent, extra string) string {
	return `{"type":"` + typ + `","uuid":"` + uuid + `","parentUuid":` + parentJSON(parent) +
		`,"sessionId":"s","timestamp":"` + ts + `","version":"2.1.0"` + prefixed(",", extra) + `}`
}

func claudeReply(uuid, parent, msgID, blocks string) string {
	return claudeJSONL("assistant", uuid, parent, `"message":{"id":"`+msgID+`","role":"assistant","model":"m","content":[`+blocks+`],"usage":{"input_tokens":1,"output_tokens":2}}`)
}

func TestClaudeRules(t *testing.T) {
	user := func(uuid, parent, content string) string {
		return claudeJSONL("user", uuid, parent, `"message":{"role":"user","content":`+content+`}`)
	}
	runLoadCases(t, []loadCase{
		{
			// A result written between two lines of the reply (Claude Code
			// runs a call while the reply streams) still pairs with its
			// call, which the reply's first line shows.
			name: "results between a reply's lines",
			in: jsonl(user("u", "", `"go"`),
				claudeReply("a", "u", "m1", `{"type":"tool_use","id":"t1","name":"Read","input":{}}`),
				user("r1", "a", `[{"type":"tool_result","tool_use_id":"t1","content":"x"}]`),
				claudeReply("b", "r1", "m1", `{"type":"tool_use","id":"t2","name":"Bash","input":{"command":"ls"}}`),
				user("r2", "b", `[{"type":"tool_result","tool_use_id":"t2","content":"y"}]`)),
			leaf: "r2", path: []string{"u", "a", "r1", "b", "r2"},
			check: func(t *testing.T, s *Session) {
				if a := mustEntry(t, s, "a"); !reflect.DeepEqual(a.CallIDs, []string{"t1", "t2"}) || !mustEntry(t, s, "b").Continues {
					t.Errorf("calls %v", a.CallIDs)
				}
				if r := mustEntry(t, s, "r2"); r.ToolName != "bash" {
					t.Errorf("r2 tool %q", r.ToolName)
				}
			},
		},
		{
			// The same message id on the main chain and a sidechain is two
			// replies.
			name: "sidechain replies are their own",
			in: jsonl(claudeReply("a", "", "m1", `{"type":"text","text":"main"}`),
				strings.Replace(claudeReply("b", "", "m1", `{"type":"text","text":"side"}`), `{"type":"assistant"`, `{"type":"assistant","isSidechain":true`, 1)),
			leaf: "a",
			check: func(t *testing.T, s *Session) {
				if mustEntry(t, s, "b").Continues || onlyText(t, "b", msg(t, s, "b").Content) != "side" {
					t.Errorf("the sidechain reply was merged")
				}
			},
		},
		{
			// A compaction without a summary message, and one whose
			// logical parent is in another file (a root, with a warning).
			name: "compactions",
			in: jsonl(user("u", "", `"go"`),
				claudeJSONL("system", "c", "", `"subtype":"compact_boundary","logicalParentUuid":"u","compactMetadata":{"preTokens":5}`),
				claudeJSONL("system", "d", "", `"subtype":"compact_boundary","logicalParentUuid":"elsewhere"`)),
			// A compaction whose logical parent the file does not hold
			// follows the line before it, and says so.
			roots: []string{"u"},
			diags: []wantDiag{{3, SevInfo, "parent elsewhere is not in the file; shown after line 2"}},
			check: func(t *testing.T, s *Session) {
				if c := mustEntry(t, s, "c"); c.Parent == nil || c.Parent.ID != "u" || c.Summary != "" || c.TokensBefore != 5 || c.ParentGuessed {
					t.Errorf("c %+v", c)
				}
				if d := mustEntry(t, s, "d"); d.Parent == nil || d.Parent.ID != "c" || !d.ParentGuessed {
					t.Errorf("d %+v", d)
				}
			},
		},
		{
			name: "odd members cost no line",
			in: jsonl(`{"type":"user","uuid":7,"parentUuid":[1],"message":"text","timestamp":5}`,
				`{"type":"assistant","uuid":"a","message":{"id":3,"content":"not blocks","usage":"many"}}`,
				`{"type":"user","uuid":"b","parentUuid":"a","message":{"content":[1,"x",{"type":"tool_result"}]}}`,
				`{"type":"system","uuid":"c","content":{"x":1},"subtype":["y"]}`),
			ids:  []string{"L1", "a", "b", "c"},
			leaf: "b",
			check: func(t *testing.T, s *Session) {
				for _, e := range s.Entries {
					if _, err := e.Decode(); err != nil {
						t.Errorf("%s: %v", e.ID, err)
					}
				}
			},
		},
		{
			name: "broken lines",
			in:   jsonlNoEOL(user("u", "", `"go"`), `{"type":"user",`, `[1]`, user("v", "u", `"again"`), `{"type":"assi`),
			ids:  []string{"u", "v"},
			diags: []wantDiag{{2, SevError, "line skipped: malformed JSON"}, {3, SevError, "not a JSON object"},
				{5, SevError, "truncated last line skipped"}},
		},
	})
}

// TestClaudeStream: a transcript pretty-printed (a stream of objects, as
// jq writes it) reads as the same session, each entry on the line its
// object starts on.
func TestClaudeStream(t *testing.T) {
	in := fixture(t, "claude", "compaction.jsonl")
	want, err := Load(in, "c.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var pretty []byte
	for _, l := range strings.Split(strings.TrimSpace(string(in)), "\n") {
		pretty = append(append(pretty, prettyLine(t, l)...), '\n')
	}
	runLoadCases(t, []loadCase{{
		name: "pretty", in: pretty, format: FormatClaude,
		ids: ids(want.Entries), leaf: "a4", path: ids(want.Path(want.Leaf)),
		check: func(t *testing.T, s *Session) {
			if s.Entries[1].Line <= s.Entries[0].Line+1 || s.Name != want.Name || s.Entries[6].Summary != want.Entries[6].Summary {
				t.Errorf("lines %d, %d", s.Entries[0].Line, s.Entries[1].Line)
			}
		},
	}})
}

// prettyLine indents one JSON line over several.
func prettyLine(t *testing.T, l string) []byte {
	t.Helper()
	return pretty(t, []byte(l))
}

// TestUntag: a command's output keeps its lines' indentation, and empty
// tags are an empty output, not the tags shown as text.
func TestUntag(t *testing.T) {
	tags := []string{"local-command-stdout", "bash-stdout", "bash-stderr"}
	for _, c := range []struct {
		in, want string
		found    bool
	}{
		{"<bash-stdout>  a\n    b\n</bash-stdout><bash-stderr></bash-stderr>", "  a\n    b", true},
		{"<local-command-stdout></local-command-stdout>", "", true},
		{"<bash-stdout>out</bash-stdout><bash-stderr>err</bash-stderr>", "out\nerr", true},
		{"plain text", "plain text", false},
	} {
		got, found := untag(c.in, tags...)
		if got != c.want || found != c.found {
			t.Errorf("untag(%q) = %q, %v; want %q, %v", c.in, got, found, c.want, c.found)
		}
	}
}

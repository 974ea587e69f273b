package sessiontree

import (
	"testing"
)

// multiResults is a reply with three calls answered by one user line with
// three tool_result blocks (the second an error), and a text block after
// them.
func multiResults() []byte {
	user := func(uuid, parent, content string, extra ...string) string {
		x := `"message":{"role":"user","content":` + content + `}`
		for _, e := range extra {
			x += "," + e
		}
		return claudeJSONL("user", uuid, parent, x)
	}
	return jsonl(user("u", "", `"go"`),
		claudeReply("a", "u", "m1", `{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"/a"}},`+
			`{"type":"tool_use","id":"t2","name":"Bash","input":{"command":"false"}},`+
			`{"type":"tool_use","id":"t3","name":"Grep","input":{"pattern":"x"}}`),
		user("r", "a", `[{"type":"tool_result","tool_use_id":"t1","content":"     1→A"},`+
			`{"type":"tool_result","tool_use_id":"t2","content":"exit 1","is_error":true},`+
			`{"type":"tool_result","tool_use_id":"t3","content":[{"type":"text","text":"x.go"}]},`+
			`{"type":"text","text":"and a note"}]`,
			`"toolUseResult":{"type":"text","file":{"filePath":"/a","content":"A"}}`),
		claudeReply("b", "r", "m2", `{"type":"text","text":"done"}`))
}

// TestClaudeSeveralResults: a user line with several tool_result blocks
// answers each call (Entry.Answered), and its message holds each call's
// result apart (Message.ResultFor), while Content holds them all.
func TestClaudeSeveralResults(t *testing.T) {
	s := mustLoad(t, multiResults())
	r := mustEntry(t, s, "r")
	if n := r.Answered(); n != 3 || r.AnsweredID(0) != "t1" || r.AnsweredID(1) != "t2" || r.AnsweredID(2) != "t3" {
		t.Fatalf("answered %d %q", n, r.ToolCallID)
	}
	if r.ToolName != "read" {
		t.Errorf("tool %q", r.ToolName)
	}
	m := msg(t, s, "r")
	if len(m.Results) != 3 || len(m.Content) != 4 {
		t.Fatalf("results %d content %v", len(m.Results), blockTypes(m.Content))
	}
	for _, c := range []struct {
		id, text string
		isErr    bool
		tool     string
	}{
		{"t1", "A", false, "read"}, // the file's text from toolUseResult, without line numbers
		{"t2", "exit 1", true, ""},
		{"t3", "x.go", false, ""},
	} {
		one := m.ResultFor(c.id)
		if one == nil {
			t.Fatalf("%s: no result", c.id)
		}
		if onlyText(t, c.id, one.Content) != c.text || one.IsError != c.isErr || one.ToolCallID != c.id ||
			one.ToolName != c.tool || one.Results != nil {
			t.Errorf("%s: %+v", c.id, one)
		}
	}
	if m.ResultFor("t9") != nil {
		t.Error("a call the line does not answer has a result")
	}
	if one := msg(t, s, "a"); one.ResultFor("x") != one {
		t.Error("a message with no results apart is its own result")
	}
	// A line with one result answers one call.
	if u := mustEntry(t, s, "u"); u.Answered() != 0 {
		t.Errorf("user answers %d", u.Answered())
	}
}

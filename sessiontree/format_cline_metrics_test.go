package sessiontree

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Cline 3.x writes each reply's tokens into the task's history too
// (metrics.tokens: prompt, completion, cached): without ui_messages.json
// they are the reply's usage, priced from package pricing; with it, the
// request's record there is the usage, never added to the metrics.
func TestClineExtensionMetrics(t *testing.T) {
	history := `[{"role":"user","content":[{"type":"text","text":"<task>\nread the code\n</task>"}]},
{"role":"assistant","content":[{"type":"text","text":"Reading."},{"type":"tool_use","id":"t1","name":"read_file","input":{"path":"a.cs"}}],
 "modelInfo":{"modelId":"claude-sonnet-4-5-20250929","providerId":"anthropic","mode":"act"},"metrics":{"tokens":{"prompt":10,"completion":595,"cached":9573}}},
{"role":"user","content":[{"type":"text","text":"[read_file for 'a.cs'] Result:\nclass A {}"}]},
{"role":"assistant","content":[{"type":"text","text":"Done."}],
 "modelInfo":{"modelId":"claude-sonnet-4-5-20250929","providerId":"anthropic","mode":"act"},"metrics":{"tokens":{"prompt":12,"completion":100,"cached":9600}}}]`
	dir := filepath.Join(t.TempDir(), "tasks", "1769053680585")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "api_conversation_history.json")
	if err := os.WriteFile(path, []byte(history), 0o644); err != nil {
		t.Fatal(err)
	}
	load := func() Stats {
		t.Helper()
		s, err := LoadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		return s.Stats(s.Entries)
	}
	st := load()
	if st.Usage.Input != 22 || st.Usage.Output != 695 || st.Usage.CacheRead != 19173 || st.EstimatedCost <= 0 {
		t.Errorf("from the metrics: usage %+v, estimated %v", st.Usage, st.EstimatedCost)
	}
	ui := `[{"ts":1,"type":"say","say":"api_req_started","text":"{\"tokensIn\":10,\"tokensOut\":595,\"cacheWrites\":200,\"cacheReads\":9573,\"cost\":0.02}"},
{"ts":2,"type":"say","say":"api_req_started","text":"{\"tokensIn\":12,\"tokensOut\":100,\"cacheWrites\":0,\"cacheReads\":9600,\"cost\":0.01}"}]`
	if err := os.WriteFile(filepath.Join(dir, "ui_messages.json"), []byte(ui), 0o644); err != nil {
		t.Fatal(err)
	}
	st = load()
	if st.Usage.Input != 22 || st.Usage.Output != 695 || st.Usage.CacheWrite != 200 || st.Usage.Cost.Total < 0.0299 || st.Usage.Cost.Total > 0.0301 {
		t.Errorf("from ui_messages.json: usage %+v", st.Usage)
	}
}

// Cline sends a tool's result back as a user message of text, headed
// "[tool for 'arg'] Result:": it is a tool result (of the reply's call,
// or, when the reply wrote its tool as XML, of the tool it names), not a
// prompt; one carrying the user's <feedback> is a prompt.
func TestClineTextResults(t *testing.T) {
	history := `[{"role":"user","content":[{"type":"text","text":"<task>\nread a.cs\n</task>"}]},
{"role":"assistant","content":[{"type":"text","text":"Reading."},{"type":"tool_use","id":"toolu_1","name":"read_file","input":{"path":"a.cs"}}]},
{"role":"user","content":[{"type":"text","text":"[read_file for 'a.cs'] Result:\nclass A {}"},{"type":"text","text":"<environment_details>\n# Current Time\n</environment_details>"}]},
{"role":"assistant","content":[{"type":"text","text":"<execute_command>\n<command>ls</command>\n</execute_command>"}]},
{"role":"user","content":[{"type":"text","text":"[execute_command for 'ls'] Result:\nCommand executed.\nOutput:\na.cs"}]},
{"role":"assistant","content":[{"type":"text","text":"<attempt_completion>\n<result>Done.</result>\n</attempt_completion>"}]},
{"role":"user","content":[{"type":"text","text":"[attempt_completion] Result:\n\nThe user has provided feedback on the results.\n<feedback>\nalso read b.cs\n</feedback>"}]}]`
	s, err := Load([]byte(history), "api_conversation_history.json")
	if err != nil {
		t.Fatal(err)
	}
	var roles []string
	for _, e := range s.Entries {
		roles = append(roles, e.Role+":"+e.ToolName)
	}
	if got := strings.Join(roles, ","); got != "user:,assistant:,toolResult:read_file,assistant:,toolResult:execute_command,assistant:,user:" {
		t.Fatalf("roles %s", got)
	}
	if e := s.Entries[2]; e.ToolCallID != "toolu_1" {
		t.Errorf("result of %q", e.ToolCallID)
	}
	b, err := s.Entries[2].Decode()
	if err != nil || b.Message.ToolName != "read_file" || len(b.Message.Content) != 1 || b.Message.Content[0].Text != "class A {}" {
		t.Errorf("result %+v, %v", b.Message, err)
	}
	if b, err := s.Entries[6].Decode(); err != nil || b.Message.Content[0].Text != "also read b.cs" {
		t.Errorf("feedback %+v, %v", b.Message, err)
	}
}

package sessiontree

import (
	"os"
	"path/filepath"
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

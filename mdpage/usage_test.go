package mdpage

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"canopy/pricing"
	"canopy/sessiontree"
)

// TestUsageCost: the header's usage line gives a recorded cost as it is;
// Claude Code's and Codex's, which record none, estimated and said so;
// a model no price is known for named, its cost unknown, never \$0.
func TestUsageCost(t *testing.T) {
	rollout, err := os.ReadFile(filepath.Join("..", "testdata", "codex", "rollout.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	unknown := strings.ReplaceAll(string(rollout), `"model_provider":"openai"`, `"model_provider":"ollama"`)
	src := pricing.Source()
	for _, c := range []struct {
		name, file, data string
		want             string
	}{
		{name: "claude code", file: "claude/session.jsonl",
			want: "- **Usage:** 156 input, 220 output, 39,000 cache read, 2,600 cache write tokens; cost ≈\\$0.04 (estimated from " + src + ")\n"},
		{name: "codex", file: "codex/rollout.jsonl",
			want: "- **Usage:** 3,300 input, 180 output, 9,200 cache read, 0 cache write tokens; cost ≈\\$0.0071 (estimated from " + src + ")\n"},
		{name: "recorded", file: "demo/demo.jsonl",
			want: "- **Usage:** 191 input, 4,487 output, 311,756 cache read, 19,234 cache write tokens; cost \\$0.3013\n"},
		{name: "unknown", data: unknown,
			want: "- **Usage:** 3,300 input, 180 output, 9,200 cache read, 0 cache write tokens; cost unknown; no price for `ollama/gpt-5-codex` in " + src + "\n"},
	} {
		var s *sessiontree.Session
		if c.file != "" {
			s, err = sessiontree.LoadFile(filepath.Join("..", "testdata", c.file))
		} else {
			s, err = sessiontree.Load([]byte(c.data), "rollout.jsonl")
		}
		if err != nil {
			t.Fatal(err)
		}
		md := export(t, s, Options{})
		if !strings.Contains(md, c.want) {
			i := strings.Index(md, "- **Usage:**")
			t.Errorf("%s: want %q, have %q", c.name, c.want, md[i:i+strings.Index(md[i:], "\n")+1])
		}
		if strings.Contains(md, "\\$0.0000") {
			t.Errorf("%s: a $0.0000 cost", c.name)
		}
	}
}

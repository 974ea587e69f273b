package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"canopy/pricing"
	"canopy/sessiontree"
)

// TestInspectCost: the cost of sessions that record tokens and no price
// is estimated and labelled so; an unknown model's is "—", never $0; a
// recorded cost reads as before.
func TestInspectCost(t *testing.T) {
	// A Codex rollout of a provider genai-prices does not know.
	local := filepath.Join(t.TempDir(), "local.jsonl")
	rollout, err := os.ReadFile(filepath.Join("..", "..", "testdata", "codex", "rollout.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(local, []byte(strings.ReplaceAll(string(rollout), `"model_provider":"openai"`, `"model_provider":"ollama"`)), 0o644); err != nil {
		t.Fatal(err)
	}
	src := pricing.Source()
	for _, c := range []struct {
		file      string
		text      []string // lines of the text report
		estimated bool
		unpriced  []sessiontree.Model
	}{
		{"../../testdata/claude/session.jsonl", []string{"cost ≈$0.0420 estimated from " + src + "\n"}, true, nil},
		{"../../testdata/codex/rollout.jsonl", []string{"cost ≈$0.0071 estimated from " + src + "\n"}, true, nil},
		{"../../testdata/claude/old-1.0.jsonl", []string{"cache write 0; cost $0.0143\n"}, false, nil},
		{"../../testdata/demo/demo.jsonl", []string{"cost $0.3527\n"}, false, nil},
		{local, []string{"cost — (unknown)\n", "no price for: ollama/gpt-5-codex (not in " + src + "; their tokens are not in the cost)\n"},
			false, []sessiontree.Model{{Provider: "ollama", ModelID: "gpt-5-codex"}}},
	} {
		code, out, errs := canopy(t, nil, "inspect", c.file)
		if code != exitOK {
			t.Fatalf("inspect %s: exit %d: %s", c.file, code, errs)
		}
		for _, want := range c.text {
			if !strings.Contains(out, want) {
				t.Errorf("inspect %s: no %q in\n%s", c.file, want, out)
			}
		}
		if strings.Contains(out, "$0.0000") {
			t.Errorf("inspect %s: a $0.0000 cost:\n%s", c.file, out)
		}
		r, _ := inspectJSON(t, c.file)
		tree := r.Stats.Tree
		if tree.CostEstimated != c.estimated || (tree.EstimatedCost > 0) != c.estimated {
			t.Errorf("inspect --json %s: costEstimated %v, estimatedCost %v", c.file, tree.CostEstimated, tree.EstimatedCost)
		}
		if want := c.unpriced; !reflect.DeepEqual(tree.UnpricedModels, append([]sessiontree.Model{}, want...)) {
			t.Errorf("inspect --json %s: unpricedModels %v, want %v", c.file, tree.UnpricedModels, want)
		}
	}
}

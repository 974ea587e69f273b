package archive

import (
	"path/filepath"
	"testing"

	"canopy/pricing"
	"canopy/sessiontree"
)

func TestSessionCost(t *testing.T) {
	src := pricing.Source()
	for _, c := range []struct {
		name                     string
		s                        Session
		cell, title, value, note string
	}{
		{"recorded", Session{Usage: sessiontree.Usage{Cost: sessiontree.UsageCost{Total: 0.3527}}}, "$0.35", "", "0.3527", ""},
		{"nothing", Session{}, "$0.00", "", "0", ""},
		{"estimated", Session{EstimatedCost: 0.04203, CostEstimated: true}, "≈$0.04", "estimated from " + src, "0.04203", ""},
		{"recorded and estimated", Session{Usage: sessiontree.Usage{Cost: sessiontree.UsageCost{Total: 0.5}}, EstimatedCost: 0.0045, CostEstimated: true},
			"≈$0.50", "$0.50 recorded, ≈$0.0045 estimated from " + src, "0.5045", ""},
		{"no tokens recorded", Session{NoTokens: true}, "—", "unknown: the session records neither tokens nor prices", "", ""},
		{"unknown", Session{UnpricedModels: []string{"ollama/llama3"}}, "—", "unknown: no price for ollama/llama3 in " + src, "", "no price for ollama/llama3 in " + src},
		{"estimated, one model unknown", Session{EstimatedCost: 0.01, CostEstimated: true, UnpricedModels: []string{"ollama/llama3"}},
			"≈$0.01", "estimated from " + src, "0.01", "no price for ollama/llama3 in " + src},
	} {
		cell, title, value, note := sessionCost(&c.s)
		if cell != c.cell || title != c.title || value != c.value || note != c.note {
			t.Errorf("%s: %q %q %q %q, want %q %q %q %q", c.name, cell, title, value, note, c.cell, c.title, c.value, c.note)
		}
	}
}

// TestCostTotals: a total says when it mixes recorded and estimated
// costs, and what it leaves out; "—" only when nothing was priced.
func TestCostTotals(t *testing.T) {
	src := pricing.Source()
	rec := Session{Usage: sessiontree.Usage{Cost: sessiontree.UsageCost{Total: 0.35}}}
	est := Session{EstimatedCost: 0.05, CostEstimated: true}
	unk := Session{UnpricedModels: []string{"ollama/llama3"}}
	for _, c := range []struct {
		name        string
		ss          []Session
		total, note string
	}{
		{"recorded", []Session{rec, rec}, "$0.70", ""},
		{"estimated", []Session{est, est}, "≈$0.10", "estimated from " + src},
		{"mixed", []Session{rec, est}, "≈$0.40", "$0.35 recorded, ≈$0.05 estimated from " + src},
		{"unknown only", []Session{unk}, "—", "1 session with models it has no price for, not counted"},
		{"mixed and unknown", []Session{rec, est, unk, unk}, "≈$0.40",
			"$0.35 recorded, ≈$0.05 estimated from " + src + "; 2 sessions with models it has no price for, not counted"},
		{"recorded and unknown", []Session{rec, unk}, "$0.35", "1 session with models it has no price for, not counted"},
	} {
		var tot totals
		for i := range c.ss {
			tot.add(&c.ss[i], false)
		}
		tot.format()
		if tot.Cost != c.total || tot.CostNote != c.note {
			t.Errorf("%s: %q (%q), want %q (%q)", c.name, tot.Cost, tot.CostNote, c.total, c.note)
		}
	}
}

// TestSummarizeCost: the manifest keeps a Claude Code session's estimate
// (calcPrice's figure for its messages) apart from its recorded cost.
func TestSummarizeCost(t *testing.T) {
	s, err := sessiontree.LoadFile(filepath.Join("..", "testdata", "claude", "session.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	sum := summarize(s, Source{Path: s.File})
	if !sum.CostEstimated || sum.Usage.Cost.Total != 0 || sum.EstimatedCost < 0.04203-1e-12 || sum.EstimatedCost > 0.04203+1e-12 || len(sum.UnpricedModels) != 0 {
		t.Errorf("summary: recorded %v, estimated %v (%v), unpriced %v; want calcPrice's $0.04203", sum.Usage.Cost.Total, sum.EstimatedCost, sum.CostEstimated, sum.UnpricedModels)
	}
}

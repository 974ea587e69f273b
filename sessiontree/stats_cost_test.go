package sessiontree

import (
	"math"
	"path/filepath"
	"reflect"
	"testing"
)

// TestEstimatedCost: Claude Code and Codex sessions record tokens and no
// cost; their cost is estimated, per message, at genai-prices' prices.
// The figures are calcPrice's (genai-prices 0.1.8) for each session's
// assistant messages, summed.
func TestEstimatedCost(t *testing.T) {
	for _, c := range []struct {
		file      string
		estimated float64 // calcPrice's
		recorded  float64
	}{
		{"claude/session.jsonl", 0.04203, 0}, // and a <synthetic> API error, not billed
		{"claude/compaction.jsonl", 0.000576, 0},
		{"claude/sidechains.jsonl", 0.000345, 0},
		{"claude/agent-a1b2c3.jsonl", 0.00009, 0},
		{"codex/rollout.jsonl", 0.007075, 0},
		{"codex/events-only.jsonl", 0.001425, 0},
		// Claude Code 1.0 recorded costUSD: kept, nothing estimated.
		{"claude/old-1.0.jsonl", 0, 0.0143},
		// pi records cost: never estimated.
		{"demo/demo.jsonl", 0, -1},
	} {
		s, err := LoadFile(filepath.Join("..", "testdata", c.file))
		if err != nil {
			t.Fatal(err)
		}
		st := s.Stats(s.Entries)
		if math.Abs(st.EstimatedCost-c.estimated) > 1e-9*c.estimated || st.CostEstimated != (c.estimated > 0) {
			t.Errorf("%s: estimated $%.9g (%v), want calcPrice's $%.9g", c.file, st.EstimatedCost, st.CostEstimated, c.estimated)
		}
		if c.recorded >= 0 && math.Abs(st.Usage.Cost.Total-c.recorded) > 1e-12 {
			t.Errorf("%s: recorded $%v, want $%v", c.file, st.Usage.Cost.Total, c.recorded)
		}
		if len(st.UnpricedModels) != 0 {
			t.Errorf("%s: unpriced %v", c.file, st.UnpricedModels)
		}
		cost := st.Cost()
		if cost.Unknown || cost.Estimated != (c.estimated > 0) || cost.USD <= 0 && c.file != "demo/demo.jsonl" {
			t.Errorf("%s: Cost() = %+v", c.file, cost)
		}
	}
}

// TestEstimatedCostRules: which messages are estimated, and a model the
// table does not know.
func TestEstimatedCostRules(t *testing.T) {
	claude := func(uuid, parent, model, cost, usage string) string {
		return `{"type":"assistant","uuid":"` + uuid + `","parentUuid":` + parent + `,"sessionId":"s","timestamp":"2026-01-01T00:00:00Z",` + cost +
			`"message":{"id":"m` + uuid + `","role":"assistant","model":"` + model + `","content":[{"type":"text","text":"hi"}],"usage":` + usage + `}}`
	}
	const tok = `{"input_tokens":1000,"output_tokens":100,"cache_read_input_tokens":0,"cache_creation_input_tokens":0}`
	const none = `{"input_tokens":0,"output_tokens":0}`
	for _, c := range []struct {
		name  string
		lines []string
		want  Cost
	}{
		// sonnet 4.5: 1000 in at $3, 100 out at $15 per million
		{"known", []string{claude("a", "null", "claude-sonnet-4-5-20250929", "", tok)}, Cost{USD: 0.0045, Estimated: true}},
		{"unknown", []string{claude("a", "null", "claude-nonesuch-9", "", tok)}, Cost{Unknown: true, Unpriced: []Model{{"anthropic", "claude-nonesuch-9"}}}},
		{"known and unknown", []string{claude("a", "null", "claude-sonnet-4-5-20250929", "", tok), claude("b", `"a"`, "claude-nonesuch-9", "", tok)},
			Cost{USD: 0.0045, Estimated: true, Unpriced: []Model{{"anthropic", "claude-nonesuch-9"}}}},
		{"recorded and estimated", []string{claude("a", "null", "claude-sonnet-4-5-20250929", `"costUSD":0.5,`, tok), claude("b", `"a"`, "claude-sonnet-4-5-20250929", "", tok)},
			Cost{USD: 0.5045, Estimated: true}},
		{"synthetic: not billed", []string{claude("a", "null", "<synthetic>", "", tok)}, Cost{}},
		{"no tokens: nothing to price", []string{claude("a", "null", "claude-nonesuch-9", "", none)}, Cost{}},
		// No usage recorded at all (a Codex rollout without token counts):
		// the cost is unknown, never $0.
		{"no usage recorded: unknown", []string{`{"type":"assistant","uuid":"a","parentUuid":null,"sessionId":"s","timestamp":"2026-01-01T00:00:00Z",` +
			`"message":{"id":"ma","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[{"type":"text","text":"hi"}]}}`}, Cost{Unknown: true}},
		// 10,000 cache writes, 4,000 of them to the one-hour cache: 6,000
		// at $3.75 and 4,000 at twice the input price, $6 a million.
		{"one-hour cache writes", []string{claude("a", "null", "claude-sonnet-4-5-20250929", "",
			`{"input_tokens":0,"output_tokens":0,"cache_creation_input_tokens":10000,"cache_creation":{"ephemeral_5m_input_tokens":6000,"ephemeral_1h_input_tokens":4000}}`)},
			Cost{USD: 6000*3.75/1e6 + 4000*6/1e6, Estimated: true}},
	} {
		s, err := Load(jsonl(c.lines...), "s.jsonl")
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if s.Format != FormatClaude {
			t.Fatalf("%s: format %s", c.name, s.Format)
		}
		st := s.Stats(s.Entries)
		got := st.Cost()
		if len(got.Unpriced) == 0 {
			got.Unpriced = nil
		}
		if math.Abs(got.USD-c.want.USD) > 1e-12 {
			t.Errorf("%s: $%v, want $%v", c.name, got.USD, c.want.USD)
		}
		got.USD = c.want.USD
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}

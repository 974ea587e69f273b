package pricing

import (
	"math"
	"testing"
	"time"
)

func TestDashDates(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"gpt-4o-20240806", "gpt-4o-2024-08-06"},
		{"claude-3-5-sonnet-20241022-v2:0", "claude-3-5-sonnet-2024-10-22-v2:0"},
		{"a-20240806:b-20251231", "a-2024-08-06:b-2025-12-31"},
		{"gpt-4o-20240230", "gpt-4o-20240230"},   // no 30 February
		{"gpt-4o-20241306", "gpt-4o-20241306"},   // no month 13
		{"gpt-4o-202408061", "gpt-4o-202408061"}, // nine digits
		{"gpt-4o-19990806", "gpt-4o-19990806"},   // 20xx only
		{"gpt-4o-20240806x", "gpt-4o-20240806x"},
		{"gpt-4o", "gpt-4o"},
		{"-2024080", "-2024080"},
	} {
		if got := dashDates(c.in); got != c.want {
			t.Errorf("dashDates(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestCost: the rules a session's odd numbers meet, beside calcPrice's.
func TestCost(t *testing.T) {
	sonnet, ok := Lookup("anthropic", "claude-sonnet-4-5-20250929")
	if !ok {
		t.Fatal("claude-sonnet-4-5 not in the table")
	}
	day := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name string
		u    Usage
		at   time.Time
		want float64
	}{
		{"per million", Usage{Input: 100_000}, day, 0.3},
		{"output", Usage{Output: 1e6}, day, 15},
		{"cache read and write", Usage{CacheRead: 100_000, CacheWrite: 100_000}, day, 0.03 + 0.375},
		// Past 200,000 input tokens (cache included) every kind costs its
		// tier's price.
		{"tier", Usage{Input: 100_000, CacheRead: 100_001, Output: 1000}, day, 0.6 + 100_001*0.6/1e6 + 0.0225},
		{"at the tier's start", Usage{Input: 200_000}, day, 0.6},
		{"negative counts as zero", Usage{Input: -5, Output: 1e6}, day, 15},
		{"NaN counts as zero", Usage{Input: math.NaN(), Output: 1e6}, day, 15},
		{"zero time: the table's date", Usage{Input: 100_000}, time.Time{}, 0.3},
		{"nothing", Usage{}, day, 0},
		// Anthropic's one-hour cache writes cost twice the input price
		// ($6 a million for sonnet), the five-minute ones $3.75.
		{"one-hour cache write", Usage{CacheWrite: 100_000, CacheWrite1h: 100_000}, day, 0.6},
		{"both cache writes", Usage{CacheWrite: 100_000, CacheWrite1h: 40_000}, day, 60_000*3.75/1e6 + 40_000*6/1e6},
		{"one-hour part larger than the writes", Usage{CacheWrite: 10_000, CacheWrite1h: 50_000}, day, 0.06},
	} {
		if got := sonnet.Cost(c.u, c.at); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

func TestLookupUnknown(t *testing.T) {
	for _, c := range []struct{ provider, model string }{
		{"anthropic", "<synthetic>"},
		{"anthropic", ""},
		{"ollama", "claude-sonnet-4-5"}, // a provider it does not know: not guessed
		{"", "no-such-model"},
	} {
		if m, ok := Lookup(c.provider, c.model); ok {
			t.Errorf("Lookup(%q, %q) = %s, want none", c.provider, c.model, m.ID())
		}
		if cost, ok := Estimate(c.provider, c.model, Usage{Input: 1000}, time.Time{}); ok || cost != 0 {
			t.Errorf("Estimate(%q, %q) = %v, %v, want 0, false", c.provider, c.model, cost, ok)
		}
	}
}

func TestApprox(t *testing.T) {
	for _, c := range []struct {
		usd  float64
		want string
	}{
		{1.234, "≈$1.23"}, {0.0042, "≈$0.0042"}, {0.01, "≈$0.01"}, {0, "≈$0.00"}, {1234.5, "≈$1234.50"},
	} {
		if got := Approx(c.usd); got != c.want {
			t.Errorf("Approx(%v) = %q, want %q", c.usd, got, c.want)
		}
	}
}

func TestSource(t *testing.T) {
	if got, want := Source(), "genai-prices "+Version+" ("+DataDate+")"; got != want || Version == "" || len(DataDate) != 10 || len(DataSHA256) != 64 {
		t.Errorf("Source() = %q; version %q, date %q, sha %q", got, Version, DataDate, DataSHA256)
	}
}

// A session prices each model once and each message with Cost.
func BenchmarkCost(b *testing.B) {
	m, _ := Lookup("anthropic", "claude-opus-4-6")
	u := Usage{Input: 1200, Output: 500, CacheRead: 250_000, CacheWrite: 3000}
	at := time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)
	for b.Loop() {
		m.Cost(u, at)
	}
}

func BenchmarkLookup(b *testing.B) {
	for b.Loop() {
		Lookup("openai", "gpt-5-codex")
	}
}

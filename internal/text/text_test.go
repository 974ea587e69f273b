package text

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

func TestThousands(t *testing.T) {
	cases := []struct {
		f    float64
		want string
	}{
		{0, "0"}, {7, "7"}, {999, "999"}, {1000, "1,000"}, {1234567, "1,234,567"},
		{-1234.5, "-1,234"}, {0.5, "0"}, {1.5, "2"}, {-999, "-999"}, {1e21, "1,000,000,000,000,000,000,000"},
	}
	for _, c := range cases {
		if got := Thousands(c.f); got != c.want {
			t.Errorf("Thousands(%v) = %q, want %q", c.f, got, c.want)
		}
	}
	// And as fmt's %.0f, with commas, for many values.
	rng := rand.New(rand.NewPCG(5, 6))
	for range 10000 {
		f := (rng.Float64() - 0.5) * math.Pow(10, float64(rng.IntN(16)))
		if got, want := Thousands(f), fmtCommas(f); got != want {
			t.Fatalf("Thousands(%v) = %q, want %q", f, got, want)
		}
	}
}

// fmtCommas is what Thousands stands for: fmt's %.0f, with commas.
func fmtCommas(f float64) string {
	s := fmt.Sprintf("%.0f", f)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// TestThousandsWhole: whole numbers (token counts) take a path of their
// own; they, and the values at its edges, read as %.0f with commas does.
func TestThousandsWhole(t *testing.T) {
	vals := []float64{0, math.Copysign(0, -1), 1, -1, 1 << 53, -(1 << 53), 1<<53 - 1, 1<<53 + 2, 1e15, 1e16, 1e22,
		math.MaxFloat64, -math.MaxFloat64, math.Inf(1), math.Inf(-1), math.NaN(), 0.49999999999999994, 2.5, -2.5}
	rng := rand.New(rand.NewPCG(7, 8))
	for range 10000 {
		vals = append(vals, float64(rng.Int64N(1<<rng.IntN(62)+1)-rng.Int64N(1000)))
	}
	for _, f := range vals {
		if got, want := Thousands(f), fmtCommas(f); got != want {
			t.Errorf("Thousands(%v) = %q, want %q", f, got, want)
		}
	}
}

func TestCount(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "0 entries"}, {1, "1 entry"}, {2, "2 entries"}, {2048, "2,048 entries"}} {
		if got := Count(c.n, "entry", "entries"); got != c.want {
			t.Errorf("Count(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

func TestWording(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{Or("", "x"), "x"}, {Or("a", "x"), "a"},
		{Prefixed("- ", ""), ""}, {Prefixed("- ", "a"), "- a"},
		{OneLine("a\nb\tc\rd  e"), "a b c d  e"},
		{Clip("  a \n b  ", 10), "a b"}, {Clip("abcdef", 4), "abc…"}, {Clip("ab  cdef", 4), "ab…"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

func TestSpent(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0: "0s", 52*time.Second + 900*time.Millisecond: "52s", 14*time.Minute + 59*time.Second: "14 min",
		2*time.Hour + 5*time.Minute + 30*time.Second: "2 h 05 min", 27 * time.Hour: "27 h 00 min",
	} {
		if got := Spent(d); got != want {
			t.Errorf("Spent(%v) = %q, want %q", d, got, want)
		}
	}
}

package redact

import (
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
)

// acCall is one call of an acMatcher's hit function.
type acCall struct {
	kw    int32
	start int
}

// naiveAC finds every occurrence of every keyword in s, ASCII
// case-insensitively: what the automaton must find.
func naiveAC(kws []string, s string) []acCall {
	low := strings.ToLower(s) // ASCII letters only change: same offsets for ASCII input
	var out []acCall
	for id, kw := range kws {
		kw = strings.ToLower(kw)
		for i := 0; i+len(kw) <= len(low); i++ {
			if low[i:i+len(kw)] == kw {
				out = append(out, acCall{int32(id), i})
			}
		}
	}
	return out
}

// TestACMatchesNaive: the keyword automatons of the rules and of the
// assignments report every keyword occurrence once, short strings and
// long (cut into four interleaved walks), at the cuts too.
func TestACMatchesNaive(t *testing.T) {
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	kws, _ := keywordTable(r.rules, func(ru rule) []string { return ru.keywords })
	akws, _ := keywordTable(r.assigns, func(ar assignRule) []string { return ar.keywords })
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name string
		m    *acMatcher
		kws  []string
	}{{"rules", r.ac, kws}, {"assignments", r.keyAC, akws}} {
		t.Run(tc.name, func(t *testing.T) {
			for n := range 400 {
				// Keywords, upper- and lower-cased, with bits of
				// keywords and other bytes between them.
				var b strings.Builder
				for b.Len() < n*3 {
					kw := tc.kws[rng.IntN(len(tc.kws))]
					switch rng.IntN(4) {
					case 0:
						kw = strings.ToUpper(kw)
					case 1:
						kw = kw[:rng.IntN(len(kw)+1)]
					}
					b.WriteString(kw)
					for range rng.IntN(3) {
						b.WriteByte(" _-=:\"x0\n"[rng.IntN(9)])
					}
				}
				s := b.String()
				var got []acCall
				tc.m.scan(s, func(kw int32, start int) { got = append(got, acCall{kw, start}) })
				want := naiveAC(tc.kws, s)
				cmp := func(a, b acCall) int {
					if a.start != b.start {
						return a.start - b.start
					}
					return int(a.kw - b.kw)
				}
				slices.SortFunc(got, cmp)
				slices.SortFunc(want, cmp)
				if !slices.Equal(got, want) {
					t.Fatalf("%q: %d calls, want %d", s, len(got), len(want))
				}
			}
		})
	}
}

// BenchmarkACScan: the rules' automaton over the file named by
// CANOPY_BENCH_FILE, else the generated benchmark session, as one string.
func BenchmarkACScan(b *testing.B) {
	var data []byte
	if path := os.Getenv("CANOPY_BENCH_FILE"); path != "" {
		var err error
		if data, err = os.ReadFile(path); err != nil {
			b.Fatal(err)
		}
	} else {
		data = benchSession(b)
	}
	r, err := New()
	if err != nil {
		b.Fatal(err)
	}
	s := string(data)
	b.SetBytes(int64(len(s)))
	n := 0
	for b.Loop() {
		r.ac.scan(s, func(int32, int) { n++ })
	}
}

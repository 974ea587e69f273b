package sessiontree

import (
	"math/rand"
	"testing"
)

// TestAgentMutations loads the agents' test sessions damaged at random
// (deterministically: a fixed seed), as the fuzz tests do but fast
// enough for every run: no panic, every session read holds what a
// session must, every entry decodes, a cut is written.
func TestAgentMutations(t *testing.T) {
	seeds := [][]byte{}
	for _, c := range agentCases {
		seeds = append(seeds, agentFixture(t, c.file))
	}
	r := rand.New(rand.NewSource(1))
	toks := []string{"{", "}", "[", "]", `"`, ",", ":", "null", "7", `"x"`, "\n", "####", "> ", "```", `"role"`, `"content"`, `"type"`, `"tool_result"`, `"tool_use"`, `"messages"`}
	for i := 0; i < 3000; i++ {
		d := append([]byte(nil), seeds[r.Intn(len(seeds))]...)
		for k := r.Intn(6) + 1; k > 0 && len(d) > 0; k-- {
			p := r.Intn(len(d))
			switch r.Intn(3) {
			case 0:
				d = append(d[:p], d[min(len(d), p+r.Intn(20)):]...)
			case 1:
				tok := toks[r.Intn(len(toks))]
				d = append(d[:p], append([]byte(tok), d[p:]...)...)
			case 2:
				d[p] = byte(r.Intn(256))
			}
		}
		func() {
			defer func() {
				if e := recover(); e != nil {
					t.Fatalf("panic %v on %q", e, d)
				}
			}()
			s, err := Load(d, "m.json")
			if err != nil {
				return
			}
			checkInvariants(t, s)
			for _, e := range s.Entries {
				if _, err := e.Decode(); err != nil && s.Format != FormatFlue {
					t.Errorf("%s entry %s: %v on %q", s.Format, e.ID, err, d)
					return
				}
			}
			keep := make([]bool, len(s.Entries))
			for i := range keep {
				keep[i] = i%2 == 0
			}
			var c CutCounts
			s.Cut().Write(keep, s.Leaf, CutOptions{NoThinking: true, NoToolOutput: true}, &c)
		}()
	}
}

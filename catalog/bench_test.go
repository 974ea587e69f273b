package catalog

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// makeStore writes n sessions into the agents' stores below home: half
// Claude Code, 30% Codex, 20% pi, in 40 projects, most of a few to tens
// of KB, a quarter of hundreds of KB, one in 25 of 1 to 3 MB; one Claude
// session in ten renamed at its end.
func makeStore(tb testing.TB, home string, n int) {
	rng := rand.New(rand.NewPCG(1, 2))
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		id := fmt.Sprintf("%08x-%04x-4%03x-8%03x-%012x", rng.Uint32(), i, i%4096, i%4096, rng.Uint64()&(1<<48-1))
		when := t0.Add(time.Duration(i) * 7 * time.Minute)
		ts := when.Format("2006-01-02T15:04:05.000Z")
		cwd := fmt.Sprintf("/home/me/src/project-%02d", i%40)
		prompt := fmt.Sprintf("Session %d: fix the failing test in pkg/%d and explain why it failed", i, i%40)
		size := 4<<10 + rng.IntN(36<<10)
		switch r := rng.IntN(100); {
		case r < 4:
			size = 1<<20 + rng.IntN(2<<20)
		case r < 29:
			size = 40<<10 + rng.IntN(360<<10)
		}
		var path, body string
		switch k := i % 10; {
		case k < 5:
			path = filepath.Join(home, ".claude/projects", fmt.Sprintf("-home-me-src-project-%02d", i%40), id+".jsonl")
			body = claudeSession(id, cwd, prompt, ts, size)
			if i%20 == 0 {
				body += fmt.Sprintf(`{"type":"custom-title","customTitle":"Renamed %d","sessionId":%q}`+"\n", i, id)
			}
		case k < 8:
			path = filepath.Join(home, ".codex/sessions", when.Format("2006/01/02"), "rollout-"+when.Format("2006-01-02T15-04-05")+"-"+id+".jsonl")
			body = codexSession(id, cwd, prompt, ts, size)
		default:
			path = filepath.Join(home, ".pi/agent/sessions", fmt.Sprintf("--home-me-src-project-%02d--", i%40), when.Format("2006-01-02T15-04-05-000Z")+"_"+id+".jsonl")
			body = piSession(id, cwd, prompt, ts, size)
		}
		write(tb, path, body, when)
	}
}

// BenchmarkList5000 lists a home of 5,000 sessions (about 600 MB). Set
// CANOPY_LIST_STORE=DIR to write the home there, and keep it, to time the
// command on it: HOME=DIR canopy list.
func BenchmarkList5000(b *testing.B) {
	home := os.Getenv("CANOPY_LIST_STORE")
	if home == "" {
		home = b.TempDir()
	}
	if _, err := os.Stat(filepath.Join(home, ".claude")); err != nil {
		makeStore(b, home, 5000)
	}
	var n int
	for b.Loop() {
		got, problems := List([]string{home}, 0)
		if len(problems) > 0 {
			b.Fatal(problems)
		}
		n = len(got)
	}
	if n != 5000 {
		b.Fatalf("listed %d sessions, want 5000", n)
	}
}

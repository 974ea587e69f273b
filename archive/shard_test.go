package archive

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"canopy/internal/sessiongen"
)

// shardRun archives srcs as n shards into out-0 … out-(n-1), then merges
// them (in the order given) into out; it returns the pages each shard
// rendered.
func shardRun(t *testing.T, srcs []string, out string, n int, order []int) [][]string {
	t.Helper()
	rendered := make([][]string, n)
	dirs := make([]string, n)
	for i := range n {
		dirs[i] = fmt.Sprintf("%s-%d", out, i)
		run(t, srcs, dirs[i], Options{Shard: i, Shards: n})
		for _, p := range manifest(t, dirs[i]).Pages {
			if !ownPage(p.Path) && !inSearch(p.Path) {
				rendered[i] = append(rendered[i], p.Path)
			}
		}
	}
	given := make([]string, n)
	for k, i := range order {
		given[k] = dirs[i]
	}
	if _, err := Merge(context.Background(), given, out, "test"); err != nil {
		t.Fatalf("Merge: %v", err)
	}
	return rendered
}

// sameBytes fails unless the directories a and b hold the same files,
// byte for byte.
func sameBytes(t *testing.T, a, b string) {
	t.Helper()
	ta, tb := tree(t, a), tree(t, b)
	if len(ta) != len(tb) {
		t.Errorf("%s has %d files, %s %d", a, len(ta), b, len(tb))
	}
	for name, data := range ta {
		if !bytes.Equal(data, tb[name]) {
			t.Errorf("%s differs between %s and %s", name, a, b)
		}
	}
}

func TestThreeShardsMergeToOneArchive(t *testing.T) {
	srcs, _ := fixtures(t)
	realStore(t, "src/store")
	srcs = append(srcs, "src/store")
	single := run(t, srcs, "single", Options{})
	rendered := shardRun(t, srcs, "merged", 3, []int{2, 0, 1})
	sameBytes(t, "single", "merged")

	var all []string
	for i, r := range rendered {
		if len(r) == 0 {
			t.Errorf("shard %d rendered no page", i)
		}
		all = append(all, r...)
	}
	slices.Sort(all)
	if len(all) != single.Sessions || len(slices.Compact(slices.Clone(all))) != len(all) {
		t.Errorf("the shards rendered %d pages (%v), the single run %d sessions: every page once", len(all), all, single.Sessions)
	}
	if findings, ok, err := Verify("merged"); err != nil || !ok {
		t.Errorf("Verify: ok %v, err %v, %v", ok, err, findings)
	}

	// A shard run again with nothing changed renders nothing and loads
	// no session; a merge again writes nothing.
	if res := run(t, srcs, "merged-1", Options{Shard: 1, Shards: 3}); res.Rendered != 0 || res.Kept != len(rendered[1]) {
		t.Errorf("shard 1 again: %d rendered, %d kept; want 0 and %d", res.Rendered, res.Kept, len(rendered[1]))
	}
	before, _ := os.Stat("merged/" + ManifestName)
	res, err := Merge(context.Background(), []string{"merged-0", "merged-1", "merged-2"}, "merged", "test")
	if err != nil {
		t.Fatal(err)
	}
	after, _ := os.Stat("merged/" + ManifestName)
	if res.Rendered != 0 || !os.SameFile(before, after) || !after.ModTime().Equal(before.ModTime()) {
		t.Errorf("a merge with nothing changed rewrote the archive: %+v", res)
	}

	// A change in one source: a merge after the shards run again takes
	// the new pages, keeps the others, and is still the single run's.
	appendTo(t, "src/store/agents/main/sessions/cron1.jsonl", `{"type":"session_info","id":"n1","parentId":"a1","timestamp":"2026-05-06T03:00:00Z","name":"Renamed"}`+"\n")
	run(t, srcs, "single", Options{})
	shardRun(t, srcs, "merged", 3, []int{0, 1, 2})
	sameBytes(t, "single", "merged")
}

func TestMergeRefusesWhatIsNotOneRun(t *testing.T) {
	srcs, _ := fixtures(t)
	for i := range 3 {
		run(t, srcs, fmt.Sprintf("s-%d", i), Options{Shard: i, Shards: 3})
	}
	run(t, srcs, "whole", Options{})
	run(t, srcs[:1], "other-1", Options{Shard: 1, Shards: 3})
	for _, c := range []struct {
		shards []string
		want   string
	}{
		{[]string{"s-0", "s-1"}, "merge every shard of the run"},
		{[]string{"s-0", "s-1", "s-1"}, "given twice"},
		{[]string{"s-0", "s-1", "whole"}, "made without --shard"},
		{[]string{"s-0", "other-1", "s-2"}, "different sources"},
		{[]string{"s-0", "s-1", "nowhere"}, "no manifest.json"},
	} {
		_, err := Merge(context.Background(), c.shards, "out", "test")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Merge(%v): %v; want %q", c.shards, err, c.want)
		}
		if _, serr := os.Stat("out"); serr == nil {
			t.Errorf("Merge(%v) failed but made out", c.shards)
		}
	}
	if _, err := Merge(context.Background(), []string{"s-0", "s-1", "s-2"}, "s-1", "test"); err == nil {
		t.Error("a merge into one of its shards was not refused")
	}
}

// TestShardsMergeForAnyN: for every N, the shards of generated sessions
// of random sizes merge to the single run's archive, each shard renders
// a share balanced by size (no shard more than the largest session over
// another), and the merge takes the shards in any order.
func TestShardsMergeForAnyN(t *testing.T) {
	t.Chdir(t.TempDir())
	rng := rand.New(rand.NewPCG(24, 1))
	sessions := 14
	if testing.Short() {
		sessions = 8
	}
	var largest int64
	for i := range sessions {
		dir := fmt.Sprintf("src/--p%d--", i%3)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		cfg := sessiongen.Config{Entries: 2 + rng.IntN(60), Shape: sessiongen.ShapeLinear, Content: "small", Seed: uint64(i + 1)}
		if err := sessiongen.Generate(&buf, cfg); err != nil {
			t.Fatal(err)
		}
		largest = max(largest, int64(buf.Len()))
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("s%02d.jsonl", i)), buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run(t, []string{"src"}, "single", Options{})
	for n := 1; n <= 6; n++ {
		out := fmt.Sprintf("n%d", n)
		rendered := shardRun(t, []string{"src"}, out, n, rng.Perm(n))
		sameBytes(t, "single", out)
		loads := make([]int64, n)
		for i, pages := range rendered {
			if len(pages) == 0 && n <= sessions {
				t.Errorf("N=%d: shard %d rendered nothing", n, i)
			}
			for _, p := range pages {
				src := "src/" + strings.TrimSuffix(strings.TrimPrefix(p, "sessions/src/"), ".html") + ".jsonl"
				fi, err := os.Stat(src)
				if err != nil {
					t.Fatal(err)
				}
				loads[i] += fi.Size()
			}
		}
		if spread := slices.Max(loads) - slices.Min(loads); spread > largest {
			t.Errorf("N=%d: shard loads %v differ by %d, more than the largest session (%d)", n, loads, spread, largest)
		}
	}
}

func TestPartitionIsDeterministic(t *testing.T) {
	ss := []Session{{Source: "a", Page: "pa"}, {Source: "b", Page: "pb"}, {Source: "c", Page: "pc"}, {Source: "d", Page: "pd"}}
	size := map[string]int64{"a": 10, "b": 40, "c": 30, "d": 20}
	got := partition(ss, size, 2)
	// b (40) to 0; c (30) to 1; d (20) to 1 (30 < 40); a (10) to 0 (40 < 50).
	if want := []int{0, 0, 1, 1}; !slices.Equal(got, want) {
		t.Errorf("partition = %v, want %v", got, want)
	}
	for _, c := range []struct{ i, n int }{{0, 0}, {3, 3}, {-1, 2}, {1, 0}} {
		if checkShard(c.i, c.n) == nil && c.n != 0 || c.n == 0 && c.i != 0 && checkShard(c.i, c.n) == nil {
			t.Errorf("checkShard(%d, %d) passed", c.i, c.n)
		}
	}
}

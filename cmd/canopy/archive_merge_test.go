package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestArchiveShardAndMergeCommands(t *testing.T) {
	src, err := filepath.Abs(filepath.Join("..", "..", "testdata", "archive"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	single := filepath.Join(dir, "single")
	if code, _, stderr := canopy(t, nil, "archive", src, "-o", single, "--quiet"); code != exitOK {
		t.Fatalf("archive: exit %d: %s", code, stderr)
	}
	var shards []string
	for i := range 3 {
		out := filepath.Join(dir, fmt.Sprintf("shard-%d", i))
		code, _, stderr := canopy(t, nil, "archive", src, "-o", out, "--shard", fmt.Sprintf("%d/3", i), "--quiet")
		if code != exitOK || !strings.Contains(stderr, "pages rendered") {
			t.Fatalf("shard %d: exit %d: %s", i, code, stderr)
		}
		shards = append(shards, out)
	}
	merged := filepath.Join(dir, "merged")
	code, _, stderr := canopy(t, nil, append(append([]string{"archive", "merge"}, shards...), "-o", merged)...)
	if code != exitOK || !strings.Contains(stderr, "merged 3 shards into "+merged+": 8 sessions, 8 pages from the shards, 0 unchanged") {
		t.Fatalf("merge: exit %d: %s", code, stderr)
	}
	for _, name := range []string{"index.html", "manifest.json"} {
		a, _ := os.ReadFile(filepath.Join(single, name))
		b, _ := os.ReadFile(filepath.Join(merged, name))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s: the merged archive's differs from the single run's", name)
		}
	}
	code, _, stderr = canopy(t, nil, append(append([]string{"archive", "merge"}, shards...), "-o", merged)...)
	if code != exitOK || !strings.Contains(stderr, "0 pages from the shards, 8 unchanged") {
		t.Errorf("merge again: exit %d: %s", code, stderr)
	}

	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"archive", src, "-o", merged, "--shard", "3/3"}, exitUsage, "shards are numbered from 0"},
		{[]string{"archive", src, "-o", merged, "--shard", "1"}, exitUsage, "is not I/N"},
		{[]string{"archive", "merge", shards[0]}, exitUsage, "want at least one SHARD and -o OUTDIR"},
		{[]string{"archive", "merge", shards[0], shards[1], "-o", filepath.Join(dir, "m2")}, exitFail, "merge every shard of the run"},
	} {
		code, _, stderr := canopy(t, nil, c.args...)
		if code != c.code || !strings.Contains(stderr, c.msg) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, stderr, c.code, c.msg)
		}
	}
}

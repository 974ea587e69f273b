package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestArchiveAndVerifyCommands(t *testing.T) {
	src, err := filepath.Abs(filepath.Join("..", "..", "testdata", "archive"))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "arch")
	code, _, stderr := canopy(t, nil, "archive", src, "-o", out, "--jobs", "2")
	if code != exitOK {
		t.Fatalf("archive: exit %d: %s", code, stderr)
	}
	// Not a terminal: one plain line per page, then the problems and a
	// summary naming what was done.
	for _, want := range []string{"pages 8/8 ", "broken.jsonl: error: skipped: line 1:", "archived 8 sessions in " + out + ": 8 pages rendered, 0 unchanged, 0 removed, 1 files skipped"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("archive stderr lacks %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "\r") {
		t.Error("progress bar drawn on a stream that is not a terminal")
	}
	code, _, stderr = canopy(t, nil, "archive", src, "-o", out, "--quiet")
	if code != exitOK || strings.Contains(stderr, "pages 1/8") || !strings.Contains(stderr, "0 pages rendered, 8 unchanged") {
		t.Errorf("quiet re-run: exit %d, stderr:\n%s", code, stderr)
	}

	code, stdout, _ := canopy(t, nil, "verify", out)
	if code != exitOK || !strings.Contains(stdout, "every page matches its manifest") {
		t.Errorf("verify: exit %d: %s", code, stdout)
	}
	index := filepath.Join(out, "index.html")
	b, _ := os.ReadFile(index)
	os.WriteFile(index, append(b, ' '), 0o644)
	code, stdout, _ = canopy(t, nil, "verify", out, "--json")
	var rep struct {
		OK       bool
		Findings []struct{ Path, Problem string }
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("verify --json: %v: %s", err, stdout)
	}
	if code != exitFail || rep.OK || len(rep.Findings) != 1 || rep.Findings[0].Path != "index.html" || !strings.HasPrefix(rep.Findings[0].Problem, "changed") {
		t.Errorf("verify after tampering: exit %d, %+v", code, rep)
	}

	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"archive", src}, exitUsage, "want at least one SRC and -o OUTDIR"},
		{[]string{"archive", src, "-o", out, "--since", "last week"}, exitUsage, "is not a date"},
		{[]string{"verify"}, exitUsage, "want one OUTDIR"},
		{[]string{"verify", src}, exitFail, "not a canopy archive"},
	} {
		code, _, stderr := canopy(t, nil, c.args...)
		if code != c.code || !strings.Contains(stderr, c.msg) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, stderr, c.code, c.msg)
		}
	}
}

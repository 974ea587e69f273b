package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"export", "export", 0},
		{"exprot", "export", 1}, // a swap is one edit
		{"scna", "scan", 1},
		{"verfy", "verify", 1},
		{"expor", "export", 1},
		{"archve", "archive", 1},
		{"inpsect", "inspect", 1},
		{"scan", "verify", 6},
		{"", "scan", 4},
		{"é", "e", 1}, // by rune, not byte
	} {
		if got := editDistance(c.a, c.b); got != c.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

// TestMistakes: a misspelled command names the one meant; a word that is
// neither a command nor a file before other arguments is an unknown
// command; a directory given as a session says what reads one. Each
// message names what it is about.
func TestMistakes(t *testing.T) {
	dir := t.TempDir()
	// A file named like a misspelled command is a FILE: `canopy FILE`.
	wd, _ := os.Getwd()
	t.Chdir(dir)
	t.Setenv("HOME", dir) // an id is looked up in the stores of an empty home
	demo := filepath.Join(wd, "..", "..", "testdata", "demo", "demo.jsonl")
	if err := os.WriteFile("scna", mustRead(t, demo), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args   []string
		status int
		stderr string
	}{
		{[]string{"exprot", "big.jsonl"}, exitUsage, `canopy: unknown command "exprot"; did you mean "export"?`},
		{[]string{"verfy", "archive/"}, exitUsage, `did you mean "verify"?`},
		{[]string{"inpsect"}, exitUsage, `did you mean "inspect"?`},
		{[]string{"frobnicate", "x.jsonl"}, exitUsage, `canopy: unknown command "frobnicate" (canopy --help lists the commands)`},
		{[]string{"scna", "-o", "scna.html"}, exitOK, "wrote scna.html"},
		// Not a file, followed by flags: a session id, looked up.
		{[]string{"0123abcd", "-o", "x.html"}, exitFail, "0123abcd: no such file, nor a session whose id starts with it"},
		{[]string{"export", dir}, exitFail, dir + ": is a directory: not a session file; to read the sessions in a directory: canopy list " + dir + " lists them, canopy archive " + dir + " -o OUTDIR makes a page of each"},
		{[]string{"scan", dir}, exitFail, "canopy archive " + dir + " -o OUTDIR"},
		{[]string{"inspect", dir}, exitFail, "canopy archive " + dir + " -o OUTDIR"},
		{[]string{dir}, exitFail, "canopy archive " + dir + " -o OUTDIR"},
	} {
		st, _, stderr := runCmd(t, "", nil, c.args...)
		if st != c.status || !strings.Contains(stderr, c.stderr) {
			t.Errorf("canopy %s: exit %d, stderr %q; want %d, %q", strings.Join(c.args, " "), st, stderr, c.status, c.stderr)
		}
	}
}

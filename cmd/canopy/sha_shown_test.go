package main

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSHA256Shown: the page and the Markdown export show the SHA-256 of
// the session file they were made from, of a file and of standard input,
// redacted or not. (The load takes it; canopy scan's load alone does
// not: sessiontree.LoadOptions.)
func TestSHA256Shown(t *testing.T) {
	dir := t.TempDir()
	for _, in := range []string{
		filepath.Join("..", "..", "testdata", "secrets", "secrets.jsonl"),
		filepath.Join("..", "..", "testdata", "claude", "session.jsonl"),
		filepath.Join("..", "..", "testdata", "codex", "rollout.jsonl"),
	} {
		data, err := os.ReadFile(in)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		want := hex.EncodeToString(sum[:])
		for _, tc := range []struct {
			name  string
			stdin bool
			args  []string
		}{
			{"page", false, nil},
			{"page, standard input", true, nil},
			{"page, redacted", false, []string{"--redact"}},
			{"markdown", false, []string{"--format", "markdown"}},
			{"markdown, standard input", true, []string{"--format", "markdown"}},
			{"markdown, redacted", false, []string{"--format", "markdown", "--redact"}},
		} {
			out := filepath.Join(dir, "out")
			src, stdin := in, []byte(nil)
			if tc.stdin {
				src, stdin = "-", data
			}
			args := append([]string{"export", src, "-o", out}, tc.args...)
			if st, _, errs := runCmd(t, "", stdin, args...); st != exitOK {
				t.Fatalf("canopy %s: exit %d: %s", strings.Join(args, " "), st, errs)
			}
			got, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(got), want) {
				t.Errorf("%s of %s: SHA-256 %s not shown", tc.name, in, want)
			}
			os.Remove(out)
		}
	}
}

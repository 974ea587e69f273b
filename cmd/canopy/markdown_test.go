package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"
)

// TestExportMarkdown: --format markdown writes the path as Markdown, with
// the sharing flags applied first, and refuses what does not go with it.
func TestExportMarkdown(t *testing.T) {
	demo := filepath.Join("..", "..", "testdata", "demo", "demo.jsonl")
	secrets := filepath.Join("..", "..", "testdata", "secrets")
	dir := t.TempDir()

	// The default name is the input's with .md, in the current directory.
	code, _, stderr := runCmd(t, dir, nil, "export", "--format", "markdown", mustAbs(t, demo))
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	md, err := os.ReadFile(filepath.Join(dir, "demo.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "(`canopy export --format markdown`)") || !strings.Contains(string(md), "#### User") {
		t.Errorf("demo.md is not the Markdown export:\n%.400s", md)
	}
	// Written again over its own file: allowed, and the same bytes.
	if code, _, stderr := runCmd(t, dir, nil, "export", "--format", "markdown", mustAbs(t, demo)); code != exitOK {
		t.Fatalf("again: exit %d\n%s", code, stderr)
	}
	if again, _ := os.ReadFile(filepath.Join(dir, "demo.md")); string(again) != string(md) {
		t.Error("a second export gave other bytes")
	}

	// --limit keeps it under the limit, counted as GitHub may count it.
	_, out, _ := canopy(t, nil, "export", "--format", "markdown", demo, "-o", "-", "--limit", "8000")
	if n := len(utf16.Encode([]rune(out))) + strings.Count(out, "\n"); n > 8000 {
		t.Errorf("--limit 8000 gave %d units", n)
	}

	// --redact applies before the Markdown is made.
	files, _ := filepath.Glob(filepath.Join(secrets, "*.jsonl"))
	if len(files) == 0 {
		t.Fatal("no secret fixtures")
	}
	code, out, stderr = canopy(t, nil, "export", "--format", "markdown", "--redact", files[0], "-o", "-")
	if code != exitOK || !strings.Contains(out, "[REDACTED:") {
		t.Errorf("--redact: exit %d, no marker in the Markdown\n%s", code, stderr)
	}

	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--format", "pdf"}, exitUsage, "--format must be html or markdown"},
		{[]string{"--from", "x"}, exitUsage, "--from goes with --format markdown"},
		{[]string{"--limit", "10"}, exitUsage, "--limit goes with --format markdown"},
		{[]string{"--format", "markdown", "--theme", "dark"}, exitUsage, "--theme goes with HTML pages"},
		{[]string{"--format", "markdown", "--from", "no-such-id"}, exitFail, "no entry with id"},
		{[]string{"--format", "markdown", "--link", "javascript:alert(1)"}, exitFail, ""},
	} {
		code, _, stderr := canopy(t, nil, append(append([]string{"export"}, c.args...), demo, "-o", "-")...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, stderr, c.code, c.want)
		}
	}
}

func mustAbs(t *testing.T, p string) string {
	t.Helper()
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

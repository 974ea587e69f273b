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

	// --limit 0 is no limit.
	_, full, _ := canopy(t, nil, "export", "--format", "markdown", demo, "-o", "-")
	if code, out, stderr := canopy(t, nil, "export", "--format", "markdown", demo, "-o", "-", "--limit", "0"); code != exitOK || out != full {
		t.Errorf("--limit 0: exit %d, not the whole export\n%s", code, stderr)
	}

	// --from on an entry the sharing flags leave out: refused, not
	// exported from the root.
	hostile := filepath.Join("..", "..", "testdata", "markdown", "hostile.jsonl")
	code, out, stderr = canopy(t, nil, "export", "--format", "markdown", "--no-hidden", "--from", "cm2", hostile, "-o", "-")
	if code != exitFail || out != "" || !strings.Contains(stderr, `--from "cm2": the sharing flags left that entry out`) {
		t.Errorf("--no-hidden --from cm2: exit %d, %d bytes, stderr %q", code, len(out), stderr)
	}
}

// TestExportMarkdownRefusals: what does not go with --format markdown, or
// with the session, is refused with a message that says what to do.
func TestExportMarkdownRefusals(t *testing.T) {
	demo := filepath.Join("..", "..", "testdata", "demo", "demo.jsonl")
	for _, c := range []struct {
		args []string
		code int
		want []string
		not  []string
	}{
		{[]string{"--format", "pdf"}, exitUsage, []string{"--format must be html or markdown"}, nil},
		{[]string{"--from", "x"}, exitUsage, []string{"--from goes with --format markdown"}, nil},
		{[]string{"--limit", "10"}, exitUsage, []string{"--limit goes with --format markdown"}, nil},
		{[]string{"--format", "markdown", "--theme", "dark"}, exitUsage, []string{"--theme goes with HTML pages"}, nil},
		{[]string{"--format", "markdown", "--limit", "-1"}, exitUsage, []string{"--limit must be a number of characters, or 0 for no limit"}, nil},
		// What the number means, and what would do.
		{[]string{"--format", "markdown", "--limit", "1"}, exitFail, []string{"--limit 1 is too small: the header and the last entry with its prompt, cut as short as they go, need "}, []string{"mdpage"}},
		// Unknown ids name their flag.
		{[]string{"--format", "markdown", "--from", "no-such-id"}, exitFail, []string{`--from: no entry with id "no-such-id"`}, nil},
		{[]string{"--format", "markdown", "--leaf", "no-such-id"}, exitFail, []string{`--leaf: no entry with id "no-such-id"`}, nil},
		// An entry off the path: what to do, without the package's name.
		{[]string{"--format", "markdown", "--from", "660e2637", "--leaf", "6682644f"}, exitFail,
			[]string{`--from "660e2637" is not on the path to the leaf "6682644f": pick an entry above it, or a --leaf below it`}, []string{"mdpage"}},
		// Links: refused before anything is read, the address not repeated.
		{[]string{"--format", "markdown", "--link", "javascript:alert(1)"}, exitUsage, []string{"--link: an absolute http or https URL is needed"}, []string{"mdpage"}},
		{[]string{"--format", "markdown", "--link", "https://me:hunter2@x.example/s.html"}, exitUsage, []string{"--link: the URL holds a user name or password"}, []string{"hunter2"}},
		{[]string{"--format", "markdown", "--link", "https://me@x.example/s.html"}, exitUsage, []string{"--link: the URL holds a user name or password"}, nil},
	} {
		code, out, stderr := canopy(t, nil, append(append([]string{"export"}, c.args...), demo, "-o", "-")...)
		if code != c.code {
			t.Errorf("%v: exit %d, want %d; stderr %q", c.args, code, c.code, stderr)
		}
		if code != exitOK && out != "" {
			t.Errorf("%v: refused, but wrote %d bytes", c.args, len(out))
		}
		for _, w := range c.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("%v: stderr %q, want %q", c.args, stderr, w)
			}
		}
		for _, w := range c.not {
			if strings.Contains(stderr, w) {
				t.Errorf("%v: stderr %q has %q", c.args, stderr, w)
			}
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

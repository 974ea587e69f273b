package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"
)

func TestTakeCompare(t *testing.T) {
	for _, c := range []struct {
		args       []string
		rest       []string
		b, problem string
	}{
		{[]string{"--format", "markdown", "--compare", "A", "B", "f.jsonl"}, []string{"--format", "markdown", "--compare", "A", "f.jsonl"}, "B", ""},
		{[]string{"--compare=A", "B", "f.jsonl"}, []string{"--compare=A", "f.jsonl"}, "B", ""},
		{[]string{"f.jsonl", "--compare", "A"}, nil, "", "--compare needs two entry ids: --compare A B"},
		{[]string{"f.jsonl", "--compare=A"}, nil, "", "--compare needs two entry ids: --compare A B"},
		{[]string{"--", "--compare", "A", "B"}, []string{"--", "--compare", "A", "B"}, "", ""}, // after --: files
		{[]string{"f.jsonl"}, []string{"f.jsonl"}, "", ""},
	} {
		rest, b, msg := takeCompare(c.args)
		if msg != c.problem || b != c.b || (msg == "" && !slices.Equal(rest, c.rest)) {
			t.Errorf("takeCompare(%q) = %q, %q, %q; want %q, %q, %q", c.args, rest, b, msg, c.rest, c.b, c.problem)
		}
	}
}

// TestExportCompare: --compare A B writes the comparison, within --limit,
// and refuses what does not go with it.
func TestExportCompare(t *testing.T) {
	demo := filepath.Join("..", "..", "testdata", "demo", "demo.jsonl")
	code, out, stderr := canopy(t, nil, "export", "--format", "markdown", "--compare", "55e451be", "7d6e44c8", demo, "-o", "-")
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	for _, want := range []string{"### Comparing two branches", "**Fork:** `2bd4708e`", "#### Figures from the fork", "### Branch A: the path to `55e451be`", "### Branch B: the path to `7d6e44c8`"} {
		if !strings.Contains(out, want) {
			t.Errorf("the comparison has no %q", want)
		}
	}
	code, out, stderr = canopy(t, nil, "export", "--format", "markdown", "--compare", "55e451be", "7d6e44c8", demo, "-o", "-", "--limit", "4000")
	if n := len(utf16.Encode([]rune(out))) + strings.Count(out, "\n"); code != exitOK || n > 4000 {
		t.Errorf("--limit 4000: exit %d, %d units\n%s", code, n, stderr)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"export", "--compare", "a", "b", demo}, "--compare goes with --format markdown"},
		{[]string{"export", "--format", "markdown", "--compare", "a", "b", "--leaf", "a", demo}, "does not go with --leaf"},
		{[]string{"export", "--format", "markdown", "--compare", "a", "b", "--path-only", demo}, "does not go with --path-only"},
		{[]string{"export", "--format", "markdown", "--compare", "a", demo}, "want one FILE"},
		{[]string{"export", "--format", "markdown", "--compare", "55e451be", "nope", demo, "-o", "-"}, `no entry with id "nope"`},
		{[]string{"export", "--format", "markdown", "--compare", "55e451be", "7d6e44c8", demo, "-o", "-", "--limit", "900"}, "too small for the comparison"},
	} {
		code, _, stderr := canopy(t, nil, c.args...)
		if code == exitOK || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: exit %d, %q; want a failure saying %q", c.args, code, stderr, c.want)
		}
	}
}

package export

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"canopy/internal/pagetest"
	"canopy/redact"
	"canopy/scope"
)

// exportPage exports in to a page with o, as `canopy export` does, and
// returns the page.
func exportPage(t *testing.T, in string, o Options) string {
	t.Helper()
	dest := filepath.Join(t.TempDir(), "out.html")
	o.Subagents = true
	j := Job{In: Input{Path: in}, Options: o, Dest: dest, Notify: func(string) {}}
	j.Page.Version = "test"
	if err := Export(context.Background(), j); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(dest)
	if err != nil {
		t.Fatal(err)
	}
	return pagetest.InflateStore(t, string(b))
}

// TestScopeFormats: the sharing flags on a Claude Code transcript or a
// Codex rollout (and the subagents grafted from beside it) give a page of
// the same conversation, read by its own reader: its messages drawn as
// they are, no more entries shown as raw JSON than in the whole page,
// and what the flags leave out gone.
func TestScopeFormats(t *testing.T) {
	files := []string{"../testdata/claude/session.jsonl", "../testdata/codex/rollout.jsonl",
		"../testdata/claude/agents/s1.jsonl", "../testdata/claude/sidechains.jsonl"}
	flags := []struct {
		name  string
		o     scope.Options
		notIn []string // in no page of the flag
	}{
		{"no thinking", scope.Options{NoThinking: true}, []string{"Parse returns nothing", "Looking for the flag definitions"}},
		{"no tool output", scope.Options{NoToolOutput: true}, []string{"Parse() (value of type error) is not used", "declared and not used: verbose", "M parse.go", "Issue 7: Parse swallows errors"}},
		{"no hidden", scope.Options{NoHidden: true}, []string{"Base directory for this skill", "environment_context"}},
		{"path only", scope.Options{PathOnly: true}, nil},
		{"all", scope.Options{PathOnly: true, NoThinking: true, NoToolOutput: true, NoHidden: true}, nil},
	}
	for _, f := range files {
		whole := exportPage(t, f, Options{})
		for _, fl := range flags {
			t.Run(filepath.Base(f)+" "+fl.name, func(t *testing.T) {
				page := exportPage(t, f, Options{Scope: fl.o})
				if n, max := strings.Count(page, `class="json`), strings.Count(whole, `class="json`); n > max {
					t.Errorf("%d raw JSON boxes, the whole page has %d", n, max)
				}
				for _, k := range []string{`k-user`, `k-assistant`} {
					if strings.Count(page, k) == 0 || strings.Count(page, k) > strings.Count(whole, k) {
						t.Errorf("%d %s, the whole page has %d", strings.Count(page, k), k, strings.Count(whole, k))
					}
				}
				for _, w := range fl.notIn {
					if strings.Contains(page, w) {
						t.Errorf("the page still has %q", w)
					}
				}
			})
		}
	}
}

// TestScopeFormatsRedacted: a cut Claude Code or Codex session is then
// redacted as any: the secret in what is kept is replaced, the one in a
// tool's output is gone with it.
func TestScopeFormatsRedacted(t *testing.T) {
	red, err := redact.New()
	if err != nil {
		t.Fatal(err)
	}
	const secret = "ghp_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7c"
	cases := []struct{ file, inKept, inOutput string }{
		{"../testdata/codex/rollout.jsonl", "Add a --verbose flag to the CLI.", "declared and not used: verbose"},
		{"../testdata/claude/session.jsonl", "Parse should return an error.", "is not used"},
	}
	for _, c := range cases {
		t.Run(filepath.Base(c.file), func(t *testing.T) {
			data, err := os.ReadFile(c.file)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range []string{c.inKept, c.inOutput} {
				if !bytes.Contains(data, []byte(w)) {
					t.Fatalf("%s lacks %q", c.file, w)
				}
				data = bytes.Replace(data, []byte(w), []byte(w+" "+secret), 1)
			}
			in := filepath.Join(t.TempDir(), filepath.Base(c.file))
			if err := os.WriteFile(in, data, 0o600); err != nil {
				t.Fatal(err)
			}
			page := exportPage(t, in, Options{Redactor: red, Scope: scope.Options{NoToolOutput: true}})
			if strings.Contains(page, secret) {
				t.Error("the secret is in the page")
			}
			if n := strings.Count(page, "[REDACTED:github-pat#1]"); n == 0 {
				t.Error("the secret kept is not redacted")
			}
			if !strings.Contains(page, "k-assistant") || strings.Contains(page, c.inOutput) {
				t.Error("the page is not the cut conversation")
			}
		})
	}
}

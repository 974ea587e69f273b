package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestExportSubagents: canopy export draws a Claude Code session's
// subagents (from the files beside it and from its own) under the calls
// that ran them, redacted as the session is; --no-subagents leaves them
// out, and goes with HTML pages only.
func TestExportSubagents(t *testing.T) {
	claude := filepath.Join("..", "..", "testdata", "claude")
	s1 := filepath.Join(claude, "agents", "s1.jsonl")
	s2 := filepath.Join(claude, "subagents", "secret", "s2.jsonl")
	sidechains := filepath.Join(claude, "sidechains.jsonl")
	const fold = `<details class="subagent">`
	tests := []struct {
		name           string
		args           []string
		status         int
		stdout, absent []string
		stderr, quiet  []string // in stderr, and not
	}{
		{"by default", []string{"export", s1, "-o", "-"}, exitOK,
			[]string{fold, `id="entry-a1-1"`, `id="entry-a4-2"`, "Explore subagent: Find callers"}, nil, []string{"agent-bad.jsonl"}, nil},
		{"left out", []string{"export", s1, "-o", "-", "--no-subagents"}, exitOK,
			[]string{`id="entry-m2"`}, []string{fold, `id="entry-a1-1"`}, nil, []string{"agent-bad.jsonl"}},
		{"sidechains", []string{"export", sidechains, "-o", "-"}, exitOK, []string{fold, `id="entry-s1"`}, nil, nil, nil},
		{"sidechains left where they are", []string{"export", sidechains, "-o", "-", "--no-subagents"}, exitOK,
			[]string{`id="entry-s1"`}, []string{fold}, nil, nil},
		{"redacted", []string{"export", s2, "-o", "-", "--redact"}, exitOK,
			[]string{fold, "[REDACTED:aws-access-key#1]", "secrets: 1 replaced"}, []string{"AKIAZ7Q3MPLK4RTX2WVB"},
			[]string{"1 secret redacted, 1 occurrence (aws-access-key 1); --redact-report FILE lists it"}, nil},
		// scan covers what export shares: the subagents too.
		{"scanned", []string{"scan", s2}, exitFail, []string{"1 secret found (1 occurrence):", "aws-access-key", "s9-3 (agent-s9.jsonl)"},
			nil, nil, nil},
		{"scanned as JSON", []string{"scan", s2, "--json"}, exitFail, []string{`agent-s9.jsonl"`, `"entryId": "s9-3"`},
			nil, nil, nil},
		{"scan left out", []string{"scan", s2, "--no-subagents"}, exitOK, []string{"no secrets found"}, []string{"aws-access-key"}, nil, nil},
		{"not in Markdown", []string{"export", s1, "-o", "-", "--format", "markdown"}, exitOK, []string{"Review the parser"},
			[]string{"It calls Parse once"}, nil, []string{"agent-bad.jsonl"}},
		{"not a Markdown flag", []string{"export", s1, "-o", "-", "--format", "markdown", "--no-subagents"}, exitUsage, nil, nil,
			[]string{"--no-subagents goes with HTML pages"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, stdout, stderr := runCmd(t, "", nil, tt.args...)
			if st != tt.status {
				t.Fatalf("exit %d, want %d; stderr: %s", st, tt.status, stderr)
			}
			for _, s := range tt.stdout {
				if !strings.Contains(stdout, s) {
					t.Errorf("stdout lacks %q", s)
				}
			}
			for _, s := range tt.absent {
				if strings.Contains(stdout, s) {
					t.Errorf("stdout has %q", s)
				}
			}
			for _, s := range tt.stderr {
				if !strings.Contains(stderr, s) {
					t.Errorf("stderr %q lacks %q", stderr, s)
				}
			}
			for _, s := range tt.quiet {
				if strings.Contains(stderr, s) {
					t.Errorf("stderr %q has %q", stderr, s)
				}
			}
		})
	}
}

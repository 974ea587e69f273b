package export

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"canopy/mdpage"
	"canopy/redact"
	"canopy/scope"
)

// TestScanWhileLoading: a regular file's credentials, found while it
// loads (and the session reloaded from its redacted bytes when there are
// any), give the same page, Markdown and notices as the pipeline's own
// Redact step after the load: for files with and without secrets, kept
// or replaced, cut by the sharing flags or not, and from standard input.
func TestScanWhileLoading(t *testing.T) {
	red, err := redact.New()
	if err != nil {
		t.Fatal(err)
	}
	agents := "../testdata/claude/subagents/secret/s2.jsonl"
	for _, file := range []string{secrets, demo, agents} {
		for _, c := range []struct {
			name string
			job  Job
		}{
			{"page", Job{}},
			{"kept", Job{Options: Options{KeepSecrets: true}}},
			{"cut", Job{Options: Options{Scope: scope.Options{NoThinking: true}}}},
			{"markdown", Job{Markdown: &mdpage.Options{Version: "test"}}},
			{"subagents", Job{Options: Options{Subagents: true}}},
		} {
			t.Run(filepath.Base(file)+"/"+c.name, func(t *testing.T) {
				before := c.job
				before.Redactor = red // made by the caller: no scan while loading
				now := c.job
				now.FindSecrets = true
				a, an := exportTo(t, before, file, nil)
				b, bn := exportTo(t, now, file, nil)
				if !bytes.Equal(a, b) || an != bn {
					t.Errorf("scanned while loading: %d bytes (notices %q), after: %d bytes (%q)", len(b), bn, len(a), an)
				}
				if c.job.Subagents {
					return // a session on standard input has no files beside it
				}
				data, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				in, inN := exportTo(t, now, "-", data)
				if (c.job.Markdown != nil && !bytes.Equal(in, a)) || len(in) == 0 || (inN == "") != (an == "") {
					t.Errorf("from standard input: %d bytes, %q", len(in), inN)
				}
			})
		}
	}
}

// exportTo runs j on the file path (or stdin, for "-") and returns what
// it wrote and its notices but the last ("wrote …").
func exportTo(t *testing.T, j Job, path string, stdin []byte) ([]byte, string) {
	t.Helper()
	var out bytes.Buffer
	var notices string
	j.In = Input{Path: path, Stdin: bytes.NewReader(stdin), MaxInput: 1 << 30}
	j.Dest, j.Stdout = "-", &out
	j.Page.Version = "test"
	j.Notify = func(l string) { notices += l + "\n" }
	if err := Export(context.Background(), j); err != nil {
		t.Fatal(err)
	}
	return out.Bytes(), notices
}

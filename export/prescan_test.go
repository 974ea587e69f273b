package export

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"canopy/internal/sessiongen"
	"canopy/mdpage"
	"canopy/redact"
	"canopy/scope"
)

// namedJob is an export the scan while loading must serve.
type namedJob struct {
	name string
	job  Job
}

// scanJobs are the exports both scan tests run: a page, a page keeping
// the secrets, one cut by the sharing flags, and the Markdown.
func scanJobs() []namedJob {
	return []namedJob{
		{"page", Job{}},
		{"kept", Job{Options: Options{KeepSecrets: true}}},
		{"cut", Job{Options: Options{Scope: scope.Options{NoThinking: true}}}},
		{"markdown", Job{Markdown: &mdpage.Options{Version: "test"}}},
	}
}

// scannedAsAfter exports file with job twice, its secrets found while it
// loads and by a redactor the caller made (no scan while loading), checks
// that the two give the same bytes and notices, and returns the latter's.
func scannedAsAfter(t *testing.T, red *redact.Redactor, job Job, file string) ([]byte, string) {
	t.Helper()
	before := job
	before.Redactor = red // made by the caller: no scan while loading
	now := job
	now.FindSecrets = true
	a, an := exportTo(t, before, file, nil)
	b, bn := exportTo(t, now, file, nil)
	if !bytes.Equal(a, b) || an != bn {
		t.Errorf("scanned while loading: %d bytes (notices %q), after: %d bytes (%q)", len(b), bn, len(a), an)
	}
	return a, an
}

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
		for _, c := range append(scanJobs(), namedJob{"subagents", Job{Options: Options{Subagents: true}}}) {
			t.Run(filepath.Base(file)+"/"+c.name, func(t *testing.T) {
				a, an := scannedAsAfter(t, red, c.job, file)
				if c.job.Subagents {
					return // a session on standard input has no files beside it
				}
				data, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				now := c.job
				now.FindSecrets = true
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

// TestScanStopsLoad: a session of many chunks with a credential near its
// start, whose load in place the scan stops (the redacted bytes are
// loaded instead), gives the page and notices the pipeline's own Redact
// step gives after a full load, and so do the sharing flags and
// --keep-secrets, which let the load run to its end.
func TestScanStopsLoad(t *testing.T) {
	red, err := redact.New()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := sessiongen.Generate(&buf, sessiongen.Config{Entries: 4000, Shape: sessiongen.ShapeBranched, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	if rep := red.Scan(buf.Bytes()); len(rep.Findings) == 0 || rep.Findings[0].Line > 100 || buf.Len() < 3<<20 {
		t.Fatalf("the session must span chunks and hold a credential near its start: %d bytes, %d findings", buf.Len(), len(rep.Findings))
	}
	file := filepath.Join(t.TempDir(), "big.jsonl")
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	stopped := 0
	beforeLoad = func(scan *prescan) {
		if scan.stop != nil {
			<-scan.stop // the scan finds the credential before the load begins
			stopped++
		}
	}
	defer func() { beforeLoad = func(*prescan) {} }()
	for _, c := range scanJobs() {
		t.Run(c.name, func(t *testing.T) {
			scannedAsAfter(t, red, c.job, file)
		})
	}
	if stopped != 2 {
		t.Errorf("%d loads stopped by the scan, want 2 (page, markdown)", stopped)
	}
}

// TestReadFile: readFile reads what os.ReadFile reads, and hands its
// head function the first whole lines, at most headBytes of them, of a
// file over 4 headBytes.
func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	line := bytes.Repeat([]byte("x"), 1000)
	for _, c := range []struct {
		name string
		data []byte
		head int // the length head is called with; -1: not called
	}{
		{"empty", nil, -1},
		{"one line, no newline", []byte("abc"), -1},
		{"one line", []byte("abc\n"), -1},
		{"short", []byte("abc\ndef"), -1},
		{"long", bytes.Repeat(append(line, '\n'), 3000), -1},
		{"over 4 heads", bytes.Repeat(append(line, '\n'), 5*headBytes/1000), headBytes / 1001 * 1001},
		{"longer than a piece", bytes.Repeat(append(line, '\n'), 3*pieceBytes/1000), headBytes / 1001 * 1001},
	} {
		p := filepath.Join(dir, "f")
		if err := os.WriteFile(p, c.data, 0o644); err != nil {
			t.Fatal(err)
		}
		got := -1
		var pieces []byte
		data, err := readFile(p, func(h []byte) {
			got = len(h)
			if !bytes.Equal(h, c.data[:len(h)]) {
				t.Errorf("%s: head is not the file's start", c.name)
			}
		}, func(p []byte) { pieces = append(pieces, p...) })
		if err != nil || !bytes.Equal(data, c.data) || got != c.head || !bytes.Equal(pieces, c.data) {
			t.Errorf("%s: %d bytes of %d (pieces %d), head %d (want %d), %v", c.name, len(data), len(c.data), len(pieces), got, c.head, err)
		}
	}
	if _, err := readFile(filepath.Join(dir, "none"), func([]byte) {}, func([]byte) {}); err == nil {
		t.Error("no error for a file that is not there")
	}
}

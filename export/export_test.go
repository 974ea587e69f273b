package export

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"canopy/htmlpage"
	"canopy/internal/pagetest"
	"canopy/mdpage"
	"canopy/redact"
	"canopy/scope"
	"canopy/sessiontree"
)

const secrets = "../testdata/secrets/secrets.jsonl"

func ptr(s string) *string { return &s }

// offPathID is an entry of the demo session that is not on the path to
// its leaf.
func offPathID(t *testing.T) string {
	t.Helper()
	s, err := sessiontree.LoadFile(demo)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	on := map[*sessiontree.Entry]bool{}
	for _, e := range s.Path(s.Leaf) {
		on[e] = true
	}
	for _, e := range s.Entries {
		if !on[e] {
			return e.ID
		}
	}
	t.Fatal("the demo session has one branch")
	return ""
}

// exportCase is one case of TestExport.
type exportCase struct {
	name     string
	job      Job // In.Path default: the demo session; Dest default: out.html in a new directory
	cancel   bool
	wantOut  []string // in what was written
	notOut   []string // not in it
	notices  []string // among the notices
	wantErr  string   // "": no error
	flagErr  bool     // the error is a *FlagError
	report   int      // findings in the report file (-1: none written)
	interrup bool
}

// check checks what an export returned, wrote (out) and told (notices).
func (c *exportCase) check(t *testing.T, err error, out string, notices []string) {
	t.Helper()
	var fe *FlagError
	switch {
	case c.wantErr == "" && err != nil:
		t.Fatalf("err = %v", err)
	case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
		t.Fatalf("err = %v, want %q", err, c.wantErr)
	case errors.As(err, &fe) != c.flagErr:
		t.Errorf("err %v: a FlagError: %v, want %v", err, !c.flagErr, c.flagErr)
	case errors.Is(err, ErrInterrupted) != c.interrup:
		t.Errorf("err %v: interrupted: %v, want %v", err, !c.interrup, c.interrup)
	}
	if err != nil && out != "" {
		t.Errorf("a failed export wrote %d bytes", len(out))
	}
	for _, w := range c.wantOut {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q", w)
		}
	}
	for _, w := range c.notOut {
		if strings.Contains(out, w) {
			t.Errorf("output has %q", w)
		}
	}
	all := strings.Join(notices, "\n")
	for _, w := range c.notices {
		if !strings.Contains(all, w) {
			t.Errorf("notices lack %q:\n%s", w, all)
		}
	}
}

// TestExport runs the whole pipeline as `canopy export` does: what it
// writes, what it tells, and how it fails, leaving nothing behind.
func TestExport(t *testing.T) {
	red, err := redact.New()
	if err != nil {
		t.Fatal(err)
	}
	off := offPathID(t)
	cases := []exportCase{
		{name: "page", wantOut: []string{`content="canopy test"`}, notices: []string{"wrote "}, report: -1},
		{name: "page to stdout", job: Job{Dest: "-"}, wantOut: []string{"<!doctype html>"}, report: -1},
		{name: "markdown", job: Job{Markdown: &mdpage.Options{Version: "test"}}, wantOut: []string{"(`canopy export --format markdown`)"}, report: -1},
		{name: "scope", job: Job{Options: Options{Scope: scope.Options{PathOnly: true}}}, wantOut: []string{"cut down from the original file"}, report: -1},
		{name: "redacted, with a report", job: Job{In: Input{Path: secrets}, Options: Options{Redactor: red}, ReportPath: "report.json"},
			wantOut: []string{"[REDACTED:github-pat#1]", "secrets: 4 replaced by"}, notOut: []string{"ghp_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7c"},
			notices: []string{"secrets.jsonl: 4 secrets redacted, 5 occurrences (aws-access-key 1"}, report: 5},
		{name: "problems read", job: Job{In: Input{Path: "../testdata/bad/malformed-line.jsonl"}},
			notices: []string{"malformed-line.jsonl:3: error: line skipped: malformed JSON"}, wantOut: []string{"<!doctype html>"}, report: -1},
		{name: "unknown leaf", job: Job{LeafID: ptr("nope")}, wantErr: `demo.jsonl: --leaf: no entry with id "nope"`, report: -1},
		{name: "from off the path", job: Job{Markdown: &mdpage.Options{}, FromID: ptr(off)}, wantErr: "is not on the path to the leaf", flagErr: true, report: -1},
		{name: "limit too small", job: Job{Markdown: &mdpage.Options{Limit: 10}}, wantErr: "--limit 10 is too small", flagErr: true, report: -1},
		{name: "interrupted", job: Job{Options: Options{Redactor: red}, ReportPath: "report.json"}, cancel: true, wantErr: "interrupted", interrup: true, report: -1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			j := c.job
			if j.In.Path == "" {
				j.In.Path = demo
			}
			if j.Dest == "" {
				j.Dest = filepath.Join(dir, "out.html")
			}
			if j.ReportPath != "" {
				j.ReportPath = filepath.Join(dir, j.ReportPath)
			}
			j.Page.Version = "test"
			var stdout bytes.Buffer
			var notices []string
			j.Stdout, j.Notify = &stdout, func(l string) { notices = append(notices, l) }
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if c.cancel {
				cancel()
			}
			err := Export(ctx, j)
			out := stdout.String()
			if j.Dest != "-" {
				b, _ := os.ReadFile(j.Dest)
				out = string(b)
			}
			c.check(t, err, pagetest.InflateStore(t, out), notices)
			checkReport(t, j.ReportPath, c.report)
		})
	}
}

func checkReport(t *testing.T, path string, findings int) {
	t.Helper()
	b, err := os.ReadFile(path)
	if findings < 0 {
		if err == nil {
			t.Errorf("a report was written to %s", path)
		}
		return
	}
	var rep redact.Report
	if err != nil || json.Unmarshal(b, &rep) != nil || len(rep.Findings) != findings {
		t.Errorf("report: %v, %d findings, want %d", err, len(rep.Findings), findings)
	}
}

// TestPrepare: what Prepare makes of a session for a page on its own and
// for an archive's: the cut, the redaction, and what the page says of
// them.
func TestPrepare(t *testing.T) {
	red, err := redact.New()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name         string
		file         string
		o            Options
		wantOmitted  []string // prefixes, in order
		wantOriginal bool     // the page is given the original file's hash
		wantNew      bool     // the session is a new one, not the file's
		wantReport   int      // secrets in the report (-1: no report)
	}{
		{name: "as it is", file: demo, wantOriginal: true, wantReport: -1},
		{name: "as it is, archived", file: demo, o: Options{Archived: true}, wantReport: -1},
		{name: "cut", file: demo, o: Options{Scope: scope.Options{NoThinking: true, PathOnly: true}},
			wantOmitted: []string{"", ""}, wantOriginal: true, wantNew: true, wantReport: -1},
		{name: "redacted", file: secrets, o: Options{Redactor: red}, wantOmitted: []string{SecretsNote(4)}, wantOriginal: true, wantNew: true, wantReport: 4},
		{name: "redacted, archived", file: secrets, o: Options{Redactor: red, Archived: true}, wantOmitted: []string{SecretsNote(-1)}, wantNew: true, wantReport: 4},
		{name: "kept notes first", file: secrets, o: Options{Redactor: red, Page: htmlpage.Options{Omitted: []string{"mine"}}},
			wantOmitted: []string{"mine", SecretsNote(4)}, wantOriginal: true, wantNew: true, wantReport: 4},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := Load(context.Background(), Input{Path: c.file})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			p, err := Prepare(context.Background(), s, c.o)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.Page.Omitted; len(got) < len(c.wantOmitted) || len(c.wantOmitted) == 0 && len(got) > 0 {
				t.Fatalf("omitted %q, want %q", got, c.wantOmitted)
			}
			for i, w := range c.wantOmitted {
				if !strings.HasPrefix(p.Page.Omitted[len(p.Page.Omitted)-len(c.wantOmitted)+i], w) {
					t.Errorf("omitted %q, want %q", p.Page.Omitted, c.wantOmitted)
				}
			}
			if got := p.Page.OriginalSHA256 == sha256Hex(s); got != c.wantOriginal {
				t.Errorf("original hash given: %v, want %v", got, c.wantOriginal)
			}
			if (p.Session != s) != c.wantNew {
				t.Errorf("a new session: %v, want %v", p.Session != s, c.wantNew)
			}
			if p.Leaf == nil || p.Page.Leaf != p.Leaf || p.Session.Entry(p.Leaf.ID) != p.Leaf || p.Leaf.ID != s.Leaf.ID {
				t.Errorf("leaf %v: not the session's leaf %s in the session prepared", p.Leaf, s.Leaf.ID)
			}
			switch {
			case c.wantReport < 0 && p.Report != nil:
				t.Errorf("a report without redaction")
			case c.wantReport >= 0 && (p.Report == nil || p.Report.Total() != c.wantReport):
				t.Errorf("report %+v, want %d secrets", p.Report, c.wantReport)
			}
		})
	}
}

package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"canopy/internal/pagetest"
	"canopy/redact"
)

// The fake credentials planted in testdata/secrets/secrets.jsonl.
var plantedSecrets = []string{
	"ghp_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7c",
	"AKIAQ3EGX7LZPKTQ4J2N",
	"Xq7vT2mP9sLk4wZr",
	"MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun",
}

var secretsFile = filepath.Join("..", "..", "testdata", "secrets", "secrets.jsonl")

func TestScan(t *testing.T) {
	st, out, stderr := runCmd(t, "", nil, "scan", secretsFile)
	if st != exitFail {
		t.Fatalf("scan of a file with secrets: exit %d, want 1 (stderr %s)", st, stderr)
	}
	for _, want := range []string{"4 secrets found", "github-pat", "in u1, a2", "private-key", "in r1"} {
		if !strings.Contains(out, want) {
			t.Errorf("scan output lacks %q:\n%s", want, out)
		}
	}
	st, out, _ = runCmd(t, "", nil, "scan", "--json", secretsFile)
	var rep redact.Report
	if st != exitFail || json.Unmarshal([]byte(out), &rep) != nil || len(rep.Findings) != 5 || rep.Kinds["github-pat"] != 1 {
		t.Errorf("scan --json: exit %d, report %+v", st, rep)
	}
	clean := filepath.Join("..", "..", "testdata", "conformance", "s001")
	files, _ := filepath.Glob(filepath.Join(clean, "*.jsonl"))
	if st, out, _ := runCmd(t, "", nil, "scan", files[0]); st != exitOK || !strings.Contains(out, "no secrets found") {
		t.Errorf("scan of a clean file: exit %d, %s", st, out)
	}
	if st, _, _ := runCmd(t, "", nil, "scan"); st != exitUsage {
		t.Errorf("scan without a file: exit %d, want 2", st)
	}
}

// TestExportRedact: an export is safe by default. Without a flag (or with
// --redact, the default named), no credential is anywhere in what it
// writes (the page's entries, its compressed store, the embedded source;
// the Markdown), the page's header says how many were replaced, and one
// line on stderr says so; --keep-secrets writes them and warns.
func TestExportRedact(t *testing.T) {
	for _, c := range []struct {
		name     string
		flags    []string
		markdown bool
		kept     bool
		stderr   string
	}{
		{"page by default", nil, false, false, "4 secrets redacted, 5 occurrences (aws-access-key 1, database-url 1, github-pat 1, private-key 1); --redact-report FILE lists them, --keep-secrets keeps them"},
		{"page, --redact", []string{"--redact"}, false, false, "4 secrets redacted, 5 occurrences ("},
		{"markdown by default", []string{"--format", "markdown"}, true, false, "4 secrets redacted, 5 occurrences ("},
		{"page, --keep-secrets", []string{"--keep-secrets"}, false, true, "warning: " + secretsFile + ": 4 secrets kept in standard output, 5 occurrences ("},
		{"markdown, --keep-secrets", []string{"--format", "markdown", "--keep-secrets"}, true, true, "4 secrets kept in standard output"},
	} {
		t.Run(c.name, func(t *testing.T) {
			st, out, stderr := runCmd(t, "", nil, append([]string{"export", secretsFile, "-o", "-"}, c.flags...)...)
			if st != exitOK {
				t.Fatalf("exit %d: %s", st, stderr)
			}
			if !strings.Contains(stderr, c.stderr) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("stderr is not the one line %q:\n%s", c.stderr, stderr)
			}
			all := out
			if !c.markdown {
				all = pagetest.InflateStore(t, out) + embeddedSource(t, out)
			}
			for _, secret := range plantedSecrets {
				if strings.Contains(all, secret) != c.kept {
					t.Errorf("secret %q in the output: %v, want %v", secret, !c.kept, c.kept)
				}
			}
			if strings.Contains(all, "[REDACTED:github-pat#1]") == c.kept {
				t.Errorf("marker in the output: %v, want %v", c.kept, !c.kept)
			}
			if strings.Contains(out, "secrets: 4 replaced") == c.kept {
				t.Errorf("the header says the page is redacted: %v, want %v", c.kept, !c.kept)
			}
			if !strings.Contains(out, "4f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39") {
				t.Error("a commit hash was mangled")
			}
		})
	}
	// Nothing found: nothing said, and the page says nothing of secrets.
	demo := filepath.Join("..", "..", "testdata", "demo", "demo.jsonl")
	st, out, stderr := runCmd(t, "", nil, "export", demo, "-o", "-")
	if st != exitOK || stderr != "" || strings.Contains(out, "replaced by [REDACTED") {
		t.Errorf("a clean session: exit %d, stderr %q, secrets note %v", st, stderr, strings.Contains(out, "replaced by [REDACTED"))
	}
}

// TestRedactReport: --redact-report lists what was found, redacted or
// kept; --redact and --keep-secrets together are a usage error.
func TestRedactReport(t *testing.T) {
	dir := t.TempDir()
	for _, flags := range [][]string{nil, {"--keep-secrets"}} {
		reportPath := filepath.Join(dir, "report.json")
		args := append([]string{"export", secretsFile, "-o", filepath.Join(dir, "p.html"), "--redact-report", reportPath}, flags...)
		if st, _, stderr := runCmd(t, "", nil, args...); st != exitOK || !strings.Contains(stderr, "listed in "+reportPath) {
			t.Fatalf("%v: exit %d: %s", flags, st, stderr)
		}
		var rep redact.Report
		if err := json.Unmarshal(mustRead(t, reportPath), &rep); err != nil || len(rep.Findings) != 5 || rep.Findings[0].EntryID != "u1" {
			t.Errorf("%v: report: %v %+v", flags, err, rep)
		}
	}
	if st, _, stderr := runCmd(t, "", nil, "export", secretsFile, "-o", "-", "--redact", "--keep-secrets"); st != exitUsage || !strings.Contains(stderr, "pick one") {
		t.Errorf("--redact --keep-secrets: exit %d, want 2: %s", st, stderr)
	}
}

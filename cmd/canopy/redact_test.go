package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"canopy/export"
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
	var rep export.RedactionReport
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

func TestExportRedact(t *testing.T) {
	dir := t.TempDir()
	reportPath := filepath.Join(dir, "report.json")
	st, page, stderr := runCmd(t, "", nil, "export", secretsFile, "-o", "-", "--redact", "--redact-report", reportPath)
	if st != exitOK {
		t.Fatalf("exit %d: %s", st, stderr)
	}
	src := embeddedSource(t, page)
	for _, secret := range plantedSecrets {
		if strings.Contains(page, secret) || strings.Contains(src, secret) {
			t.Errorf("%q survived in the page or its embedded source", secret)
		}
	}
	for _, marker := range []string{"[REDACTED:github-pat#1]", "[REDACTED:private-key#1]"} {
		if !strings.Contains(page, marker) || !strings.Contains(src, marker) {
			t.Errorf("marker %s missing from the page or the source", marker)
		}
	}
	if !strings.Contains(page, "secrets: 4 replaced") {
		t.Error("the header does not say the page is redacted")
	}
	if !strings.Contains(page, "4f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39") {
		t.Error("a commit hash was mangled")
	}
	if !strings.Contains(stderr, "4 secrets redacted") {
		t.Errorf("no summary on stderr: %s", stderr)
	}
	raw, err := os.ReadFile(reportPath)
	if err != nil {
		t.Fatal(err)
	}
	var rep export.RedactionReport
	if err := json.Unmarshal(raw, &rep); err != nil || len(rep.Findings) != 5 || rep.Findings[0].EntryID != "u1" {
		t.Errorf("report: %v %+v", err, rep)
	}
	if st, _, _ := runCmd(t, "", nil, "export", secretsFile, "-o", "-", "--redact-report", reportPath); st != exitUsage {
		t.Errorf("--redact-report without --redact: exit %d, want 2", st)
	}
}

package main

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"canopy/export"
	"canopy/redact"
)

// scanByLoad is what `canopy scan` did before it read files once: the
// session loaded as every command loads it (export.Load, in place for a
// regular file), its bytes read again, then scanned. The reference
// scanInput must agree with.
func scanByLoad(path string, stdin []byte, asJSON bool) (st int, stdout, stderr string) {
	var out, errb bytes.Buffer
	fail := func(err error) (int, string, string) {
		printLine(&errb, "canopy: %v%s", err, loadHint(path, err))
		return exitFail, out.String(), errb.String()
	}
	s, err := export.Load(context.Background(), export.Input{Path: path, Stdin: bytes.NewReader(stdin), MaxInput: export.DefaultMaxInput})
	if err != nil {
		return fail(err)
	}
	defer s.Close()
	src, err := s.ReadSource()
	if err != nil {
		return fail(err)
	}
	r, err := redact.New()
	if err != nil {
		return fail(err)
	}
	rep := export.NamedReport(s, r.Scan(src))
	if asJSON {
		if err := export.EncodeReport(&out, rep); err != nil {
			return fail(err)
		}
	} else {
		for _, l := range export.RedactionSummary(rep, "found") {
			printLine(&out, "%s", l)
		}
	}
	if len(rep.Findings) > 0 {
		return exitFail, out.String(), errb.String()
	}
	return exitOK, out.String(), errb.String()
}

// TestScanSameAsLoad: scan's report, text and JSON, its messages and its
// exit status are the ones of a scan of the session loaded in place, for
// every session in testdata (pi, Claude Code, Codex, Flue; with secrets,
// broken lines, refused inputs), standard input, an empty file, a
// directory and a missing file.
func TestScanSameAsLoad(t *testing.T) {
	root := filepath.Join("..", "..", "testdata")
	var inputs []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".jsonl") || strings.HasSuffix(p, ".json")) {
			inputs = append(inputs, p)
		}
		return err
	})
	if err != nil || len(inputs) < 30 {
		t.Fatalf("testdata: %d inputs, %v", len(inputs), err)
	}
	dir := t.TempDir()
	inputs = append(inputs, withSecrets(t, dir, inputs)...)
	empty := filepath.Join(dir, "empty.jsonl")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	inputs = append(inputs, empty, dir, filepath.Join(dir, "missing.jsonl"))
	found := 0
	for _, p := range inputs {
		for _, asJSON := range []bool{false, true} {
			// The session's own file: subagents are scanned from their
			// files either way (TestExportSubagents).
			args := []string{"scan", p, "--no-subagents"}
			if asJSON {
				args = append(args, "--json")
			}
			st, out, errs := runCmd(t, "", nil, args...)
			wst, wout, werrs := scanByLoad(p, nil, asJSON)
			if st != wst || out != wout || errs != werrs {
				t.Errorf("canopy %s: exit %d, stdout %q, stderr %q\nwant exit %d, stdout %q, stderr %q",
					strings.Join(args, " "), st, out, errs, wst, wout, werrs)
			}
			if st == exitFail && errs == "" {
				found++
			}
		}
	}
	if found < 40 {
		t.Errorf("only %d scans found secrets: the comparison needs findings", found)
	}
	if testing.Verbose() {
		t.Logf("%d inputs, %d scans with findings", len(inputs), found)
	}
	data, err := os.ReadFile(secretsFile)
	if err != nil {
		t.Fatal(err)
	}
	st, out, errs := runCmd(t, "", data, "scan", "--json", "-")
	if wst, wout, werrs := scanByLoad("-", data, true); st != wst || out != wout || errs != werrs || st != exitFail {
		t.Errorf("scan of standard input: exit %d, %q, %q; want exit %d, %q, %q", st, out, errs, wst, wout, werrs)
	}
}

// withSecrets writes copies of the inputs with a token planted at the
// start of every "text" and "content" string (of every format), and
// returns their paths.
func withSecrets(t *testing.T, dir string, inputs []string) []string {
	t.Helper()
	var out []string
	for i, p := range inputs {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		planted := data
		for _, f := range []string{`"text":"`, `"text": "`, `"content":"`, `"content": "`} {
			planted = bytes.ReplaceAll(planted, []byte(f), []byte(f+"ghp_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7c "))
		}
		if bytes.Equal(planted, data) {
			continue
		}
		q := filepath.Join(dir, fmt.Sprintf("planted%d-%s", i, filepath.Base(p)))
		if err := os.WriteFile(q, planted, 0o644); err != nil {
			t.Fatal(err)
		}
		out = append(out, q)
	}
	return out
}

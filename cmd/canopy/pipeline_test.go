package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"canopy/export"
)

// TestExportAndArchiveMakeTheSamePage: `canopy export` and `canopy
// archive` make a session's page through one pipeline, so that, for the
// same session and flags, the pages are the same but for what only an
// archive's page has (its breadcrumbs) and what only a page on its own
// says (how many secrets were replaced; the original file's hash, when
// redaction changed it: an archive's manifest keeps it). An archive keeps
// sessions as they are unless --redact, an export redacts them unless
// --keep-secrets: the flags given to export say the same as the
// archive's.
func TestExportAndArchiveMakeTheSamePage(t *testing.T) {
	crumbs := regexp.MustCompile(`<nav class="?crumbs"?[^>]*>.*?</nav>`)
	original := regexp.MustCompile(`<br>cut down from the original file with SHA-256 <code class="?hash"?>[0-9a-f]{64}</code>`)
	counted := regexp.MustCompile(`secrets: \d+ replaced`)
	// A redacted archive's page says so even when it replaced nothing; a
	// page on its own only when it did.
	uncounted := regexp.MustCompile(`<dt>Left out</dt><dd><ul class="?omitted"?><li>secrets: replaced by [^<]*</li></ul></dd>`)
	for _, c := range []struct {
		session string
		flags   []string
		counted bool // the exported page says how many were replaced
	}{
		{"demo/demo.jsonl", nil, false},
		{"render/kinds.jsonl", nil, false},
		{"secrets/secrets.jsonl", nil, false},
		{"secrets/secrets.jsonl", []string{"--redact"}, true},
		{"demo/demo.jsonl", []string{"--redact"}, false},
	} {
		t.Run(c.session+strings.Join(c.flags, ""), func(t *testing.T) {
			dir := t.TempDir()
			src := filepath.Join(dir, "src")
			in := filepath.Join(src, filepath.Base(c.session))
			data, err := os.ReadFile(filepath.Join("..", "..", "testdata", c.session))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(src, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(in, data, 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, "arch")
			args := append([]string{"archive", src, "-o", out, "--quiet"}, c.flags...)
			if code, _, stderr := canopy(t, nil, args...); code != exitOK {
				t.Fatalf("archive: exit %d: %s", code, stderr)
			}
			var m struct {
				Sessions []struct{ Title, Page string }
			}
			if err := json.Unmarshal(mustRead(t, filepath.Join(out, "manifest.json")), &m); err != nil || len(m.Sessions) != 1 {
				t.Fatalf("manifest: %v, %d sessions", err, len(m.Sessions))
			}
			archived := string(mustRead(t, filepath.Join(out, m.Sessions[0].Page)))
			page := filepath.Join(dir, "page.html")
			exportFlags := c.flags
			if exportFlags == nil {
				exportFlags = []string{"--keep-secrets"}
			}
			args = append([]string{"export", in, "-o", page, "--title", m.Sessions[0].Title}, exportFlags...)
			if code, _, stderr := canopy(t, nil, args...); code != exitOK {
				t.Fatalf("export: exit %d: %s", code, stderr)
			}
			exported := string(mustRead(t, page))
			if !crumbs.MatchString(archived) {
				t.Fatal("the archive's page has no breadcrumbs")
			}
			archived = crumbs.ReplaceAllString(archived, "")
			if counted.MatchString(exported) != c.counted {
				t.Fatalf("the page says how many secrets it replaced: %v, want %v", !c.counted, c.counted)
			}
			if c.flags != nil {
				exported = counted.ReplaceAllString(original.ReplaceAllString(exported, ""), "secrets: replaced")
				if !c.counted {
					archived = uncounted.ReplaceAllString(archived, "")
				}
			}
			if exported != archived {
				t.Errorf("the pages differ (%d and %d bytes), at byte %d", len(exported), len(archived), firstDiff(exported, archived))
			}
		})
	}
}

func firstDiff(a, b string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestNoticesOnStderr: the notices of an export are the pipeline's, worded
// there once: what was written, the redaction summary, the interrupt.
func TestNoticesOnStderr(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, "p.html")
	_, _, stderr := canopy(t, nil, "export", secretsFile, "-o", page, "--redact")
	if !strings.HasSuffix(stderr, export.Wrote(page)+"\n") || !strings.Contains(stderr, "4 secrets redacted, 5 occurrences (aws-access-key 1") {
		t.Errorf("stderr:\n%s", stderr)
	}
	_, stdout, _ := canopy(t, nil, "scan", secretsFile)
	if !strings.Contains(stdout, "4 secrets found (5 occurrences):") {
		t.Errorf("scan:\n%s", stdout)
	}
}

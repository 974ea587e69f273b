package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"canopy/internal/pagetest"
)

func TestArchiveAndVerifyCommands(t *testing.T) {
	src, err := filepath.Abs(filepath.Join("..", "..", "testdata", "archive"))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "arch")
	code, _, stderr := canopy(t, nil, "archive", src, "-o", out, "--jobs", "2")
	if code != exitOK {
		t.Fatalf("archive: exit %d: %s", code, stderr)
	}
	// Not a terminal: one plain line per page, then the problems and a
	// summary naming what was done.
	for _, want := range []string{"pages 8/8 ", "broken.jsonl: error: skipped: line 1:", "archived 8 sessions in " + out + ": 8 pages rendered, 0 unchanged, 0 removed, 1 file skipped"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("archive stderr lacks %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "\r") {
		t.Error("progress bar drawn on a stream that is not a terminal")
	}
	code, _, stderr = canopy(t, nil, "archive", src, "-o", out, "--quiet")
	if code != exitOK || strings.Contains(stderr, "pages 1/8") || !strings.Contains(stderr, "0 pages rendered, 8 unchanged") {
		t.Errorf("quiet re-run: exit %d, stderr:\n%s", code, stderr)
	}

	code, stdout, _ := canopy(t, nil, "verify", out)
	if code != exitOK || !strings.Contains(stdout, "every page matches its manifest") {
		t.Errorf("verify: exit %d: %s", code, stdout)
	}
	index := filepath.Join(out, "index.html")
	b, _ := os.ReadFile(index)
	os.WriteFile(index, append(b, ' '), 0o644)
	code, stdout, _ = canopy(t, nil, "verify", out, "--json")
	var rep struct {
		OK       bool
		Findings []struct{ Path, Problem string }
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("verify --json: %v: %s", err, stdout)
	}
	if code != exitFail || rep.OK || len(rep.Findings) != 1 || rep.Findings[0].Path != "index.html" || !strings.HasPrefix(rep.Findings[0].Problem, "changed") {
		t.Errorf("verify after tampering: exit %d, %+v", code, rep)
	}

	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"archive", src}, exitUsage, "want at least one SRC and -o OUTDIR"},
		{[]string{"archive", src, "-o", out, "--since", "last week"}, exitUsage, "is not a date"},
		{[]string{"verify"}, exitUsage, "want one OUTDIR"},
		{[]string{"verify", src}, exitFail, "not a canopy archive"},
	} {
		code, _, stderr := canopy(t, nil, c.args...)
		if code != c.code || !strings.Contains(stderr, c.msg) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, stderr, c.code, c.msg)
		}
	}
}

// canopy archive ~: the agents' stores in a home directory are archived,
// the archive may be inside the home, and the run says what it read.
func TestArchiveHome(t *testing.T) {
	td, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	for from, to := range map[string]string{
		filepath.Join(td, "claude", "agents", "s1.jsonl"):                          filepath.Join(home, ".claude", "projects", "-work-q", "s1.jsonl"),
		filepath.Join(td, "claude", "agents", "s1", "subagents", "agent-a1.jsonl"): filepath.Join(home, ".claude", "projects", "-work-q", "s1", "subagents", "agent-a1.jsonl"),
		filepath.Join(td, "codex", "rollout.jsonl"):                                filepath.Join(home, ".codex", "sessions", "2026", "03", "03", "rollout-1.jsonl"),
		filepath.Join(td, "codex", "events-only.jsonl"):                            filepath.Join(home, "src", "elsewhere.jsonl"), // not in an agent's store: not read
	} {
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(home, "archive")
	code, _, stderr := canopy(t, nil, "archive", home, "-o", out)
	want := home + " holds agents' sessions: archiving " + filepath.Join(home, ".claude", "projects") + ", " + filepath.Join(home, ".codex", "sessions")
	if code != exitOK || !strings.Contains(stderr, want) || !strings.Contains(stderr, "archived 3 sessions") {
		t.Errorf("archive of a home: exit %d, stderr:\n%s\nwant %q and 3 sessions", code, stderr, want)
	}
	if _, _, stderr := canopy(t, nil, "archive", home, "-o", out, "--quiet"); strings.Contains(stderr, "holds agents' sessions") {
		t.Errorf("--quiet still says what it reads: %s", stderr)
	}
}

// TestArchiveCountsSecrets: an archive keeps sessions as they are (an
// audit record) but says which hold credentials: in its summary, in the
// index (a note under the totals and a mark on the row) and in the
// manifest; with --redact it says they were replaced, and its pages and
// index hold none.
func TestArchiveCountsSecrets(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	if err := os.Mkdir(src, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{secretsFile, filepath.Join("..", "..", "testdata", "demo", "demo.jsonl")} {
		if err := os.WriteFile(filepath.Join(src, filepath.Base(f)), mustRead(t, f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		flags          []string
		summary, index string
		row            string
		kept           bool
	}{
		{nil, "1 session holds credentials (4 secrets in all), kept as they are (marked in the index): to publish the archive, make it with --redact",
			"1 session holds credentials (4 secrets in all), marked below and kept as they are", `<span class="secrets">4 secrets kept</span>`, true},
		{[]string{"--redact"}, "1 session holds credentials (4 secrets in all): replaced in their pages",
			"1 session holds credentials (4 secrets in all): replaced by", `<span class="secrets">4 secrets redacted</span>`, false},
	} {
		out := filepath.Join(dir, "arch"+strings.Join(c.flags, ""))
		code, _, stderr := canopy(t, nil, append([]string{"archive", src, "-o", out, "--quiet"}, c.flags...)...)
		if code != exitOK || !strings.Contains(stderr, "canopy archive: "+c.summary+"\n") {
			t.Errorf("%v: exit %d, stderr lacks %q:\n%s", c.flags, code, c.summary, stderr)
		}
		index := string(mustRead(t, filepath.Join(out, "index.html")))
		if !strings.Contains(index, c.index) || strings.Count(index, `<span class="secrets">`) != 1 || !strings.Contains(index, c.row) {
			t.Errorf("%v: the index does not mark the one session with secrets (%q, %q)", c.flags, c.index, c.row)
		}
		var m struct {
			Sessions []struct {
				Source, Page string
				Secrets      int
			}
		}
		if err := json.Unmarshal(mustRead(t, filepath.Join(out, "manifest.json")), &m); err != nil {
			t.Fatal(err)
		}
		for _, s := range m.Sessions {
			want := 0
			if filepath.Base(s.Source) == "secrets.jsonl" {
				want = 4
			}
			page := pagetest.InflateStore(t, string(mustRead(t, filepath.Join(out, filepath.FromSlash(s.Page)))))
			if s.Secrets != want || strings.Contains(page, plantedSecrets[0]) != (c.kept && want > 0) {
				t.Errorf("%v: %s: %d secrets in the manifest, want %d; kept in its page: %v, want %v",
					c.flags, s.Source, s.Secrets, want, !c.kept, c.kept)
			}
		}
		if strings.Contains(index, plantedSecrets[0]) != c.kept {
			t.Errorf("%v: the index shows the secret in the title: %v, want %v", c.flags, !c.kept, c.kept)
		}
	}
}

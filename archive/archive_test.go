package archive

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json"

	"canopy/internal/pagetest"
)

// fixtures copies testdata/archive (pi directories, a gateway store, Flue
// documents) into a temporary directory and returns the SRC arguments, as
// paths relative to the new working directory the test moves into.
func fixtures(t *testing.T) (srcs []string, dir string) {
	t.Helper()
	dir = t.TempDir()
	if err := os.CopyFS(filepath.Join(dir, "src"), os.DirFS(filepath.Join(cwdAtStart, "../testdata/archive"))); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	return []string{"src/pi", "src/gateway", "src/flue"}, dir
}

func run(t *testing.T, srcs []string, out string, o Options) *Result {
	t.Helper()
	if o.Version == "" {
		o.Version = "test"
	}
	res, err := Run(context.Background(), srcs, out, o)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return res
}

func manifest(t *testing.T, out string) *Manifest {
	t.Helper()
	m, err := readManifest(out)
	if err != nil || m == nil {
		t.Fatalf("manifest: %v", err)
	}
	return m
}

func page(t *testing.T, out string, m *Manifest, source string) string {
	t.Helper()
	for _, s := range m.Sessions {
		if strings.HasSuffix(s.Source, source) {
			b, err := os.ReadFile(filepath.Join(out, s.Page))
			if err != nil {
				t.Fatal(err)
			}
			return string(b)
		}
	}
	t.Fatalf("no page for %s", source)
	return ""
}

const (
	piParent = "2026-05-01T10-00-00-000Z_0196a000-0000-7000-8000-000000000001.jsonl"
	piFork   = "2026-05-02T09-00-00-000Z_0196a000-0000-7000-8000-000000000002.jsonl"
	gwMain   = "7d3c1b9e-1111-4222-8333-444455556666.jsonl"
	gwTopic  = "7d3c1b9e-1111-4222-8333-444455556666-topic-42.jsonl"
	gwCron   = "7d3c1b9e-9999-4222-8333-444455557777.jsonl"
)

func TestArchiveLayouts(t *testing.T) {
	srcs, _ := fixtures(t)
	res := run(t, srcs, "out", Options{})
	if res.Sessions != 8 || res.Rendered != 8 {
		t.Errorf("sessions %d, rendered %d; want 8 and 8", res.Sessions, res.Rendered)
	}
	// The broken .jsonl is reported; the .json that is no Flue document
	// (settings.json) is passed over in silence.
	if len(res.Problems) != 1 || !strings.HasSuffix(res.Problems[0].Path, "broken.jsonl") || !strings.Contains(res.Problems[0].Error, "line 1") {
		t.Errorf("problems = %+v, want broken.jsonl at line 1", res.Problems)
	}
	m := manifest(t, "out")
	formats := map[string]string{}
	for _, s := range m.Sources {
		formats[filepath.Base(s.Path)] = s.Format
		if len(s.SHA256) != 64 || s.Size <= 0 {
			t.Errorf("source %s: size %d sha256 %q", s.Path, s.Size, s.SHA256)
		}
	}
	for name, want := range map[string]string{
		piParent: "pi v3", "2026-04-01T08-00-00-000Z_legacy.jsonl": "pi v1", "sessions.json": FormatGateway,
		"session-root.json": "flue v3", gwTopic: "pi v3",
	} {
		if formats[name] != want {
			t.Errorf("format of %s = %q, want %q", name, formats[name], want)
		}
	}
	if _, ok := formats["settings.json"]; ok {
		t.Error("settings.json is in the manifest's sources")
	}

	// Links both ways, as breadcrumbs and related lists.
	cases := []struct {
		source string
		want   []string
	}{
		{piFork, []string{`<dt>Forked from</dt><dd><ul class="related"><li><a href="` + strings.TrimSuffix(piParent, ".jsonl") + `.html">Add a checkout button`,
			`<li><a href="` + strings.TrimSuffix(piParent, ".jsonl") + `.html">Add a checkout button to the cart page</a></li><li aria-current="page">Blue checkout button</li>`,
			`<a href="../../../index.html">Archive</a>`, `<a href="../../../index.html#` + projectAnchor("/home/ada/shop") + `">/home/ada/shop</a>`}},
		{piParent, []string{`<dt>Forks</dt><dd><ul class="related"><li><a href="` + strings.TrimSuffix(piFork, ".jsonl") + `.html">Blue checkout button</a>`}},
		{"session-root.json", []string{`<dt>Child tasks</dt><dd><ul class="related"><li><a href="session-task-1.html">Run the tests</a></li><li>session-task-lost · task task-2 (not in the archive)</li>`}},
		{"session-task-1.json", []string{`<dt>Task of</dt><dd><ul class="related"><li><a href="session-root.html">Review the pull request`}},
		{gwMain, []string{`<dt>Topics</dt><dd><ul class="related"><li><a href="` + strings.TrimSuffix(gwTopic, ".jsonl") + `.html">`, `<dt>Gateway key</dt><dd><ul class="related"><li>agent:main:main</li>`,
			`class="entry k-assistant silent"`, "Silent turn (NO_REPLY): not delivered to the user"}},
		{gwTopic, []string{`<dt>Topic of</dt>`, `<li>agent:main:main · topic 42</li>`}},
		{gwCron, []string{`<li>cron:nightly-report</li>`, `class="entry k-assistant silent"`}},
	}
	for _, c := range cases {
		p := page(t, "out", m, c.source)
		for _, w := range c.want {
			if !strings.Contains(p, w) {
				t.Errorf("page of %s lacks %s", c.source, w)
			}
		}
	}
	if p := page(t, "out", m, piParent); strings.Contains(p, " silent") && strings.Contains(p, `k-assistant silent`) {
		t.Error("a session without NO_REPLY turns has silent entries")
	}

	index, err := os.ReadFile("out/index.html")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{
		`<section class="project" id="` + projectAnchor("/home/ada/shop") + `">`, `<h2>/home/ada/shop</h2>`,
		`<a href="sessions/pi/--home-ada-shop--/` + strings.TrimSuffix(piFork, ".jsonl") + `.html">Blue checkout button</a>`,
		"fork of Add a checkout button to the cart page", "1 fork",
		`<td data-v="cron:nightly-report">cron:nightly-report</td>`, "Nightly report · cron",
		"Ada (DM) · direct · store: 300 in / 60 out / 360 total tokens · context 200,000 · 1 compaction",
		`<td data-v="agent:main:main · topic 42">`,
		"1 silent turn (NO_REPLY or HEARTBEAT_OK, not delivered)", "task of Review the pull request", "2 child tasks", "topic of What is on my calendar today?",
		"8 sessions in 4 projects", "<code>src/pi/--home-ada-shop--/broken.jsonl</code>",
		`http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; script-src &#39;sha256-`,
	} {
		if !bytes.Contains(index, []byte(w)) {
			t.Errorf("index lacks %s", w)
		}
	}
	findings, ok, err := Verify("out")
	if err != nil || !ok {
		t.Errorf("Verify: ok %v, err %v, findings %+v", ok, err, findings)
	}
}

func TestArchiveIsDeterministic(t *testing.T) {
	srcs, _ := fixtures(t)
	run(t, srcs, "a", Options{Jobs: 1})
	run(t, srcs, "b", Options{Jobs: 4})
	a, b := tree(t, "a"), tree(t, "b")
	if len(a) != len(b) || len(a) < 10 {
		t.Fatalf("%d files against %d", len(a), len(b))
	}
	for name, data := range a {
		if !bytes.Equal(data, b[name]) {
			t.Errorf("%s differs between two runs", name)
		}
	}
}

// tree reads every file under dir.
func tree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[rel] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func mustRead(t *testing.T, p string) string {
	t.Helper()
	return string(mustReadBytes(t, p))
}

func mustReadBytes(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// cwdAtStart is the package directory: tests move into temporary ones.
var cwdAtStart string

// TestMain lets the interrupted-run test run an archive in a child process
// (this test binary) that it can kill.
func TestMain(m *testing.M) {
	cwdAtStart, _ = os.Getwd()
	if out := os.Getenv("CANOPY_ARCHIVE_CHILD"); out != "" {
		_, err := Run(context.Background(), strings.Split(os.Getenv("CANOPY_ARCHIVE_SRCS"), ","), out, Options{Version: "test", Jobs: 1})
		if err != nil {
			os.Stderr.WriteString(err.Error())
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// The manifest is plain, stable JSON: a reader can diff two archives'.
func TestManifestIsStableJSON(t *testing.T) {
	srcs, _ := fixtures(t)
	run(t, srcs, "out", Options{})
	var v map[string]any
	if err := json.Unmarshal([]byte(mustRead(t, "out/manifest.json")), &v); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"canopy", "flags", "sources", "pages", "sessions", "skipped"} {
		if _, ok := v[k]; !ok {
			t.Errorf("manifest lacks %q", k)
		}
	}
	pages := v["pages"].([]any)
	for _, p := range pages {
		p := p.(map[string]any)
		if p["canopy"] != "test" || p["sha256"] == "" {
			t.Errorf("page record %v lacks its version or hash", p)
		}
	}
}

func TestArchiveRedacts(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	os.MkdirAll("src", 0o755)
	data, err := os.ReadFile(filepath.Join(cwdAtStart, "../testdata/secrets/secrets.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile("src/secrets.jsonl", data, 0o644)
	// A gateway store labels it, with a secret in its display name: the
	// index shows labels, so they are redacted too.
	os.WriteFile("src/sessions.json", []byte(`{"agent:ops:main":{"sessionId":"secrets","displayName":"deploy AKIAQ3EGX7LZPKTQ4J2N"}}`), 0o644)
	secrets := []string{"ghp_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7c", "AKIAQ3EGX7LZPKTQ4J2N"}
	for _, redacted := range []bool{false, true} {
		out := map[bool]string{false: "plain", true: "redacted"}[redacted]
		run(t, []string{"src"}, out, Options{Redact: redacted})
		found := map[string]bool{}
		for name, b := range tree(t, out) {
			for _, s := range secrets {
				if strings.Contains(pagetest.InflateStore(t, string(b)), s) {
					found[s] = true
					if redacted {
						t.Errorf("%s holds %s", name, s)
					}
				}
			}
		}
		if !redacted && len(found) != len(secrets) {
			t.Errorf("without --redact the archive holds %d of the %d secrets: the test checks nothing", len(found), len(secrets))
		}
		index := mustRead(t, filepath.Join(out, "index.html"))
		if redacted && (!strings.Contains(index, "Deploy with token [REDACTED:") || !strings.Contains(index, "made with --redact") || !strings.Contains(index, "deploy [REDACTED:")) {
			t.Error("the redacted index does not show the redacted first prompt and the flag")
		}
	}
}

func TestArchiveSince(t *testing.T) {
	srcs, _ := fixtures(t)
	res := run(t, srcs, "out", Options{Since: time.Date(2026, 5, 5, 0, 0, 0, 0, time.UTC)})
	// Active on or after 5 May: the gateway's three transcripts and the
	// two Flue documents; the pi sessions are older.
	if res.Sessions != 5 {
		t.Errorf("sessions since 5 May: %d, want 5", res.Sessions)
	}
	for _, s := range manifest(t, "out").Sessions {
		if s.LastActivity < "2026-05-05" {
			t.Errorf("%s (last active %s) is in the archive", s.Source, s.LastActivity)
		}
	}
}

// The same sources named another way (an absolute path instead of a
// relative one) are the same archive: nothing is rendered again.
func TestArchiveSourcesNamedAnotherWay(t *testing.T) {
	srcs, dir := fixtures(t)
	run(t, srcs, "out", Options{})
	abs := make([]string, len(srcs))
	for i, s := range srcs {
		abs[i] = filepath.Join(dir, s)
	}
	res := run(t, abs, "out", Options{})
	if res.Rendered != 0 || res.Kept != 8 {
		t.Errorf("re-run with absolute paths: %+v", res)
	}
	m := manifest(t, "out")
	for _, s := range m.Sources {
		if !filepath.IsAbs(s.Path) {
			t.Errorf("manifest source %s: not the path as given this time", s.Path)
		}
	}
	if _, ok, _ := Verify("out"); !ok {
		t.Error("Verify fails")
	}
}

package main

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"canopy/internal/pagetest"
)

// runCmd runs canopy with args in dir and returns its exit status and
// streams.
func runCmd(t *testing.T, dir string, stdin []byte, args ...string) (int, string, string) {
	t.Helper()
	if dir != "" {
		old, _ := os.Getwd()
		if err := os.Chdir(dir); err != nil {
			t.Fatal(err)
		}
		defer os.Chdir(old)
	}
	var out, errb bytes.Buffer
	st := run(args, &env{stdin: bytes.NewReader(stdin), stdout: &out, stderr: &errb})
	return st, pagetest.InflateStore(t, out.String()), errb.String()
}

// sessionCopy copies a conformance session into a temp dir, with an old
// modification time so that any write would show.
func sessionCopy(t *testing.T) (dir, path string, data []byte) {
	t.Helper()
	src, err := filepath.Glob(filepath.Join("..", "..", "testdata", "conformance", "s001", "*.jsonl"))
	if err != nil || len(src) != 1 {
		t.Fatalf("conformance case s001 not found: %v", err)
	}
	data, err = os.ReadFile(src[0])
	if err != nil {
		t.Fatal(err)
	}
	dir = t.TempDir()
	path = filepath.Join(dir, "session.jsonl")
	if err := os.WriteFile(path, data, 0o444); err != nil {
		t.Fatal(err)
	}
	old := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	return dir, path, data
}

func assertUnchanged(t *testing.T, path string, data []byte) {
	t.Helper()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, data) {
		t.Errorf("%s was modified", path)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if !fi.ModTime().Equal(time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)) {
		t.Errorf("%s: modification time changed to %v", path, fi.ModTime())
	}
}

func TestExportDefaultOutputAndDeterminism(t *testing.T) {
	dir, path, data := sessionCopy(t)
	st, _, stderr := runCmd(t, dir, nil, "export", path)
	if st != exitOK {
		t.Fatalf("exit %d: %s", st, stderr)
	}
	first, err := os.ReadFile(filepath.Join(dir, "session.html"))
	if err != nil {
		t.Fatalf("default output session.html not written: %v", err)
	}
	if !bytes.HasPrefix(first, []byte("<!doctype html>")) && !bytes.HasPrefix(first, []byte("<!DOCTYPE html>")) {
		t.Errorf("output does not start with a doctype: %q", first[:min(40, len(first))])
	}
	// `canopy FILE` is `canopy export FILE`, and the same input gives the
	// same bytes.
	if st, _, stderr := runCmd(t, dir, nil, path, "-o", "again.html"); st != exitOK {
		t.Fatalf("exit %d: %s", st, stderr)
	}
	second, _ := os.ReadFile(filepath.Join(dir, "again.html"))
	if !bytes.Equal(first, second) {
		t.Error("two exports of the same input differ")
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".canopy-") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
	assertUnchanged(t, path, data)
}

func TestExportFlags(t *testing.T) {
	dir, path, data := sessionCopy(t)
	tests := []struct {
		name   string
		args   []string
		status int
		stdout []string // substrings of stdout
		absent []string // must not be in stdout
		stderr string
	}{
		{"stdout", []string{"export", path, "-o", "-"}, exitOK, []string{`id="tree-data"`, `id="source-data"`, `data-theme="auto"`}, nil, ""},
		{"no source", []string{"export", path, "-o", "-", "--no-source"}, exitOK, []string{`id="tree-data"`}, []string{`id="source-data"`, `id="download-source"`}, ""},
		{"theme and title", []string{"export", path, "-o", "-", "--theme", "dark", "--title", "My <title>"}, exitOK, []string{`data-theme="dark"`, "My &lt;title"}, nil, ""},
		{"bad theme", []string{"export", path, "--theme", "pink"}, exitUsage, nil, nil, "--theme"},
		{"unknown leaf", []string{"export", path, "-o", "-", "--leaf", "nope"}, exitFail, nil, nil, `"nope"`},
		{"no file", []string{"export"}, exitUsage, nil, nil, "want one FILE"},
		{"over the input", []string{"export", path, "-o", path}, exitFail, nil, nil, "refusing"},
		{"missing file", []string{"export", filepath.Join(dir, "missing.jsonl")}, exitFail, nil, nil, "missing.jsonl"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, stdout, stderr := runCmd(t, dir, nil, tt.args...)
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
			if !strings.Contains(stderr, tt.stderr) {
				t.Errorf("stderr %q lacks %q", stderr, tt.stderr)
			}
			assertUnchanged(t, path, data)
		})
	}
}

func TestExportLeafChangesConversation(t *testing.T) {
	dir, path, _ := sessionCopy(t)
	_, def, _ := runCmd(t, dir, nil, "export", path, "-o", "-")
	// The first entry of the file is a root: exporting with it as the leaf
	// shows a conversation of one entry.
	var first struct{ id string }
	for _, line := range strings.Split(string(mustRead(t, path)), "\n")[1:] {
		if i := strings.Index(line, `"id":"`); i >= 0 {
			first.id = line[i+6 : i+6+strings.IndexByte(line[i+6:], '"')]
			break
		}
	}
	st, leafPage, stderr := runCmd(t, dir, nil, "export", path, "-o", "-", "--leaf", first.id)
	if st != exitOK {
		t.Fatalf("exit %d: %s", st, stderr)
	}
	if def == leafPage {
		t.Fatal("--leaf did not change the page")
	}
	main := leafPage[strings.Index(leafPage, `id="conversation"`):strings.Index(leafPage, `id="conv-end"`)]
	if n := strings.Count(main, "<article "); n != 1 {
		t.Errorf("conversation for a root leaf has %d entries, want 1", n)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestExportScope(t *testing.T) {
	kinds := filepath.Join("..", "..", "testdata", "render", "kinds.jsonl")
	tests := []struct {
		name    string
		args    []string
		present []string
		absent  []string
	}{
		{"path only", []string{"--leaf", "assistant-final", "--path-only"},
			[]string{"every branch but the one shown (1 entry)", `id="entry-assistant-final"`},
			[]string{`"branch-summary"`, "Tried **port 0**"}},
		{"no thinking", []string{"--no-thinking"}, []string{"thinking (1 block)"}, []string{"races"}},
		{"no tool output", []string{"--no-tool-output"}, []string{"tool output (9 results)", "left out of this export"}, []string{"Wrote 2 lines"}},
		{"no hidden", []string{"--no-hidden"}, []string{"custom messages hidden from the user (1 message)"}, []string{"hidden note"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, page, stderr := runCmd(t, "", nil, append([]string{"export", kinds, "-o", "-"}, tt.args...)...)
			if st != exitOK {
				t.Fatalf("exit %d: %s", st, stderr)
			}
			for _, s := range tt.present {
				if !strings.Contains(page, s) {
					t.Errorf("page lacks %q", s)
				}
			}
			// Absent from the page, and so from the embedded download too:
			// the source is the cut-down file (checked by decoding it).
			src := embeddedSource(t, page)
			for _, s := range tt.absent {
				if strings.Contains(page, s) || strings.Contains(src, s) {
					t.Errorf("%q is still in the page or its embedded source", s)
				}
			}
		})
	}
}

// embeddedSource decodes the session file a page embeds for download.
func embeddedSource(t *testing.T, page string) string {
	t.Helper()
	const open = `<script type="application/json" id="source-data">"`
	i := strings.Index(page, open)
	if i < 0 {
		t.Fatal("no embedded source")
	}
	rest := page[i+len(open):]
	b64 := rest[:strings.IndexByte(rest, '"')]
	z, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		t.Fatal(err)
	}
	r, err := gzip.NewReader(bytes.NewReader(z))
	if err != nil {
		t.Fatal(err)
	}
	if h := r.Header; h.Name != "" || h.Comment != "" || !h.ModTime.IsZero() { // MTIME 0 reads as the zero time
		t.Errorf("the embedded source's gzip header has a name, comment or time: %+v", h)
	}
	src, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(src)
}

// TestExportCPUProfile: --cpuprofile (hidden: it is for building canopy,
// see bench/cmd/canopybench --pgo) writes a CPU profile, gzip-compressed as
// runtime/pprof writes them, and the page is the one made without it.
func TestExportCPUProfile(t *testing.T) {
	dir, path, data := sessionCopy(t)
	prof := filepath.Join(dir, "cpu.prof")
	st, with, stderr := runCmd(t, dir, nil, "export", "--cpuprofile", prof, path, "-o", "-")
	if st != exitOK {
		t.Fatalf("exit %d; stderr: %s", st, stderr)
	}
	b, err := os.ReadFile(prof)
	if err != nil {
		t.Fatal(err)
	}
	// A profile is gzip-compressed protocol buffers.
	if len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Errorf("%s is not a gzip-compressed profile (%d bytes)", prof, len(b))
	}
	_, without, _ := runCmd(t, dir, nil, "export", path, "-o", "-")
	if with != without {
		t.Error("the page made with --cpuprofile differs from the one made without it")
	}
	st, _, stderr = runCmd(t, dir, nil, "export", "--cpuprofile", filepath.Join(dir, "no", "such", "dir.prof"), path, "-o", "-")
	if st != exitFail || !strings.Contains(stderr, "CPU profile") {
		t.Errorf("unwritable profile: exit %d, stderr %q; want %d and a message", st, stderr, exitFail)
	}
	if _, help, _ := runCmd(t, dir, nil, "export", "--help"); strings.Contains(help, "cpuprofile") {
		t.Error("export --help lists --cpuprofile, a flag for building canopy")
	}
	assertUnchanged(t, path, data)
}

// TestArchiveCPUProfile: archive's --cpuprofile (hidden, as export's)
// writes a gzip-compressed profile, never over a file canopy did not
// make.
func TestArchiveCPUProfile(t *testing.T) {
	dir, path, data := sessionCopy(t)
	src, out := filepath.Dir(path), t.TempDir()
	prof := filepath.Join(out, "cpu.prof")
	if st, _, stderr := runCmd(t, dir, nil, "archive", "--quiet", "--cpuprofile", prof, src, "-o", filepath.Join(out, "a")); st != exitOK {
		t.Fatalf("exit %d; stderr: %s", st, stderr)
	}
	if b, err := os.ReadFile(prof); err != nil || len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Errorf("%s is not a gzip-compressed profile: %v", prof, err)
	}
	notes := filepath.Join(out, "notes.txt")
	if err := os.WriteFile(notes, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, _, stderr := runCmd(t, dir, nil, "archive", "--quiet", "--cpuprofile", notes, src, "-o", filepath.Join(out, "b"))
	if st != exitFail || !strings.Contains(stderr, "CPU profile") {
		t.Errorf("a profile over notes.txt: exit %d, stderr %q", st, stderr)
	}
	if b, _ := os.ReadFile(notes); string(b) != "mine" {
		t.Error("notes.txt was overwritten")
	}
	if _, help, _ := runCmd(t, dir, nil, "archive", "--help"); strings.Contains(help, "cpuprofile") {
		t.Error("archive --help lists --cpuprofile, a flag for building canopy")
	}
	assertUnchanged(t, path, data)
}

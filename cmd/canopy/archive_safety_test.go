package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// archiveFixtures copies testdata/archive into a temporary directory and
// returns it.
func archiveFixtures(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(filepath.Join(dir, "src"), os.DirFS(filepath.Join("..", "..", "testdata", "archive"))); err != nil {
		t.Fatal(err)
	}
	return dir
}

// files reads every regular file under dir.
func files(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			b, _ := os.ReadFile(p)
			out[p] = string(b)
		}
		return nil
	})
	return out
}

func TestArchiveCommandSafety(t *testing.T) {
	dir := archiveFixtures(t)
	src := filepath.Join(dir, "src")
	out := filepath.Join(dir, "out")

	// Standard input is no source of an archive.
	code, _, stderr := canopy(t, nil, "archive", "-", "-o", out)
	if code != exitUsage || !strings.Contains(stderr, "not standard input") {
		t.Errorf("archive -: exit %d, %q", code, stderr)
	}

	// A SRC that is a link to the sessions.
	link := filepath.Join(dir, "link")
	os.Symlink(src, link)
	code, _, stderr = canopy(t, nil, "archive", link, "-o", out, "--quiet")
	if code != exitOK || !strings.Contains(stderr, "archived 8 sessions") {
		t.Fatalf("archive LINK: exit %d, %q", code, stderr)
	}

	// A source gone: its page is kept, stale, and the run exits 1.
	gone := filepath.Join(src, "flue", "session-task-1.json")
	os.Rename(gone, gone+".bak")
	code, _, stderr = canopy(t, nil, "archive", link, "-o", out, "--quiet")
	if code != exitFail || !strings.Contains(stderr, "session-task-1.json: error: stale: source missing: ") ||
		!strings.Contains(stderr, "its page from an earlier run is kept (sessions/link/flue/session-task-1.html)") ||
		!strings.Contains(stderr, "archived 8 sessions in "+out+": 0 pages rendered, 7 unchanged, 1 stale, 0 removed") {
		t.Errorf("archive with a source gone: exit %d, %q", code, stderr)
	}
	// --prune: removed; the page that linked to it is made again.
	code, _, stderr = canopy(t, nil, "archive", link, "-o", out, "--quiet", "--prune")
	if code != exitOK || !strings.Contains(stderr, "archived 7 sessions in "+out+": 1 page rendered, 6 unchanged, 1 removed") {
		t.Errorf("archive --prune: exit %d, %q", code, stderr)
	}

	// A page replaced by a FIFO: verify reports it at once.
	page := filepath.Join(out, "sessions", "link", "flue", "session-root.html")
	os.Remove(page)
	if err := syscall.Mkfifo(page, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan struct{})
	var stdout string
	go func() {
		defer close(done)
		code, stdout, _ = canopy(t, nil, "verify", out)
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("verify hangs on a FIFO page")
	}
	if code != exitFail || !strings.Contains(stdout, "sessions/link/flue/session-root.html: not a regular file: a named pipe (FIFO)") {
		t.Errorf("verify with a FIFO page: exit %d, %q", code, stdout)
	}

	// An interrupt before anything was done: exit 130, OUTDIR as it was.
	before := files(t, dir)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var errb bytes.Buffer
	code = run([]string{"archive", link, "-o", out}, &env{ctx: ctx, stdin: strings.NewReader(""), stdout: &bytes.Buffer{}, stderr: &errb})
	if code != exitInterrupted || errb.String() != "canopy archive: interrupted; "+out+" left as it was\n" {
		t.Errorf("interrupted archive: exit %d, %q", code, errb.String())
	}
	if after := files(t, dir); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Error("the interrupted run changed files")
	}
}

// TestArchiveCommandRefusesAForeignDirectory: a directory with another
// program's manifest.json is refused as OUTDIR, and left untouched.
func TestArchiveCommandRefusesAForeignDirectory(t *testing.T) {
	dir := archiveFixtures(t)
	src := filepath.Join(dir, "src")
	app := filepath.Join(dir, "app")
	os.MkdirAll(filepath.Join(app, "src"), 0o755)
	os.WriteFile(filepath.Join(app, "manifest.json"), []byte(`{"manifest_version":3}`), 0o644)
	os.WriteFile(filepath.Join(app, "src", "a.js"), []byte("x\n"), 0o644)
	before := files(t, dir)
	code, _, stderr := canopy(t, nil, "archive", src, "-o", app)
	if code != exitFail || !strings.Contains(stderr, "manifest.json that canopy did not write") {
		t.Errorf("archive into a web app: exit %d, %q", code, stderr)
	}
	if after := files(t, dir); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Error("the refused run changed files")
	}
	if _, err := os.Lstat(filepath.Join(dir, ".app.canopy-lock")); err == nil {
		t.Error("the refused run made a lock file")
	}

}

// File names (and so problems and progress) reach the terminal with
// their control characters escaped.
func TestArchiveCommandEscapesNames(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	os.MkdirAll(src, 0o755)
	evil := "evil\x1b]0;pwned\x07\x1b[2J.jsonl"
	os.WriteFile(filepath.Join(src, evil), []byte("not a session\n"), 0o644)
	demo, err := os.ReadFile(filepath.Join("..", "..", "testdata", "archive", "flue", "session-root.json"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(src, "ok\x1b[31m.json"), demo, 0o644)
	code, _, stderr := canopy(t, nil, "archive", src, "-o", filepath.Join(dir, "out"))
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if strings.ContainsAny(stderr, "\x1b\x07") {
		t.Errorf("control characters reach the terminal: %q", stderr)
	}
	for _, want := range []string{`evil\x1b]0;pwned\a\x1b[2J.jsonl: error: skipped:`, `pages 1/1 ` + src + `/ok\x1b[31m.json`} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
}

// TestSIGINTDuringArchive: Ctrl-C while pages are being made leaves no
// staging directory and no lock, the previous archive as it was, and the
// process exits 130 with one line saying so.
func TestSIGINTDuringArchive(t *testing.T) {
	if testing.Short() {
		t.Skip("generates sessions of 20,000 entries")
	}
	dir := archiveFixtures(t)
	src := filepath.Join(dir, "src")
	out := filepath.Join(dir, "out")
	if code, _, stderr := canopy(t, nil, "archive", src, "-o", out, "--quiet"); code != exitOK {
		t.Fatalf("archive: %d %s", code, stderr)
	}
	before := files(t, out)
	big := filepath.Join(src, "pi", "--home-ada-big--")
	os.MkdirAll(big, 0o755)
	for i := range 4 {
		writeSession(t, filepath.Join(big, fmt.Sprintf("big-%d.jsonl", i)), 20000, uint64(i+1))
	}
	stage := filepath.Join(dir, ".out.canopy-staging")
	cmd := exec.Command(os.Args[0], "archive", src, "-o", out, "--jobs", "1", "--quiet")
	cmd.Env = append(os.Environ(), "CANOPY_TEST_MAIN=1")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if _, err := os.Stat(stage); err == nil {
			break
		}
		time.Sleep(time.Millisecond)
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		t.Skipf("the archive finished before it could be interrupted (%v)", err)
	}
	if ee.ExitCode() != exitInterrupted || stderr.String() != "canopy archive: interrupted; "+out+" left as it was\n" {
		t.Errorf("%v, stderr %q; want exit %d and one line", err, stderr.String(), exitInterrupted)
	}
	for _, p := range []string{stage, filepath.Join(dir, ".out.canopy-lock")} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s left behind", p)
		}
	}
	if after := files(t, out); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Error("the interrupted run changed the archive")
	}
}

// TestArchiveMissingSRC: a SRC that is not there fails the run before
// anything is written, and an archive already at OUTDIR keeps its pages.
func TestArchiveMissingSRC(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "A")
	src := filepath.Join("..", "..", "testdata", "archive", "pi")
	if code, _, stderr := canopy(t, nil, "archive", "-q", src, "-o", out); code != exitOK {
		t.Fatalf("first run: exit %d\n%s", code, stderr)
	}
	before := snapshot(t, dir)
	for _, args := range [][]string{
		{"archive", "-q", filepath.Join(dir, "typo"), "-o", out},
		{"archive", "-q", src, filepath.Join(dir, "typo"), "-o", out},
		{"archive", "-q", filepath.Join(dir, "typo"), "-o", filepath.Join(dir, "B")},
	} {
		code, _, stderr := canopy(t, nil, args...)
		if code != exitFail || !strings.Contains(stderr, "no such file") || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want 1 and one line naming the missing SRC", args, code, stderr)
		}
	}
	sameSnapshot(t, before, snapshot(t, dir))
}

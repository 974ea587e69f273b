package archive

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// entry is what a test remembers of one file or directory: enough to
// tell that it was not touched at all.
type entry struct {
	mode   fs.FileMode
	data   string // a regular file's bytes
	target string // a link's
	mtime  time.Time
}

// snapshot records every entry under root (links not followed).
func snapshot(t *testing.T, root string) map[string]entry {
	t.Helper()
	return snapshotCached(t, root, nil)
}

// snapshotCached is snapshot, reading again only the files whose fileID
// is not in cache (nil: none is).
func snapshotCached(t *testing.T, root string, cache map[fileID]string) map[string]entry {
	t.Helper()
	out := map[string]entry{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		e := entry{mode: fi.Mode(), mtime: fi.ModTime()}
		switch {
		case fi.Mode().IsRegular():
			id, known := statID(fi)
			if known && cache != nil {
				if data, ok := cache[id]; ok {
					e.data = data
					break
				}
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			e.data = string(b)
			if known && cache != nil {
				cache[id] = e.data
			}
		case fi.Mode()&fs.ModeSymlink != 0:
			e.target, _ = os.Readlink(p)
		}
		out[p] = e
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sameTree fails the test for every difference between two snapshots,
// modification times included (of directories too: a lock file made and
// removed again changes its directory's).
func sameTree(t *testing.T, what string, before, after map[string]entry) {
	t.Helper()
	compareTrees(t, what, before, after, true)
}

// sameFiles is sameTree for a run that failed after it began: it took
// the lock and made its staging directory, and removed them, which
// changes the modification time of the directory they were in.
func sameFiles(t *testing.T, what string, before, after map[string]entry) {
	t.Helper()
	compareTrees(t, what, before, after, false)
}

func compareTrees(t *testing.T, what string, before, after map[string]entry, dirTimes bool) {
	t.Helper()
	for p, b := range before {
		a, ok := after[p]
		switch {
		case !ok:
			t.Errorf("%s: %s was removed", what, p)
		case a.mode != b.mode || a.data != b.data || a.target != b.target:
			t.Errorf("%s: %s was changed", what, p)
		case !a.mtime.Equal(b.mtime) && (dirTimes || !b.mode.IsDir()):
			t.Errorf("%s: %s was touched (mtime %v, was %v)", what, p, a.mtime, b.mtime)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("%s: %s was made", what, p)
		}
	}
}

// within runs f, failing the test if it has not returned after a minute:
// what it checks must not hang (the limit is not a measure of speed).
func within(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatalf("%s: still running after a minute: it hangs", what)
	}
}

func mkfifo(t *testing.T, p string) {
	t.Helper()
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
}

func write(t *testing.T, p, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// noLeftovers fails the test if a lock file or a staging directory of
// out's is still there.
func noLeftovers(t *testing.T, out string) {
	t.Helper()
	for _, what := range []string{"lock", "staging", "old"} {
		if _, err := os.Lstat(siblingPath(out, what)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s left behind (%v)", siblingPath(out, what), err)
		}
	}
}

// Every way an OUTDIR may hold what canopy did not make: the run is
// refused with a message naming it, before anything is made, and every
// file (and directory) is as it was, down to its modification time.
func TestArchiveRefusesWhatItDidNotMake(t *testing.T) {
	cases := []struct {
		name  string
		srcs  []string // default: the fixtures
		out   string
		setup func(t *testing.T)
		want  string
	}{
		{"foreign manifest.json", nil, "p", func(t *testing.T) {
			write(t, "p/manifest.json", `{"manifest_version":3}`+"\n")
			write(t, "p/src/a.js", "x\n")
		}, "holds a manifest.json that canopy did not write"},
		{"foreign manifest.json alone", nil, "p", func(t *testing.T) {
			write(t, "p/manifest.json", `{"name":"my-app","version":"1.0.0"}`)
		}, "holds a manifest.json that canopy did not write"},
		{"canopy-shaped manifest pointing outside", nil, "p", func(t *testing.T) {
			write(t, "p/manifest.json", `{"canopy":"0.1.0","pages":[{"path":"index.html","sha256":"`+strings.Repeat("0", 64)+`"},{"path":"../victim.txt","sha256":"`+strings.Repeat("0", 64)+`"}]}`)
			write(t, "p/index.html", "x")
		}, "not a path inside the archive"},
		{"no manifest", nil, "p", func(t *testing.T) { write(t, "p/thesis.tex", "years of work") }, "holds thesis.tex and no manifest.json"},
		{"an archive with a file added", nil, "out", func(t *testing.T) {
			run(t, []string{"src/pi"}, "out", Options{})
			write(t, "out/notes.txt", "mine")
		}, "holds notes.txt, which is not in its manifest"},
		{"an archive with a file added below", nil, "out", func(t *testing.T) {
			run(t, []string{"src/pi"}, "out", Options{})
			write(t, "out/sessions/pi/review.md", "mine")
		}, "holds sessions/pi/review.md, which is not in its manifest"},
		{"an archive with a link added", nil, "out", func(t *testing.T) {
			run(t, []string{"src/pi"}, "out", Options{})
			os.Symlink("/etc", "out/etc")
		}, "holds etc (a symbolic link), which is not in its manifest"},
		{"an archive with an empty directory added", nil, "out", func(t *testing.T) {
			run(t, []string{"src/pi"}, "out", Options{})
			os.Mkdir("out/drafts", 0o755)
		}, "holds drafts/, which is not in its manifest"},
		{"an archive with a page replaced by a directory", nil, "out", func(t *testing.T) {
			run(t, []string{"src/flue"}, "out", Options{})
			os.Remove("out/sessions/flue/session-root.html")
			write(t, "out/sessions/flue/session-root.html/keep.txt", "mine")
		}, "holds sessions/flue/session-root.html/keep.txt, which is not in its manifest"},
		{"a manifest that is a FIFO", nil, "p", func(t *testing.T) {
			os.Mkdir("p", 0o755)
			mkfifo(t, "p/manifest.json")
		}, "is a named pipe (FIFO)"},
		{"OUTDIR is a source", []string{"src/pi"}, "src/pi", nil, "is also a source"},
		{"OUTDIR is the sessions, with a manifest.json", []string{"s"}, "s", func(t *testing.T) {
			os.CopyFS("s", os.DirFS("src/pi"))
			write(t, "s/manifest.json", "{}")
		}, "is also a source"},
		{"OUTDIR holds the source", []string{"A/raw"}, "A", func(t *testing.T) {
			run(t, []string{"src/pi"}, "A", Options{})
			os.CopyFS("A/raw", os.DirFS("src/flue"))
		}, "holds the source"},
		{"OUTDIR inside the source", []string{"src"}, "src/archive", nil, "is inside the source"},
		{"OUTDIR is a file", nil, "src/flue/settings.json", nil, "not a directory"},
		{"OUTDIR is a link to the source", []string{"src/pi"}, "link", func(t *testing.T) { os.Symlink("src/pi", "link") }, "is also a source"},
		{"SRC is standard input", []string{"-"}, "out", nil, "not standard input"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srcs, dir := fixtures(t)
			if c.srcs != nil {
				srcs = c.srcs
			}
			if c.setup != nil {
				c.setup(t)
			}
			before := snapshot(t, dir)
			var err error
			within(t, "Run", func() { _, err = Run(context.Background(), srcs, c.out, Options{Version: "test"}) })
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Run: %v; want a refusal saying %q", err, c.want)
			}
			sameTree(t, "refused run", before, snapshot(t, dir))
		})
	}
}

// -o / is refused (it holds the sources) before a lock file is made in /.
func TestArchiveRefusesRoot(t *testing.T) {
	srcs, _ := fixtures(t)
	if _, err := os.Lstat("/.canopy-lock"); err == nil {
		t.Skip("/.canopy-lock exists already")
	}
	_, err := Run(context.Background(), srcs, "/", Options{Version: "test"})
	if err == nil || !strings.Contains(err.Error(), "holds the source") {
		t.Errorf("Run -o /: %v", err)
	}
	if _, err := os.Lstat("/.canopy-lock"); err == nil {
		os.Remove("/.canopy-lock")
		t.Error("a refused run made /.canopy-lock")
	}
}

// A SRC that is a link to a directory is followed, and its files are
// named below the link; links inside it are not followed.
func TestArchiveFollowsALinkedSource(t *testing.T) {
	_, dir := fixtures(t)
	if err := os.Symlink(filepath.Join(dir, "src/pi"), "sessions"); err != nil {
		t.Fatal(err)
	}
	os.Symlink(filepath.Join(dir, "src/flue"), "src/pi/flue-link") // inside: not followed
	res := run(t, []string{"sessions"}, "out", Options{})
	if res.Sessions != 3 || len(res.Problems) != 1 {
		t.Fatalf("archive of a linked SRC: %+v", res)
	}
	m := manifest(t, "out")
	for _, s := range m.Sessions {
		if !strings.HasPrefix(s.Source, "sessions/") || !strings.HasPrefix(s.Page, "sessions/sessions/") {
			t.Errorf("session %s, page %s: not named below the link", s.Source, s.Page)
		}
	}
	// A re-run over the existing archive keeps every page.
	if res := run(t, []string{"sessions"}, "out", Options{}); res.Kept != 3 || res.Removed != 0 || res.Incomplete() {
		t.Errorf("re-run: %+v", res)
	}
}

// A page replaced by a FIFO: verify reports it, an archive run makes it
// again; neither waits on it. A source or a manifest that is a FIFO is
// reported, never opened for reading.
func TestArchiveFIFOs(t *testing.T) {
	srcs, _ := fixtures(t)
	run(t, srcs, "out", Options{})
	page := filepath.Join("out", manifest(t, "out").Sessions[0].Page)
	os.Remove(page)
	mkfifo(t, page)
	var findings []Finding
	var ok bool
	var err error
	within(t, "Verify", func() { findings, ok, err = Verify("out") })
	found := false
	for _, f := range findings {
		found = found || strings.HasPrefix(filepath.Join("out", f.Path), page) && strings.Contains(f.Problem, "not a regular file") && f.Fatal
	}
	if err != nil || ok || !found {
		t.Errorf("Verify with a FIFO page: ok %v, err %v, findings %+v", ok, err, findings)
	}
	var res *Result
	within(t, "Run", func() { res = run(t, srcs, "out", Options{}) })
	if res.Rendered != 1 || res.Kept != 7 {
		t.Errorf("re-run over a FIFO page: %+v", res)
	}
	if _, ok, _ := Verify("out"); !ok {
		t.Error("Verify fails after the page was made again")
	}

	// Sources: one named on the command line, one met in a directory.
	mkfifo(t, "src/pi/--home-ada-shop--/live.jsonl")
	mkfifo(t, "named.jsonl")
	within(t, "Run", func() { res = run(t, append(srcs, "named.jsonl"), "out", Options{}) })
	for _, p := range []string{"named.jsonl", "src/pi/--home-ada-shop--/live.jsonl"} {
		found := false
		for _, pr := range res.Problems {
			found = found || pr.Path == p && strings.Contains(pr.Error, "named pipe (FIFO), not a regular file")
		}
		if !found {
			t.Errorf("no problem reported for the FIFO %s: %+v", p, res.Problems)
		}
	}

	// The manifest itself.
	os.Remove("out/manifest.json")
	mkfifo(t, "out/manifest.json")
	within(t, "Verify", func() { _, _, err = Verify("out") })
	if err == nil || !strings.Contains(err.Error(), "named pipe") {
		t.Errorf("Verify with a FIFO manifest: %v", err)
	}
}

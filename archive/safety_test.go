package archive

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
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

// A source that was archived and cannot be archived now keeps its page,
// marked stale with the reason, and the run says so (Incomplete); once
// the source is back, the page is current again.
func TestArchiveKeepsStalePages(t *testing.T) {
	const rel = "src/pi/--home-ada-shop--/" + piFork
	cases := []struct {
		name    string
		break_  func(t *testing.T)
		restore func(t *testing.T)
		srcs    []string // default: the fixtures
		reason  string
	}{
		{"deleted", func(t *testing.T) { os.Rename(rel, "saved") }, func(t *testing.T) { os.Rename("saved", rel) }, nil, "source missing: " + rel},
		{"directory moved", func(t *testing.T) { os.Rename("src/pi", "pi-moved") }, func(t *testing.T) { os.Rename("pi-moved", "src/pi") }, nil, "source missing: " + rel},
		{"SRC no longer named", nil, nil, []string{"src/gateway", "src/flue", "src/pi/--home-ada-blog--"}, "source not among this run's sources: " + rel},
		{"replaced by a directory", func(t *testing.T) {
			os.Rename(rel, "saved")
			os.Mkdir(rel, 0o755)
		}, func(t *testing.T) {
			os.Remove(rel)
			os.Rename("saved", rel)
		}, nil, "source unreadable: " + rel + " is a directory now"},
		{"replaced by a FIFO", func(t *testing.T) {
			os.Rename(rel, "saved")
			mkfifo(t, rel)
		}, func(t *testing.T) {
			os.Remove(rel)
			os.Rename("saved", rel)
		}, nil, "source could not be archived: is a named pipe (FIFO)"},
		{"no longer a session", func(t *testing.T) {
			os.Rename(rel, "saved")
			write(t, rel, "\x00\x01 not JSON\n")
		}, func(t *testing.T) {
			os.Remove(rel)
			os.Rename("saved", rel)
		}, nil, "source could not be archived: "},
		{"changed while it was archived", func(t *testing.T) {
			// Grown, so that its page is made again; then rewritten
			// under the render, which reads its entries again.
			b := mustReadBytes(t, rel)
			os.Rename(rel, "saved")
			write(t, rel, string(b)+`{"type":"session_info","id":"zz","parentId":null,"timestamp":"2026-05-02T10:00:00.000Z","name":"grown"}`+"\n")
			testHooks.afterLoad = func(p string) {
				if p == rel {
					os.WriteFile(rel, bytes.Repeat([]byte("x"), len(b)+200), 0o644)
				}
			}
		}, func(t *testing.T) {
			testHooks.afterLoad = nil
			os.Remove(rel)
			os.Rename("saved", rel)
		}, nil, "source changed while it was archived: "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			defer func() { testHooks.afterLoad = nil }()
			srcs, _ := fixtures(t)
			run(t, srcs, "out", Options{})
			m := manifest(t, "out")
			var page string
			for _, s := range m.Sessions {
				if s.Source == rel {
					page = s.Page
				}
			}
			before := mustReadBytes(t, filepath.Join("out", page))
			if c.break_ != nil {
				c.break_(t)
			}
			runSrcs := srcs
			if c.srcs != nil {
				runSrcs = c.srcs
			}
			var res *Result
			within(t, "Run", func() { res = run(t, runSrcs, "out", Options{}) })
			if !res.Incomplete() || len(res.Stale) == 0 {
				t.Fatalf("run with the source %s: not incomplete: %+v", c.name, res)
			}
			var st *Stale
			for i := range res.Stale {
				if res.Stale[i].Source == rel {
					st = &res.Stale[i]
				}
			}
			if st == nil || st.Page != page || !strings.HasPrefix(st.Reason, c.reason) {
				t.Fatalf("stale = %+v; want %s with a reason starting %q", res.Stale, page, c.reason)
			}
			if got := mustReadBytes(t, filepath.Join("out", page)); !bytes.Equal(got, before) {
				t.Error("the stale page is not the one the previous run made")
			}
			m = manifest(t, "out")
			for _, s := range m.Sessions {
				if s.Source == rel && s.Stale != st.Reason {
					t.Errorf("manifest session stale = %q, want %q", s.Stale, st.Reason)
				}
			}
			for _, p := range m.Pages {
				if p.Path == page && p.Stale != st.Reason {
					t.Errorf("manifest page stale = %q, want %q", p.Stale, st.Reason)
				}
			}
			if index := mustRead(t, "out/index.html"); !strings.Contains(index, "stale: the page is from an earlier run; ") {
				t.Error("the index does not mark the page stale")
			}
			// The fork's parent still links to it, and is not made again
			// for its sake.
			if c.name == "deleted" && res.Rendered != 0 {
				t.Errorf("rendered %d pages; want none", res.Rendered)
			}
			findings, _, err := Verify("out")
			found := false
			for _, f := range findings {
				found = found || f.Path == page && strings.HasPrefix(f.Problem, "stale: ") && !f.Fatal
			}
			if err != nil || !found {
				t.Errorf("Verify does not note the stale page: %v %+v", err, findings)
			}
			noLeftovers(t, "out")

			// The source back as it was: current again.
			if c.restore != nil {
				c.restore(t)
			}
			res = run(t, srcs, "out", Options{})
			if res.Incomplete() || res.Sessions != 8 {
				t.Errorf("run with the source back: %+v", res)
			}
			for _, s := range manifest(t, "out").Sessions {
				if s.Stale != "" {
					t.Errorf("%s still stale: %s", s.Source, s.Stale)
				}
			}
			if _, ok, _ := Verify("out"); !ok {
				t.Error("Verify fails with the source back")
			}
		})
	}
}

// Sources that moved (a SRC renamed): their pages are made under the new
// names and the old ones go; nothing is stale, nothing is lost.
func TestArchiveMovedSources(t *testing.T) {
	srcs, _ := fixtures(t)
	run(t, srcs, "out", Options{})
	os.Rename("src/pi", "src/pi-2026")
	res := run(t, []string{"src/pi-2026", "src/gateway", "src/flue"}, "out", Options{})
	if res.Incomplete() || res.Sessions != 8 || res.Removed != 3 || res.Rendered != 3 {
		t.Errorf("re-run with a SRC renamed: %+v", res)
	}
	if _, ok, _ := Verify("out"); !ok {
		t.Error("Verify fails")
	}
}

// A source that is gone with its page made with other flags: neither
// kept (a page without --redact in a --redact archive would show what the
// archive says it hides) nor dropped. The run fails; nothing changes.
func TestArchiveStaleWithOtherFlags(t *testing.T) {
	srcs, dir := fixtures(t)
	run(t, srcs, "out", Options{})
	os.Remove("src/flue/session-task-1.json")
	before := snapshot(t, dir)
	_, err := Run(context.Background(), srcs, "out", Options{Version: "test", Redact: true})
	if err == nil || !strings.Contains(err.Error(), "cannot be made again with [--redact]") {
		t.Errorf("--redact run with a stale page made without it: %v", err)
	}
	sameFiles(t, "refused run", before, snapshot(t, dir))
}

// A write that fails (a full disk) fails the run and leaves the previous
// archive as it was, with no staging directory and no lock; a first run
// leaves nothing at all, not even the parent directories it made.
func TestArchiveWriteFailure(t *testing.T) {
	enospc := func(match string, after int64) func(string) error {
		var n atomic.Int64 // called from every worker
		return func(p string) error {
			if strings.Contains(p, match) && n.Add(1) > after {
				return syscall.ENOSPC
			}
			return nil
		}
	}
	cases := []struct {
		name  string
		fault func(string) error
	}{
		{"a page", enospc(".html", 2)},
		{"the first write", enospc("", 0)},
		{"a directory", enospc("--home-ada-shop--", 0)},
		{"the index", enospc("index.html", 0)},
		{"the manifest", enospc(ManifestName, 0)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			defer func() { testHooks.writeFault = nil }()
			srcs, dir := fixtures(t)
			run(t, srcs, "out", Options{})
			appendTo(t, "src/gateway/agents/main/sessions/"+gwCron, "\n") // one page to make again
			os.Remove(filepath.Join("out", manifest(t, "out").Sessions[0].Page))
			before := snapshot(t, dir)
			testHooks.writeFault = c.fault
			_, err := Run(context.Background(), srcs, "out", Options{Version: "test", Jobs: 2})
			if !errors.Is(err, syscall.ENOSPC) {
				t.Errorf("Run with a full disk: %v", err)
			}
			sameFiles(t, "failed run", before, snapshot(t, dir))

			testHooks.writeFault = c.fault
			_, err = Run(context.Background(), srcs, "new/a/out", Options{Version: "test"})
			if !errors.Is(err, syscall.ENOSPC) {
				t.Errorf("first run with a full disk: %v", err)
			}
			if _, err := os.Lstat("new"); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("a failed first run left the directories it made: %v", err)
			}
		})
	}
}

// An interrupt (the context cancelled) at any point before the swap stops
// the run: the staging directory and the lock are removed, OUTDIR is as
// it was, and the error says it was interrupted.
func TestArchiveInterrupted(t *testing.T) {
	cases := []struct {
		name string
		at   func(p Progress) bool
	}{
		{"before reading", func(p Progress) bool { return p.Phase == "reading" && p.Done == 0 }},
		{"while reading", func(p Progress) bool { return p.Phase == "reading" && p.Done == 3 }},
		{"before the pages", func(p Progress) bool { return p.Phase == "pages" && p.Done == 0 }},
		{"while making pages", func(p Progress) bool { return p.Phase == "pages" && p.Done == 1 }},
		{"after the last page", func(p Progress) bool { return p.Phase == "pages" && p.Done == p.Total && p.Total > 0 }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srcs, dir := fixtures(t)
			run(t, srcs, "out", Options{})
			// Every page to be made again: a new version.
			before := snapshot(t, dir)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			o := Options{Version: "test-2", Jobs: 2, Progress: func(p Progress) {
				if c.at(p) {
					cancel()
				}
			}}
			var err error
			within(t, "Run", func() { _, err = Run(ctx, srcs, "out", o) })
			if !errors.Is(err, context.Canceled) || !errors.Is(err, ErrInterrupted) {
				t.Errorf("interrupted run: %v", err)
			}
			sameFiles(t, "interrupted run", before, snapshot(t, dir))

			// A first run, into directories it makes: nothing is left.
			ctx, cancel = context.WithCancel(context.Background())
			defer cancel()
			o.Progress = func(p Progress) {
				if c.at(p) {
					cancel()
				}
			}
			within(t, "Run", func() { _, err = Run(ctx, srcs, "new/a/out", o) })
			if !errors.Is(err, context.Canceled) {
				t.Errorf("interrupted first run: %v", err)
			}
			if _, err := os.Lstat("new"); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("an interrupted first run left the directories it made: %v", err)
			}
		})
	}
	// Inside a page's render: the render stops at its next write.
	t.Run("while rendering", func(t *testing.T) {
		defer func() { testHooks.afterLoad = nil }()
		srcs, dir := fixtures(t)
		run(t, srcs, "out", Options{})
		before := snapshot(t, dir)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		testHooks.afterLoad = func(string) { cancel() }
		_, err := Run(ctx, srcs, "out", Options{Version: "test-2", Jobs: 1})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("interrupted run: %v", err)
		}
		sameFiles(t, "interrupted run", before, snapshot(t, dir))
	})
}

// Every run, whatever its end, leaves no lock file; a run locked out
// leaves the other run's lock alone.
func TestArchiveLockFile(t *testing.T) {
	srcs, _ := fixtures(t)
	run(t, srcs, "out", Options{})
	noLeftovers(t, "out")
	unlock, err := lock(siblingPath("out", "lock"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), srcs, "out", Options{Version: "test"}); err == nil {
		t.Fatal("a second run while one holds the lock")
	}
	if _, err := os.Lstat(siblingPath("out", "lock")); err != nil {
		t.Errorf("the other run's lock was removed: %v", err)
	}
	unlock()
	noLeftovers(t, "out")
	// A lock file left by a run that was killed (no one holds it) is
	// taken, and removed at the end.
	write(t, siblingPath("out", "lock"), "")
	run(t, srcs, "out", Options{})
	noLeftovers(t, "out")
}

// Files put in OUTDIR while a run makes the new archive are not in the
// previous manifest: the swap moves them aside with the old archive
// instead of removing them, and the run says where.
func TestArchiveKeepsFilesAddedDuringTheRun(t *testing.T) {
	srcs, _ := fixtures(t)
	run(t, srcs, "out", Options{})
	res := run(t, srcs, "out", Options{Version: "test-2", Progress: func(p Progress) {
		if p.Phase == "pages" && p.Done == 1 {
			write(t, "out/notes.txt", "written meanwhile")
		}
	}})
	if !res.Incomplete() || res.Leftover == "" {
		t.Fatalf("result: %+v", res)
	}
	if got := mustRead(t, filepath.Join(res.Leftover, "notes.txt")); got != "written meanwhile" {
		t.Errorf("notes.txt in %s: %q", res.Leftover, got)
	}
	if ents, _ := os.ReadDir(res.Leftover); len(ents) != 1 {
		t.Errorf("%s holds %d entries, want only the file added", res.Leftover, len(ents))
	}
	if _, ok, _ := Verify("out"); !ok {
		t.Error("Verify fails")
	}
	noLeftovers(t, "out")
}

// Two sources whose pages share a name (a.json and a.jsonl): when the
// first goes, the second does not take its page; each keeps its own.
func TestArchivePageNamesStay(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	flue := mustReadBytes(t, filepath.Join(cwdAtStart, "../testdata/archive/flue/session-root.json"))
	pi := mustReadBytes(t, filepath.Join(cwdAtStart, "../testdata/archive/pi/--home-ada-shop--", piParent))
	write(t, "src/a.json", string(flue))
	write(t, "src/a.jsonl", string(pi))
	run(t, []string{"src"}, "out", Options{})
	pages := map[string]string{}
	for _, s := range manifest(t, "out").Sessions {
		pages[s.Source] = s.Page
	}
	if pages["src/a.json"] != "sessions/src/a.html" || pages["src/a.jsonl"] != "sessions/src/a~2.html" {
		t.Fatalf("pages: %v", pages)
	}
	jsonl := mustReadBytes(t, "out/sessions/src/a~2.html")
	os.Rename("src/a.json", "a.json")
	res := run(t, []string{"src"}, "out", Options{})
	if len(res.Stale) != 1 || res.Stale[0].Page != "sessions/src/a.html" {
		t.Errorf("stale: %+v", res.Stale)
	}
	for _, s := range manifest(t, "out").Sessions {
		if s.Page != pages[s.Source] {
			t.Errorf("%s: page %s, was %s", s.Source, s.Page, pages[s.Source])
		}
	}
	if !bytes.Equal(mustReadBytes(t, "out/sessions/src/a~2.html"), jsonl) {
		t.Error("a.jsonl's page was made again")
	}
	if !strings.Contains(mustRead(t, "out/sessions/src/a.html"), "Review the pull request") {
		t.Error("a.json's page is not the one it had")
	}
}

func ExampleResult_Incomplete() {
	r := &Result{Stale: []Stale{{Source: "s.jsonl", Page: "sessions/s.html", Reason: "source missing: s.jsonl is no longer there"}}}
	fmt.Println(r.Incomplete())
	// Output: true
}

package archive

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
)

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

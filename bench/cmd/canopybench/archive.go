package main

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"time"

	"canopy/internal/sessiongen"
)

// bytesPerEntry is about what a generated branched session spends on one
// entry (84.7 MB for 100,000): it turns a target size into an entry count.
const bytesPerEntry = 850

// archiveBench measures `canopy archive` on a generated directory of
// sessions of mixed sizes: the first run, a re-run with nothing changed,
// and a re-run after one session grew. It prints one row per run.
func archiveBench(o *options, stdout io.Writer, logf func(string, ...any)) error {
	src := filepath.Join(o.out, fmt.Sprintf("archive-src-%d-%d", o.archiveSessions, o.archiveBytes))
	total, err := generateArchiveSources(src, o.archiveSessions, o.archiveBytes, logf)
	if err != nil {
		return err
	}
	out := filepath.Join(o.out, "archive-out")
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	type result struct {
		name string
		wall time.Duration
		rss  int64
	}
	var rows []result
	archive := func(name string) error {
		waitQuiet(o.waitQuiet)
		logf("archive: %s", name)
		wall, rss, err := timed(o.exportLimit*4, func(ctx context.Context) *exec.Cmd {
			return exec.CommandContext(ctx, o.canopyBinary, "archive", src, "-o", out, "--quiet")
		})
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		rows = append(rows, result{name, wall, rss})
		return nil
	}
	if err := archive("first run"); err != nil {
		return err
	}
	if err := archive("re-run, nothing changed"); err != nil {
		return err
	}
	// One session grows by one entry: its page and the index are made again.
	first := filepath.Join(src, "p00", "s0000.jsonl")
	f, err := os.OpenFile(first, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	fmt.Fprintf(f, `{"type":"session_info","id":"bench-%d","parentId":null,"timestamp":"2026-02-01T00:00:00.000Z","name":"grown"}`+"\n", time.Now().UnixNano())
	f.Close()
	if err := archive("re-run, one session changed"); err != nil {
		return err
	}
	var pages int64
	filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				pages += fi.Size()
			}
		}
		return nil
	})
	fmt.Fprintf(stdout, "\ncanopy archive: %d generated sessions, %.1f MB of sources, %.1f MB of archive, %d CPUs\n\n", o.archiveSessions, mb(total), mb(pages), goruntime.NumCPU())
	fmt.Fprintf(stdout, "| run | wall s | peak RSS MB | of first run |\n|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(stdout, "| %s | %.2f | %.0f | %.1f%% |\n", r.name, r.wall.Seconds(), float64(r.rss)/1024, 100*r.wall.Seconds()/rows[0].wall.Seconds())
	}
	return nil
}

// generateArchiveSources writes n sessions of mixed sizes (log-uniform,
// scaled so that they add up to about totalBytes) in ten project
// directories, unless a previous call left them complete. It returns
// their total size.
func generateArchiveSources(dir string, n int, totalBytes int64, logf func(string, ...any)) (int64, error) {
	done := filepath.Join(dir, ".complete")
	rng := rand.New(rand.NewPCG(uint64(n), uint64(totalBytes)))
	w := make([]float64, n)
	sum := 0.0
	for i := range w {
		w[i] = math.Exp(rng.Float64() * math.Log(1000)) // 1 to 1000: sizes over three orders of magnitude
		sum += w[i]
	}
	if _, err := os.Stat(done); err != nil {
		logf("generating %d sessions, %.0f MB in all, in %s", n, mb(totalBytes), dir)
		if err := os.RemoveAll(dir); err != nil {
			return 0, err
		}
		for i := range n {
			entries := max(4, int(float64(totalBytes)*w[i]/sum/bytesPerEntry))
			p := filepath.Join(dir, fmt.Sprintf("p%02d", i%10), fmt.Sprintf("s%04d.jsonl", i/10))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return 0, err
			}
			if _, err := writeGenerated(p, sessiongen.Config{Entries: entries, Shape: sessiongen.ShapeBranched, Seed: uint64(i + 1)}); err != nil {
				return 0, err
			}
		}
		if err := os.WriteFile(done, nil, 0o644); err != nil {
			return 0, err
		}
	}
	var total int64
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".jsonl") {
			fi, err := d.Info()
			if err == nil {
				total += fi.Size()
			}
		}
		return err
	})
	return total, err
}

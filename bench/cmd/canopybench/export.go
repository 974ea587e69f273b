package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"canopy/internal/sessiongen"
)

// toolResult is one tool's export of one input, and its page.
type toolResult struct {
	Status   string    `json:"status"` // ok, n/a, fail, timeout
	Err      string    `json:"error,omitempty"`
	WallSecs []float64 `json:"wallSecs,omitempty"`
	Wall     float64   `json:"wallMedianSecs,omitempty"`
	// RSSKB is the largest peak resident set size over the runs, in KiB,
	// from the rusage of the waited child (for a script: the largest of
	// it and of the descendants it reaped).
	RSSKB int64 `json:"maxRssKiB,omitempty"`
	// OtherCPU is, per run, the share of the machine's CPUs that other
	// processes used during the export (see cpu.go).
	OtherCPU []float64   `json:"otherCpuShare,omitempty"`
	Out      string      `json:"output,omitempty"`
	OutBytes int64       `json:"outputBytes,omitempty"`
	Page     *pageResult `json:"page,omitempty"`
}

func (t *toolResult) summary() string {
	if t.Status != "ok" {
		return t.Status + " " + t.Err
	}
	return fmt.Sprintf("%.2f s, %.0f MB RSS, %.1f MB out", t.Wall, mb(t.RSSKB*1024), mb(t.OutBytes))
}

// exportSide is one tool's exports of one input.
type exportSide struct {
	tr *toolResult
	mk func(context.Context) *exec.Cmd
}

// exportRuns runs each side's export o.runs times, in turns (ours, the
// reference's, ours, ...), and records each side's median wall time,
// largest peak RSS and output size. Taking turns, a change in the
// machine's speed during the row (another process, the hypervisor's steal
// time) weighs on both sides alike; run all of one side and then all of the
// other, the two were measured at different times. before is called before
// each turn. A side that fails is not run again.
func exportRuns(o *options, sides []*exportSide, before func()) {
	for i := 0; i < o.runs; i++ {
		before()
		for _, sd := range sides {
			tr := sd.tr
			if tr.Status != "" {
				continue // failed
			}
			os.Remove(tr.Out)
			mark := markCPU()
			wall, rss, err := timed(o.exportLimit, sd.mk)
			tr.OtherCPU = append(tr.OtherCPU, otherShare(mark, markCPU()))
			if err != nil {
				tr.Status = "fail"
				if errors.Is(err, context.DeadlineExceeded) {
					tr.Status = "timeout"
				}
				tr.Err = err.Error()
				continue
			}
			tr.WallSecs = append(tr.WallSecs, wall.Seconds())
			tr.RSSKB = max(tr.RSSKB, rss)
		}
	}
	for _, sd := range sides {
		tr := sd.tr
		if tr.Status != "" {
			continue
		}
		st, err := os.Stat(tr.Out)
		if err != nil {
			tr.Status, tr.Err = "fail", "no output: "+err.Error()
			continue
		}
		tr.Status = "ok"
		tr.OutBytes = st.Size()
		tr.Wall = median(tr.WallSecs)
	}
}

// timed runs the command built by mk in its own process group (killed
// whole at the time limit) and returns its wall time and peak RSS in KiB.
func timed(limit time.Duration, mk func(context.Context) *exec.Cmd) (time.Duration, int64, error) {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := mk(ctx)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // the group this command leads
	}
	cmd.WaitDelay = 5 * time.Second
	var stderr bytes.Buffer
	cmd.Stdout = nil
	cmd.Stderr = &tailWriter{buf: &stderr, max: 2000}
	t0 := time.Now()
	err := cmd.Run()
	wall := time.Since(t0)
	if ctx.Err() != nil {
		return wall, 0, fmt.Errorf("after %v: %w", limit, context.DeadlineExceeded)
	}
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if i := strings.LastIndexByte(msg, '\n'); i >= 0 && len(msg) > 300 {
			msg = msg[i+1:]
		}
		return wall, 0, fmt.Errorf("%v: %s", err, msg)
	}
	var rss int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = ru.Maxrss // KiB on Linux
	}
	return wall, rss, nil
}

// tailWriter keeps the last max bytes written to it.
type tailWriter struct {
	buf *bytes.Buffer
	max int
}

func (w *tailWriter) Write(p []byte) (int, error) {
	w.buf.Write(p)
	if over := w.buf.Len() - w.max; over > 0 {
		rest := slices.Clone(w.buf.Bytes()[over:])
		w.buf.Reset()
		w.buf.Write(rest)
	}
	return len(p), nil
}

// reference is a reference exporter, once warmed up: pi's export for pi
// sessions, claude-replay for Claude Code and Codex ones (replay.go).
type reference struct {
	script string
	ok     bool
	reason string // why it is not available
	warmup float64
	// command exports in to out; nil: script IN OUT.
	command func(ctx context.Context, in, out string) *exec.Cmd
	replay  bool // its pages are claude-replay's, which the browser measurement does not know
}

// cmd is the command that exports in to out.
func (r *reference) cmd(ctx context.Context, in, out string) *exec.Cmd {
	if r.command != nil {
		return r.command(ctx, in, out)
	}
	return exec.CommandContext(ctx, r.script, in, out)
}

func (r *reference) status() string {
	if r.ok {
		return fmt.Sprintf("%s (warm-up %.1f s)", r.script, r.warmup)
	}
	return "n/a: " + r.reason
}

// newReference finds the reference-export script and calls it once on a
// tiny session, untimed, so that its installation from npm is not part of
// any measurement.
func newReference(o *options, logf func(string, ...any)) *reference {
	r := &reference{script: filepath.Join(o.shared, "tools", "reference-export")}
	if o.noReference {
		r.reason = "skipped (--no-reference)"
		return r
	}
	if st, err := os.Stat(r.script); err != nil || st.Mode()&0o111 == 0 {
		r.reason = "no executable " + r.script
		logf("reference: %s", r.reason)
		return r
	}
	tiny := filepath.Join(o.out, "inputs", "warmup.jsonl")
	if _, err := writeGenerated(tiny, sessiongen.Config{Entries: 6, Shape: sessiongen.ShapeBranched, Seed: 1}); err != nil {
		r.reason = "warm-up input: " + err.Error()
		return r
	}
	out := filepath.Join(o.out, "pages", "warmup.ref.html")
	logf("reference: warm-up (installs it from npm on first use)")
	return r.warmUp("reference", tiny, out, 10*time.Minute, logf)
}

// warmUp exports tiny to out once, untimed, within limit (the first call
// may install the exporter), and marks r ready, or tells why it is not;
// name heads the log lines.
func (r *reference) warmUp(name, tiny, out string, limit time.Duration, logf func(string, ...any)) *reference {
	wall, _, err := timed(limit, func(ctx context.Context) *exec.Cmd { return r.cmd(ctx, tiny, out) })
	if err != nil {
		r.reason = "warm-up failed: " + err.Error()
		logf("%s: %s", name, r.reason)
		return r
	}
	r.ok, r.warmup = true, wall.Seconds()
	logf("%s: ready (warm-up %.1f s)", name, r.warmup)
	return r
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func mb(bytes int64) float64 { return float64(bytes) / 1e6 }

func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"canopy/internal/sessiongen"
)

// The reference for Claude Code and Codex sessions: claude-replay 0.9.0
// from npm, which writes a self-contained playback page of such a file
// (claude-replay IN -o OUT; it redacts what looks like a secret by
// default, and is run so). Its pages are not measured in the browser:
// they are a player, with no tree, search or filter to time.

// replayVersion is the claude-replay the issue names as the reference.
const replayVersion = "0.9.0"

// references are the reference exporters, by the format of the input.
type references struct {
	pi     *reference
	replay *reference // nil unless an input needs it
}

// of is the reference for the input.
func (r references) of(sp inputSpec) *reference {
	if sp.agent != nil && r.replay != nil {
		return r.replay
	}
	return r.pi
}

// newReplay finds claude-replay (--claude-replay, else the copy installed
// in the cache, installing it from npm the first time) and calls it once
// on a tiny session, untimed.
func newReplay(o *options, logf func(string, ...any)) *reference {
	r := &reference{replay: true}
	if o.noReference {
		r.reason = "skipped (--no-reference)"
		return r
	}
	r.script = o.replayBinary
	if r.script == "" {
		bin, err := installReplay(logf)
		if err != nil {
			r.reason = err.Error()
			logf("claude-replay: %s", r.reason)
			return r
		}
		r.script = bin
	}
	r.command = func(ctx context.Context, in, out string) *exec.Cmd {
		return exec.CommandContext(ctx, r.script, in, "-o", out)
	}
	tiny := filepath.Join(o.out, "inputs", "warmup-claude.jsonl")
	if err := os.MkdirAll(filepath.Dir(tiny), 0o755); err != nil {
		r.reason = "warm-up input: " + err.Error()
		return r
	}
	if _, err := writeAgentGen(tiny, sessiongen.AgentConfig{Format: sessiongen.FormatClaude, Turns: 2}); err != nil {
		r.reason = "warm-up input: " + err.Error()
		return r
	}
	out := filepath.Join(o.out, "pages", "warmup-claude.ref.html")
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		r.reason = "warm-up output: " + err.Error()
		return r
	}
	return r.warmUp("claude-replay", tiny, out, 5*time.Minute, logf)
}

// installReplay installs claude-replay from npm into the user's cache,
// once, and returns its command.
func installReplay(logf func(string, ...any)) (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory for claude-replay: %w", err)
	}
	dir := filepath.Join(cache, "claude-replay-"+replayVersion)
	bin := filepath.Join(dir, "node_modules", ".bin", "claude-replay")
	if st, err := os.Stat(bin); err == nil && st.Mode()&0o111 != 0 {
		return bin, nil
	}
	logf("claude-replay: installing %s from npm into %s", replayVersion, dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	cmd := exec.Command("npm", "install", "--no-audit", "--no-fund", "--prefix", dir, "claude-replay@"+replayVersion)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("could not install claude-replay from npm: %v: %s", err, lastLine(out))
	}
	return bin, nil
}

// lastLine is the last non-empty line of out.
func lastLine(out []byte) string {
	s := string(out)
	for len(s) > 0 && (s[len(s)-1] == '\n' || s[len(s)-1] == '\r') {
		s = s[:len(s)-1]
	}
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '\n' {
			return s[i+1:]
		}
	}
	return s
}

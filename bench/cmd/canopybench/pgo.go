package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// pgoShare is about how much export time each input contributes to the
// profile: inputs of every size weigh about the same, so that the 100,000
// entry session does not make the real sessions' code (chroma, goldmark's
// parser) look cold.
const pgoShare = 3 * time.Second

// pgoProfile exports each input with canopy's hidden --cpuprofile flag,
// as many times as it takes to spend about pgoShare on it (at most 20),
// and merges the profiles into cmd/canopy/default.pgo. go build uses that
// file for profile-guided optimization of the canopy command: the compiler
// inlines and lays out the code that the profiles show hot.
func pgoProfile(o *options, specs []inputSpec, stdout, stderr io.Writer, logf func(string, ...any)) error {
	dir := filepath.Join(o.out, "pgo")
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	page := filepath.Join(dir, "page.html")
	var profiles []string
	for _, sp := range specs {
		in, err := sp.prepare(o, logf)
		if err != nil {
			logf("%s: %v (left out of the profile)", sp.name, err)
			continue
		}
		var spent time.Duration
		runs := 0
		for ; runs < 20 && spent < pgoShare; runs++ {
			prof := filepath.Join(dir, fmt.Sprintf("%s-%d.prof", sp.name, runs))
			cmd := exec.Command(o.canopyBinary, "export", "--cpuprofile", prof, in, "-o", page)
			var errb bytes.Buffer
			cmd.Stderr = &tailWriter{buf: &errb, max: 2000}
			t0 := time.Now()
			if err := cmd.Run(); err != nil {
				return fmt.Errorf("%s: canopy export: %w: %s", sp.name, err, bytes.TrimSpace(errb.Bytes()))
			}
			spent += time.Since(t0)
			profiles = append(profiles, prof)
		}
		logf("%s: %d profiled exports, %.1f s", sp.name, runs, spent.Seconds())
	}
	if len(profiles) == 0 {
		return errors.New("no input could be profiled")
	}
	dest := filepath.Join(o.repoRoot, "cmd", "canopy", "default.pgo")
	tmp := dest + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	merge := exec.Command("go", append([]string{"tool", "pprof", "-proto"}, profiles...)...)
	merge.Stdout = f
	merge.Stderr = stderr
	err = merge.Run()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("merging the profiles: %w", err)
	}
	if err := os.Rename(tmp, dest); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s from %d profiles\n", dest, len(profiles))
	return nil
}

package main

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"canopy/internal/sessiongen"
)

// TestMain lets the test binary run as canopy itself, for the tests that
// need a real process (signals): CANOPY_TEST_MAIN=1 runs main.
func TestMain(m *testing.M) {
	if os.Getenv("CANOPY_TEST_MAIN") == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

// TestSIGINTDuringExport: Ctrl-C while a page is being written leaves no
// temporary file and no page, and the process exits 130.
func TestSIGINTDuringExport(t *testing.T) {
	if testing.Short() {
		t.Skip("generates a 40,000-entry session")
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "big.jsonl")
	writeSession(t, in, 40000, 7)
	outDir := filepath.Join(dir, "out")
	if err := os.Mkdir(outDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		cmd := exec.Command(os.Args[0], "export", in, "-o", filepath.Join(outDir, "big.html"))
		cmd.Env = append(os.Environ(), "CANOPY_TEST_MAIN=1")
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Wait for the temporary page to appear, then interrupt.
		deadline := time.Now().Add(60 * time.Second)
		for {
			tmps, _ := filepath.Glob(filepath.Join(outDir, ".canopy-*.tmp"))
			if len(tmps) > 0 || time.Now().After(deadline) {
				break
			}
			time.Sleep(time.Millisecond)
		}
		if err := cmd.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
		err := cmd.Wait()
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Skipf("%v: the export finished before it could be interrupted (%v)", sig, err)
		}
		if ee.ExitCode() != exitInterrupted || !strings.Contains(stderr.String(), "interrupted") {
			t.Errorf("%v: %v, stderr %q; want exit %d and a message", sig, err, stderr.String(), exitInterrupted)
		}
		if ents, _ := os.ReadDir(outDir); len(ents) != 0 {
			t.Errorf("%v: left behind: %v", sig, ents)
		}
	}
}

// writeSession writes a generated branched session of n entries to path:
// big enough that an export or archive of it can be interrupted midway.
func writeSession(t *testing.T, path string, n int, seed uint64) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	if err := sessiongen.Generate(w, sessiongen.Config{Entries: n, Shape: sessiongen.ShapeBranched, Seed: seed}); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
}

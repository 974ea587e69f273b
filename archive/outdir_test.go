package archive

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"canopy/internal/sessiongen"
)

func TestArchiveRefusesAForeignDirectory(t *testing.T) {
	srcs, _ := fixtures(t)
	os.MkdirAll("out", 0o755)
	os.WriteFile("out/thesis.tex", []byte("years of work"), 0o644)
	if _, err := Run(context.Background(), srcs, "out", Options{Version: "test"}); err == nil || !strings.Contains(err.Error(), "not replacing it") {
		t.Errorf("Run into a directory that is not an archive: %v", err)
	}
	if b, err := os.ReadFile("out/thesis.tex"); err != nil || string(b) != "years of work" {
		t.Errorf("the directory's file was touched: %q %v", b, err)
	}
}

func TestArchiveRefusesAnOutdirInsideItsSource(t *testing.T) {
	_, _ = fixtures(t)
	// The archive inside the directory it archives: the next run would
	// read it as sessions, and the swap would replace part of a source.
	// Refused, and nothing is made.
	_, err := Run(context.Background(), []string{"src"}, "src/archive", Options{Version: "test"})
	if err == nil || !strings.Contains(err.Error(), "is inside the source") {
		t.Errorf("Run into a directory inside its source: %v", err)
	}
	if _, err := os.Lstat("src/archive"); !os.IsNotExist(err) {
		t.Errorf("src/archive made: %v", err)
	}
	if ents, _ := filepath.Glob("src/.archive.canopy-*"); len(ents) > 0 {
		t.Errorf("left behind: %v", ents)
	}
}

func TestRecoverSwap(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	old := siblingPath(out, "old")
	// A run died between moving the old archive aside and moving the new
	// one in: the next run puts the old one back first.
	os.MkdirAll(old, 0o755)
	os.WriteFile(filepath.Join(old, ManifestName), []byte(`{"canopy":"x"}`), 0o644)
	if err := recoverSwap(out); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, ManifestName)); err != nil {
		t.Errorf("archive not restored: %v", err)
	}
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Errorf("aside copy left: %v", err)
	}
}

func TestArchiveLocksOut(t *testing.T) {
	srcs, _ := fixtures(t)
	unlock, err := lock(siblingPath("out", "lock"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), srcs, "out", Options{Version: "test"}); err == nil || !strings.Contains(err.Error(), "another canopy archive") {
		t.Errorf("a second run while one holds the lock: %v", err)
	}
	unlock()
	run(t, srcs, "out", Options{})
}

func TestInterruptedRunLeavesTheArchive(t *testing.T) {
	srcs, _ := fixtures(t)
	run(t, srcs, "out", Options{})
	before := tree(t, "out")
	// Enough new work that the child is killed while rendering: sessions
	// of a few MB each.
	os.MkdirAll("src/pi/--home-ada-big--", 0o755)
	for i := range 6 {
		f, err := os.Create(filepath.Join("src/pi/--home-ada-big--", "big-"+string(rune('a'+i))+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		if err := sessiongen.Generate(f, sessiongen.Config{Entries: 3000, Shape: sessiongen.ShapeBranched, Seed: uint64(i + 1)}); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	for attempt, wait := range []time.Duration{0, 50 * time.Millisecond, 300 * time.Millisecond} {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "CANOPY_ARCHIVE_CHILD=out", "CANOPY_ARCHIVE_SRCS="+strings.Join(srcs, ","))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Kill it once the staging directory holds a page of the big
		// sessions (mid-way), or after `wait` on later attempts.
		deadline := time.Now().Add(30 * time.Second)
		for time.Now().Before(deadline) {
			if attempt == 0 {
				if ents, _ := os.ReadDir(filepath.Join(siblingPath("out", "staging"), "sessions/pi/--home-ada-big--")); len(ents) > 0 {
					break
				}
			} else if time.Since(deadline.Add(-30*time.Second)) > wait {
				break
			}
			time.Sleep(2 * time.Millisecond)
		}
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		if cmd.ProcessState.Success() {
			t.Fatalf("attempt %d: the run finished before it was killed: make it longer", attempt)
		}
		after := tree(t, "out")
		if len(after) != len(before) {
			t.Fatalf("attempt %d: %d files after the killed run, %d before", attempt, len(after), len(before))
		}
		for name, data := range before {
			if !bytes.Equal(data, after[name]) {
				t.Errorf("attempt %d: %s changed by a killed run", attempt, name)
			}
		}
		if _, ok, err := Verify("out"); !ok || err != nil {
			t.Errorf("attempt %d: the old archive does not verify: %v", attempt, err)
		}
	}
	// The next run completes, and replaces what the killed one left.
	res := run(t, srcs, "out", Options{})
	if res.Sessions != 14 {
		t.Errorf("sessions after the full run: %d, want 14", res.Sessions)
	}
	if _, err := os.Stat(siblingPath("out", "staging")); !os.IsNotExist(err) {
		t.Errorf("staging directory left behind: %v", err)
	}
	if _, ok, _ := Verify("out"); !ok {
		t.Error("Verify fails after the full run")
	}
}

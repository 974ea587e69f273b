package export

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestWriteAtomicInterrupted: a real SIGINT, caught as main catches it,
// stops a write in progress; the temporary file is removed and nothing is
// put in place of the destination.
func TestWriteAtomicInterrupted(t *testing.T) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	dir := t.TempDir()
	dest := filepath.Join(dir, "p.html")
	err := WriteAtomic(ctx, dest, func(w io.Writer) error {
		if _, err := w.Write([]byte("<!doctype html>")); err != nil {
			return err
		}
		if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
			return err
		}
		<-ctx.Done()
		_, err := w.Write([]byte("more"))
		return err
	})
	if !errors.Is(err, ErrInterrupted) {
		t.Fatalf("err = %v, want interrupted", err)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 0 {
		t.Errorf("left behind: %v", ents)
	}
}

// TestWrite: to standard output or to a file, an output either arrives
// whole or, on an error or an interrupt, leaves no file and no temporary
// file; errors say where the output was going.
func TestWrite(t *testing.T) {
	boom := errors.New("boom")
	cases := []struct {
		name     string
		dest     string // "" : a file in the test's directory
		cancel   bool
		write    func(io.Writer) error
		wantErr  error
		wantText string // in the error
		wantOut  string // on stdout, or in the file
	}{
		{name: "file", write: say("page"), wantOut: "page"},
		{name: "stdout", dest: "-", write: say("page"), wantOut: "page"},
		{name: "file error", write: fail(boom), wantErr: boom, wantText: "writing "},
		{name: "stdout error", dest: "-", write: fail(boom), wantErr: boom, wantText: "writing standard output: boom"},
		{name: "file interrupted", cancel: true, write: say("page"), wantErr: ErrInterrupted},
		{name: "stdout interrupted", dest: "-", cancel: true, write: say("page"), wantErr: ErrInterrupted},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			dest := c.dest
			if dest == "" {
				dest = filepath.Join(dir, "out.html")
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if c.cancel {
				cancel()
			}
			var stdout bytes.Buffer
			err := Write(ctx, dest, &stdout, c.write)
			if !errors.Is(err, c.wantErr) || c.wantErr == nil && err != nil {
				t.Fatalf("err = %v, want %v", err, c.wantErr)
			}
			if err != nil && !strings.Contains(err.Error(), c.wantText) {
				t.Errorf("err %q does not say %q", err, c.wantText)
			}
			got := stdout.String()
			if dest != "-" {
				b, _ := os.ReadFile(dest)
				got = string(b)
				if ents, _ := os.ReadDir(dir); err != nil && len(ents) != 0 {
					t.Errorf("left behind: %v", ents)
				}
			}
			if got != c.wantOut {
				t.Errorf("wrote %q, want %q", got, c.wantOut)
			}
		})
	}
}

func say(s string) func(io.Writer) error {
	return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
}

func fail(err error) func(io.Writer) error {
	return func(io.Writer) error { return err }
}

package export

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestReadAtMostEndless: an endless stream (/dev/zero, yes | canopy) fails
// once past the limit instead of exhausting memory.
func TestReadAtMostEndless(t *testing.T) {
	_, err := readAtMost(endless{}, 1<<20, "standard input")
	if err == nil || !strings.Contains(err.Error(), "more than 1MiB") {
		t.Fatalf("err = %v", err)
	}
}

type endless struct{}

func (endless) Read(p []byte) (int, error) { clear(p); return len(p), nil }

const demo = "../testdata/demo/demo.jsonl"

// TestLoad: a file is loaded in place, standard input and a FIFO into
// memory up to MaxInput; with no MaxInput (an archive's sources) what is
// not a regular file is refused unopened; a done context loads nothing.
func TestLoad(t *testing.T) {
	data, err := os.ReadFile(demo)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		in      Input
		cancel  bool
		wantErr string // "" : loads the demo session
	}{
		{name: "file", in: Input{Path: demo}},
		{name: "file, archive", in: Input{Path: demo, MaxInput: 0}},
		{name: "stdin", in: Input{Path: "-", Stdin: bytes.NewReader(data), MaxInput: 1 << 20}},
		{name: "stdin over the limit", in: Input{Path: "-", Stdin: bytes.NewReader(data), MaxInput: 100}, wantErr: "standard input: more than 100 bytes to read"},
		{name: "FIFO refused", in: Input{Path: fifo}, wantErr: "fifo.jsonl: is a named pipe (FIFO), not a regular file: not read"},
		{name: "directory refused", in: Input{Path: dir}, wantErr: "is a directory, not a regular file: not read"},
		{name: "missing", in: Input{Path: filepath.Join(dir, "gone.jsonl"), MaxInput: 1 << 20}, wantErr: "no such file"},
		{name: "interrupted", in: Input{Path: demo}, cancel: true, wantErr: "interrupted"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if c.cancel {
				cancel()
			}
			s, err := Load(ctx, c.in)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err = %v, want %q", err, c.wantErr)
				}
				if c.cancel && !errors.Is(err, ErrInterrupted) {
					t.Errorf("err = %v, want ErrInterrupted", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if s.Size != int64(len(data)) || len(s.Entries) == 0 {
				t.Errorf("loaded %d bytes, %d entries; want %d bytes", s.Size, len(s.Entries), len(data))
			}
		})
	}
}

// TestLoadNoSHA256: input read into memory is loaded without its SHA-256
// only when the caller says it never shows it; a regular file always has
// it.
func TestLoadNoSHA256(t *testing.T) {
	data, err := os.ReadFile(demo)
	if err != nil {
		t.Fatal(err)
	}
	want := sha256.Sum256(data)
	for _, c := range []struct {
		in   Input
		zero bool
	}{
		{Input{Path: "-", Stdin: bytes.NewReader(data), MaxInput: DefaultMaxInput}, false},
		{Input{Path: "-", Stdin: bytes.NewReader(data), MaxInput: DefaultMaxInput, NoSHA256: true}, true},
		{Input{Path: demo, NoSHA256: true}, false},
	} {
		s, err := Load(context.Background(), c.in)
		if err != nil {
			t.Fatal(err)
		}
		if c.zero && s.SHA256 != [sha256.Size]byte{} || !c.zero && s.SHA256 != want {
			t.Errorf("%s (NoSHA256 %v): SHA-256 %x", c.in.Path, c.in.NoSHA256, s.SHA256)
		}
		if len(s.Entries) == 0 {
			t.Errorf("%s: no entries", c.in.Path)
		}
		s.Close()
	}
}

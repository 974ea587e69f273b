package export

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"canopy/sessiontree"
)

func gzipBytes(t *testing.T, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write(data)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func zstdBytes(t *testing.T, data []byte) []byte {
	t.Helper()
	w, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	return w.EncodeAll(data, nil)
}

// cancelAfter reads r, cancelling ctx once n bytes are read: an
// interrupt in the middle of a decompression.
type cancelAfter struct {
	r      io.Reader
	n      int
	cancel func()
}

func (c *cancelAfter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p[:min(len(p), 512)])
	if c.n -= n; c.n <= 0 {
		c.cancel()
	}
	return n, err
}

// TestLoadCompressed: a compressed session, whatever its name, in a file,
// a FIFO or on standard input, loads as the session itself, its SHA-256
// the session's (uncompressed); bounded by MaxInput, or for an archive's
// sources by DefaultMaxInput; an interrupt stops the decompression.
func TestLoadCompressed(t *testing.T) {
	data, err := os.ReadFile(demo)
	if err != nil {
		t.Fatal(err)
	}
	gz, zs := gzipBytes(t, data), zstdBytes(t, data)
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	gzFile, zsFile := write("demo.jsonl.gz", gz), write("demo.jsonl.zst", zs)
	misnamed := write("gzipped.jsonl", gz)
	plainGz := write("plain.jsonl.gz", data)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name     string
		in       Input
		fifo     []byte // written to the FIFO
		cancelAt int    // the stream's bytes read before an interrupt
		wantErr  string
	}{
		{name: "gzip file", in: Input{Path: gzFile}},
		{name: "zstd file", in: Input{Path: zsFile}},
		{name: "gzip named .jsonl", in: Input{Path: misnamed}},
		{name: "plain named .gz", in: Input{Path: plainGz}},
		{name: "gzip file, archive's bound", in: Input{Path: gzFile, MaxInput: 0}},
		{name: "gzip on standard input", in: Input{Path: "-", Stdin: bytes.NewReader(gz), MaxInput: 1 << 20}},
		{name: "zstd on standard input", in: Input{Path: "-", Stdin: bytes.NewReader(zs), MaxInput: 1 << 20}},
		{name: "gzip in a FIFO", in: Input{Path: fifo, MaxInput: 1 << 20}, fifo: gz},
		{name: "gzip file over the limit", in: Input{Path: gzFile, MaxInput: 100}, wantErr: "demo.jsonl.gz: more than 100 bytes uncompressed, the limit for a gzip session (--max-input raises it)"},
		{name: "zstd on standard input over the limit", in: Input{Path: "-", Stdin: bytes.NewReader(zs), MaxInput: 1 << 10}, wantErr: "standard input: more than 1KiB uncompressed, the limit for a zstd session (--max-input raises it)"},
		{name: "gzip on standard input, cut", in: Input{Path: "-", Stdin: bytes.NewReader(gz[:len(gz)-1]), MaxInput: 1 << 20}, wantErr: "standard input: corrupt gzip stream: it ends too soon (truncated)"},
		{name: "interrupted", in: Input{Path: "-", MaxInput: 1 << 20}, cancelAt: len(gz) / 2, wantErr: "interrupted"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if c.cancelAt > 0 {
				c.in.Stdin = &cancelAfter{r: bytes.NewReader(gz), n: c.cancelAt, cancel: cancel}
			}
			if c.fifo != nil {
				go func() {
					f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
					if err == nil {
						f.Write(c.fifo)
						f.Close()
					}
				}()
			}
			s, err := Load(ctx, c.in)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err = %v, want %q", err, c.wantErr)
				}
				if c.cancelAt > 0 && !errors.Is(err, ErrInterrupted) {
					t.Errorf("err = %v, want ErrInterrupted", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if s.Size != int64(len(data)) || len(s.Entries) == 0 || s.SHA256 != sha256.Sum256(data) || s.File != c.in.Path {
				t.Errorf("loaded %s: %d bytes, %d entries, SHA-256 %x; want %d bytes of %s, SHA-256 %x", s.File, s.Size, len(s.Entries), s.SHA256, len(data), demo, sha256.Sum256(data))
			}
			if inMemory := c.in.Path != plainGz; s.InMemory() != inMemory {
				t.Errorf("InMemory() = %v, want %v", s.InMemory(), inMemory)
			}
			if src, err := s.ReadSource(); err != nil || !bytes.Equal(src, data) {
				t.Errorf("the source read again is not the session's, uncompressed (%v)", err)
			}
		})
	}
	if got, _ := os.ReadFile(gzFile); !bytes.Equal(got, gz) {
		t.Error("the compressed file changed")
	}
}

// An archive's compressed sources are bounded too, with no flag to name.
func TestCompressedLimitText(t *testing.T) {
	if got := (Input{}).limitText(sessiontree.Gzip); got != "the limit for a gzip session in an archive" {
		t.Errorf("archive: %q", got)
	}
}

func TestIsCompressed(t *testing.T) {
	dir := t.TempDir()
	for name, want := range map[string]bool{"a.gz": true, "b.jsonl": false, "empty": false, "missing": false} {
		p := filepath.Join(dir, name)
		switch name {
		case "a.gz":
			os.WriteFile(p, gzipBytes(t, []byte("{}\n")), 0o644)
		case "b.jsonl":
			os.WriteFile(p, []byte("{}\n"), 0o644)
		case "empty":
			os.WriteFile(p, nil, 0o644)
		}
		if got := IsCompressed(p); got != want {
			t.Errorf("IsCompressed(%s) = %v, want %v", name, got, want)
		}
	}
}

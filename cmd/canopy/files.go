package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/pflag"
	"golang.org/x/sys/unix"

	"canopy/internal/outpath"
	"canopy/sessiontree"
)

// defaultMaxInput bounds what is read from an input that is not a regular
// file (standard input, a pipe, a device): such input is held in memory,
// and /dev/zero or an endless pipe would otherwise be read until the
// process runs out of memory. Regular files have no such bound: they are
// not held in memory, and their size is known.
const defaultMaxInput = 512 << 20

// byteSize is a flag's size in bytes: a whole number with an optional
// binary suffix (K, M, G, T; "KiB", "MB" and the like mean the same).
type byteSize int64

func (b *byteSize) String() string { return strconv.FormatInt(int64(*b), 10) }
func (b *byteSize) Type() string   { return "size" }
func (b *byteSize) Set(s string) error {
	t := strings.ToUpper(strings.TrimSpace(s))
	t = strings.TrimSuffix(strings.TrimSuffix(t, "B"), "I")
	shift := 0
	if n := len(t); n > 0 {
		if i := strings.IndexByte("KMGT", t[n-1]); i >= 0 {
			shift, t = 10*(i+1), t[:n-1]
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n <= 0 || n > (1<<62)>>shift {
		return fmt.Errorf("%q is not a size (a whole number of bytes, or with K, M or G)", s)
	}
	*b = byteSize(n << shift)
	return nil
}

// addMaxInput adds --max-input to a command that reads a session.
func addMaxInput(fs *pflag.FlagSet) *byteSize {
	b := byteSize(defaultMaxInput)
	fs.Var(&b, "max-input", "read at most `SIZE` bytes from standard input or a pipe (e.g. 2G); regular files have no limit")
	return &b
}

// loadSession loads a path, or standard input for "-". A regular file is
// loaded in place (kept open, read again entry by entry); anything else
// (standard input, a pipe, a device) is read into memory, at most max
// bytes.
func loadSession(e *env, path string, max int64) (*sessiontree.Session, error) {
	if path == "-" {
		data, err := readAtMost(e.stdin, max, "standard input")
		if err != nil {
			return nil, err
		}
		return sessiontree.Load(data, "-")
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if fi.Mode().IsRegular() || fi.IsDir() {
		return sessiontree.LoadFile(path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := readAtMost(f, max, path)
	if err != nil {
		return nil, err
	}
	return sessiontree.Load(data, path)
}

// readAtMost reads all of r, failing once it has read more than max bytes.
func readAtMost(r io.Reader, max int64, name string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s: more than %s to read, the limit for input that is not a regular file (--max-input raises it)", name, sizeText(max))
	}
	return data, nil
}

// sizeText writes a byte count the way --max-input reads it back.
func sizeText(n int64) string {
	for _, u := range []struct {
		shift  uint
		suffix string
	}{{40, "T"}, {30, "G"}, {20, "M"}, {10, "K"}} {
		if n >= 1<<u.shift && n%(1<<u.shift) == 0 {
			return strconv.FormatInt(n>>u.shift, 10) + u.suffix + "iB"
		}
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// output is one file a command is to write.
type output struct {
	path string
	ours outpath.Ours // recognises an earlier file of the same kind
}

// kinds are the files canopy writes, as their heads tell them: to say what
// an existing file is when it is not of the kind about to be written.
var kinds = []struct {
	name string
	ours outpath.Ours
}{
	{"an HTML page", outpath.PageHead},
	{"a Markdown export", markdownHead},
	{"a redaction report", reportHead},
	{"a CPU profile", gzipHead},
}

// checkOutputs applies canopy's rule to every file a command is about to
// write, before it writes any: no two outputs the same, not an input, not
// a special file, not a directory, not a file canopy did not make.
func checkOutputs(inputs []string, outs ...output) error {
	seen := map[string]bool{}
	for _, o := range outs {
		abs, err := filepath.Abs(o.path)
		if err != nil {
			return fmt.Errorf("%s: %w", o.path, err)
		}
		if seen[abs] {
			return fmt.Errorf("%s: named for two outputs", o.path)
		}
		seen[abs] = true
	}
	for _, o := range outs {
		err := outpath.File(o.path, inputs, o.ours)
		if errors.Is(err, outpath.ErrNotOurs) {
			if head, herr := outpath.Head(o.path); herr == nil {
				for _, k := range kinds {
					if k.ours(head) {
						return fmt.Errorf("%s: is %s canopy made, not one of the kind being written: not replacing it (choose another name)", o.path, k.name)
					}
				}
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	_, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	return err == nil
}

// reportHead recognises a redaction report canopy wrote (--redact-report).
func reportHead(head []byte) bool {
	return bytes.HasPrefix(head, []byte("{\n  \"file\": ")) && bytes.Contains(head, []byte("\n  \"findings\": "))
}

// markdownHead recognises a Markdown export canopy wrote: its header
// names the command that made it.
func markdownHead(head []byte) bool {
	return bytes.Contains(head, []byte("(`canopy export --format markdown`)"))
}

// gzipHead recognises a CPU profile (--cpuprofile): pprof writes gzip.
func gzipHead(head []byte) bool {
	return bytes.HasPrefix(head, []byte{0x1f, 0x8b})
}

// errInterrupted says that a command stopped on SIGINT or SIGTERM.
var errInterrupted = errors.New("interrupted")

// writeAtomic writes a file through a temporary file in the same directory
// and renames it into place: readers never see half a page, and a failed
// or interrupted export leaves any earlier file as it was, and no
// temporary file behind.
func writeAtomic(ctx context.Context, dest string, write func(io.Writer) error) error {
	if ctx.Err() != nil {
		return errInterrupted
	}
	tmp, err := os.CreateTemp(filepath.Dir(dest), ".canopy-*.tmp")
	if err != nil {
		return fmt.Errorf("writing %s: %w", dest, err)
	}
	defer os.Remove(tmp.Name()) // no-op after the rename
	err = write(&ctxWriter{ctx, tmp})
	if ctx.Err() != nil {
		tmp.Close()
		return errInterrupted
	}
	if err == nil {
		err = tmp.Chmod(0o644)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), dest)
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", dest, err)
	}
	return nil
}

// ctxWriter fails every write once its context is done: a long render
// then stops at its next write.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c *ctxWriter) Write(p []byte) (int, error) {
	if c.ctx.Err() != nil {
		return 0, errInterrupted
	}
	return c.w.Write(p)
}

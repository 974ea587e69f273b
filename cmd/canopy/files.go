package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/pflag"
	"golang.org/x/sys/unix"

	"canopy/export"
	"canopy/internal/outpath"
)

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
	b := byteSize(export.DefaultMaxInput)
	fs.Var(&b, "max-input", "read at most `SIZE` bytes from standard input or a pipe, or decompressed from a gzip or zstd session (e.g. 2G); regular files that are not compressed have no limit")
	return &b
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

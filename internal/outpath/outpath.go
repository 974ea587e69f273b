// Package outpath holds the one rule by which every canopy command writes:
// canopy writes only files it made, and never its input.
//
// Every output path goes through File (a page, a report, a Markdown
// export) or Dir (an archive's OUTDIR) before anything is created, so that
// a refused run leaves nothing behind. The checks are made on the path as
// it is when the command starts; canopy then writes through a temporary
// file renamed into place, which replaces a directory entry and never
// writes through a link or into a device.
package outpath

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Ours reports whether an existing file, given its first bytes (up to
// HeadSize), is one canopy made and may be replaced by a new one of the
// same kind.
type Ours func(head []byte) bool

// ErrNotOurs is wrapped by File's error for an existing file that its
// Ours does not recognise.
var ErrNotOurs = errors.New("is not a file canopy made")

// Head returns the first HeadSize bytes of the regular file p, opened
// without blocking: what Ours is shown.
func Head(p string) ([]byte, error) { return readHead(p) }

// HeadSize is how much of an existing file Ours is shown.
const HeadSize = 4096

// File checks that dest may be written as a new file of canopy's. It
// refuses, with an error that says what was found:
//   - a directory, a device, a FIFO, a socket, or a symbolic link (canopy
//     writes regular files only; "-o -" is the way to standard output);
//   - any of the inputs, or a hard link to one;
//   - an existing regular file that is not empty and that ours does not
//     recognise as canopy's own (ours nil: none is).
//
// A dest that does not exist yet is fine; its directory must exist.
func File(dest string, inputs []string, ours Ours) error {
	fi, err := os.Lstat(dest)
	if errors.Is(err, fs.ErrNotExist) {
		dir := filepath.Dir(dest)
		di, err := os.Stat(dir)
		switch {
		case err != nil:
			return fmt.Errorf("%s: cannot write there: %w", dest, err)
		case !di.IsDir():
			return fmt.Errorf("%s: cannot write there: %s is not a directory", dest, dir)
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s: %w", dest, err)
	}
	if err := special(dest, fi); err != nil {
		return err
	}
	for _, in := range inputs {
		if in == "" || in == "-" {
			continue
		}
		if ii, err := os.Stat(in); err == nil && os.SameFile(fi, ii) {
			if filepath.Clean(in) == filepath.Clean(dest) {
				return fmt.Errorf("%s: refusing to write over the input", dest)
			}
			return fmt.Errorf("%s: refusing to write over the input %s (it is the same file)", dest, in)
		}
	}
	if fi.Size() == 0 {
		return nil // an empty file holds nothing to lose (mktemp's)
	}
	head, err := readHead(dest)
	if err != nil {
		return fmt.Errorf("%s: %w", dest, err)
	}
	if ours == nil || !ours(head) {
		return fmt.Errorf("%s: exists and %w: not replacing it (remove it, or choose another name)", dest, ErrNotOurs)
	}
	return nil
}

// special refuses anything but a regular file, naming what it is.
func special(p string, fi fs.FileInfo) error {
	m := fi.Mode()
	switch {
	case m.IsRegular():
		return nil
	case m.IsDir():
		return fmt.Errorf("%s: is a directory: name a file to write (for example %s)", p, filepath.Join(p, "session.html"))
	case m&fs.ModeSymlink != 0:
		what := "a symbolic link"
		if ti, err := os.Stat(p); err == nil && !ti.Mode().IsRegular() && !ti.IsDir() {
			what = "a symbolic link to " + Kind(ti.Mode())
		}
		return fmt.Errorf("%s: is %s: canopy writes only regular files it makes, never through a link (use -o - for standard output)", p, what)
	default:
		return fmt.Errorf("%s: is %s, not a regular file: canopy writes only regular files it makes (use -o - for standard output)", p, Kind(m))
	}
}

// Kind names what a file mode is, for a message: "a named pipe (FIFO)",
// "a directory", "a symbolic link", ...
func Kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsRegular():
		return "a regular file"
	}
	return "a special file"
}

// readHead reads the first HeadSize bytes of a regular file, opened
// without blocking (it was a regular file a moment ago; if it has been
// replaced by a FIFO since, the open must not hang).
func readHead(p string) ([]byte, error) {
	f, err := OpenRegular(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, HeadSize)
	n, err := io.ReadFull(f, buf)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return buf[:n], nil
}

// OpenRegular opens p for reading only if it is a regular file. It opens
// with O_NONBLOCK, so that a FIFO or a device put where a file was
// expected is refused at once instead of blocking the open forever.
func OpenRegular(p string) (*os.File, error) {
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s: is %s, not a regular file", p, Kind(fi.Mode()))
	}
	return f, nil
}

// Dir checks a directory canopy is to make or replace as a whole (an
// archive's OUTDIR) against the sources it is made from, and returns the
// path to use: a top-level symbolic link is followed, so that the
// directory it names is the one replaced, never the link. It refuses a
// path that is not a directory (or missing), and one that is a source,
// holds a source, or lies inside one. Whether an existing directory is
// canopy's own to replace is the caller's to decide (an archive knows
// its manifest).
func Dir(dir string, sources []string) (string, error) {
	// The path checked is the path returned: cleaned, "link/.." is the
	// directory holding the link, whereas the system would resolve the
	// link first, and a check of the one would pass the other.
	resolved := filepath.Clean(dir)
	fi, err := os.Lstat(resolved)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return "", fmt.Errorf("%s: %w", dir, err)
	case fi.Mode()&fs.ModeSymlink != 0:
		if resolved, err = filepath.EvalSymlinks(resolved); err != nil {
			return "", fmt.Errorf("%s: is a symbolic link that does not resolve: %w", dir, err)
		}
		if fi, err = os.Stat(resolved); err != nil {
			return "", fmt.Errorf("%s: %w", dir, err)
		}
		fallthrough
	default:
		if !fi.IsDir() {
			return "", fmt.Errorf("%s: is %s, not a directory", dir, Kind(fi.Mode()))
		}
	}
	abs, err := resolve(resolved)
	if err != nil {
		return "", fmt.Errorf("%s: %w", dir, err)
	}
	for _, src := range sources {
		if src == "" || src == "-" {
			continue
		}
		s, err := resolve(src)
		if err != nil {
			continue // a source that cannot be resolved is reported by whoever reads it
		}
		switch {
		case s == abs:
			return "", fmt.Errorf("%s: is also a source: an archive cannot replace what it is made from", dir)
		case Within(s, abs):
			return "", fmt.Errorf("%s: holds the source %s: an archive cannot replace what it is made from (choose an OUTDIR outside the sources)", dir, src)
		case Within(abs, s):
			return "", fmt.Errorf("%s: is inside the source %s: the next run would read the archive as sessions (choose an OUTDIR outside the sources)", dir, src)
		}
	}
	return resolved, nil
}

// resolve is p made absolute with every link in it resolved. A path that does
// not exist yet resolves as far as its longest existing parent does.
func resolve(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	var rest []string
	for cur := abs; ; {
		r, err := filepath.EvalSymlinks(cur)
		if err == nil {
			return filepath.Join(append([]string{r}, rest...)...), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return abs, nil
		}
		rest = append([]string{filepath.Base(cur)}, rest...)
		cur = parent
	}
}

// Within reports whether path p lies strictly inside directory dir; both
// are clean absolute paths.
func Within(p, dir string) bool {
	if dir == string(filepath.Separator) {
		return p != dir && strings.HasPrefix(p, dir)
	}
	return strings.HasPrefix(p, dir+string(filepath.Separator))
}

// PageHead recognises a page canopy wrote: its generator meta element,
// within the head's first bytes, minified or not.
func PageHead(head []byte) bool {
	return bytes.Contains(head, []byte(`<meta name="generator" content="canopy `)) ||
		bytes.Contains(head, []byte(`<meta name=generator content="canopy `))
}

package htmlpage

import (
	"fmt"
	"io"
	"os"
)

// blocks holds bytes in blocks of 64 KB, then twice that, up to 1 MB: it
// grows without copying, and by at most a block beyond what it holds. A
// bytes.Buffer doubles: 18 MB of compressed source took 32 MB.
type blocks [][]byte

func (b *blocks) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		if len(*b) == 0 || len((*b)[len(*b)-1]) == cap((*b)[len(*b)-1]) {
			*b = append(*b, make([]byte, 0, 64<<min(len(*b), 4)<<10))
		}
		last := &(*b)[len(*b)-1]
		k := min(len(p), cap(*last)-len(*last))
		*last = append(*last, p[:k]...)
		p = p[k:]
	}
	return n, nil
}

// spool holds bytes made before their place in the page comes: the
// rendered entries, which come after the tree their rendering completes,
// and the compressed source, made while the entries are rendered. It keeps
// them in memory (blocks) up to spoolMemory, and beyond that in a
// temporary file, removed by Close. On an 85 MB session the compressed
// source is 18 MB and the entries 90 MB; kept in memory, the source alone
// was a fifth of what the export held live, so the collector had that
// much more to mark, cycle after cycle. A temporary file that cannot be
// made leaves the bytes in memory: slower to collect, never wrong.
type spool struct {
	mem    blocks
	n      int
	file   *os.File
	remove string // the file's name, when it could not be removed at once
}

// spoolMemory is what a spool keeps in memory before it uses a file.
const spoolMemory = 4 << 20

func (s *spool) Write(p []byte) (int, error) {
	if s.file == nil && s.n+len(p) > spoolMemory {
		s.spill()
	}
	s.n += len(p)
	if s.file != nil {
		return s.file.Write(p)
	}
	return s.mem.Write(p)
}

// spill moves the bytes to a temporary file, if one can be made. It is
// removed at once where the system allows (Unix: it lives until closed,
// and nothing is left behind if the process dies), else by Close.
func (s *spool) spill() {
	f, err := os.CreateTemp("", "canopy-*.tmp")
	if err != nil {
		return
	}
	if os.Remove(f.Name()) != nil {
		s.remove = f.Name()
	}
	for _, blk := range s.mem {
		if _, err := f.Write(blk); err != nil {
			s.closeFile(f)
			return
		}
	}
	s.file, s.mem = f, nil
}

func (s *spool) closeFile(f *os.File) {
	f.Close()
	if s.remove != "" {
		os.Remove(s.remove)
		s.remove = ""
	}
}

// Close releases the temporary file, if any.
func (s *spool) Close() error {
	if s.file != nil {
		s.closeFile(s.file)
		s.file = nil
	}
	return nil
}

// copyTo writes the bytes from offset from to offset to to w.
func (s *spool) copyTo(w io.Writer, from, to int) error {
	if s.file != nil {
		// The file itself, limited, read through w's buffer: the
		// writers between the page and its file (the context's, the
		// hash's) keep the kernel's copy_file_range out, and measured,
		// a copy in the kernel was no faster here (slower on ext4).
		if _, err := s.file.Seek(int64(from), io.SeekStart); err != nil {
			return fmt.Errorf("reading the rendered entries back: %w", err)
		}
		if n, err := io.Copy(w, &io.LimitedReader{R: s.file, N: int64(to - from)}); err != nil || n != int64(to-from) {
			return fmt.Errorf("copying the rendered entries into the page (%d of %d bytes): %w", n, to-from, orEOF(err))
		}
		return nil
	}
	off := 0
	for _, blk := range s.mem {
		lo, hi := max(from-off, 0), min(to-off, len(blk))
		if lo < hi {
			if _, err := w.Write(blk[lo:hi]); err != nil {
				return err
			}
		}
		off += len(blk)
	}
	return nil
}

// orEOF is err, or io.ErrUnexpectedEOF for a copy that came up short.
func orEOF(err error) error {
	if err == nil {
		return io.ErrUnexpectedEOF
	}
	return err
}

// writeJSON writes the bytes, base64 already (compressSource), to w as a
// JSON string, for the download button: the 24 MB string of an 85 MB
// session is never held whole.
func (s *spool) writeJSON(w io.Writer) error {
	if _, err := io.WriteString(w, `"`); err != nil {
		return err
	}
	if err := s.copyTo(w, 0, s.n); err != nil {
		return err
	}
	_, err := io.WriteString(w, `"`)
	return err
}

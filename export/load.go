package export

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"

	"canopy/sessiontree"
)

// DefaultMaxInput bounds what is read from an input that is not a regular
// file (standard input, a pipe, a device): such input is held in memory,
// and /dev/zero or an endless pipe would otherwise be read until the
// process runs out of memory. Regular files have no such bound: they are
// not held in memory, and their size is known.
const DefaultMaxInput = 512 << 20

// Input is a session to load: a file, or standard input.
type Input struct {
	Path  string    // a file; "-": Stdin
	Stdin io.Reader // what "-" reads
	// MaxInput bounds what is read of input that is not a regular file
	// (it is held in memory). 0: such input is refused, never opened (an
	// archive's sources: a FIFO put among them must not hang the run).
	MaxInput int64
	// NoSHA256: the caller never shows the input's SHA-256 (canopy scan),
	// so input read into memory is loaded without it (see
	// sessiontree.LoadOptions). A regular file is loaded in place, as ever.
	NoSHA256 bool
}

// Load loads a session. A regular file is loaded in place (kept open,
// read again entry by entry: the caller closes the session); anything
// else is read into memory, at most in.MaxInput bytes.
func Load(ctx context.Context, in Input) (*sessiontree.Session, error) {
	if ctx.Err() != nil {
		return nil, ErrInterrupted
	}
	if in.Path == "-" {
		data, err := readAtMost(ctxReader{ctx, in.Stdin}, in.MaxInput, "standard input")
		if err != nil {
			return nil, err
		}
		return sessiontree.LoadWith(data, "-", in.loadOptions())
	}
	fi, err := os.Stat(in.Path)
	if err != nil {
		return nil, err
	}
	switch {
	case in.MaxInput <= 0 && !fi.Mode().IsRegular():
		// sessiontree opens the file with a plain open, which would wait
		// forever on a FIFO.
		return nil, fmt.Errorf("%s: %s", in.Path, NotRegular(fi.Mode()))
	case fi.Mode().IsRegular() || fi.IsDir():
		return sessiontree.LoadFile(in.Path)
	}
	f, err := os.Open(in.Path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := readAtMost(ctxReader{ctx, f}, in.MaxInput, in.Path)
	if err != nil {
		return nil, err
	}
	return sessiontree.LoadWith(data, in.Path, in.loadOptions())
}

func (in Input) loadOptions() sessiontree.LoadOptions {
	return sessiontree.LoadOptions{NoSHA256: in.NoSHA256}
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

// ctxReader reads from r until ctx is done: a long read of standard input
// stops at the next read after an interrupt.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if c.ctx.Err() != nil {
		return 0, ErrInterrupted
	}
	return c.r.Read(p)
}

package export

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// ErrInterrupted is returned (or wrapped) by a step that stopped because
// its context was done (SIGINT or SIGTERM): what it had begun to write is
// removed.
var ErrInterrupted = errors.New("interrupted")

// Write writes an output through write: to stdout for dest "-", else
// atomically to the file dest (see WriteAtomic). Its errors say where the
// output was going.
func Write(ctx context.Context, dest string, stdout io.Writer, write func(io.Writer) error) error {
	if dest != "-" {
		return WriteAtomic(ctx, dest, write)
	}
	if err := write(&ctxWriter{ctx, stdout}); err != nil {
		return fmt.Errorf("writing standard output: %w", err)
	}
	return nil
}

// WriteAtomic writes a file through a temporary file in the same directory
// and renames it into place: readers never see half a page, and a failed
// or interrupted export leaves any earlier file as it was, and no
// temporary file behind.
func WriteAtomic(ctx context.Context, dest string, write func(io.Writer) error) error {
	if ctx.Err() != nil {
		return ErrInterrupted
	}
	tmp, err := os.CreateTemp(filepath.Dir(dest), ".canopy-*.tmp")
	if err != nil {
		return fmt.Errorf("writing %s: %w", dest, err)
	}
	defer os.Remove(tmp.Name()) // no-op after the rename
	err = write(&ctxWriter{ctx, tmp})
	if ctx.Err() != nil {
		tmp.Close()
		return ErrInterrupted
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
		return 0, ErrInterrupted
	}
	return c.w.Write(p)
}

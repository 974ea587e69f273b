package archive

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"canopy/internal/outpath"
)

// errWrite marks a failure to write the new archive (a full disk, a
// read-only file system): the run fails and the previous archive stays.
var errWrite = errors.New("writing the new archive")

// stagedWriter writes a page into the staging directory, keeping the
// first write error (the archive's failure, whatever the renderer makes
// of it) and stopping once ctx is done.
type stagedWriter struct {
	ctx  context.Context
	f    *os.File
	path string
	err  error
}

func (w *stagedWriter) Write(p []byte) (int, error) {
	if err := w.ctx.Err(); err != nil {
		return 0, err
	}
	if testHooks.writeFault != nil {
		if err := testHooks.writeFault(w.path); err != nil {
			w.err = fmt.Errorf("%w: %s: %w", errWrite, w.path, err)
			return 0, w.err
		}
	}
	n, err := w.f.Write(p)
	if err != nil && w.err == nil {
		w.err = fmt.Errorf("%w: %s: %w", errWrite, w.path, err)
	}
	return n, err
}

// createStaged, writeStaged and mkdirStaged make files and directories
// in the staging directory; their errors wrap errWrite.
func createStaged(p string) (*os.File, error) {
	if testHooks.writeFault != nil {
		if err := testHooks.writeFault(p); err != nil {
			return nil, fmt.Errorf("%w: %s: %w", errWrite, p, err)
		}
	}
	f, err := os.Create(p)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errWrite, err)
	}
	return f, nil
}

func writeStaged(p string, data []byte) error {
	f, err := createStaged(p)
	if err != nil {
		return err
	}
	sw := &stagedWriter{ctx: context.Background(), f: f, path: p}
	_, err = sw.Write(data)
	if cerr := f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("%w: %s: %w", errWrite, p, cerr)
	}
	if sw.err != nil {
		return sw.err
	}
	return err
}

func mkdirStaged(p string) error {
	if testHooks.writeFault != nil {
		if err := testHooks.writeFault(p); err != nil {
			return fmt.Errorf("%w: %s: %w", errWrite, p, err)
		}
	}
	if err := os.MkdirAll(p, 0o755); err != nil {
		return fmt.Errorf("%w: %w", errWrite, err)
	}
	return nil
}

// keepStalePage puts a stale page of the previous archive in the staging
// directory as it is (its hash is not checked: the manifest keeps the
// one it had, so a page changed since is what verify reports). It must
// be a regular file: there is nothing to keep of a link or a FIFO.
func (r *runner) keepStalePage(page string) error {
	old := filepath.Join(r.out, filepath.FromSlash(page))
	fi, err := os.Lstat(old)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is %s", page, outpath.Kind(fi.Mode()))
	}
	dest := filepath.Join(r.stage, filepath.FromSlash(page))
	if err := mkdirStaged(filepath.Dir(dest)); err != nil {
		return err
	}
	if err := linkOrCopy(old, dest); err != nil {
		return err
	}
	return r.keepText(page)
}

// linkOrCopy puts a kept page in the staging directory: a hard link where
// the file system allows it (pages are never changed in place, so sharing
// the file with the old archive is safe), else a copy. Its errors wrap
// errWrite: the page was there a moment ago, and failing to put it in
// the new archive is the archive's failure, not the session's.
func linkOrCopy(old, dest string) error {
	if testHooks.writeFault != nil {
		if err := testHooks.writeFault(dest); err != nil {
			return fmt.Errorf("%w: %s: %w", errWrite, dest, err)
		}
	}
	if err := os.Link(old, dest); err == nil {
		return nil
	}
	in, err := outpath.OpenRegular(old)
	if err != nil {
		return err // the old page is gone: it is made again, or not kept
	}
	defer in.Close()
	outF, err := os.Create(dest)
	if err != nil {
		return fmt.Errorf("%w: %w", errWrite, err)
	}
	if _, err := io.Copy(outF, in); err != nil {
		outF.Close()
		return fmt.Errorf("%w: copying %s: %w", errWrite, old, err)
	}
	if err := outF.Close(); err != nil {
		return fmt.Errorf("%w: %w", errWrite, err)
	}
	return nil
}

// siblingPath is a hidden path beside out, on the same file system, for
// the staging directory and the swap.
func siblingPath(out, what string) string {
	return filepath.Join(filepath.Dir(out), "."+filepath.Base(out)+".canopy-"+what)
}

package archive

import (
	"errors"
	"fmt"
	"os"
)

// swap puts the staging directory in out's place. Where the system can
// exchange two directories in one step, it does, and there is no moment
// without an archive at out. Elsewhere the old archive is first renamed
// aside; if the run dies between the two renames, the next run puts it
// back (recoverSwap).
func swap(stage, out string) error {
	if _, err := os.Stat(out); errors.Is(err, os.ErrNotExist) {
		if err := os.Rename(stage, out); err != nil {
			return fmt.Errorf("moving the archive into place: %w", err)
		}
		return nil
	}
	if err := exchange(stage, out); err == nil {
		// stage now holds the old archive.
		if err := os.RemoveAll(stage); err != nil {
			return fmt.Errorf("removing the previous archive: %w", err)
		}
		return nil
	}
	old := siblingPath(out, "old")
	if err := os.RemoveAll(old); err != nil {
		return err
	}
	if err := os.Rename(out, old); err != nil {
		return fmt.Errorf("moving the previous archive aside: %w", err)
	}
	if err := os.Rename(stage, out); err != nil {
		if rerr := os.Rename(old, out); rerr != nil {
			return fmt.Errorf("moving the archive into place: %w (the previous archive is in %s)", err, old)
		}
		return fmt.Errorf("moving the archive into place: %w", err)
	}
	return os.RemoveAll(old)
}

// recoverSwap puts back an archive left aside by a run that died in the
// middle of a two-step swap.
func recoverSwap(out string) error {
	old := siblingPath(out, "old")
	if _, err := os.Stat(old); err != nil {
		return nil
	}
	if _, err := os.Stat(out); errors.Is(err, os.ErrNotExist) {
		if err := os.Rename(old, out); err != nil {
			return fmt.Errorf("restoring the previous archive from %s: %w", old, err)
		}
		return nil
	}
	return os.RemoveAll(old)
}

package archive

import (
	"errors"
	"fmt"
	"os"
)

// swap puts the staging directory in out's place, and returns where the
// previous archive now is ("" when there was none), for the caller to
// remove what of it the previous manifest lists. Where the system can
// exchange two directories in one step, it does, and there is no moment
// without an archive at out. Elsewhere the old archive is first renamed
// aside; if the run dies between the two renames, the next run puts it
// back (recoverSwap).
func swap(stage, out string) (old string, err error) {
	if _, err := os.Lstat(out); errors.Is(err, os.ErrNotExist) {
		if err := os.Rename(stage, out); err != nil {
			return "", fmt.Errorf("%w: moving the archive into place: %w", errWrite, err)
		}
		return "", nil
	}
	if err := exchange(stage, out); err == nil {
		return stage, nil // stage now holds the old archive
	}
	old = siblingPath(out, "old")
	if err := os.RemoveAll(old); err != nil {
		return "", fmt.Errorf("clearing %s: %w", old, err)
	}
	if err := os.Rename(out, old); err != nil {
		return "", fmt.Errorf("moving the previous archive aside: %w", err)
	}
	if err := os.Rename(stage, out); err != nil {
		if rerr := os.Rename(old, out); rerr != nil {
			return "", fmt.Errorf("moving the archive into place: %w (the previous archive is in %s)", err, old)
		}
		return "", fmt.Errorf("moving the archive into place: %w", err)
	}
	return old, nil
}

// recoverSwap puts back an archive left aside by a run that died in the
// middle of a two-step swap, or removes it if the new one had been moved
// in (only what its manifest lists: anything else is moved aside).
func recoverSwap(out string) error {
	old := siblingPath(out, "old")
	if _, err := os.Lstat(old); err != nil {
		return nil
	}
	if _, err := os.Lstat(out); errors.Is(err, os.ErrNotExist) {
		if err := os.Rename(old, out); err != nil {
			return fmt.Errorf("restoring the previous archive from %s: %w", old, err)
		}
		return nil
	}
	m, _ := readManifest(old) // a manifest not canopy's: everything is moved aside
	left, err := removeOwned(old, m)
	if err == nil && len(left) == 0 {
		return nil
	}
	if _, err := moveAside(old, out); err != nil {
		return err
	}
	return nil
}

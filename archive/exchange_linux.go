package archive

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// exchange swaps two paths atomically: renameat2(2) with RENAME_EXCHANGE
// (Linux 3.15; on a file system without it, it fails and swap falls back).
func exchange(a, b string) error {
	return unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
}

// lock takes an exclusive lock on the file at p (made if missing) and
// fails at once if another run holds it. The lock goes with the process,
// so a killed run leaves none behind.
func lock(p string) (unlock func(), err error) {
	f, err := os.OpenFile(p, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		f.Close()
		return nil, fmt.Errorf("another canopy archive is writing to this archive (%s is locked): %w", p, err)
	}
	return func() { f.Close() }, nil
}

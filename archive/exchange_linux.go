package archive

import (
	"fmt"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// exchange swaps two paths atomically: renameat2(2) with RENAME_EXCHANGE
// (Linux 3.15; on a file system without it, it fails and swap falls back).
func exchange(a, b string) error {
	return unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
}

// lock takes an exclusive lock on the file at p (made if missing) and
// fails at once if another run holds it. The lock goes with the process,
// so a killed run holds none; unlock removes the file, so that a run
// leaves none behind either.
//
// A run removes the file while it holds the lock, and a run that opened
// the file just before may then lock a file no longer at p, while a third
// makes a new one: so a lock counts only if the file locked is still the
// one at p.
func lock(p string) (unlock func(), err error) {
	for range 10 {
		// No following a link, no waiting on a FIFO: p is canopy's name,
		// but it is in a directory canopy does not own.
		f, err := os.OpenFile(p, os.O_CREATE|os.O_RDWR|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o644)
		if err != nil {
			return nil, fmt.Errorf("taking the lock %s: %w", p, err)
		}
		fi, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("taking the lock %s: %w", p, err)
		}
		if !fi.Mode().IsRegular() {
			f.Close()
			return nil, fmt.Errorf("taking the lock %s: not a regular file", p)
		}
		if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
			f.Close()
			return nil, fmt.Errorf("another canopy archive is writing to this archive (%s is locked): %w", p, err)
		}
		if pi, err := os.Lstat(p); err == nil && os.SameFile(fi, pi) {
			return func() {
				// Removed while held, and only if it is still ours.
				if pi, err := os.Lstat(p); err == nil && os.SameFile(fi, pi) {
					os.Remove(p)
				}
				f.Close()
			}, nil
		}
		f.Close()
	}
	return nil, fmt.Errorf("taking the lock %s: it keeps being replaced", p)
}

package archive

import "golang.org/x/sys/unix"

// exchange swaps two paths atomically: renameat2(2) with RENAME_EXCHANGE
// (Linux 3.15; on a file system without it, it fails and swap falls back).
func exchange(a, b string) error {
	return unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
}

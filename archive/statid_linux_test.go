package archive

import (
	"os"
	"syscall"
)

// fileID tells that a file's bytes may have changed: a write changes its
// size, its modification time or at least its change time (which no
// program can set back).
type fileID struct {
	dev, ino     uint64
	size         int64
	mtime, ctime syscall.Timespec
}

func statID(fi os.FileInfo) (fileID, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{}, false
	}
	return fileID{uint64(st.Dev), st.Ino, st.Size, st.Mtim, st.Ctim}, true
}

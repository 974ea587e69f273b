//go:build unix

package sessiontree

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestLoadFileFromPipe: a named pipe (or canopy export <(...)) cannot be
// read twice; it is loaded into memory instead.
func TestLoadFileFromPipe(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skip(err)
	}
	in := jsonl(header, user("a", ""), user("b", "a"))
	go func() {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		f.Write(in)
		f.Close()
	}()
	s, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	want, err := Load(in, path)
	if err != nil {
		t.Fatal(err)
	}
	sameSession(t, s, want)
	if src, err := s.ReadSource(); err != nil || string(src) != string(in) {
		t.Errorf("ReadSource: %q, %v", src, err)
	}
}

package sessiontree

import (
	"crypto/sha256"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadWithoutSHA256: a load told not to take the SHA-256 (what canopy
// scan loads) gives the session Load gives, with the same error or
// none, but for SHA256, zero; and Load, LoadWith without the option and
// LoadFile still give the input's SHA-256 (the page, the Markdown header
// and the archive show it). The bytes read again are the input's.
func TestLoadWithoutSHA256(t *testing.T) {
	var paths []string
	err := filepath.WalkDir(filepath.Join("..", "testdata"), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(path, ".jsonl") || strings.HasSuffix(path, ".json")) {
			paths = append(paths, path)
		}
		return err
	})
	if err != nil || len(paths) < 30 {
		t.Fatalf("testdata: %d inputs, %v", len(paths), err)
	}
	loaded := 0
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		want, werr := Load(data, path)
		got, gerr := LoadWith(data, path, LoadOptions{NoSHA256: true})
		if werr != nil || gerr != nil {
			if werr == nil || gerr == nil || gerr.Error() != werr.Error() {
				t.Errorf("%s: error %v, Load's %v", path, gerr, werr)
			}
			continue
		}
		loaded++
		sum := sha256.Sum256(data)
		if got.SHA256 != [sha256.Size]byte{} {
			t.Errorf("%s: SHA-256 %x, want none", path, got.SHA256)
		}
		if want.SHA256 != sum {
			t.Errorf("%s: Load: SHA-256 %x, want %x", path, want.SHA256, sum)
		}
		if s, err := LoadWith(data, path, LoadOptions{}); err != nil || s.SHA256 != sum {
			t.Errorf("%s: LoadWith with no options: SHA-256 %x, %v; want %x", path, s.SHA256, err, sum)
		}
		if s, err := LoadFile(path); err != nil || s.SHA256 != sum {
			t.Errorf("%s: LoadFile: %v; want SHA-256 %x", path, err, sum)
		} else {
			s.Close()
		}
		got.SHA256 = want.SHA256
		sameSession(t, got, want)
		if src, err := io.ReadAll(got.SourceReader()); err != nil || string(src) != string(data) {
			t.Errorf("%s: SourceReader: %d bytes, %v; want the input's %d", path, len(src), err, len(data))
		}
	}
	if loaded < 20 {
		t.Errorf("only %d inputs loaded: the comparison needs sessions", loaded)
	}
}

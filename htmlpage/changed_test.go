package htmlpage

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"canopy/sessiontree"
)

// TestRenderChangedFile: a session file rewritten after the load, before
// the page is made, fails the page, by the file's name, whether the page
// embeds the file or not. Appending to it (an agent at work) does not.
func TestRenderChangedFile(t *testing.T) {
	orig, err := os.ReadFile(filepath.Join("..", "testdata", "render", "kinds.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name     string
		change   []byte
		noSource bool
		fails    bool
	}{
		{"rewritten", bytes.ReplaceAll(orig, []byte("a"), []byte("b")), false, true},
		{"rewritten, no source", bytes.ReplaceAll(orig, []byte("a"), []byte("b")), true, true},
		{"truncated, no source", orig[:len(orig)/2], true, true},
		{"appended", append(bytes.Clone(orig), orig...), false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "live.jsonl")
			if err := os.WriteFile(path, orig, 0o644); err != nil {
				t.Fatal(err)
			}
			s, err := sessiontree.LoadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if err := os.WriteFile(path, c.change, 0o644); err != nil {
				t.Fatal(err)
			}
			err = r.Render(io.Discard, s, Options{NoSource: c.noSource})
			switch {
			case !c.fails && err != nil:
				t.Errorf("Render: %v", err)
			case c.fails && (!errors.Is(err, sessiontree.ErrChanged) || !strings.Contains(err.Error(), path)):
				t.Errorf("Render: error %v, want ErrChanged naming %s", err, path)
			}
		})
	}
}

package htmlpage

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"canopy/sessiontree"
)

func sharedFile(b *testing.B, name string) string {
	dir := os.Getenv("CANOPY_SHARED")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared")
	}
	p := filepath.Join(dir, name)
	if _, err := os.Stat(p); err != nil {
		b.Skipf("%s not found", p)
	}
	return p
}

// BenchmarkExport measures load + render + minify of the real sessions.
func BenchmarkExport(b *testing.B) {
	r, err := New()
	if err != nil {
		b.Fatal(err)
	}
	for _, name := range []string{"corpus/large-session.jsonl", "corpus/before-compaction.jsonl"} {
		path := sharedFile(b, name)
		data, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(filepath.Base(name), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				s, err := sessiontree.Load(data, path)
				if err != nil {
					b.Fatal(err)
				}
				if err := r.Render(io.Discard, s, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

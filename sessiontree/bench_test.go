package sessiontree

import (
	"bytes"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"canopy/internal/sessiongen"
)

var generated struct {
	once sync.Once
	data map[string][]byte
}

// generatedSession returns a synthetic session, made once per process.
func generatedSession(b *testing.B, name string) []byte {
	generated.once.Do(func() {
		generated.data = map[string][]byte{}
		for name, cfg := range map[string]sessiongen.Config{
			"branched-100k": {Entries: 100_000, Shape: sessiongen.ShapeBranched, Seed: 1},
			"linear-1M":     {Entries: 1_000_000, Shape: sessiongen.ShapeLinear, Seed: 1},
		} {
			var buf bytes.Buffer
			if err := sessiongen.Generate(&buf, cfg); err != nil {
				panic(err)
			}
			generated.data[name] = buf.Bytes()
		}
	})
	return generated.data[name]
}

// BenchmarkLoad measures load + tree + active path + context: what every
// command does first. Throughput is in input bytes (MB/s).
func BenchmarkLoad(b *testing.B) {
	inputs := []struct {
		name string
		data func(b *testing.B) []byte
	}{
		{"before-compaction", func(b *testing.B) []byte {
			p := filepath.Join(sharedDir(), "corpus", "before-compaction.jsonl")
			d, err := os.ReadFile(p)
			if err != nil {
				b.Skipf("%s: %v", p, err)
			}
			return d
		}},
		{"branched-100k", func(b *testing.B) []byte { return generatedSession(b, "branched-100k") }},
		{"linear-1M", func(b *testing.B) []byte { return generatedSession(b, "linear-1M") }},
	}
	for _, in := range inputs {
		b.Run(in.name, func(b *testing.B) {
			data := in.data(b)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				s, err := Load(data, in.name)
				if err != nil {
					b.Fatal(err)
				}
				path := s.Path(s.Leaf)
				ctx := s.Context(s.Leaf)
				if len(path) == 0 || len(ctx.Messages) == 0 {
					b.Fatal("empty path or context")
				}
			}
		})
	}
}

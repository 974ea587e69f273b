package sessiontree

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
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
		generated.data["code-heavy"] = codeHeavySession(b, codeHeavyRoot(), 3)
		for name, cfg := range map[string]sessiongen.AgentConfig{
			"claude-generated": {Format: sessiongen.FormatClaude, Turns: 355},
			"codex-generated":  {Format: sessiongen.FormatCodex, Turns: 463},
		} {
			var buf bytes.Buffer
			if err := sessiongen.GenerateAgent(&buf, cfg); err != nil {
				panic(err)
			}
			generated.data[name] = buf.Bytes()
		}
	})
	return generated.data[name]
}

// benchInput is a session the benchmarks read.
type benchInput struct {
	name string
	data func(b *testing.B) []byte
}

// load returns the input and the session loaded from it.
func (in benchInput) load(b *testing.B) ([]byte, *Session) {
	data := in.data(b)
	s, err := Load(data, in.name)
	if err != nil {
		b.Fatal(err)
	}
	return data, s
}

func corpusInput(name string) benchInput {
	return benchInput{name, func(b *testing.B) []byte {
		p := filepath.Join(sharedDir(), "corpus", name+".jsonl")
		d, err := os.ReadFile(p)
		if err != nil {
			b.Skipf("%s: %v", p, err)
		}
		return d
	}}
}

func generatedInput(name string) benchInput {
	return benchInput{name, func(b *testing.B) []byte { return generatedSession(b, name) }}
}

// realisticInputs are the sessions the decoders are measured on: the real
// ones of the corpus, a code-heavy one, and the 100,000-entry generated one.
var realisticInputs = []benchInput{
	corpusInput("before-compaction"),
	corpusInput("large-session"),
	generatedInput("code-heavy"),
	generatedInput("branched-100k"),
}

func fixtureInput(dir, name string) benchInput {
	return benchInput{dir + "/" + name, func(b *testing.B) []byte { return fixture(b, dir, name) }}
}

// formatInputs are the sessions of the formats canopy reads besides pi's:
// the fixtures, and a generated one of each, about 5 MB, with real ones'
// shape (sessiongen.GenerateAgent).
var formatInputs = []benchInput{
	fixtureInput("claude", "session.jsonl"),
	generatedInput("claude-generated"),
	fixtureInput("codex", "rollout.jsonl"),
	generatedInput("codex-generated"),
}

// BenchmarkLoad measures load + tree + active path + context: what every
// command does first. Throughput is in input bytes (MB/s).
func BenchmarkLoad(b *testing.B) {
	for _, in := range slices.Concat(realisticInputs, []benchInput{generatedInput("linear-1M")}, formatInputs, agentInputs) {
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

// BenchmarkDecode measures decoding every entry whole, as a renderer does,
// and the arguments of every tool call (which renderers decode twice).
func BenchmarkDecode(b *testing.B) {
	for _, in := range slices.Concat(realisticInputs, formatInputs, agentInputs) {
		b.Run(in.name, func(b *testing.B) {
			data, s := in.load(b)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				for _, e := range s.Entries {
					body, err := e.Decode()
					if err != nil || body.Message == nil {
						continue
					}
					for _, blk := range body.Message.Content {
						if blk.Type == "toolCall" {
							_, _ = DecodeArguments(blk.Arguments)
						}
					}
				}
			}
		})
	}
}

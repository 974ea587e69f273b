// Package jsonreaders measures canopy's hand-written JSON readers against
// the library calls they stand in for, on the same lines of realistic
// sessions (issue 34):
//
//	cd bench && go test ./jsonreaders -run X -bench . -cpu 1 -count 5
//
// valid: internal/fastpath.ScanJSON, which the load runs on every line
// (a hand-written scanner until issue 34, jsontext since), against
// jsontext.Value.IsValid (with the load's options) and a search for a
// picture. body: sessiontree's walker (Entry.Decode of a pi entry)
// against json.Unmarshal into the same sessiontree.Body. The inputs: the
// corpus's two real sessions (../shared/corpus, skipped when missing), a
// generated code-heavy pi session as canopybench's code-10MB, and a
// generated Claude Code transcript of 10 MB (valid only: its entries are
// not read by the walker). load is sessiontree.Load, for scale.
package jsonreaders

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"canopy/internal/fastpath"
	"canopy/internal/sessiongen"
	"canopy/sessiontree"
)

// opts are sessiontree's (head.go's jsonOpts).
var opts = json.JoinOptions(jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true))

var imageMark = []byte(`"type":"image"`)

type input struct {
	name string
	data func(tb testing.TB) []byte
}

func corpus(name string) input {
	return input{name, func(tb testing.TB) []byte {
		b, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "corpus", name+".jsonl"))
		if err != nil {
			tb.Skip(err)
		}
		return b
	}}
}

var inputs = []input{
	corpus("large-session"),
	corpus("before-compaction"),
	{"code-10MB", func(tb testing.TB) []byte {
		var b bytes.Buffer
		cfg := sessiongen.Config{Entries: 4_700, Shape: sessiongen.ShapeBranched, Seed: 1, Content: "code"} // canopybench's code-10MB
		if err := sessiongen.Generate(&b, cfg); err != nil {
			tb.Fatal(err)
		}
		return b.Bytes()
	}},
	{"claude-10MB", func(tb testing.TB) []byte {
		var b bytes.Buffer
		if err := sessiongen.GenerateAgent(&b, sessiongen.AgentConfig{Format: sessiongen.FormatClaude, Turns: 640}); err != nil {
			tb.Fatal(err)
		}
		return b.Bytes()
	}},
}

func BenchmarkReaders(b *testing.B) {
	for _, in := range inputs {
		b.Run(in.name, func(b *testing.B) {
			data := in.data(b)
			lines := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
			s, err := sessiontree.Load(data, in.name+".jsonl")
			if err != nil {
				b.Fatal(err)
			}
			var raws [][]byte
			for _, e := range s.Entries {
				raw, err := e.Raw()
				if err != nil {
					b.Fatal(err)
				}
				raws = append(raws, raw)
			}
			// Both ways agree on these lines.
			for _, l := range lines {
				v, img := fastpath.ScanJSON(l)
				if v != jsontext.Value(l).IsValid(opts) || img && !bytes.Contains(l, imageMark) {
					b.Fatalf("ScanJSON and the library differ on %.80q", l)
				}
			}
			run := func(name string, f func()) {
				b.Run(name, func(b *testing.B) {
					b.SetBytes(int64(len(data)))
					for b.Loop() {
						f()
					}
				})
			}
			run("load", func() {
				if _, err := sessiontree.Load(data, in.name+".jsonl"); err != nil {
					b.Fatal(err)
				}
			})
			run("valid/own", func() {
				for _, l := range lines {
					fastpath.ScanJSON(l)
				}
			})
			run("valid/library", func() {
				for _, l := range lines {
					_ = jsontext.Value(l).IsValid(opts)
					_ = bytes.Contains(l, imageMark)
				}
			})
			if in.name == "claude-10MB" {
				return // Claude Code entries are not read by the walker (Entry.Decode's decodeOther)
			}
			run("body/own", func() {
				for _, e := range s.Entries {
					_, _ = e.Decode()
				}
			})
			run("body/library", func() {
				for _, raw := range raws {
					var body sessiontree.Body
					_ = json.Unmarshal(raw, &body, opts)
				}
			})
		})
	}
}

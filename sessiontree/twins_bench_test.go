package sessiontree

import (
	"bytes"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"canopy/internal/fastpath"
)

// BenchmarkTwins measures each hand-written decoder against the library
// call it stands in for, on every line (or entry, or tool call) of the
// realistic inputs: what a twin saves is its "library" time less its
// "own" time, to be compared with BenchmarkLoad's (run both with -cpu 1:
// the load decodes on every core, these on one). A twin is kept only while
// it saves clearly more than 15% of the load (or, for the readers of
// whole entries, of their decoding). DecodeArguments had a walker of its
// own too; measured here against json.Unmarshal into a map[string]any it
// saved under 10% of the decoding and lost on before-compaction, and went.
// valid/own is internal/fastpath's ScanJSON, which the load calls.
func BenchmarkTwins(b *testing.B) {
	for _, in := range realisticInputs {
		b.Run(in.name, func(b *testing.B) {
			data, s := in.load(b)
			var lines [][]byte
			for _, e := range s.Entries {
				raw, err := e.Raw()
				if err != nil {
					b.Fatal(err)
				}
				lines = append(lines, raw)
			}
			for _, t := range twinCases(lines) {
				b.Run(t.name, func(b *testing.B) {
					b.SetBytes(int64(len(data)))
					for b.Loop() {
						t.run()
					}
				})
			}
		})
	}
}

type twinCase struct {
	name string
	run  func()
}

// twinCases are each twin and its library call over the same input.
func twinCases(lines [][]byte) []twinCase {
	var h head
	var body Body
	each := func(f func(raw []byte)) func() {
		return func() {
			for _, l := range lines {
				f(l)
			}
		}
	}
	return []twinCase{
		{"head/own", each(func(raw []byte) { h = head{}; _ = decodeHead(raw, &h) })},
		{"head/library", each(func(raw []byte) {
			h = head{}
			_ = json.Unmarshal(raw, &h, jsonOpts)
			h.image = bytes.Contains(raw, imageMark)
		})},
		{"valid/own", each(func(raw []byte) { _, _ = fastpath.ScanJSON(raw) })},
		{"valid/library", each(func(raw []byte) {
			_ = jsontext.Value(raw).IsValid(jsonOpts)
			_ = bytes.Contains(raw, imageMark)
		})},
		{"body/own", each(func(raw []byte) { body = Body{}; _ = readBody(raw, &body) })},
		{"body/library", each(func(raw []byte) { body = Body{}; _ = json.Unmarshal(raw, &body, jsonOpts) })},
	}
}

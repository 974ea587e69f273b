// Package fastpath is where the checks every command's load makes of a
// session's lines live, and where a hand-written twin of a library call
// would live while it pays its way (more than about 15% of a command on
// realistic input, measured, with a fuzz test holding it to the library).
// None does now: ValidJSON and ScanJSON are jsontext's IsValid and a
// search of the compact text.
//
// They were a hand-written scanner (291 lines, eight bytes of a string at
// a time), folded back into jsontext (issue 34) when it saved too little.
// Measured on a 2-core EPYC shared with other work (bench/jsonreaders,
// `cd bench && go test ./jsonreaders -run X -bench . -cpu 1 -count 5`):
// the scanner checked every line of large-session, before-compaction,
// code-10MB and a 10 MB Claude Code transcript in 1.0/1.5/5.4/4.1 ms,
// jsontext and a search for a picture in 1.3/2.8/11.7/10.0 ms, against a
// load (sessiontree.Load) of 2.7/7.1/24.6/38 ms. Of whole commands (the
// canopy binary with each, medians of 5 alternating runs of 1-10 calls,
// wall time): export 0-2% (gen-100k within its noise, 4% of its CPU
// profile is the check), inspect 1-7%, scan 3-5%.
package fastpath

import (
	"bytes"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// MaxDepth is jsontext's limit on nesting: a text with more objects and
// arrays open at once is not valid JSON to it (redact's scanner keeps to
// it too).
const MaxDepth = 10000

// opts are the load's (sessiontree's jsonOpts): a session's text is read
// leniently.
var opts = json.JoinOptions(jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true))

var (
	pictureValue = []byte(`"image"`)
	pictureMark  = []byte(`"type":"image"`)
)

// ValidJSON reports whether b is one JSON value with only whitespace
// around it: jsontext.Value(b).IsValid with invalid UTF-8 and duplicate
// names allowed. Every line of a session is checked with it before the
// load walks it.
func ValidJSON(b []byte) bool {
	return jsontext.Value(b).IsValid(opts)
}

// ScanJSON is ValidJSON, also telling whether a valid b holds a picture: an
// object member "type" whose value is "image", at any depth, as pi writes
// a picture's content block. In valid JSON, that is the text
// `"type":"image"` in the compact form with strings as written (inside a
// string, a quote is escaped); the copy is made only for the lines that
// hold `"image"` at all.
func ScanJSON(b []byte) (valid, image bool) {
	if !ValidJSON(b) {
		return false, false
	}
	if !bytes.Contains(b, pictureValue) {
		return true, false
	}
	compact := jsontext.Value(bytes.Clone(b))
	if err := compact.Compact(opts, jsontext.PreserveRawStrings(true)); err != nil {
		return true, false // not reached: b is valid
	}
	return true, bytes.Contains(compact, pictureMark)
}

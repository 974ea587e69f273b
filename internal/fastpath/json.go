// Package fastpath is where the checks every command's load makes of a
// session's lines live, and where a hand-written twin of a library call
// would live while it pays its way (more than about 15% of a command on
// realistic input, measured, with a fuzz test holding it to the library).
// None does now: ValidJSON and ScanJSON are jsontext's IsValid and a
// search of the compact text.
//
// They were a hand-written scanner (291 lines, eight bytes of a string at
// a time), folded back into jsontext (issue 34) as it saved too little of
// any command. Measured on a 2-core EPYC shared with other work
// (bench/jsonreaders, `cd bench && go test ./jsonreaders -run X -bench
// Readers -cpu 1 -count 5 -benchtime 20x`, medians, ms, on large-session,
// before-compaction, code-10MB and a 10 MB Claude Code transcript): the
// scanner checked every line in 0.71/1.48/5.50/5.85, ScanJSON as it is
// now takes 1.1/2.4/9.8/8.2, a load (sessiontree.Load, on one core)
// 3.1/6.0/19.9/35.6: 7-22% of a load on one core. Of whole commands (the
// canopy binary with each, wall time, medians of 5 alternating runs of
// 1-10 calls): export 0-2% (gen-100k within its noise; 4% of its CPU
// profile was the scanner), inspect 1-7% (CPU up to 10%, code-10MB),
// scan 3-5%.
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

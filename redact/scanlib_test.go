// The library path for the scanner: the same units, read with jsontext's
// Decoder. It holds scanner to the library (FuzzScanner) and measures it
// (BenchmarkScan).

package redact

import (
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"canopy/internal/sessiongen"
)

// libScan emits the units scanner.run emits, and retracts the same
// segments, reading the input with jsontext.Decoder.
func libScan(data []byte, emit func(unit), retract func(from, to int)) {
	ls := libScanner{data: data, emit: emit, line: 1}
	ls.run(retract)
}

type libScanner struct {
	data   []byte
	emit   func(unit)
	dec    *jsontext.Decoder
	base   int // offset in data of the decoder's input
	line   int // the line of lineAt
	lineAt int
}

// lineOf is the 1-based line of offset off, which must not be before the
// last one asked.
func (ls *libScanner) lineOf(off int) int {
	ls.line += bytes.Count(ls.data[ls.lineAt:off], []byte{'\n'})
	ls.lineAt = off
	return ls.line
}

func (ls *libScanner) run(retract func(from, to int)) {
	data, n := ls.data, len(ls.data)
	// The scanner takes strings as they are and does not look for
	// duplicate names.
	opts := []jsontext.Options{jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true)}
	ls.dec = jsontext.NewDecoder(bytes.NewBuffer(data), opts...)
	segStart, segLine, lastEndLine := -1, 0, -1
	for {
		p := ls.skipWS(ls.base + int(ls.dec.InputOffset()))
		if p >= n {
			return
		}
		line := ls.lineOf(p)
		if segStart < 0 || lastEndLine < line {
			segStart, segLine = bytes.LastIndexByte(data[:p], '\n')+1, line
		}
		errAt, ok := ls.value()
		if ok {
			lastEndLine = ls.lineOf(ls.base + int(ls.dec.InputOffset()))
			continue
		}
		errEnd := n
		if errAt < n {
			if k := bytes.IndexByte(data[errAt:], '\n'); k >= 0 {
				errEnd = errAt + k
			}
		}
		retract(segStart, errEnd)
		p, ln := segStart, segLine
		for {
			e := errEnd
			if k := bytes.IndexByte(data[p:errEnd], '\n'); k >= 0 {
				e = p + k
			}
			if e > p {
				ls.emit(unit{start: p, end: e, keyEnd: -1, line: ln, flags: uPlain})
			}
			if e >= errEnd {
				break
			}
			p, ln = e+1, ln+1
		}
		ls.base = min(n, errEnd+1)
		ls.line, ls.lineAt = ln+1, ls.base
		ls.dec.Reset(bytes.NewBuffer(data[ls.base:]), opts...)
		segStart, lastEndLine = -1, -1
	}
}

// value reads one top-level value, emitting its string units. When it is
// not valid, it returns where the error is.
func (ls *libScanner) value() (errAt int, ok bool) {
	d := ls.dec
	keyS, keyE, keyEsc := -1, -1, false
	for {
		before := ls.base + int(d.InputOffset())
		t, err := d.ReadToken()
		if err != nil {
			return ls.errOffset(), false
		}
		switch t.Kind() {
		case '"':
			end := ls.base + int(d.InputOffset())
			// Only white space, a comma or a colon come before the
			// opening quote.
			start := before + bytes.IndexByte(ls.data[before:end], '"') + 1
			u := unit{start: start, end: end - 1, keyStart: keyS, keyEnd: keyE, line: ls.lineOf(end)}
			esc := bytes.IndexByte(ls.data[start:end-1], '\\') >= 0
			if esc {
				u.flags |= uEscaped
			}
			if depth := d.StackDepth(); depth > 0 {
				if k, n := d.StackIndex(depth); k == '{' && n%2 == 1 {
					// An object's name.
					u.keyStart, u.keyEnd, u.flags = 0, -1, u.flags|uKey
					ls.emit(u)
					keyS, keyE, keyEsc = u.start, u.end, esc
					continue
				}
			}
			if keyEsc {
				u.flags |= uKeyEscaped
			}
			ls.emit(u)
			keyS, keyE, keyEsc = -1, -1, false
		case '{', '[':
			// A member's key stays for the first string inside its
			// value, as the scanner's does.
		default:
			keyS, keyE, keyEsc = -1, -1, false
		}
		if d.StackDepth() == 0 {
			return 0, true
		}
	}
}

// errOffset is where the scanner stops when the library reports an error
// (at a position of its own): the first byte after the last token read and
// the white space after it, or after the comma or colon there when one may
// come, and the white space after that; for a container too deep, after its
// opening bracket and the white space after it.
func (ls *libScanner) errOffset() int {
	d, data := ls.dec, ls.data
	p := ls.skipWS(ls.base + int(d.InputOffset()))
	if p >= len(data) {
		return p
	}
	depth := d.StackDepth()
	kind, n := d.StackIndex(depth)
	switch c := data[p]; {
	case depth > 0 && c == ',' && n > 0 && (kind == '[' || n%2 == 0),
		depth > 0 && c == ':' && kind == '{' && n%2 == 1:
		p = ls.skipWS(p + 1)
	}
	if depth == maxDepth && p < len(data) && (data[p] == '[' || data[p] == '{') {
		p = ls.skipWS(p + 1)
	}
	return p
}

func (ls *libScanner) skipWS(p int) int {
	for p < len(ls.data) && (ls.data[p] == ' ' || ls.data[p] == '\t' || ls.data[p] == '\r' || ls.data[p] == '\n') {
		p++
	}
	return p
}

// scanEvent is a unit emitted or a segment retracted.
type scanEvent struct {
	u       unit
	retract [2]int
	isRetr  bool
}

// scanEvents are what the scanner (or, with lib, libScan) emits and
// retracts on data, in order.
func scanEvents(data []byte, lib bool) []scanEvent {
	var evs []scanEvent
	emit := func(u unit) { evs = append(evs, scanEvent{u: u}) }
	retract := func(a, b int) { evs = append(evs, scanEvent{retract: [2]int{a, b}, isRetr: true}) }
	if lib {
		libScan(data, emit, retract)
	} else {
		(&scanner{data: data, emit: emit, retract: retract}).run()
	}
	return evs
}

// FuzzScanner holds scanner to the library: the same units, and the same
// segments retracted, as libScan.
func FuzzScanner(f *testing.F) {
	for _, s := range []string{
		"", "{}", `{"a":"b"}` + "\n" + `[1,"x",{"k":["v","w"]}]`, `{"a": "b\u00e9\n"}`, "not json\n{\"a\":1}\n",
		"{\"a\":\n\"b\"", "01", "truefalse", "1.5.3", "[1 2]", `{"a" "b"}`, `{"a":1,}`, "\"\\x\"", "\"\xff\"",
		`{"k\"ey": "v\\"}`, "{\"a\":1}{\"b\":2}\n  {\"c\":\n3} x\n{\"d\":4}", strings.Repeat("[", 10001),
		strings.Repeat("[", 10000) + "[]", strings.Repeat("[", 10000) + "[\n\n1", "0000[0,\n]", "A\n,\n", "{\"a\"\n:\n,", "[1\n,\n]",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		a, b := scanEvents(data, false), scanEvents(data, true)
		if !slices.Equal(a, b) {
			t.Errorf("scanner:\n%+v\nlibrary:\n%+v", a, b)
		}
	})
}

// scanInputs are realistic inputs: the real sessions of ../shared/corpus
// (when there), the test data, and generated sessions of the code-heavy
// kind and of the benchmarks' default kind, of the numbers of entries given.
func scanInputs(tb testing.TB, codeEntries, genEntries int) map[string][]byte {
	in := map[string][]byte{}
	corpus, _ := filepath.Glob(filepath.Join("..", "..", "shared", "corpus", "*.jsonl"))
	testdata, _ := filepath.Glob(filepath.Join("..", "testdata", "*", "*.jsonl"))
	for _, f := range append(corpus, testdata...) {
		b, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		in[filepath.Base(f)] = b
	}
	for name, cfg := range map[string]sessiongen.Config{
		"code": {Entries: codeEntries, Shape: sessiongen.ShapeBranched, Seed: 1, Content: "code"},
		"gen":  {Entries: genEntries, Shape: sessiongen.ShapeBranched, Seed: 1},
	} {
		var buf bytes.Buffer
		if err := sessiongen.Generate(&buf, cfg); err != nil {
			tb.Fatal(err)
		}
		in[name] = buf.Bytes()
	}
	return in
}

// TestScannerMatchesLibrary: on realistic inputs, broken lines included,
// the scanner and the library give the same units.
func TestScannerMatchesLibrary(t *testing.T) {
	for name, data := range scanInputs(t, 500, 1000) {
		a, b := scanEvents(data, false), scanEvents(data, true)
		if len(a) != len(b) {
			t.Errorf("%s: %d units and retractions, the library %d", name, len(a), len(b))
		}
		for i := range min(len(a), len(b)) {
			if a[i] != b[i] {
				t.Errorf("%s: event %d: %+v, the library %+v", name, i, a[i], b[i])
				break
			}
		}
	}
}

// BenchmarkScan measures the scanner against the library path on the real
// sessions and on generated ones of about 10 MB (code-heavy: code-10MB of
// canopybench; the default kind: gen-10k).
func BenchmarkScan(b *testing.B) {
	in := scanInputs(b, 4700, 10_000)
	names := slices.Sorted(maps.Keys(in))
	for _, name := range names {
		data := in[name]
		if len(data) < 500_000 {
			continue // the test data: too small to measure
		}
		for _, impl := range []string{"scanner", "jsontext"} {
			b.Run(name+"/"+impl, func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				n := 0
				emit := func(unit) { n++ }
				retract := func(int, int) {}
				for b.Loop() {
					if impl == "jsontext" {
						libScan(data, emit, retract)
					} else {
						(&scanner{data: data, emit: emit, retract: retract}).run()
					}
				}
			})
		}
	}
}

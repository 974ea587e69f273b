package sessiontree

import (
	"bytes"
	"math"
	"reflect"
	"strconv"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// checkWalkerBody requires readBody to read raw exactly as json.Unmarshal
// reads it into a Body (with the lenient options of every session decode),
// failing on the same input.
func checkWalkerBody(tb testing.TB, raw []byte) {
	tb.Helper()
	var want, got Body
	werr := json.Unmarshal(raw, &want, jsonOpts)
	gerr := readBody(raw, &got)
	if (werr == nil) != (gerr == nil) {
		tb.Fatalf("%s\njson.Unmarshal error %v, readBody error %v", raw, werr, gerr)
	}
	if werr != nil {
		return
	}
	if !reflect.DeepEqual(got, want) {
		tb.Fatalf("%s\nreadBody  %#v\njson.Unmarshal %#v", raw, got, want)
	}
}

// bodyCases are entries that take the decoder through its rules: nulls,
// wrong types in every kind of field (the skipped ones too), members given
// twice, escaped names, numbers out of range, broken UTF-8.
var bodyCases = []string{
	`{}`,
	`{"type":"message","message":null}`,
	`{"message":{"role":"assistant","content":[{"type":"thinking","thinking":5}]}}`,
	`{"message":{"role":"assistant","content":[{"type":"thinking","thinking":null},{"type":"text","text":"t"}]}}`,
	`{"message":{"role":"bashExecution","command":"ls","output":{"x":1}}}`,
	`{"message":{"role":"bashExecution","command":"ls","output":"out","exitCode":1.5}}`,
	`{"message":{"role":"bashExecution","exitCode":-0,"cancelled":null,"truncated":true}}`,
	`{"message":{"role":"bashExecution","exitCode":1e2}}`,
	`{"message":{"role":"bashExecution","exitCode":99999999999999999999}}`,
	`{"message":{"role":"bashExecution","exitCode":3,"exitCode":null}}`,
	`{"message":{"role":"user","content":[{"type":"image","data":[],"mimeType":"image/png"}]}}`,
	`{"message":{"role":"user","content":"plain","details":{"any":[1,2]}}}`,
	`{"message":{"role":"user","content":"plain","details":null}}`,
	`{"message":{"role":"hookMessage","content":[{"type":"text","text":"h"}],"usage":{"input":"x"}}}`,
	`{"message":{"usage":{"input":1,"cost":{"total":2}},"usage":{"output":3,"cost":null}}}`,
	`{"message":{"usage":{"input":1e999}}}`,
	`{"message":{"usage":{"input":1e-999}}}`,
	`{"message":{"usage":null,"timestamp":"x"}}`,
	`{"customType":"n","content":[{"type":"text","text":"c"}],"details":5,"data":"x"}`,
	`{"message":{"role":"user","content":[{"type":"text","text":"a"},"bare"]}}`,
	`{"message":{"role":"user","content":[null,{"type":"text","text":"a"},null]}}`,
	`{"message":{"role":"user","content":[]}}`,
	`{"message":{"role":"user","content":{"type":"text"}}}`,
	`{"message":{"role":"user","content":5}}`,
	`{"message":{"role":"user","content":[{"type":"text","text":"a"}],"content":"b"}}`,
	`{"message":{"role":"assistant","content":[{"type":"thinking","thinking":"x","thinking":"y"}]}}`,
	`{"message":{"role":"a"},"message":{"model":"m"}}`,
	`{"message":{"role":"a"},"message":null,"message":{"model":"m"}}`,
	`{"message":5}`,
	`{"message":{"r\u006fle":"user","content":[{"typ\u0065":"text","t\u0065xt":"x"}]}}`,
	`{"message":{"Role":"user","ROLE":"x"}}`,
	`{"message":{"role":"user\ud800","content":"a\ufffd\ud83d\ude00"}}`,
	"{\"message\":{\"role\":\"user\",\"content\":\"broken \xff\xfe utf-8\",\"\xff\":1}}",
	"{\"message\":{\"role\":\"us\\u0065r\xff\"}}",
	`{"message":{"content":[{"type":"toolCall","id":"c","name":"read","arguments":{"path":"p"}},{"type":"toolCall","arguments":null},{"arguments":[1]}]}}`,
	`{"message":{"isError":"yes"}}`,
	`{"message":{"role":"toolResult","toolCallId":"a","content":[{"type":"text","text":"out"}]}}`,
	`{"message":{"toolCallId":"a"},"message":{"role":"x"}}`,
	`{"message":{"toolCallId":"a"},"message":null,"message":{"role":"x"}}`,
	`{"message":{"toolCallId":5}}`,
	`{"message":{"toolCallId":null}}`,
	`{"message":{"display":1}}`,
	`{"fromHook":true,"fromExtension":null,"data":{"k":[]}}`,
	`{"fromHook":"true"}`,
	`{"message":{"content":[{"type":"text","redacted":"no"}]}}`,
}

func TestWalkerBodyMatchesUnmarshal(t *testing.T) {
	for _, c := range bodyCases {
		checkWalkerBody(t, []byte(c))
	}
	// And every entry of every session under testdata.
	n := 0
	for _, data := range fuzzSeeds(t) {
		s, err := Load(data, "seed")
		if err != nil {
			continue
		}
		for _, e := range s.Entries {
			raw, err := e.Raw()
			if err != nil {
				t.Fatal(err)
			}
			checkWalkerBody(t, raw)
			n++
		}
	}
	if n < 1000 {
		t.Fatalf("only %d entries compared", n)
	}
}

// FuzzWalkerBody compares readBody with json.Unmarshal on arbitrary JSON
// objects, and requires it not to panic on anything else.
func FuzzWalkerBody(f *testing.F) {
	// Whatever the bytes, no panic (the input is checked at load, but
	// nothing may panic on any input).
	fuzzWalker(f, bodyCases, func(raw []byte) { var b Body; _ = readBody(raw, &b) }, checkWalkerBody)
}

// fuzzWalker fuzzes a walker's reader: read must not panic on any bytes,
// and check holds it to json.Unmarshal on those that are JSON objects
// (entries are, checked at load).
func fuzzWalker(f *testing.F, cases []string, read func(raw []byte), check func(testing.TB, []byte)) {
	for _, c := range cases {
		f.Add([]byte(c))
	}
	addSeedLines(f)
	f.Fuzz(func(t *testing.T, raw []byte) {
		read(raw)
		raw, ok := validObject(raw)
		if !ok {
			return
		}
		check(t, raw)
	})
}

// checkWalkerHead requires readHead to read raw, a valid JSON object, as
// json.Unmarshal reads it into a head (the lenient types' methods).
func checkWalkerHead(tb testing.TB, raw []byte) {
	tb.Helper()
	var want, got head
	werr := json.Unmarshal(raw, &want, jsonOpts)
	gerr := readHead(raw, &got)
	if (werr == nil) != (gerr == nil) {
		tb.Fatalf("%s\njson.Unmarshal error %v, readHead error %v", raw, werr, gerr)
	}
	if werr == nil && !reflect.DeepEqual(got, want) {
		tb.Fatalf("%s\nreadHead       %+v\njson.Unmarshal %+v", raw, got, want)
	}
}

// headCases take readHead through the lenient types' rules.
var headCases = []string{
	`{"type":"session","version":3,"id":"x","timestamp":"t","cwd":"/c"}`,
	`{"type":5,"id":7,"parentId":null,"timestamp":{},"version":null}`,
	`{"id":"a","id":5,"parentId":"p","parentId":null}`,
	`{"version":"3","firstKeptEntryIndex":[1],"tokensBefore":"x"}`,
	`{"version":1e999,"tokensBefore":-1e999,"firstKeptEntryIndex":2.5}`,
	`{"version":3,"version":null}`,
	`{"message":{"role":"assistant","content":[{"type":"toolCall"},{"type":"text","text":"  NO_REPLY"},{"type":"text","text":"x"},5,null,{"type":"toolCall","type":"text"}],"usage":{"input":1,"cost":{"total":2},"cost":5}}}`,
	`{"message":{"content":"\n\tNO_REPLY"},"message":{"role":"user"}}`,
	`{"message":{"content":[{"type":"toolCall"}],"content":[{"type":"toolCall"}],"content":"x"}}`,
	`{"message":"x","usage":[1],"display":"true"}`,
	`{"message":{"display":true,"display":null,"usage":{"cost":{"input":"1"}},"usage":null}}`,
	`{"message":{"content":[{"text":5,"type":"text"}]}}`,
	`{"typ\u0065":"message","m\u0065ssage":{"r\u006fle":"user"}}`,
	"{\"type\":\"message\",\"summary\":\"bad \xff utf-8\",\"label\":\"\\ud800\"}",
	`{"type":"model_change","provider":"p","modelId":"m","model":"a/b","role":"default"}`,
	`{"type":"custom_message","customType":"c","display":true,"source":"prompt","fromId":"f","targetId":"t","name":"n","thinkingLevel":"high","firstKeptEntryId":"k"}`,
}

func TestWalkerHeadMatchesUnmarshal(t *testing.T) {
	for _, c := range headCases {
		checkWalkerHead(t, []byte(c))
	}
	n := 0
	for _, data := range fuzzSeeds(t) {
		for _, line := range bytes.Split(data, []byte("\n")) {
			if line, ok := validObject(line); ok {
				checkWalkerHead(t, line)
				n++
			}
		}
	}
	if n < 1000 {
		t.Fatalf("only %d lines compared", n)
	}
}

// FuzzWalkerHead compares readHead with json.Unmarshal on arbitrary JSON
// objects, and requires it not to panic on anything else.
func FuzzWalkerHead(f *testing.F) {
	fuzzWalker(f, headCases, func(raw []byte) { var h head; _ = readHead(raw, &h) }, checkWalkerHead)
}

// checkDecodeArguments requires DecodeArguments to read raw as
// json.Unmarshal reads it into a map[string]any.
func checkDecodeArguments(tb testing.TB, raw []byte) {
	tb.Helper()
	var want map[string]any
	werr := json.Unmarshal(raw, &want)
	got, gerr := DecodeArguments(raw)
	if (werr == nil) != (gerr == nil) {
		tb.Fatalf("%q\njson.Unmarshal error %v, DecodeArguments error %v", raw, werr, gerr)
	}
	if werr == nil && !reflect.DeepEqual(got, want) {
		tb.Fatalf("%q\nDecodeArguments %#v\njson.Unmarshal  %#v", raw, got, want)
	}
}

var argumentCases = []string{
	`{"path":"a.go","offset":10,"limit":20}`,
	`{"command":"ls -la\n","timeout":1.5e2,"background":false,"x":null,"y":true}`,
	`{"edits":[{"oldText":"a","newText":"b"}],"opts":{"k":[1,"2",null]}}`,
	`{}`, `null`, `[1]`, `"x"`, `5`, ``, ` {"a":1} `,
	`{"a":1,"a":2}`,
	`{"n":1e999}`, `{"n":-1e-999}`,
	"{\"bad\":\"\xff\"}",
	`{"esc":"tab\there \u00e9 \ud83d\ude00 \ud800"}`,
	`{"k\u0065y":1}`,
}

func TestDecodeArgumentsMatchesUnmarshal(t *testing.T) {
	for _, c := range argumentCases {
		checkDecodeArguments(t, []byte(c))
	}
	n := 0
	for _, data := range fuzzSeeds(t) {
		s, err := Load(data, "seed")
		if err != nil {
			continue
		}
		for _, e := range s.Entries {
			if b, err := e.Decode(); err == nil && b.Message != nil {
				for _, blk := range b.Message.Content {
					if blk.Type == "toolCall" {
						checkDecodeArguments(t, blk.Arguments)
						n++
					}
				}
			}
		}
	}
	if n < 100 {
		t.Fatalf("only %d tool calls compared", n)
	}
}

// addSeedLines adds the lines of the testdata sessions (but long ones) to
// a fuzz target's corpus.
func addSeedLines(f *testing.F) {
	for _, data := range fuzzSeeds(f) {
		for _, line := range bytes.Split(data, []byte("\n")) {
			if len(line) < 4096 {
				f.Add(line)
			}
		}
	}
}

// validObject is raw trimmed, and whether it is what the load passes on
// to the readers: a valid JSON object.
func validObject(raw []byte) ([]byte, bool) {
	raw = bytes.TrimSpace(raw)
	return raw, len(raw) > 0 && raw[0] == '{' && jsontext.Value(raw).IsValid(jsonOpts)
}

// TestWalkerNumber holds walker.number, fast path and all, to
// strconv.ParseFloat, the sign of zero included.
func TestWalkerNumber(t *testing.T) {
	for _, text := range []string{"0", "-0", "7", "-7", "123", "999999999999999", "-999999999999999",
		"1000000000000000", "9007199254740993", "12345678901234567890", "0.1", "-0.0", "1.5", "1e3", "-1E-3",
		"2.5e+2", "1e400", "-1e400", "1e-400", "0e5", "00", "1-", "-"} {
		for _, after := range []string{"", ",", "}", "]", " "} {
			w := walker{b: []byte(text + after)}
			got, ok := w.number()
			want, err := strconv.ParseFloat(text, 64)
			if (err == nil) != ok || math.Float64bits(got) != math.Float64bits(want) {
				t.Errorf("number(%q) = %v, %v; ParseFloat: %v, %v", text+after, got, ok, want, err)
			}
			if w.i != len(text) {
				t.Errorf("number(%q) read %d bytes, want %d", text+after, w.i, len(text))
			}
		}
	}
}

package sessiontree

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// checkBodyReader requires readBody to read raw exactly as json.Unmarshal
// reads it into a Body (with the lenient options of every session decode),
// failing on the same input, and the outline to be that Body without its
// bulk.
func checkBodyReader(tb testing.TB, raw []byte) {
	tb.Helper()
	var want, got, outline Body
	werr := json.Unmarshal(raw, &want, jsonOpts)
	gerr := readBody(raw, &got, false)
	if (werr == nil) != (gerr == nil) {
		tb.Fatalf("%s\njson.Unmarshal error %v, readBody error %v", raw, werr, gerr)
	}
	oerr := readBody(raw, &outline, true)
	if (werr == nil) != (oerr == nil) {
		tb.Fatalf("%s\njson.Unmarshal error %v, outline error %v", raw, werr, oerr)
	}
	if werr != nil {
		return
	}
	if !reflect.DeepEqual(got, want) {
		tb.Fatalf("%s\nreadBody  %#v\njson.Unmarshal %#v", raw, got, want)
	}
	if o := outlineOf(&want); !reflect.DeepEqual(&outline, o) {
		tb.Fatalf("%s\noutline %#v\nwant    %#v", raw, &outline, o)
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
	`{"message":{"display":1}}`,
	`{"fromHook":true,"fromExtension":null,"data":{"k":[]}}`,
	`{"fromHook":"true"}`,
	`{"message":{"content":[{"type":"text","redacted":"no"}]}}`,
}

func TestBodyReaderMatchesUnmarshal(t *testing.T) {
	for _, c := range bodyCases {
		checkBodyReader(t, []byte(c))
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
			checkBodyReader(t, raw)
			n++
		}
	}
	if n < 1000 {
		t.Fatalf("only %d entries compared", n)
	}
}

// FuzzBodyReader compares readBody with json.Unmarshal on arbitrary JSON
// objects, and requires it not to panic on anything else.
func FuzzBodyReader(f *testing.F) {
	for _, c := range bodyCases {
		f.Add([]byte(c))
	}
	for _, data := range fuzzSeeds(f) {
		for _, line := range bytes.Split(data, []byte("\n")) {
			if len(line) < 4096 {
				f.Add(line)
			}
		}
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		// Whatever the bytes, no panic (the input is checked at load, but
		// nothing may panic on any input).
		var b Body
		_ = readBody(raw, &b, false)
		_ = readBody(raw, &b, true)
		raw = bytes.TrimSpace(raw)
		if len(raw) == 0 || raw[0] != '{' || !jsontext.Value(raw).IsValid(jsonOpts) {
			return // entries are JSON objects, checked at load
		}
		checkBodyReader(t, raw)
	})
}

package fastpath

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// jsonOpts are the options ValidJSON agrees with: a session's text is
// read leniently (sessiontree's jsonOpts).
var jsonOpts = json.JoinOptions(jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true))

// imageMark is how a picture's content block starts, as pi writes it.
var imageMark = []byte(`"type":"image"`)

// testdataSessions is every session file of the repository's testdata
// (those under bad/ included, the fuzz corpora not): the lines the checks
// are held to.
func testdataSessions(tb testing.TB) [][]byte {
	tb.Helper()
	var files [][]byte
	err := filepath.WalkDir(filepath.Join("..", "..", "testdata"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.Contains(path, string(filepath.Separator)+"fuzz"+string(filepath.Separator)) {
			return err
		}
		name := d.Name()
		inBad := filepath.Base(filepath.Dir(path)) == "bad"
		if !inBad && !strings.HasSuffix(name, ".jsonl") && (!strings.HasSuffix(name, ".json") || name == "expect.json") {
			return nil
		}
		fi, err := d.Info()
		if err != nil || !fi.Mode().IsRegular() || fi.Size() > 1<<20 {
			return err
		}
		data, err := os.ReadFile(path)
		files = append(files, data)
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	return files
}

// validCases are texts at each edge of the grammar: ValidJSON must say of
// each what jsontext says.
var validCases = []string{
	``, ` `, `{}`, ` {} `, "\t{}\r\n", `{`, `}`, `{}}`, `{}{}`, `{} x`, `[]`, `[`, `]`, `[]]`, `[}`, `{]`,
	`null`, `nul`, `nulll`, `true`, `tru`, `truex`, `false`, `fals`, `False`, `[true,false,null]`, `[truefalse]`,
	`0`, `-0`, `-`, `01`, `-01`, `1.`, `1.5`, `.5`, `1e5`, `1E+5`, `1e-5`, `1e`, `1e+`, `1.e5`, `12345678901234567890`,
	`[1,2]`, `[1 2]`, `[1,]`, `[,1]`, `[1,,2]`, `[-]`, `[1-2]`, `[0x10]`, `[1true]`, `+1`, `[NaN]`, `[Infinity]`,
	`{"a":1}`, `{"a" : 1 , "b":[ ]}`, `{"a":1,}`, `{,"a":1}`, `{"a"}`, `{"a":}`, `{"a" 1}`, `{a:1}`, `{1:1}`,
	`{"a":1 "b":2}`, `{"a":1,"a":2}`, `{"a":{"b":{"c":[{}]}}}`, `{"a":[1,{"b":2}]}`, `[{"a":1]}`, `{"a":[1}]`,
	`""`, `"`, `"abc`, `"a\"b"`, `"a\\"`, `"a\\\"`, `"\/\b\f\n\r\t"`, `"\x"`, `"\'"`, `"\u00e9"`, `"\u00E9"`,
	`"\u00g9"`, `"\u00e"`, `"\u"`, `"\ud800"`, `"\udc00\ud800"`, `"\ud83d\ude00"`, "\"a\tb\"", "\"a\nb\"",
	"\"\x00\"", "\"\x1f\"", "\"\x7f\"", "\"\x80\xff\"", "\"é\"", "\"€€€€€€€€€\"", "\xef\xbb\xbf{}", "\x00",
	`"0123456789abcdef\"0123456789abcdef"`, `"0123456789abcdef\\"`, `"01234567\\`, `"0123456789abcdef`,
	"\"01234567\x01\"", "\"0123456\x1f89\"", `{"0123456789abcdef":"0123456789abcdef","ghijklmnop":[1,2,3]}`,
	"{\"a\":1}\n", "{\"a\":1}\v", "{\"a\":1}\u00a0", "{\"a\":1}\x00",
}

func TestValidJSON(t *testing.T) {
	for _, c := range validCases {
		if got, want := ValidJSON([]byte(c)), jsontext.Value(c).IsValid(jsonOpts); got != want {
			t.Errorf("ValidJSON(%q) = %v, jsontext says %v", c, got, want)
		}
	}
}

// TestValidJSONDepth holds ValidJSON to jsontext's nesting limit, for
// arrays, objects and both, at and around it.
func TestValidJSONDepth(t *testing.T) {
	open := map[string][2]string{
		"arrays":  {"[", "]"},
		"objects": {`{"k":`, "}"},
	}
	for name, oc := range open {
		for _, n := range []int{MaxDepth - 1, MaxDepth, MaxDepth + 1} {
			inner := "0"
			if name == "objects" {
				inner = "{}"
				n-- // the innermost {} is one level
			}
			text := strings.Repeat(oc[0], n) + inner + strings.Repeat(oc[1], n)
			want := jsontext.Value(text).IsValid(jsonOpts)
			if got := ValidJSON([]byte(text)); got != want {
				t.Errorf("%s nested %d deep: ValidJSON = %v, jsontext says %v", name, n, got, want)
			}
		}
	}
	// Mixed, so that both kinds cross a 64-level word of the stack.
	var b strings.Builder
	for i := range MaxDepth {
		if i%3 == 0 {
			b.WriteString(`{"k":`)
		} else {
			b.WriteString("[")
		}
	}
	b.WriteString("1")
	for i := MaxDepth - 1; i >= 0; i-- {
		if i%3 == 0 {
			b.WriteString("}")
		} else {
			b.WriteString("]")
		}
	}
	mixed := b.String()
	if got, want := ValidJSON([]byte(mixed)), jsontext.Value(mixed).IsValid(jsonOpts); got != want || !got {
		t.Errorf("mixed nesting %d deep: ValidJSON = %v, jsontext says %v", MaxDepth, got, want)
	}
	// The closers swapped, deep down: an object closed by ].
	swapped := mixed[:len(mixed)-MaxDepth+100] + "]" + mixed[len(mixed)-MaxDepth+101:]
	if swapped[len(mixed)-MaxDepth+100] == mixed[len(mixed)-MaxDepth+100] {
		swapped = mixed[:len(mixed)-MaxDepth+100] + "}" + mixed[len(mixed)-MaxDepth+101:]
	}
	if got, want := ValidJSON([]byte(swapped)), jsontext.Value(swapped).IsValid(jsonOpts); got != want || got {
		t.Errorf("mixed nesting with a closer swapped: ValidJSON = %v, jsontext says %v", got, want)
	}
}

func TestScanJSONImage(t *testing.T) {
	for _, c := range []struct {
		text  string
		image bool
	}{
		{`{"type":"image","data":"AAAA","mimeType":"image/png"}`, true},
		{`{"message":{"content":[{"type":"text","text":"a"},{"type":"image","data":"x"}]}}`, true},
		{`{"type" : "image"}`, true},
		{`{"x":{"type":"image"},"y":[1,{"type":"image"}]}`, true},
		{`{"type":"text","text":"\"type\":\"image\""}`, false},
		{`{"type":["image"]}`, false},
		{`{"type":{"a":"image"}}`, false},
		{`{"kind":"image"}`, false},
		{`{"type":"images"}`, false},
		{`{"type":"Image"}`, false},
		{`{"a":"type","b":"image"}`, false},
		{`["type","image"]`, false},
		{`{"type":"image"`, false}, // not valid
		{`{"type":"image"}x`, false},
	} {
		valid, image := ScanJSON([]byte(c.text))
		if image != c.image || valid != jsontext.Value(c.text).IsValid(jsonOpts) {
			t.Errorf("ScanJSON(%s) = %v, %v; want image %v", c.text, valid, image, c.image)
		}
	}
	// The lines of the test sessions, two of which hold pictures: as the
	// search for `"type":"image"` the load did before.
	pictures := 0
	for _, seed := range testdataSessions(t) {
		for _, line := range bytes.Split(seed, []byte("\n")) {
			line = bytes.TrimSpace(line)
			valid, image := ScanJSON(line)
			if !valid {
				continue
			}
			if want := bytes.Contains(line, imageMark); image != want {
				t.Errorf("ScanJSON(%.80s): picture %v, want %v", line, image, want)
			}
			if image {
				pictures++
			}
		}
	}
	if pictures == 0 {
		t.Error("no line of the test sessions holds a picture: the check above checked little")
	}
}

// FuzzValidJSON holds ValidJSON to jsontext on arbitrary bytes, and
// ScanJSON's picture to its definition, read token by token (hasPicture).
func FuzzValidJSON(f *testing.F) {
	for _, c := range validCases {
		f.Add([]byte(c))
	}
	for _, seed := range testdataSessions(f) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := ValidJSON(data), jsontext.Value(data).IsValid(jsonOpts); got != want {
			t.Fatalf("ValidJSON(%q) = %v, jsontext says %v", data, got, want)
		}
		if valid, image := ScanJSON(data); valid && image != hasPicture(t, data) {
			t.Fatalf("ScanJSON(%q): picture %v", data, image)
		}
	})
}

// hasPicture reports whether the valid JSON b has an object member whose
// name is written "type" and whose value is written "image", at any depth.
func hasPicture(t *testing.T, b []byte) bool {
	d := jsontext.NewDecoder(bytes.NewReader(b), jsonOpts)
	afterType := false // the token before was a member name written "type"
	for {
		before := d.InputOffset()
		tok, err := d.ReadToken()
		if err == io.EOF {
			return false
		}
		if err != nil {
			t.Fatalf("reading %q: %v", b, err)
		}
		raw := strings.TrimLeft(string(b[before:d.InputOffset()]), " \t\r\n,:") // the token as written
		if afterType && raw == `"image"` {
			return true
		}
		kind, n := d.StackIndex(d.StackDepth())
		afterType = tok.Kind() == '"' && kind == '{' && n%2 == 1 && raw == `"type"`
	}
}

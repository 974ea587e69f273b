package sessiontree

import (
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// validCases are texts at each edge of the grammar: validJSON must say of
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
		if got, want := validJSON([]byte(c)), jsontext.Value(c).IsValid(jsonOpts); got != want {
			t.Errorf("validJSON(%q) = %v, jsontext says %v", c, got, want)
		}
	}
}

// TestValidJSONDepth holds validJSON to jsontext's nesting limit, for
// arrays, objects and both, at and around it.
func TestValidJSONDepth(t *testing.T) {
	open := map[string][2]string{
		"arrays":  {"[", "]"},
		"objects": {`{"k":`, "}"},
	}
	for name, oc := range open {
		for _, n := range []int{maxDepth - 1, maxDepth, maxDepth + 1} {
			inner := "0"
			if name == "objects" {
				inner = "{}"
				n-- // the innermost {} is one level
			}
			text := strings.Repeat(oc[0], n) + inner + strings.Repeat(oc[1], n)
			want := jsontext.Value(text).IsValid(jsonOpts)
			if got := validJSON([]byte(text)); got != want {
				t.Errorf("%s nested %d deep: validJSON = %v, jsontext says %v", name, n, got, want)
			}
		}
	}
	// Mixed, so that both kinds cross a 64-level word of the stack.
	var b strings.Builder
	for i := range maxDepth {
		if i%3 == 0 {
			b.WriteString(`{"k":`)
		} else {
			b.WriteString("[")
		}
	}
	b.WriteString("1")
	for i := maxDepth - 1; i >= 0; i-- {
		if i%3 == 0 {
			b.WriteString("}")
		} else {
			b.WriteString("]")
		}
	}
	mixed := b.String()
	if got, want := validJSON([]byte(mixed)), jsontext.Value(mixed).IsValid(jsonOpts); got != want || !got {
		t.Errorf("mixed nesting %d deep: validJSON = %v, jsontext says %v", maxDepth, got, want)
	}
	// The closers swapped, deep down: an object closed by ].
	swapped := mixed[:len(mixed)-maxDepth+100] + "]" + mixed[len(mixed)-maxDepth+101:]
	if swapped[len(mixed)-maxDepth+100] == mixed[len(mixed)-maxDepth+100] {
		swapped = mixed[:len(mixed)-maxDepth+100] + "}" + mixed[len(mixed)-maxDepth+101:]
	}
	if got, want := validJSON([]byte(swapped)), jsontext.Value(swapped).IsValid(jsonOpts); got != want || got {
		t.Errorf("mixed nesting with a closer swapped: validJSON = %v, jsontext says %v", got, want)
	}
}

// FuzzValidJSON holds validJSON to jsontext on arbitrary bytes.
func FuzzValidJSON(f *testing.F) {
	for _, c := range validCases {
		f.Add([]byte(c))
	}
	for _, seed := range fuzzSeeds(f) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := validJSON(data), jsontext.Value(data).IsValid(jsonOpts); got != want {
			t.Fatalf("validJSON(%q) = %v, jsontext says %v", data, got, want)
		}
	})
}

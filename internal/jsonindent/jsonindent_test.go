package jsonindent

import (
	"bytes"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

func nestedArrays(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }

// Indenting every level of nested JSON made the page the square of its
// size: 20 KB of nested arrays was 200 MB. Levels past MaxDepth are
// written compactly, so the JSON shown grows with the JSON given.
func TestPrettyJSONNesting(t *testing.T) {
	wide := strings.Repeat("[", 20) + strings.Repeat("0,", 5000) + "0" + strings.Repeat("]", 20)
	for _, tc := range []struct{ name, raw string }{
		{"9,990 nested arrays", nestedArrays(9990)},
		{"5,000 nested objects", strings.Repeat(`{"a":`, 5000) + "1" + strings.Repeat("}", 5000)},
		{"wide array 20 deep", wide},
		{"objects and arrays", strings.Repeat(`{"k":[`, 3000) + `"\"quoted\" \\ text"` + strings.Repeat("]}", 3000)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := Indent(jsontext.Value(tc.raw))
			// A line holds at most 2*MaxDepth spaces and a newline.
			if bound := (2*MaxDepth + 3) * len(tc.raw); len(out) > bound {
				t.Fatalf("%d bytes of JSON printed as %d, over the linear bound %d", len(tc.raw), len(out), bound)
			}
			a, b := jsontext.Value(out), jsontext.Value(tc.raw)
			if err := a.Compact(); err != nil {
				t.Fatalf("not JSON: %v", err)
			}
			if err := b.Compact(); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a, b) {
				t.Error("the JSON printed is not the JSON given")
			}
			if lines := strings.Split(out, "\n"); len(lines) > 1 {
				if got := lines[MaxDepth]; !strings.HasPrefix(got, strings.Repeat("  ", MaxDepth)) {
					t.Errorf("line %d is not indented %d levels: %.40q", MaxDepth, MaxDepth, got)
				}
			}
		})
	}
}

// Within MaxDepth, JSON is indented exactly as jsontext indents it:
// pages of ordinary sessions do not change.
func TestIndentCompactMatchesIndent(t *testing.T) {
	docs := []string{
		`{}`, `[]`, `0`, `"s"`, `null`, `{"a":1}`, `[1,2,[],{},[[]],{"":{}}]`,
		`{"a": [1, 2.5e-3, true, false, null], "b": {"c": "d\"e\\f\u00e9\ud83d\ude00"}, "e": []}`,
		"  {\n\t\"a\" : [ 1 , 2 ] }  ",
		`{"dup":1,"dup":2}`,
		"\"\xff invalid utf-8\"",
		nestedArrays(MaxDepth),
		strings.Repeat(`{"x":[`, MaxDepth/2) + "7" + strings.Repeat("]}", MaxDepth/2),
	}
	for _, doc := range docs {
		checkIndentCompact(t, doc)
		if deeperThan([]byte(doc), MaxDepth) {
			t.Errorf("%q: deeper than %d", doc, MaxDepth)
		}
		want := jsontext.Value(doc)
		if err := want.Indent(jsontext.WithIndent("  ")); err == nil && Indent(jsontext.Value(doc)) != string(want) {
			t.Errorf("%q: Indent differs from Indent", doc)
		}
	}
	if !deeperThan([]byte(nestedArrays(MaxDepth+1)), MaxDepth) || deeperThan([]byte(`"[[[[[[[[[[[[[[[[[[[[[["`), 1) {
		t.Error("deeperThan miscounts")
	}
}

func checkIndentCompact(t *testing.T, doc string) {
	t.Helper()
	want := jsontext.Value(doc)
	if err := want.Indent(jsontext.WithIndent("  ")); err != nil {
		return // not JSON: Indent shows it as it is
	}
	v := jsontext.Value(doc)
	if err := v.Compact(); err != nil {
		t.Fatalf("%q: Indent took it, Compact did not: %v", doc, err)
	}
	if got := indentCompact(v, MaxDepth); !bytes.Equal(got, want) && !deeperThan([]byte(doc), MaxDepth) {
		t.Errorf("%q:\nindentCompact %q\nIndent        %q", doc, got, want)
	}
}

// FuzzIndentCompact holds indentCompact to jsontext's Indent for JSON
// within MaxDepth.
func FuzzIndentCompact(f *testing.F) {
	for _, s := range []string{`{"a":[1,{"b":null}]}`, `[[[[]]]]`, `"x\"y"`, `{"":""}`, ` [ 1 , "a" ] `} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) { checkIndentCompact(t, doc) })
}

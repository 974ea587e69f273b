package sessiontree

import (
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"
)

// A list of parts may hold lists (the API's PartListUnion nests once):
// they are read in place, in order.
func TestGenaiPartsNestedInOrder(t *testing.T) {
	raw := jsontext.Value(`["a", [{"text": "b"}, ["c"]], {"text": "d"}, 7, null]`)
	var got []string
	for _, p := range genaiParts(raw) {
		got = append(got, string(p.Text))
	}
	if strings.Join(got, ",") != "a,b,c,d" {
		t.Fatalf("parts %q, want a,b,c,d", got)
	}
}

// Lists nested deeper than genaiMaxNest are not parts, and reading them
// neither recurses nor re-reads the input once per level: nesting as deep
// as the JSON decoder allows is read at once, whatever its depth.
func TestGenaiPartsDeepNestingBounded(t *testing.T) {
	for _, depth := range []int{genaiMaxNest, genaiMaxNest + 1, 9000, 200000} {
		raw := jsontext.Value(strings.Repeat("[", depth) + `"deep"` + strings.Repeat("]", depth))
		start := time.Now()
		parts := genaiParts(raw)
		if el := time.Since(start); el > 2*time.Second {
			t.Errorf("depth %d: %v", depth, el)
		}
		want := 0
		if depth <= genaiMaxNest {
			want = 1
		}
		if len(parts) != want {
			t.Errorf("depth %d: %d parts, want %d", depth, len(parts), want)
		}
	}
	// Wide and nested: every part at a depth within the bound is read.
	var b strings.Builder
	b.WriteString("[")
	for i := range 1000 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`[[{"text":"x"}]]`)
	}
	b.WriteString("]")
	if n := len(genaiParts(jsontext.Value(b.String()))); n != 1000 {
		t.Fatalf("%d parts, want 1000", n)
	}
}

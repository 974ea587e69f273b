package sessiontree

import (
	"reflect"
	"testing"
)

// outlineOf is what DecodeOutline must return for an entry Decode reads as
// full: the same Body without the fields it skips.
func outlineOf(b *Body) *Body {
	o := *b
	o.Details, o.Data = nil, nil
	o.Content = withoutBulk(b.Content)
	if m := b.Message; m != nil {
		mc := *m
		mc.Details, mc.Output = nil, ""
		mc.Content = withoutBulk(m.Content)
		o.Message = &mc
	}
	return &o
}

func withoutBulk(bs Blocks) Blocks {
	if bs == nil {
		return nil
	}
	out := make(Blocks, len(bs))
	for i, b := range bs {
		b.Thinking, b.Data = "", ""
		out[i] = b
	}
	return out
}

// checkOutline requires DecodeOutline to fail exactly when Decode does,
// and otherwise to read every field Decode reads, bar the bulk.
func checkOutline(tb testing.TB, s *Session) {
	tb.Helper()
	for _, e := range s.Entries {
		full, ferr := e.Decode()
		out, oerr := e.DecodeOutline()
		if (ferr == nil) != (oerr == nil) {
			tb.Fatalf("line %d: Decode error %v, DecodeOutline error %v", e.Line, ferr, oerr)
		}
		if ferr != nil {
			continue
		}
		if want := outlineOf(full); !reflect.DeepEqual(out, want) {
			tb.Fatalf("line %d: DecodeOutline\n%+v\nwant\n%+v", e.Line, out, want)
		}
	}
}

func TestDecodeOutlineMatchesDecode(t *testing.T) {
	n := 0
	for _, data := range fuzzSeeds(t) {
		s, err := Load(data, "seed")
		if err != nil {
			continue
		}
		checkOutline(t, s)
		n += len(s.Entries)
	}
	// Entries whose fields have the wrong JSON types, the skipped ones
	// among them: each must fail in both or in neither.
	s, err := Load(jsonl(header,
		ent("message", "a", "", `"message":{"role":"assistant","content":[{"type":"thinking","thinking":5}]}`),
		ent("message", "b", "a", `"message":{"role":"assistant","content":[{"type":"thinking","thinking":null},{"type":"text","text":"t"}]}`),
		ent("message", "c", "b", `"message":{"role":"bashExecution","command":"ls","output":{"x":1}}`),
		ent("message", "d", "c", `"message":{"role":"bashExecution","command":"ls","output":"out","exitCode":1.5}`),
		ent("message", "e", "d", `"message":{"role":"user","content":[{"type":"image","data":[],"mimeType":"image/png"}]}`),
		ent("message", "f", "e", `"message":{"role":"user","content":"plain","details":{"any":[1,2]}}`),
		ent("message", "g", "f", `"message":{"role":"hookMessage","content":[{"type":"text","text":"h"}],"usage":{"input":"x"}}`),
		ent("custom_message", "h", "g", `"customType":"n","content":[{"type":"text","text":"c"}],"details":5,"data":"x"`),
		ent("message", "i", "h", `"message":{"role":"user","content":[{"type":"text","text":"a"},"bare"]}`),
		ent("message", "j", "i", `"message":{"role":"user","content":{"type":"text"}}`),
		ent("message", "k", "j", `"message":{"role":"assistant","content":[{"type":"thinking","thinking":"x","thinking":"y"}]}`),
	), "types")
	if err != nil {
		t.Fatal(err)
	}
	checkOutline(t, s)
	if n += len(s.Entries); n < 1000 {
		t.Fatalf("only %d entries compared", n)
	}
}

// FuzzDecodeOutline compares DecodeOutline with Decode on arbitrary files.
func FuzzDecodeOutline(f *testing.F) {
	for _, seed := range fuzzSeeds(f) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Load(data, "fuzz")
		if err != nil {
			return
		}
		checkOutline(t, s)
	})
}

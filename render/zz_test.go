package render

import (
	"bytes"
	"os"
	"testing"

	"canopy/sessiontree"
)

func BenchmarkZZTemplate(b *testing.B) {
	data, _ := os.ReadFile("/tmp/canopybench/inputs/gen-10k.jsonl")
	s, _ := sessiontree.Load(data, "x")
	r, _ := New()
	ec := scan(s)
	var views []*entryView
	for i, e := range s.Entries {
		if ec.rows[i].flags&flagEmbedded != 0 {
			continue
		}
		bd, err := e.Decode()
		views = append(views, r.view(ec, e, bd, err))
	}
	b.Logf("views %d", len(views))
	b.ResetTimer()
	var buf bytes.Buffer
	for n := 0; n < b.N; n++ {
		for _, v := range views {
			buf.Reset()
			r.page.ExecuteTemplate(&buf, "entry", v)
		}
	}
}

package sessiontree

import (
	"testing"
	"time"
)

// FuzzStoreRows: whatever a store's rows hold, the document made of them
// loads (it is canopy's own JSONL), every entry decodes, and nothing
// panics.
func FuzzStoreRows(f *testing.F) {
	f.Add([]byte(`{"role":"assistant","cost":1,"tokens":{"input":1}}`), []byte(`{"type":"tool","callID":"c","tool":"t","state":{"status":"completed","input":{},"output":"x"}}`))
	f.Add([]byte(`{"role":"user"}`), []byte(`{"type":"compaction"}`))
	f.Add([]byte(`[{"type":"tool_call","data":{"id":"c","name":"n","input":"{"}}]`), []byte(`[{"type":"toolRequest","id":"c","toolCall":{"status":"success","value":{"name":"x","arguments":1}}}]`))
	f.Add([]byte("{\"role\":\"user\"}"), []byte("{\"type\":\"text\",\"text\":\"a\xffb\"}"))
	f.Add([]byte(`{"type":2,"toolFormerData":{"status":"completed","rawArgs":"[1"}}`), []byte(`"\u0000"`))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		w := &docWriter{format: FormatOpenCode, session: "s"}
		w.start(time.Time{}, "", "t", "", "")
		writeOpenCode(w, []ocMessage{{id: "m1", data: a, parts: []ocRawPart{{"p1", b}, {"p2", a}}}, {id: "m2", data: b}}, len(a)%3-1)
		writeCrushMessage(w, "c1", "assistant", a, "m", "p", 1, false)
		writeCrushMessage(w, "c2", "tool", b, "", "", 1, true)
		writeGooseMessage(w, "g1", "user", a, b, time.Time{})
		writeCursorBubble(w, 0, a, "m")
		writeCursorBubble(w, 1, b, "")
		w.totals(len(w.lines)-1, 1, 2, 3)
		n := len(w.lines)
		s, err := Load(w.bytes(), "fuzz")
		if err != nil {
			t.Fatalf("the document does not load: %v", err)
		}
		for _, e := range s.Entries {
			if _, err := e.Decode(); err != nil {
				t.Fatalf("%s: %v", e.ID, err)
			}
		}
		if len(s.Entries) != n {
			t.Fatalf("%d lines written, %d entries", n, len(s.Entries))
		}
		if len(s.Diagnostics) > 0 {
			t.Fatalf("diagnostics: %+v", s.Diagnostics)
		}
	})
}

package sessiontree

import (
	"strings"
	"testing"
)

// TestInvalidUTF8: a line whose strings hold bytes that are not UTF-8 is
// read (its text with U+FFFD for each broken byte) and gets a warning
// naming its line, in a JSONL file and in a Flue document alike.
func TestInvalidUTF8(t *testing.T) {
	cases := []struct {
		name, file string
		line       int
	}{
		{"pi", `{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/"}` + "\n" +
			`{"type":"message","id":"u","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":"caf` + "\xe9 \xff" + ` ok"}}` + "\n", 2},
		{"flue", "{\n\"version\": 1,\n\"id\": \"s\",\n\"leafId\": \"u\",\n\"entries\": [\n" +
			`{"type":"message","id":"u","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":"caf` + "\xe9 \xff" + ` ok"}}` + "\n]\n}\n", 6},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := Load([]byte(c.file), "t.json")
			if err != nil {
				t.Fatal(err)
			}
			e := s.Entry("u")
			if e == nil {
				t.Fatalf("the entry was not read; diagnostics: %v", s.Diagnostics)
			}
			b, err := e.Decode()
			if err != nil {
				t.Fatal(err)
			}
			if got := b.Message.Content[0].Text; got != "caf\uFFFD \uFFFD ok" {
				t.Errorf("text = %q", got)
			}
			found := false
			for _, d := range s.Diagnostics {
				if d.Line == c.line && strings.Contains(d.Message, "invalid UTF-8") {
					found = true
				}
			}
			if !found {
				t.Errorf("no invalid UTF-8 warning on line %d: %v", c.line, s.Diagnostics)
			}
		})
	}
}

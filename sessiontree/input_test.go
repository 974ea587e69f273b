package sessiontree

import (
	"bytes"
	"reflect"
	"testing"
	"time"
)

func TestLoadHugeLine(t *testing.T) {
	if testing.Short() {
		t.Skip("100 MB line: skipped with -short")
	}
	const size = 100 << 20
	var b bytes.Buffer
	b.Grow(size + 1024)
	b.WriteString(header + "\n")
	prefix := `{"type":"message","id":"img","parentId":null,"timestamp":"` + ts +
		`","message":{"role":"user","content":[{"type":"text","text":"look"},{"type":"image","mimeType":"image/png","data":"`
	b.WriteString(prefix)
	b.Write(bytes.Repeat([]byte("QUJD"), size/4))
	b.WriteString(`"}],"timestamp":1}}` + "\n")
	lineLen := b.Len() - len(header) - 2
	b.WriteString(user("b", "img") + "\n")

	start := time.Now()
	s, err := Load(b.Bytes(), "huge.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("loaded a %d MB line in %v", size>>20, time.Since(start))
	checkSession(t, s, &loadCase{ids: []string{"img", "b"}, leaf: "b", path: []string{"img", "b"}})
	img := s.Entry("img")
	if len(rawOf(t, img)) != lineLen || img.Role != RoleUser {
		t.Errorf("img: Raw %d bytes (want %d), role %q", len(rawOf(t, img)), lineLen, img.Role)
	}
	if got := ctxRefs(s.Context(s.Leaf)); !reflect.DeepEqual(got, []string{"user:img", "user:b"}) {
		t.Errorf("context %v", got)
	}
}

func TestLoadDoesNotModifyInput(t *testing.T) {
	inputs := map[string][]byte{
		"escapes and invalid UTF-8": jsonl(header, "{\"type\":\"message\",\"id\":\"a\\u00e9\\n\",\"parentId\":null,\"x\":\"\xff\xfe\\ud800\\\\\"}",
			user("b", "a\u00e9\n")),
		"BOM and CRLF":     []byte("\xef\xbb\xbf" + header + "\r\n" + user("a", "") + "\r\n\r\n" + user("b", "a") + "\r\n"),
		"v1":               jsonl(v1User("one"), v1("compaction", `"summary":"S","firstKeptEntryIndex":1`), v1User("two")),
		"duplicates":       jsonl(header, user("a", ""), user("a", ""), user("b", "a"), label("l", "b", "a", `"x"`)),
		"cycles":           jsonl(header, user("a", "b"), user("b", "a"), user("s", "s")),
		"truncated":        jsonlNoEOL(header, user("a", ""), `{"type":"mess`),
		"Flue":             flueDoc(`"d"`, flueEntries...),
		"Flue, pretty":     pretty(t, flueDoc(`"d"`, flueEntries...)),
		"Flue, cut short":  flueDoc(`"d"`, flueEntries...)[:300],
		"oh-my-pi":         jsonl(`{"type":"title","title":"T"}`, header, ent("ttsr_injection", "t", "", `"injectedRules":[]`)),
		"odd member types": jsonl(header, ent("message", "a", "", `"message":"x","usage":7`)),
	}
	for name, in := range inputs {
		t.Run(name, func(t *testing.T) {
			orig := bytes.Clone(in)
			s, err := Load(in, name)
			if err != nil {
				t.Fatal(err)
			}
			_ = s.Report(s.Leaf)
			for _, leaf := range s.Leaves() {
				_ = s.Context(leaf)
				_ = s.Stats(s.Path(leaf))
			}
			if !bytes.Equal(in, orig) {
				t.Fatalf("input modified:\n was %q\n now %q", orig, in)
			}
			if src, err := s.ReadSource(); err != nil || len(src) != len(in) || (len(in) > 0 && &src[0] != &in[0]) || s.Size != int64(len(in)) {
				t.Errorf("the source is not the input (%v)", err)
			}
		})
	}
}

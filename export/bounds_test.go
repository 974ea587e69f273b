package export

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"canopy/mdpage"
)

// TestBothWritersBounded feeds the same hostile sessions to both writers,
// the page and the Markdown, and holds each to one bound on its size: at
// most 50 times the input plus 2 MB. The Markdown indented every level of
// nested JSON: 20 KB of tool arguments 9,990 arrays deep made a 200 MB
// file (3.4 s, 800 MB of memory) where the page was 101 KB.
func TestBothWritersBounded(t *testing.T) {
	deep := strings.Repeat("[", 9990) + strings.Repeat("]", 9990)
	deepObj := strings.Repeat(`{"a":`, 5000) + "1" + strings.Repeat("}", 5000)
	head := `{"type":"session","version":3,"id":"bounds","timestamp":"2026-03-01T10:00:00.000Z","cwd":"/x"}`
	user := `{"type":"message","id":"u","parentId":null,"timestamp":"2026-03-01T10:00:01.000Z","message":{"role":"user","content":[{"type":"text","text":%q}]}}`
	call := `{"type":"message","id":"a","parentId":"u","timestamp":"2026-03-01T10:00:02.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":%q,"arguments":%s}],"provider":"p","model":"m","stopReason":"toolUse"}}`
	reply := `{"type":"message","id":"r","parentId":"a","timestamp":"2026-03-01T10:00:03.000Z","message":{"role":"assistant","content":[{"type":"text","text":%q}],"provider":"p","model":"m","stopReason":"stop"}}`
	inputs := map[string]string{
		"deep arguments, unknown tool": head + "\n" + fmt.Sprintf(user, "hi") + "\n" + fmt.Sprintf(call, "mytool", `{"x":`+deep+`}`),
		"deep arguments, bash":         head + "\n" + fmt.Sprintf(user, "hi") + "\n" + fmt.Sprintf(call, "bash", `{"command":"ls","x":`+deepObj+`}`),
		"deep custom data": head + "\n" + fmt.Sprintf(user, "hi") + "\n" +
			`{"type":"custom","id":"c","parentId":"u","timestamp":"2026-03-01T10:00:02.000Z","customType":"x","data":` + deep + `}`,
		"unclosed links":       head + "\n" + fmt.Sprintf(user, "hi") + "\n" + fmt.Sprintf(call, "read", `{"path":"a"}`) + "\n" + fmt.Sprintf(reply, strings.Repeat("[a](", 20000)),
		"unmatched emphasis":   head + "\n" + fmt.Sprintf(user, strings.Repeat("*a _b ", 20000)),
		"deeply nested quotes": head + "\n" + fmt.Sprintf(user, "hi") + "\n" + fmt.Sprintf(call, "read", `{"path":"a"}`) + "\n" + fmt.Sprintf(reply, strings.Repeat("> ", 5000)+"x"),
	}
	for name, data := range manyInputs(head, user, call) {
		inputs[name] = data
	}
	dir := t.TempDir()
	var files []string
	for name, data := range inputs {
		p := filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".jsonl")
		if err := os.WriteFile(p, []byte(data+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	// Every session of the test suite, hostile or not.
	suite, _ := filepath.Glob("../testdata/*/*.jsonl")
	deeper, _ := filepath.Glob("../testdata/*/*/*.jsonl")
	for _, file := range append(append(files, suite...), deeper...) {
		fi, err := os.Stat(file)
		if err != nil {
			t.Fatal(err)
		}
		bound := 50*int(fi.Size()) + 2<<20
		for _, j := range []Job{{}, {Markdown: &mdpage.Options{Version: "test"}}} {
			var buf bytes.Buffer
			j.In = Input{Path: file, MaxInput: 1 << 30}
			j.Dest, j.Stdout, j.Page.Version = "-", &buf, "test"
			j.Notify = func(string) {}
			if err := Export(context.Background(), j); err != nil {
				if !strings.HasPrefix(file, dir) {
					continue // a fixture refused, or not a session: nothing written
				}
				t.Fatalf("%s: %v", filepath.Base(file), err)
			}
			out := buf.Bytes()
			if len(out) > bound {
				t.Errorf("%s (%d bytes), markdown %v: %d bytes written, over %d", filepath.Base(file), fi.Size(), j.Markdown != nil, len(out), bound)
			}
		}
	}
}

// manyInputs are sessions hostile by their size or their shape: many
// calls and results, results that answer no call, huge lines, bad UTF-8.
func manyInputs(head, user, call string) map[string]string {
	result := `{"type":"message","id":"%s","parentId":"%s","timestamp":"2026-03-01T10:00:03.000Z","message":{"role":"toolResult","toolCallId":%q,"toolName":"bash","content":[{"type":"text","text":%q}],"isError":false}}`
	var calls, results []string
	for i := range 5000 {
		calls = append(calls, fmt.Sprintf(`{"type":"toolCall","id":"c%d","name":"bash","arguments":{"command":"echo %d"}}`, i, i))
	}
	many := head + "\n" + fmt.Sprintf(user, "hi") + "\n" +
		`{"type":"message","id":"a","parentId":"u","timestamp":"2026-03-01T10:00:02.000Z","message":{"role":"assistant","content":[` + strings.Join(calls, ",") + `],"provider":"p","model":"m","stopReason":"toolUse"}}`
	parent := "a"
	for i := range 5000 {
		id := fmt.Sprintf("r%d", i)
		results = append(results, fmt.Sprintf(result, id, parent, fmt.Sprintf("c%d", i), "out"))
		parent = id
	}
	var unpaired []string
	parent = "u"
	for i := range 5000 {
		id := fmt.Sprintf("o%d", i)
		unpaired = append(unpaired, fmt.Sprintf(result, id, parent, fmt.Sprintf("nowhere%d", i%7), "x"))
		parent = id
	}
	huge := strings.Repeat("word ", 1<<20)
	return map[string]string{
		"many calls":       many + "\n" + strings.Join(results, "\n"),
		"unpaired results": head + "\n" + fmt.Sprintf(user, "hi") + "\n" + strings.Join(unpaired, "\n"),
		"huge line":        head + "\n" + fmt.Sprintf(user, huge) + "\n" + fmt.Sprintf(call, "bash", `{"command":`+fmt.Sprintf("%q", huge)+`}`),
		"bad utf-8":        head + "\n" + `{"type":"message","id":"u","parentId":null,"timestamp":"2026-03-01T10:00:01.000Z","message":{"role":"user","content":[{"type":"text","text":"a` + "\xff\xfe\xc3" + `b"}]}}` + "\n" + fmt.Sprintf(call, "bash\xff", `{"command":"`+"\xc3\x28"+`"}`),
		"huge output":      head + "\n" + fmt.Sprintf(user, "hi") + "\n" + fmt.Sprintf(call, "bash", `{"command":"ls"}`) + "\n" + fmt.Sprintf(result, "r", "a", "c1", strings.Repeat("line\n", 200000)),
	}
}

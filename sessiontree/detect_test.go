package sessiontree

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestRefused: input that is no session canopy reads fails with one error
// that wraps ErrNotSession and says what the input looks like, the same
// from memory and from a file, read whole or in chunks.
func TestRefused(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"one object", `{"a":1}` + "\n", "a JSON document with top-level members a: not a session canopy reads"},
		{"one object, no newline", `{"b":1,"a":[2]}`, "a JSON document with top-level members b, a: not a session canopy reads"},
		{"empty object", "{}\n", "a JSON document with top-level no members"},
		{"JSON lines of another kind", "{\"role\":\"user\",\"content\":\"hi\"}\n{\"role\":\"assistant\",\"content\":\"yo\"}\n",
			"JSON lines whose first object has members role, content: not a session canopy reads"},
		// Bad lines do not hide the kind of the good ones.
		{"another kind after a bad line", "not json\n{\"x\":1,\"y\":2}\n", "JSON lines whose first object has members x, y"},
		{"many members", `{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8}`, "members a, b, c, d, e, f and 2 more"},
		// The names are the input's: shown quoted, on one line.
		{"odd names", "{\"a\\nb\":1,\"\":2,\"\\u001b[31m\":3}\n", `members "a\nb", "", "\x1b[31m"`},
		{"pretty object", "{\n  \"name\": \"x\",\n  \"items\": [1, 2]\n}\n",
			"a JSON document of several lines with top-level members name, items: not a session canopy reads (it reads the sessions of " + strings.Join(formatsRead(), ", ") + ")"},
		{"pretty array", "[\n  1,\n  2\n]\n", "a JSON document of several lines, an array of 2 values that are not objects"},
		{"pretty array of objects", "[\n  {\"k\": 1},\n  {\"k\": 2}\n]\n", "an array of 2 values, the first an object with members k"},
		{"pretty empty array", "[\n]\n", "a JSON document of several lines, an empty array"},
		{"pretty objects of another kind", "{\n\"x\": 1\n}\n{\n\"x\": 2\n}\n", "a JSON document of several lines with top-level members x"},
		{"ChatGPT export, one line", `[{"title":"T","mapping":{"a":{"id":"a","parent":null}},"current_node":"a"}]`,
			"a ChatGPT export (a JSON document, an array of conversations with members title, mapping, current_node)"},
		// Gemini CLI's logs.json holds the prompts typed, no replies: not
		// a session, and said to be what it is.
		{"Gemini CLI prompt log", "[\n  {\n    \"sessionId\": \"s1\",\n    \"messageId\": 0,\n    \"type\": \"user\",\n    \"message\": \"hello\",\n    \"timestamp\": \"2025-07-01T10:00:00.000Z\"\n  }\n]\n",
			"a Gemini CLI prompt log (logs.json: 1 prompt typed, kept for recall, without replies): not a session canopy reads; the session itself is the chat beside it, chats/session-*.json"},
		{"one line array of objects", `[{"k":1},{"k":2}]`, "a JSON document, an array of 2 values, the first an object with members k"},
		// A uuid alone is any log's: Hermes' trace events have uuid and
		// parent_uuid, and no parentUuid or sessionId.
		{"uuid without parentUuid", "{\"uuid\":\"a\",\"timestamp\":\"2026-01-01T00:00:00Z\",\"note\":\"x\"}\n{\"uuid\":\"b\",\"parent_uuid\":\"a\"}\n",
			"JSON lines whose first object has members uuid, timestamp, note"},
		{"gateway store, one line", `{"agent:main:main":{"sessionId":"s","sessionFile":"s.jsonl","updatedAt":1}}`,
			"a gateway session store (sessions.json), which lists sessions rather than holding one: not a session canopy reads; to read the sessions it lists, archive the directory it is in: canopy archive DIR"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { checkRefused(t, []byte(c.in), c.want) })
	}
	files := map[string]string{
		"chatgpt-conversations.json":  "a ChatGPT export (a JSON document of several lines, an array of conversations",
		"sessions.json":               "a gateway session store (sessions.json)",
		"sharegpt-trajectories.jsonl": "JSON lines whose first object has members conversations, source",
		"chat-finetune.jsonl":         "JSON lines whose first object has members messages",
		"object.json":                 "a JSON document with top-level members a, b, c",
	}
	dir := filepath.Join("..", "testdata", "refused")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range entries {
		want, ok := files[f.Name()]
		if !ok {
			t.Errorf("%s: no expectation for this file", f.Name())
			continue
		}
		t.Run(f.Name(), func(t *testing.T) { checkRefused(t, fixture(t, "refused", f.Name()), want) })
	}
}

func checkRefused(t *testing.T, in []byte, want string) {
	t.Helper()
	s, err := Load(in, "in.json")
	if err == nil {
		t.Fatalf("loaded as %s with %d entries", s.Format, len(s.Entries))
	}
	if !errors.Is(err, ErrNotSession) || !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), "in.json: ") {
		t.Errorf("error %q\n want ErrNotSession saying %q", err, want)
	}
	if strings.ContainsAny(err.Error(), "\n\r\x1b") {
		t.Errorf("the error is not one plain line: %q", err)
	}
	for _, l := range fileLoads(t, in, "in.json") {
		if l.err == nil || strings.ReplaceAll(l.err.Error(), l.file, "in.json") != err.Error() {
			t.Errorf("%s: error %v, Load's %v", l.name, l.err, err)
		}
	}
}

// TestDetect: what is read as which format, by content alone.
func TestDetect(t *testing.T) {
	claude := `{"type":"user","uuid":"u","parentUuid":null,"sessionId":"s","message":{"role":"user","content":"hi"}}`
	codex := codexJSONL("session_meta", `{"id":"x"}`)
	for _, c := range []struct {
		name, in, format string
	}{
		{"pi header", header, FormatPi},
		{"pi v1 line, no header", v1User("one"), FormatPi},
		{"pi v3 entry of a type we do not know", ent("mystery", "a", "", ""), FormatPi},
		{"pi after lines of another kind", `{"x":1}` + "\n" + header, FormatPi},
		{"oh-my-pi title", `{"type":"title","title":"T"}` + "\n" + header, FormatOhMyPi},
		{"Claude Code", claude, FormatClaude},
		{"Claude Code, bookkeeping first", `{"type":"file-history-snapshot","messageId":"u","snapshot":{}}` + "\n" + claude, FormatClaude},
		{"Claude Code summary line", `{"type":"summary","summary":"S","leafUuid":"u"}`, FormatClaude},
		{"Codex", codex, FormatCodex},
		{"Codex without its meta", codexJSONL("event_msg", `{"type":"user_message","message":"hi"}`), FormatCodex},
		{"Codex before September 2025", `{"id":"x","timestamp":"2025-08-01T00:00:00Z","instructions":null}` + "\n" + `{"record_type":"state"}`, FormatCodex},
		{"Flue", string(flueDoc(`"d"`, flueEntries...)), FormatFlue},
		{"Flue, pretty", "{\n  \"entries\": [],\n  \"type\": 1\n}", FormatFlue},
		{"a broken first line, then pi", `{"type":"session","version":3,` + "\n" + user("a", ""), FormatPi},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := Load([]byte(c.in+"\n"), "x")
			if err != nil {
				t.Fatal(err)
			}
			if s.Format != c.format {
				t.Errorf("format %s, want %s", s.Format, c.format)
			}
		})
	}
}

// TestOldErrorsKept: input with no JSON object is reported as before,
// by pi's reader, line by line.
func TestOldErrorsKept(t *testing.T) {
	for in, want := range map[string]string{
		"hello\nworld\n":               "x: line 1: malformed JSON",
		"[]\n[1]\n":                    "x: line 1: not a JSON object",
		"\n\n":                         "x: empty file",
		"{\n  \"cut\": [1,\n":          "x: a JSON document of several lines that is not valid JSON",
		"{\"type\":\"session\",\"vers": "x: line 1: malformed JSON",
	} {
		_, err := Load([]byte(in), "x")
		if !errors.Is(err, ErrNotSession) || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", in, err, want)
		}
	}
}

// TestPrettyPi: a pi session pretty-printed (jq's output: a stream of
// objects) is the same session, each entry on the line it starts on.
func TestPrettyPi(t *testing.T) {
	in := jsonl(header, user("a", ""), asst("b", "a"), v1("mystery", ""), user("c", "b"))
	want, err := Load(in, "x")
	if err != nil {
		t.Fatal(err)
	}
	var pretty []byte
	for _, l := range strings.Split(strings.TrimSpace(string(in)), "\n") {
		pretty = append(pretty, prettyLine(t, l)...)
	}
	pretty = append(pretty, "{\"type\":\"message\",\n\"id\":"...) // cut short
	runLoadCases(t, []loadCase{{
		name: "pretty", in: pretty, format: FormatPi, version: 3,
		ids: []string{"a", "b", "L53", "c"}, leaf: "c",
		diags: []wantDiag{{68, SevError, "truncated last line skipped"}, {53, SevWarning, "entry has no id; using L53"}},
		check: func(t *testing.T, s *Session) {
			h, w := s.Header, want.Header
			h.Raw, w.Raw = nil, nil // as written: indented
			if !reflect.DeepEqual(h, w) || s.Entries[1].Line != 19 {
				t.Errorf("header %+v, lines %d", s.Header, s.Entries[1].Line)
			}
		},
	}})
}

// TestShapeKinds: which objects are records of which format.
func TestShapeKinds(t *testing.T) {
	for raw, want := range map[string]inputKind{
		`{"type":"session"}`:                                                                   kindPi,
		`{"type":"message","message":{}}`:                                                      kindPi,
		`{"type":"message","role":"user","content":[]}`:                                        kindText, // an OpenAI item: not pi's
		`{"type":"label","targetId":"a"}`:                                                      kindPi,
		`{"type":"x","id":"a","parentId":null}`:                                                kindPi,
		`{"type":"assistant","uuid":"u"}`:                                                      kindClaude,
		`{"type":"custom-title","sessionId":"s"}`:                                              kindClaude,
		`{"type":"custom-title"}`:                                                              kindText,
		`{"type":"response_item","payload":{}}`:                                                kindCodex,
		`{"type":"response_item","payload":"x"}`:                                               kindText,
		`{"payload":{},"type":"turn_context"}`:                                                 kindCodex,
		`{"sessionId":"s","messages":[],"projectHash":""}`:                                     kindGemini,
		`{"sessionId":"s","projectHash":"h","startTime":""}`:                                   kindGemini,
		`{"$rewindTo":"m"}`:                                                                    kindGemini,
		`{"id":"m","type":"gemini","content":""}`:                                              kindGemini,
		`{"id":"m","type":"user","content":""}`:                                                kindText,
		`{"uuid":"u","parentUuid":null,"type":"user","message":{"role":"user","parts":[]}}`:    kindQwen,
		`{"uuid":"u","parentUuid":null,"type":"user","message":{"role":"user","content":"x"}}`: kindClaude,
		`{"uuid":"u","parentUuid":"p","type":"tool_result","message":{}}`:                      kindQwen,
		`{"uuid":"u","parentUuid":"p","type":"system","subtype":"x","systemPayload":{}}`:       kindQwen,
		`{"uuid":"u","parentUuid":"p","type":"system","subtype":"compact_boundary"}`:           kindClaude,
		`{"type":"session.start","data":{},"id":"e","parentId":null}`:                          kindCopilot,
		`{"type":"abort","data":{},"id":"e","parentId":"d"}`:                                   kindCopilot,
		`{"type":"session.start","id":"e","parentId":null}`:                                    kindPi, // no data: a pi entry of a type we do not know
	} {
		sh := shapeOf([]byte(raw))
		if got := sh.kind(); got != want {
			t.Errorf("%s: kind %d, want %d", raw, got, want)
		}
	}
}

package sessiontree

import (
	"reflect"
	"strings"
	"testing"
)

func TestLoadMalformedLines(t *testing.T) {
	broken := `{"type":"message","id":"b","parentId":"a","message":{"role":`
	runLoadCases(t, []loadCase{
		{
			name:  "malformed line in the middle, next entry names the entry before it",
			in:    jsonl(header, user("a", ""), broken, user("c", "a"), user("d", "c")),
			ids:   []string{"a", "c", "d"},
			roots: []string{"a"},
			leaf:  "d",
			path:  []string{"a", "c", "d"},
			diags: []wantDiag{{3, SevError, "line skipped: malformed JSON"}},
			check: func(t *testing.T, s *Session) {
				if got := mustEntry(t, s, "c").Line; got != 4 {
					t.Errorf("c.Line = %d, want 4", got)
				}
				for _, d := range s.Diagnostics {
					if strings.Contains(d.Message, "truncated") {
						t.Errorf("a broken line that is not the last is called truncated: %q", d.Message)
					}
				}
			},
		},
		{
			name:  "malformed line in the middle, next entry names the lost entry",
			in:    jsonl(header, user("a", ""), broken, user("c", "b"), user("d", "c")),
			ids:   []string{"a", "c", "d"},
			roots: []string{"a", "c"},
			leaf:  "d",
			path:  []string{"c", "d"},
			diags: []wantDiag{
				{3, SevError, "line skipped"},
				{4, SevWarning, "parent b does not exist"},
			},
		},
	})
}

// TestLoadNonObjectLines: lines that are JSON but not objects, or not JSON,
// are skipped; objects with members of unexpected types are kept.
func TestLoadNonObjectLines(t *testing.T) {
	runLoadCases(t, []loadCase{
		{
			name: "JSON values that are not objects",
			in: jsonl(header, user("a", ""), `[1,2,3]`, `"text"`, `42`, `null`, `true`,
				user("b", "a")),
			ids:  []string{"a", "b"},
			path: []string{"a", "b"},
			diags: []wantDiag{
				{3, SevError, "not a JSON object"},
				{4, SevError, "not a JSON object"},
				{5, SevError, "not a JSON object"},
				{6, SevError, "not a JSON object"},
				{7, SevError, "not a JSON object"},
			},
		},
		{
			name:  "text that is not JSON",
			in:    jsonl(header, user("a", ""), `hello, world`, `{"type":"message",,}`, `{"a":1} {"b":2}`, user("b", "a")),
			ids:   []string{"a", "b"},
			path:  []string{"a", "b"},
			diags: []wantDiag{{3, SevError, "malformed JSON"}, {4, SevError, "malformed JSON"}, {5, SevError, "malformed JSON"}},
		},
		{
			name: "malformed header line",
			in:   jsonl(`{"type":"session","version":3,`, user("a", ""), user("b", "a")),
			ids:  []string{"a", "b"},
			path: []string{"a", "b"},
			// No header left, but the entries have ids: read as v3.
			version: 3,
			diags:   []wantDiag{{1, SevError, "line skipped"}, {0, SevWarning, "no session header"}},
		},
		{
			// Fields of an unexpected JSON type inside a valid object must
			// not cost the entry its place in the tree.
			name: "members of unexpected types",
			in: jsonl(header,
				ent("message", "a", "", `"message":"just text"`),
				ent("message", "b", "a", `"message":{"role":"assistant","provider":"p","model":"m","content":["bare",7,null,{"type":"toolCall","id":"t","name":"x","arguments":{}}],"usage":12,"stopReason":"stop"}`),
				ent("message", "c", "b", `"message":{"role":"assistant","content":{"odd":true},"usage":{"input":5,"output":"lots","cost":"free"}}`),
				`{"type":"message","id":7,"parentId":"c","timestamp":12345,"message":{"role":["user"],"content":"x"}}`,
				`{"type":7,"id":"e","parentId":["c"],"timestamp":null}`,
			),
			ids:   []string{"a", "b", "c", "L5", "e"},
			roots: []string{"a", "e"},
			leaf:  "e",
			diags: []wantDiag{{5, SevWarning, "no id; using L5"}},
			check: func(t *testing.T, s *Session) {
				if a := mustEntry(t, s, "a"); a.Role != "" || a.Type != TypeMessage {
					t.Errorf("a: type %q role %q", a.Type, a.Role)
				}
				b := mustEntry(t, s, "b")
				if b.ToolCalls != 1 || b.Usage != nil || b.Model != "m" || b.StopReason != "stop" {
					t.Errorf("b: toolCalls %d usage %v model %q stop %q", b.ToolCalls, b.Usage, b.Model, b.StopReason)
				}
				c := mustEntry(t, s, "c")
				if c.Usage == nil || c.Usage.Input != 5 || c.Usage.Output != 0 || c.Usage.Cost.Total != 0 {
					t.Errorf("c.Usage = %+v", c.Usage)
				}
				l5 := mustEntry(t, s, "L5")
				if l5.Parent == nil || l5.Parent.ID != "c" || l5.TimeOK || l5.Role != "" {
					t.Errorf("L5: parent %v timeOK %v role %q", idOf(l5.Parent), l5.TimeOK, l5.Role)
				}
				if e := mustEntry(t, s, "e"); e.Type != "" || e.ParentID != "" {
					t.Errorf("e: type %q parent %q", e.Type, e.ParentID)
				}
			},
		},
	})
}

func TestLoadTruncatedLastLine(t *testing.T) {
	cut := `{"type":"message","id":"c","parentId":"b","message":{"role":"assistant","content":[{"type":"text","text":"hal`
	runLoadCases(t, []loadCase{
		{
			name:  "cut mid-object with no newline",
			in:    jsonlNoEOL(header, user("a", ""), user("b", "a"), cut),
			ids:   []string{"a", "b"},
			leaf:  "b",
			path:  []string{"a", "b"},
			diags: []wantDiag{{4, SevError, "truncated last line"}},
		},
		{
			name:  "cut in a CRLF file",
			in:    []byte(header + "\r\n" + user("a", "") + "\r\n" + user("b", "a") + "\r\n" + cut),
			ids:   []string{"a", "b"},
			leaf:  "b",
			diags: []wantDiag{{4, SevError, "truncated last line"}},
		},
		{
			name: "complete last line with no newline",
			in:   jsonlNoEOL(header, user("a", ""), user("b", "a")),
			ids:  []string{"a", "b"},
			leaf: "b",
		},
		{
			name:  "cut line followed by a newline is an ordinary bad line",
			in:    jsonl(header, user("a", ""), user("b", "a"), cut),
			ids:   []string{"a", "b"},
			diags: []wantDiag{{4, SevError, "line skipped"}},
		},
		{
			name:  "only entry cut short",
			in:    jsonlNoEOL(header, `{"type":"message","id":"a","parentId":null,"mess`),
			ids:   []string{},
			roots: []string{},
			leaf:  nilLeaf,
			path:  []string{},
			diags: []wantDiag{{2, SevError, "truncated last line"}},
		},
	})
}

func TestLoadHeader(t *testing.T) {
	runLoadCases(t, []loadCase{
		{
			name:    "no header, entries with ids: read as v3",
			in:      jsonl(user("a", ""), user("b", "a")),
			ids:     []string{"a", "b"},
			path:    []string{"a", "b"},
			version: 3,
			format:  FormatPi,
			diags:   []wantDiag{{0, SevWarning, "no session header"}},
			check: func(t *testing.T, s *Session) {
				if s.Header.Line != 0 || s.Header.ID != "" || s.Header.Raw != nil {
					t.Errorf("header: %+v", s.Header)
				}
			},
		},
		{
			name:    "no header, entries without ids: the v1 scheme",
			in:      jsonl(v1User("one"), v1User("two"), "", v1User("three")),
			ids:     []string{"L1", "L2", "L4"},
			roots:   []string{"L1"},
			path:    []string{"L1", "L2", "L4"},
			version: 1,
			diags:   []wantDiag{{0, SevWarning, "no session header"}},
		},
		{
			name:    "header on line 3",
			in:      jsonl(user("a", ""), user("b", "a"), header, user("c", "b")),
			ids:     []string{"a", "b", "c"},
			path:    []string{"a", "b", "c"},
			version: 3,
			diags:   []wantDiag{{3, SevWarning, "not the first line"}},
			check: func(t *testing.T, s *Session) {
				if s.Header.Line != 3 || s.Header.ID != "sess-1" || s.Header.Cwd != "/work" {
					t.Errorf("header: %+v", s.Header)
				}
			},
		},
		{
			name:  "second header skipped",
			in:    jsonl(header, user("a", ""), `{"type":"session","version":3,"id":"other"}`, user("b", "a")),
			ids:   []string{"a", "b"},
			diags: []wantDiag{{3, SevWarning, "extra session header"}},
			check: func(t *testing.T, s *Session) {
				if s.Header.ID != "sess-1" {
					t.Errorf("header id %q", s.Header.ID)
				}
			},
		},
		{
			name:  "header only",
			in:    jsonl(header),
			ids:   []string{},
			roots: []string{},
			leaf:  nilLeaf,
			path:  []string{},
			check: func(t *testing.T, s *Session) {
				r := s.Report(s.Leaf)
				if r.LeafID != nil || len(r.ActivePath) != 0 || r.EntryCount != 0 {
					t.Errorf("report: %+v", r)
				}
			},
		},
		{
			name: "header fields",
			in: jsonl(`{"type":"session","version":3,"id":"h","timestamp":"2026-03-01T09:00:00.000Z","cwd":"/a b","parentSession":"/x/p.jsonl","extra":[1]}`,
				user("a", "")),
			ids: []string{"a"},
			check: func(t *testing.T, s *Session) {
				h := s.Header
				if h.ID != "h" || h.Cwd != "/a b" || h.ParentSession != "/x/p.jsonl" || h.Line != 1 || h.Timestamp != ts {
					t.Errorf("header: %+v", h)
				}
				if want := `{"type":"session","version":3,"id":"h","timestamp":"2026-03-01T09:00:00.000Z","cwd":"/a b","parentSession":"/x/p.jsonl","extra":[1]}`; string(h.Raw) != want {
					t.Errorf("header Raw %s", h.Raw)
				}
			},
		},
	})
}

func TestLoadEncoding(t *testing.T) {
	badUTF8 := ent("message", "a", "", "\"message\":{\"role\":\"user\",\"content\":\"bad \xff\xfe bytes \xc3\"}")
	runLoadCases(t, []loadCase{
		{
			name:  "invalid UTF-8 inside a string",
			in:    jsonl(header, badUTF8, user("b", "a")),
			ids:   []string{"a", "b"},
			path:  []string{"a", "b"},
			diags: []wantDiag{{2, SevWarning, "invalid UTF-8"}},
			check: func(t *testing.T, s *Session) {
				if got := rawOf(t, s.Entry("a")); got != badUTF8 {
					t.Errorf("Raw changed: %q", got)
				}
			},
		},
		{
			name: "invalid UTF-8 in an id",
			in: jsonl(header,
				"{\"type\":\"message\",\"id\":\"x\xffy\",\"parentId\":null,\"timestamp\":\""+ts+"\"}",
				"{\"type\":\"message\",\"id\":\"b\",\"parentId\":\"x\xffy\",\"timestamp\":\""+ts+"\"}"),
			path:  []string{"x\ufffdy", "b"},
			diags: []wantDiag{{2, SevWarning, "invalid UTF-8"}, {3, SevWarning, "invalid UTF-8"}},
		},
		{
			name:    "byte-order mark before the header",
			in:      append([]byte("\xef\xbb\xbf"), jsonl(header, user("a", ""))...),
			ids:     []string{"a"},
			version: 3,
			check: func(t *testing.T, s *Session) {
				if s.Header.Line != 1 || s.Header.ID != "sess-1" || string(s.Header.Raw) != header {
					t.Errorf("header: %+v", s.Header)
				}
			},
		},
		{
			name:    "byte-order mark in a v1 file without a header",
			in:      append([]byte("\xef\xbb\xbf"), jsonl(v1User("one"), v1User("two"))...),
			ids:     []string{"L1", "L2"},
			version: 1,
			diags:   []wantDiag{{0, SevWarning, "no session header"}},
		},
		{
			name: "CRLF line ends",
			in:   []byte(strings.Join([]string{header, user("a", ""), "", user("b", "a"), ""}, "\r\n")),
			ids:  []string{"a", "b"},
			path: []string{"a", "b"},
			check: func(t *testing.T, s *Session) {
				for _, e := range s.Entries {
					if strings.ContainsAny(rawOf(t, e), "\r\n") {
						t.Errorf("%s: Raw holds a line end: %q", e.ID, rawOf(t, e))
					}
				}
				if s.Entry("b").Line != 4 {
					t.Errorf("b.Line = %d", s.Entry("b").Line)
				}
			},
		},
		{
			name: "blank and whitespace-only lines",
			in:   jsonl(header, "", user("a", ""), "   ", "\t \t", user("b", "a"), "", ""),
			ids:  []string{"a", "b"},
			path: []string{"a", "b"},
			check: func(t *testing.T, s *Session) {
				if s.Entry("a").Line != 3 || s.Entry("b").Line != 6 {
					t.Errorf("lines %d, %d", s.Entry("a").Line, s.Entry("b").Line)
				}
			},
		},
		{
			name: "leading and trailing spaces on a line",
			in:   jsonl(header, "  "+user("a", "")+" \t"),
			ids:  []string{"a"},
			check: func(t *testing.T, s *Session) {
				if rawOf(t, s.Entry("a")) != user("a", "") {
					t.Errorf("Raw %q", rawOf(t, s.Entry("a")))
				}
			},
		},
		{
			name:   "byte-order mark before a Flue document",
			in:     append([]byte("\xef\xbb\xbf"), `{"version":3,"entries":[`+user("a", "")+`],"leafId":"a"}`...),
			ids:    []string{"a"},
			leaf:   "a",
			format: FormatFlue,
		},
	})
}

// legacyHeader is a version 1 header: no version, the model in it.
const legacyHeader = `{"type":"session","id":"legacy-1","timestamp":"` + ts + `","cwd":"/w","provider":"anthropic","modelId":"claude-3","thinkingLevel":"off"}`

func TestV1Migration(t *testing.T) {
	assistant := `{"type":"message","id":"ignored-4","parentId":"nonexistent","timestamp":"` + ts +
		`","message":{"role":"assistant","provider":"anthropic","model":"claude-3","content":[{"type":"text","text":"two"}],"stopReason":"stop"}}`
	hook := v1("message", `"message":{"role":"hookMessage","customType":"hook","content":"three","display":true}`)
	withIndex := func(k string) []byte {
		// Objects: header 0, line 2 is 1, line 4 is 2, line 5 is 3,
		// line 6 is 4, line 7 is 5. Line 3 is blank.
		return jsonl(legacyHeader, v1User("one"), "", assistant, hook,
			v1("compaction", `"summary":"S","firstKeptEntryIndex":`+k+`,"tokensBefore":100`),
			v1User("four"))
	}
	noKept := func(k string) loadCase {
		return loadCase{
			name:  "firstKeptEntryIndex " + k + " names no entry",
			in:    withIndex(k),
			ids:   []string{"L2", "L4", "L5", "L6", "L7"},
			diags: []wantDiag{{6, SevWarning, "firstKeptEntryIndex " + k + " names no entry"}},
			check: func(t *testing.T, s *Session) {
				if got := s.Entry("L6").FirstKeptID; got != "" {
					t.Errorf("FirstKeptID = %q", got)
				}
				if got := ctxRefs(s.Context(s.Leaf)); !reflect.DeepEqual(got, []string{"compactionSummary:L6", "user:L7"}) {
					t.Errorf("context %v", got)
				}
			},
		}
	}
	runLoadCases(t, []loadCase{
		{
			name:    "ids from line numbers, a linear chain, migrated fields",
			in:      withIndex("2"),
			ids:     []string{"L2", "L4", "L5", "L6", "L7"},
			roots:   []string{"L2"},
			leaf:    "L7",
			path:    []string{"L2", "L4", "L5", "L6", "L7"},
			version: 1,
			format:  FormatPi,
			check: func(t *testing.T, s *Session) {
				if s.Header.ID != "legacy-1" || s.Header.Line != 1 {
					t.Errorf("header %+v", s.Header)
				}
				if got := s.Entry("L6").FirstKeptID; got != "L4" {
					t.Errorf("FirstKeptID = %q, want L4", got)
				}
				if s.Entry("ignored-4") != nil || s.Entry("L4").ParentID != "L2" {
					t.Errorf("a v1 file's own id and parentId were used")
				}
				if h := s.Entry("L5"); h.Role != RoleCustom || h.CustomType != "hook" || !h.Display {
					t.Errorf("hookMessage: role %q customType %q display %v", h.Role, h.CustomType, h.Display)
				}
				c := s.Context(s.Leaf)
				if got := ctxRefs(c); !reflect.DeepEqual(got, []string{"compactionSummary:L6", "assistant:L4", "custom:L5", "user:L7"}) {
					t.Errorf("context %v", got)
				}
				if c.Model == nil || *c.Model != (Model{"anthropic", "claude-3"}) {
					t.Errorf("model %v", c.Model)
				}
			},
		},
		noKept("0"), // the header
		noKept("99"),
		noKept("6"),
		noKept("-1"),
		noKept("1.5"),
	})
}

// TestV1MigrationEdges: a legacy file without a header or with a broken line,
// an explicit version 1, and version 2.
func TestV1MigrationEdges(t *testing.T) {
	runLoadCases(t, []loadCase{
		{
			name: "without a header, index 0 is still the header's",
			in: jsonl(v1User("one"), v1User("two"),
				v1("compaction", `"summary":"S","firstKeptEntryIndex":1`), v1User("three")),
			ids:   []string{"L1", "L2", "L3", "L4"},
			diags: []wantDiag{{0, SevWarning, "no session header"}},
			check: func(t *testing.T, s *Session) {
				if got := s.Entry("L3").FirstKeptID; got != "L1" {
					t.Errorf("FirstKeptID = %q, want L1", got)
				}
				if got := ctxRefs(s.Context(s.Leaf)); !reflect.DeepEqual(got, []string{"compactionSummary:L3", "user:L1", "user:L2", "user:L4"}) {
					t.Errorf("context %v", got)
				}
			},
		},
		{
			// The reference indexes the objects it parsed: skipped lines
			// are not counted.
			name: "a malformed line is not an object",
			in: jsonl(legacyHeader, v1User("one"), `{"type":"mess`, v1User("two"),
				v1("compaction", `"summary":"S","firstKeptEntryIndex":2`)),
			ids:   []string{"L2", "L4", "L5"},
			diags: []wantDiag{{3, SevError, "line skipped"}},
			check: func(t *testing.T, s *Session) {
				if got := s.Entry("L5").FirstKeptID; got != "L4" {
					t.Errorf("FirstKeptID = %q, want L4", got)
				}
			},
		},
		{
			name:    "explicit version 1 ignores ids",
			in:      jsonl(`{"type":"session","version":1,"id":"v"}`, user("a", ""), user("b", "a")),
			ids:     []string{"L2", "L3"},
			path:    []string{"L2", "L3"},
			version: 1,
		},
		{
			name: "version 2: ids kept, hookMessage read as custom",
			in: jsonl(`{"type":"session","version":2,"id":"v"}`, user("a", ""),
				ent("message", "h", "a", `"message":{"role":"hookMessage","customType":"k","content":"c","display":false}`)),
			ids:     []string{"a", "h"},
			version: 2,
			check: func(t *testing.T, s *Session) {
				if got := ctxRefs(s.Context(s.Leaf)); !reflect.DeepEqual(got, []string{"user:a", "custom:h"}) {
					t.Errorf("context %v", got)
				}
			},
		},
	})
}

func TestOhMyPi(t *testing.T) {
	titleLine := `{"type":"title","title":"Line title","timestamp":"` + ts + `"}`
	ompHeader := `{"type":"session","version":3,"id":"omp-1","timestamp":"` + ts + `","cwd":"/w","title":"Header title"}`
	sessInit := ent("session_init", "i1", "", `"systemPrompt":"be brief","task":"fix it","tools":["read","bash"],"outputSchema":{"type":"object"}`)
	model := ent("model_change", "m1", "i1", `"model":"anthropic/claude-opus-4","role":"default"`)
	ttsr := ent("ttsr_injection", "t1", "m1", `"injectedRules":["no-rm",{"id":7}]`)
	future := ent("future_thing", "f1", "t1", `"payload":{"deep":[1,2.50,{"x":null}],"s":"caf\u00e9"}, "spaced" : true`)
	raws := map[string]string{"i1": sessInit, "m1": model, "t1": ttsr, "f1": future}
	runLoadCases(t, []loadCase{
		{
			name:    "title line, header title, new entry types",
			in:      jsonl(titleLine, ompHeader, sessInit, model, ttsr, future, user("u1", "f1")),
			ids:     []string{"i1", "m1", "t1", "f1", "u1"},
			path:    []string{"i1", "m1", "t1", "f1", "u1"},
			format:  FormatOhMyPi,
			version: 3,
			check: func(t *testing.T, s *Session) {
				if s.Name != "Header title" || s.Header.Title != "Header title" || s.Header.Line != 2 {
					t.Errorf("name %q, header %+v", s.Name, s.Header)
				}
				for id, raw := range raws {
					if e := s.Entry(id); rawOf(t, e) != raw {
						t.Errorf("%s: Raw\n got  %s\n want %s", id, rawOf(t, e), raw)
					}
				}
				if e := s.Entry("f1"); e.Type != "future_thing" {
					t.Errorf("f1 type %q", e.Type)
				}
				if e := s.Entry("m1"); e.ModelRole != "default" || e.Provider != "anthropic" || e.Model != "claude-opus-4" {
					t.Errorf("model_change: %q %q %q", e.ModelRole, e.Provider, e.Model)
				}
				c := s.Context(s.Leaf)
				if c.Model == nil || *c.Model != (Model{"anthropic", "claude-opus-4"}) {
					t.Errorf("context model %v", c.Model)
				}
				if got := ctxRefs(c); !reflect.DeepEqual(got, []string{"user:u1"}) {
					t.Errorf("context %v", got)
				}
				if r := s.Report(s.Leaf); r.SessionName == nil || *r.SessionName != "Header title" || r.Format != FormatOhMyPi {
					t.Errorf("report name %v format %q", r.SessionName, r.Format)
				}
			},
		},
		{
			name:   "title line only",
			in:     jsonl(titleLine, header, user("a", "")),
			ids:    []string{"a"},
			format: FormatOhMyPi,
			check: func(t *testing.T, s *Session) {
				if s.Name != "Line title" {
					t.Errorf("name %q", s.Name)
				}
			},
		},
		{
			name: "session_info name wins over the title; an empty one does not clear it",
			in: jsonl(titleLine, ompHeader, user("a", ""),
				ent("session_info", "n1", "a", `"name":"Old name"`),
				ent("session_info", "n2", "n1", `"name":"Info name"`),
				ent("session_info", "n3", "n2", `"name":""`),
				ent("session_info", "n4", "n3", "")),
			format: FormatOhMyPi,
			check: func(t *testing.T, s *Session) {
				if s.Name != "Info name" {
					t.Errorf("name %q", s.Name)
				}
			},
		},
		{
			name:   "oh-my-pi entry types alone mark the format",
			in:     jsonl(header, user("a", ""), ent("ttsr_injection", "t", "a", `"injectedRules":[]`)),
			format: FormatOhMyPi,
		},
		{
			name:   "plain pi",
			in:     jsonl(header, user("a", ""), ent("model_change", "m", "a", `"provider":"openai","modelId":"gpt-5"`), ent("mystery", "x", "m", "")),
			format: FormatPi,
			check: func(t *testing.T, s *Session) {
				if s.Name != "" || s.Report(s.Leaf).SessionName != nil {
					t.Errorf("name %q", s.Name)
				}
				if c := s.Context(s.Leaf); c.Model == nil || *c.Model != (Model{"openai", "gpt-5"}) {
					t.Errorf("model %v", c.Model)
				}
			},
		},
	})
}

package sessiontree

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// ---- building session text ----

const ts = "2026-03-01T09:00:00.000Z"

// header is a version 3 pi session header.
const header = `{"type":"session","version":3,"id":"sess-1","timestamp":"2026-03-01T09:00:00.000Z","cwd":"/work"}`

// jsonl joins lines into a file, each line ended by "\n".
func jsonl(lines ...string) []byte { return []byte(strings.Join(lines, "\n") + "\n") }

// jsonlNoEOL joins lines with no newline after the last one.
func jsonlNoEOL(lines ...string) []byte { return []byte(strings.Join(lines, "\n")) }

func parentJSON(p string) string {
	if p == "" {
		return "null"
	}
	return strconv.Quote(p)
}

// entAt is one v3 entry line: its type, id, parentId ("" writes null),
// timestamp, then extra members (`"k":v,...`, may be empty).
func entAt(typ, id, parent, timestamp, extra string) string {
	s := `{"type":` + strconv.Quote(typ) + `,"id":` + strconv.Quote(id) + `,"parentId":` + parentJSON(parent) +
		`,"timestamp":` + strconv.Quote(timestamp)
	if extra != "" {
		s += "," + extra
	}
	return s + "}"
}

func ent(typ, id, parent, extra string) string { return entAt(typ, id, parent, ts, extra) }

func user(id, parent string) string {
	return ent("message", id, parent, `"message":{"role":"user","content":"hello `+id+`","timestamp":1}`)
}

func userAt(id, parent, timestamp string) string {
	return entAt("message", id, parent, timestamp, `"message":{"role":"user","content":"hello","timestamp":1}`)
}

func asst(id, parent string) string {
	return asstModel(id, parent, "anthropic", "claude-a")
}

func asstModel(id, parent, provider, model string) string {
	return ent("message", id, parent, `"message":{"role":"assistant","content":[{"type":"text","text":"ok"}],`+
		`"api":"anthropic-messages","provider":`+strconv.Quote(provider)+`,"model":`+strconv.Quote(model)+`,`+
		`"usage":{"input":1,"output":1,"cacheRead":0,"cacheWrite":0,"totalTokens":2,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},`+
		`"stopReason":"stop","timestamp":1}`)
}

func asstUsage(id, parent string, input, total float64) string {
	return ent("message", id, parent, fmt.Sprintf(`"message":{"role":"assistant","content":[],"provider":"p","model":"m",`+
		`"usage":{"input":%v,"output":1,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":%v}},"stopReason":"stop"}`, input, total))
}

func label(id, parent, target, labelMember string) string {
	extra := `"targetId":` + strconv.Quote(target)
	if labelMember != "" {
		extra += `,"label":` + labelMember
	}
	return ent("label", id, parent, extra)
}

func compaction(id, parent, firstKept string) string {
	return ent("compaction", id, parent, `"summary":"summary of `+id+`","firstKeptEntryId":`+strconv.Quote(firstKept)+`,"tokensBefore":1000`)
}

// v1 is a legacy entry line: no id, no parentId.
func v1(typ, extra string) string {
	s := `{"type":` + strconv.Quote(typ) + `,"timestamp":"` + ts + `"`
	if extra != "" {
		s += "," + extra
	}
	return s + "}"
}

func v1User(text string) string {
	return v1("message", `"message":{"role":"user","content":`+strconv.Quote(text)+`,"timestamp":1}`)
}

// ---- checking a loaded session ----

type wantDiag struct {
	line int
	sev  string
	text string // a substring of the message
}

const nilLeaf = "<nil>"

// loadCase is one table row. Zero fields are not checked, except diags:
// the session must have exactly the diagnostics listed (none when nil).
type loadCase struct {
	name     string
	in       []byte
	ids      []string            // every entry's id, in file order
	roots    []string            // root ids, in order
	leaf     string              // the leaf's id, or nilLeaf
	path     []string            // Path(s.Leaf); []string{} for an empty path
	labels   map[string]string   // s.Labels exactly
	children map[string][]string // Children of the listed entries, in order
	version  int
	format   string
	diags    []wantDiag
	check    func(t *testing.T, s *Session)
}

func runLoadCases(t *testing.T, cases []loadCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			orig := bytes.Clone(c.in)
			s, err := Load(c.in, "test.jsonl")
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			if !bytes.Equal(c.in, orig) {
				t.Fatal("Load modified its input")
			}
			checkSession(t, s, &c)
			checkInvariants(t, s)
			exerciseLeaves(t, s)
			if !bytes.Equal(c.in, orig) {
				t.Fatal("Report, Path or Context modified the input")
			}
			// The same input read from a file, and in tiny chunks, is the
			// same session.
			for _, v := range fileLoads(t, c.in, "test.jsonl") {
				t.Run(v.name, func(t *testing.T) {
					if v.err != nil {
						t.Fatal(v.err)
					}
					sameSession(t, v.s, s)
					checkSession(t, v.s, &c)
					checkInvariants(t, v.s)
				})
			}
		})
	}
}

func checkSession(t *testing.T, s *Session, c *loadCase) {
	t.Helper()
	eq := func(what string, got, want any) {
		t.Helper()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got  %v\n want %v", what, got, want)
		}
	}
	if c.ids != nil {
		eq("ids", ids(s.Entries), c.ids)
	}
	if c.roots != nil {
		eq("roots", ids(s.Roots), c.roots)
	}
	switch c.leaf {
	case "":
	case nilLeaf:
		if s.Leaf != nil {
			t.Errorf("leaf: got %s, want nil", s.Leaf.ID)
		}
	default:
		if s.Leaf == nil || s.Leaf.ID != c.leaf {
			t.Errorf("leaf: got %v, want %s", idOf(s.Leaf), c.leaf)
		}
	}
	if c.path != nil {
		eq("path", ids(s.Path(s.Leaf)), c.path)
	}
	if c.labels != nil {
		eq("labels", s.Labels, c.labels)
	}
	for id, want := range c.children {
		e := s.Entry(id)
		if e == nil {
			t.Errorf("children of %s: no such entry", id)
			continue
		}
		eq("children of "+id, ids(e.Children), want)
	}
	if c.version != 0 {
		eq("version", s.Version, c.version)
	}
	if c.format != "" {
		eq("format", s.Format, c.format)
	}
	checkDiags(t, s, c.diags)
	if c.check != nil {
		c.check(t, s)
	}
}

// checkDiags requires exactly the wanted diagnostics, in any order.
func checkDiags(t *testing.T, s *Session, want []wantDiag) {
	t.Helper()
	used := make([]bool, len(s.Diagnostics))
	for _, w := range want {
		found := false
		for i, d := range s.Diagnostics {
			if !used[i] && d.Line == w.line && d.Severity == w.sev && strings.Contains(d.Message, w.text) {
				used[i], found = true, true
				break
			}
		}
		if !found {
			t.Errorf("missing diagnostic: line %d %s containing %q", w.line, w.sev, w.text)
		}
	}
	for i, d := range s.Diagnostics {
		if !used[i] {
			t.Errorf("unexpected diagnostic: %+v", d)
		}
	}
}

func ids(es []*Entry) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.ID
	}
	return out
}

func idOf(e *Entry) string {
	if e == nil {
		return nilLeaf
	}
	return e.ID
}

// ctxRefs renders a context as "role:id" strings.
func ctxRefs(c Context) []string {
	out := make([]string, len(c.Messages))
	for i, m := range c.Messages {
		out[i] = m.Role + ":" + m.Entry.ID
	}
	return out
}

func mustEntry(t *testing.T, s *Session, id string) *Entry {
	t.Helper()
	e := s.Entry(id)
	if e == nil {
		t.Fatalf("no entry %q; have %v", id, ids(s.Entries))
	}
	return e
}

// ---- malformed input ----

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

func TestLoadAbsurdNumbers(t *testing.T) {
	runLoadCases(t, []loadCase{
		{
			// 1e999 overflows a float64, and so do sums of 1e308: neither
			// may reach the report as ±Inf, which JSON cannot encode.
			name: "numbers beyond float64",
			in: jsonl(header,
				ent("message", "a", "", `"message":{"role":"assistant","usage":{"input":1e999,"output":1e308,"cacheRead":-1e999,"cost":{"total":1.5e308}}}`),
				ent("message", "b", "a", `"message":{"role":"assistant","usage":{"input":1,"output":1e308,"cost":{"total":1.5e308}}}`),
				ent("compaction", "c", "b", `"summary":"s","tokensBefore":1e999,"firstKeptEntryIndex":1e999`)),
			ids: []string{"a", "b", "c"},
			check: func(t *testing.T, s *Session) {
				if u := s.Entry("a").Usage; u.Input != 0 || u.CacheRead != 0 || u.Output != 1e308 {
					t.Errorf("a usage %+v", u)
				}
				r := s.Report(s.Leaf)
				if _, err := json.Marshal(r); err != nil {
					t.Fatalf("report does not encode: %v", err)
				}
				if u := r.Stats.Tree.Usage; u.Input != 1 || u.Output != math.MaxFloat64 || u.Cost.Total != math.MaxFloat64 {
					t.Errorf("tree usage %+v", u)
				}
			},
		},
	})
}

func TestLoadDiagnosticsBounded(t *testing.T) {
	lines := []string{header, user("a", "")}
	for range 2500 {
		lines = append(lines, "{broken")
	}
	s, err := Load(jsonl(lines...), "many.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Diagnostics) != maxDiagnostics || s.Suppressed != 2500-maxDiagnostics || len(s.Entries) != 1 {
		t.Errorf("%d diagnostics, %d suppressed, %d entries", len(s.Diagnostics), s.Suppressed, len(s.Entries))
	}
	if d := s.Diagnostics[0]; d.Line != 3 || d.Severity != SevError {
		t.Errorf("first diagnostic %+v", d)
	}
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

// ---- tree semantics ----

func TestLoadDuplicateIDs(t *testing.T) {
	runLoadCases(t, []loadCase{
		{
			// As in the reference (a map filled in file order): the id names
			// the last entry; the earlier one stays addressable under a new id.
			name:     "the id names the last entry",
			in:       jsonl(header, user("a", ""), user("b", "a"), user("a", ""), user("c", "a")),
			ids:      []string{"a~L2", "b", "a", "c"},
			roots:    []string{"a~L2", "a"},
			children: map[string][]string{"a": {"b", "c"}, "a~L2": {}},
			leaf:     "c",
			path:     []string{"a", "c"},
			diags:    []wantDiag{{4, SevWarning, `duplicate id "a" (also on line 2)`}},
			check: func(t *testing.T, s *Session) {
				if s.Entry("a").Line != 4 || s.Entry("a~L2").Line != 2 {
					t.Errorf("a on line %d, a~L2 on line %d", s.Entry("a").Line, s.Entry("a~L2").Line)
				}
			},
		},
		{
			name:  "three entries with one id",
			in:    jsonl(header, user("a", ""), user("a", ""), user("a", "")),
			ids:   []string{"a~L2", "a~L3", "a"},
			roots: []string{"a~L2", "a~L3", "a"},
			diags: []wantDiag{{3, SevWarning, `duplicate id "a"`}, {4, SevWarning, `duplicate id "a"`}},
		},
		{
			name:  "the new name does not take an id in use",
			in:    jsonl(header, user("a", ""), user("a~L2", ""), user("a", "")),
			ids:   []string{"a~L2.2", "a~L2", "a"},
			diags: []wantDiag{{4, SevWarning, `duplicate id "a"`}},
		},
		{
			name:   "a label names the last entry with the id",
			in:     jsonl(header, user("a", ""), user("a", ""), label("l", "a", "a", `"x"`)),
			labels: map[string]string{"a": "x"},
			diags:  []wantDiag{{3, SevWarning, "duplicate id"}},
			check: func(t *testing.T, s *Session) {
				if s.Entry("a").Line != 3 {
					t.Errorf("a is line %d", s.Entry("a").Line)
				}
			},
		},
		{
			// b's parent is the second a, whose parent is b.
			name:  "duplicate ids that make a cycle",
			in:    jsonl(header, user("a", ""), user("b", "a"), user("a", "b")),
			ids:   []string{"a~L2", "b", "a"},
			roots: []string{"a~L2", "b"},
			leaf:  "a",
			path:  []string{"b", "a"},
			diags: []wantDiag{{4, SevWarning, "duplicate id"}, {3, SevWarning, "parent cycle through entry b"}},
		},
	})
}

func TestLoadCycles(t *testing.T) {
	long := []string{header}
	const n = 10000
	long = append(long, user("e0", "e"+strconv.Itoa(n-1)))
	for i := 1; i < n; i++ {
		long = append(long, user("e"+strconv.Itoa(i), "e"+strconv.Itoa(i-1)))
	}
	runLoadCases(t, []loadCase{
		{
			name:     "two-cycle",
			in:       jsonl(header, user("a", "b"), user("b", "a")),
			roots:    []string{"a"},
			children: map[string][]string{"a": {"b"}},
			leaf:     "b",
			path:     []string{"a", "b"},
			diags:    []wantDiag{{2, SevWarning, "parent cycle through entry a"}},
		},
		{
			name:  "three-cycle, cut at the earliest entry in file order",
			in:    jsonl(header, user("a", "c"), user("b", "a"), user("c", "b")),
			roots: []string{"a"},
			leaf:  "c",
			path:  []string{"a", "b", "c"},
			diags: []wantDiag{{2, SevWarning, "parent cycle through entry a"}},
		},
		{
			name:  "three-cycle written in another order",
			in:    jsonl(header, user("c", "b"), user("a", "c"), user("b", "a")),
			roots: []string{"c"},
			leaf:  "b",
			path:  []string{"c", "a", "b"},
			diags: []wantDiag{{2, SevWarning, "parent cycle through entry c"}},
		},
		{
			name:  "an entry before the cycle leads into it",
			in:    jsonl(header, user("t", "c2"), user("c1", "c2"), user("c2", "c1")),
			roots: []string{"c1"},
			leaf:  "c2",
			path:  []string{"c1", "c2"},
			diags: []wantDiag{{3, SevWarning, "parent cycle through entry c1"}},
			check: func(t *testing.T, s *Session) {
				if got := ids(s.Path(s.Entry("t"))); !reflect.DeepEqual(got, []string{"c1", "c2", "t"}) {
					t.Errorf("Path(t) = %v", got)
				}
			},
		},
		{
			name: "a cycle beside a normal chain, with a branch hanging off the cycle",
			in: jsonl(header, user("r", ""), user("s", "r"),
				user("x", "z"), user("y", "x"), user("z", "y"), user("k", "y"),
				user("u", "s")),
			roots:    []string{"r", "x"},
			children: map[string][]string{"y": {"z", "k"}, "s": {"u"}},
			leaf:     "u",
			path:     []string{"r", "s", "u"},
			diags:    []wantDiag{{4, SevWarning, "parent cycle through entry x"}},
			check: func(t *testing.T, s *Session) {
				for id, want := range map[string][]string{"k": {"x", "y", "k"}, "z": {"x", "y", "z"}} {
					if got := ids(s.Path(s.Entry(id))); !reflect.DeepEqual(got, want) {
						t.Errorf("Path(%s) = %v, want %v", id, got, want)
					}
				}
				c := s.Context(s.Entry("k"))
				if got := ctxRefs(c); !reflect.DeepEqual(got, []string{"user:x", "user:y", "user:k"}) {
					t.Errorf("Context(k) = %v", got)
				}
			},
		},
		{
			name:  "self-parent",
			in:    jsonl(header, user("a", "a")),
			roots: []string{"a"},
			path:  []string{"a"},
			diags: []wantDiag{{2, SevWarning, "entry a is its own parent"}},
		},
		{
			name:     "self-parent in the middle of a file",
			in:       jsonl(header, user("r", ""), user("s", "s"), user("t", "s")),
			roots:    []string{"r", "s"},
			children: map[string][]string{"s": {"t"}},
			path:     []string{"s", "t"},
			diags:    []wantDiag{{3, SevWarning, "its own parent"}},
		},
		{
			name:  "two separate cycles",
			in:    jsonl(header, user("a", "b"), user("b", "a"), user("c", "d"), user("d", "c")),
			roots: []string{"a", "c"},
			diags: []wantDiag{{2, SevWarning, "entry a"}, {4, SevWarning, "entry c"}},
		},
		{
			name:  "a 10,000-entry cycle",
			in:    jsonl(long...),
			roots: []string{"e0"},
			leaf:  "e9999",
			diags: []wantDiag{{2, SevWarning, "parent cycle through entry e0"}},
			check: func(t *testing.T, s *Session) {
				if got := len(s.Path(s.Leaf)); got != n {
					t.Errorf("path has %d entries, want %d", got, n)
				}
				if got := len(s.Context(s.Leaf).Messages); got != n {
					t.Errorf("context has %d messages, want %d", got, n)
				}
			},
		},
	})
}

func TestLoadOrphans(t *testing.T) {
	runLoadCases(t, []loadCase{
		{
			name:  "missing parents make roots, with a warning each",
			in:    jsonl(header, user("r", ""), user("o1", "missing1"), user("x", "r"), user("o2", "missing2")),
			ids:   []string{"r", "o1", "x", "o2"},
			roots: []string{"r", "o1", "o2"},
			leaf:  "o2",
			path:  []string{"o2"},
			diags: []wantDiag{
				{3, SevWarning, "entry o1: parent missing1 does not exist"},
				{5, SevWarning, "entry o2: parent missing2 does not exist"},
			},
		},
		{
			name: "roots keep file order, not timestamp order",
			in: jsonl(header,
				userAt("r1", "", "2026-03-01T09:00:09.000Z"),
				userAt("r2", "", "2026-03-01T09:00:01.000Z"),
				userAt("r3", "gone", "2026-03-01T09:00:05.000Z")),
			roots: []string{"r1", "r2", "r3"},
			diags: []wantDiag{{4, SevWarning, "parent gone does not exist"}},
		},
		{
			name: "no parentId member, or an empty one, is a plain root",
			in: jsonl(header,
				`{"type":"message","id":"a","timestamp":"`+ts+`","message":{"role":"user","content":"x"}}`,
				`{"type":"message","id":"b","parentId":"","timestamp":"`+ts+`","message":{"role":"user","content":"x"}}`),
			roots: []string{"a", "b"},
		},
	})
}

func TestLabels(t *testing.T) {
	base := []string{header, user("a", ""), user("b", "a")}
	with := func(lines ...string) []byte { return jsonl(append(append([]string{}, base...), lines...)...) }
	runLoadCases(t, []loadCase{
		{
			name:   "last label wins",
			in:     with(label("l1", "b", "a", `"one"`), label("l2", "l1", "a", `"two"`), label("l3", "l2", "b", `"bee"`)),
			labels: map[string]string{"a": "two", "b": "bee"},
			leaf:   "l3",
		},
		{
			name:   "empty label clears",
			in:     with(label("l1", "b", "a", `"one"`), label("l2", "l1", "b", `"bee"`), label("l3", "l2", "a", `""`)),
			labels: map[string]string{"b": "bee"},
		},
		{
			name:   "missing label clears",
			in:     with(label("l1", "b", "a", `"one"`), label("l2", "l1", "a", "")),
			labels: map[string]string{},
		},
		{
			name:   "null label clears",
			in:     with(label("l1", "b", "a", `"one"`), label("l2", "l1", "a", "null")),
			labels: map[string]string{},
		},
		{
			name:   "set again after a clear",
			in:     with(label("l1", "b", "a", `"one"`), label("l2", "l1", "a", `""`), label("l3", "l2", "a", `"three"`)),
			labels: map[string]string{"a": "three"},
		},
		{
			name:   "a label on a label",
			in:     with(label("l1", "b", "a", `"one"`), label("l2", "l1", "l1", `"meta"`)),
			labels: map[string]string{"a": "one", "l1": "meta"},
		},
		{
			// Label entries are replayed in file order, whatever their
			// timestamps or places in the tree.
			name: "replayed in file order, not tree or time order",
			in: with(
				entAt("label", "l1", "a", "2026-03-01T09:00:09.000Z", `"targetId":"a","label":"first in file"`),
				entAt("label", "l2", "a", "2026-03-01T09:00:01.000Z", `"targetId":"a","label":"second in file"`)),
			labels:   map[string]string{"a": "second in file"},
			children: map[string][]string{"a": {"b", "l2", "l1"}},
		},
		{
			name:   "labels on unknown targets are ignored",
			in:     with(label("l1", "b", "nope", `"x"`), ent("label", "l2", "l1", `"label":"no target"`), label("l3", "l2", "a", `"ok"`)),
			labels: map[string]string{"a": "ok"},
			diags: []wantDiag{
				{4, SevWarning, `names entry "nope", which does not exist`},
				{5, SevWarning, `names entry "", which does not exist`},
			},
		},
	})
}

func TestChildrenOrder(t *testing.T) {
	at := func(sec string) string { return "2026-03-01T09:00:" + sec + "Z" }
	kids := func(stamps ...string) []byte {
		lines := []string{header, userAt("r", "", at("00.000"))}
		for i, st := range stamps {
			lines = append(lines, userAt("c"+strconv.Itoa(i+1), "r", st))
		}
		return jsonl(lines...)
	}
	runLoadCases(t, []loadCase{
		{
			name:     "oldest first",
			in:       kids(at("05.000"), at("01.000"), at("03.000")),
			children: map[string][]string{"r": {"c2", "c3", "c1"}},
			leaf:     "c3", // the leaf is the last entry in file order
		},
		{
			name:     "ties keep file order",
			in:       kids(at("05.000"), at("05.000"), at("04.000"), at("05.000")),
			children: map[string][]string{"r": {"c3", "c1", "c2", "c4"}},
		},
		{
			name:     "an unparseable timestamp keeps its place after the sibling before it",
			in:       kids(at("05.000"), "yesterday", at("01.000")),
			children: map[string][]string{"r": {"c3", "c1", "c2"}},
		},
		{
			name:     "an unparseable first timestamp stays first",
			in:       kids("", at("05.000"), at("01.000")),
			children: map[string][]string{"r": {"c1", "c3", "c2"}},
		},
		{
			name:     "all unparseable: file order",
			in:       kids("b", "a", "c"),
			children: map[string][]string{"r": {"c1", "c2", "c3"}},
		},
		{
			name:     "offsets compared as instants",
			in:       kids("2026-03-01T09:00:00.500Z", "2026-03-01T10:00:00.100+02:00"),
			children: map[string][]string{"r": {"c2", "c1"}},
		},
		{
			name:     "years outside int64 nanoseconds",
			in:       kids("2300-01-01T00:00:00Z", "2000-01-01T00:00:00Z", "1600-01-01T00:00:00Z"),
			children: map[string][]string{"r": {"c3", "c2", "c1"}},
		},
		{
			// The reference compares JavaScript Dates: millisecond precision.
			name:     "sub-millisecond differences tie",
			in:       kids("2026-03-01T09:00:00.0019Z", "2026-03-01T09:00:00.0011Z"),
			children: map[string][]string{"r": {"c1", "c2"}},
		},
	})
}

func TestLoadEncoding(t *testing.T) {
	badUTF8 := ent("message", "a", "", "\"message\":{\"role\":\"user\",\"content\":\"bad \xff\xfe bytes \xc3\"}")
	runLoadCases(t, []loadCase{
		{
			name: "invalid UTF-8 inside a string",
			in:   jsonl(header, badUTF8, user("b", "a")),
			ids:  []string{"a", "b"},
			path: []string{"a", "b"},
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
			path: []string{"x\ufffdy", "b"},
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

// ---- formats ----

func TestV1Migration(t *testing.T) {
	legacyHeader := `{"type":"session","id":"legacy-1","timestamp":"` + ts + `","cwd":"/w","provider":"anthropic","modelId":"claude-3","thinkingLevel":"off"}`
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

// flueEntries are the entries of the Flue documents below: a branch at a,
// and a compaction with its own usage on the stored leaf's path.
var flueEntries = []string{
	entAt("message", "a", "", "2026-03-01T09:00:00.000Z", `"source":"prompt","message":{"role":"user","content":"go"}`),
	entAt("message", "b", "a", "2026-03-01T09:00:01.000Z", `"message":{"role":"assistant","provider":"openai","model":"gpt-5","content":[{"type":"text","text":"ok"}],"usage":{"input":10,"output":5,"cacheRead":0,"cacheWrite":0,"totalTokens":15,"cost":{"input":0.1,"output":0.2,"cacheRead":0,"cacheWrite":0,"total":0.3}},"stopReason":"stop"}`),
	entAt("compaction", "c", "b", "2026-03-01T09:00:02.000Z", `"summary":"sum","firstKeptEntryId":"b","tokensBefore":1000,"usage":{"input":100,"output":20,"cost":{"total":0.05}}`),
	entAt("message", "d", "c", "2026-03-01T09:00:03.000Z", `"source":"retry","message":{"role":"user","content":"again"}`),
	entAt("message", "e", "a", "2026-03-01T09:00:04.000Z", `"source":"task","message":{"role":"user","content":"side"}`),
}

const flueMetadata = `{"taskSessions":[{"session":"child-1.json","taskId":"t-1","storageKey":"k-1"}],"other":true}`

func flueDoc(leaf string, entries ...string) []byte {
	s := `{"version":3,"entries":[` + strings.Join(entries, ",") + `]`
	if leaf != "" {
		s += `,"leafId":` + leaf
	}
	return []byte(s + `,"metadata":` + flueMetadata + `,"createdAt":"2026-03-01T09:00:00.000Z","updatedAt":"2026-03-01T09:10:00.000Z"}`)
}

func pretty(t *testing.T, b []byte) []byte {
	var out bytes.Buffer
	if err := json.Indent(&out, b, "", "  "); err != nil {
		t.Fatal(err)
	}
	out.WriteByte('\n')
	return out.Bytes()
}

func TestFlue(t *testing.T) {
	full := func(t *testing.T, s *Session) {
		if got := mustEntry(t, s, "a").Source; got != "prompt" {
			t.Errorf("a.Source = %q", got)
		}
		if got := mustEntry(t, s, "d").Source; got != "retry" {
			t.Errorf("d.Source = %q", got)
		}
		if want := []ChildSession{{"child-1.json", "t-1", "k-1"}}; !reflect.DeepEqual(s.ChildSessions, want) {
			t.Errorf("ChildSessions %v", s.ChildSessions)
		}
		if string(s.Metadata) != flueMetadata && !json.Valid(s.Metadata) {
			t.Errorf("Metadata %s", s.Metadata)
		}
		st := s.Stats(s.Entries)
		if st.Compactions != 1 || st.CompactionUsage.Input != 100 || st.CompactionUsage.Output != 20 || st.CompactionUsage.Cost.Total != 0.05 {
			t.Errorf("compaction stats %+v", st)
		}
		if st.Usage.Input != 10 || st.Usage.Cost.Total != 0.3 {
			t.Errorf("usage %+v", st.Usage)
		}
		if got := ctxRefs(s.Context(s.Leaf)); !reflect.DeepEqual(got, []string{"compactionSummary:c", "assistant:b", "user:d"}) {
			t.Errorf("context %v", got)
		}
		if s.Header.Timestamp != "2026-03-01T09:00:00.000Z" {
			t.Errorf("header timestamp %q", s.Header.Timestamp)
		}
		// Every entry's Line is where its object starts.
		src, err := s.ReadSource()
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range s.Entries {
			off := bytes.Index(src, []byte(rawOf(t, e)))
			if want := bytes.Count(src[:off], []byte("\n")) + 1; e.Line != want {
				t.Errorf("%s: Line %d, want %d", e.ID, e.Line, want)
			}
		}
	}
	oneLine := flueDoc(`"d"`, flueEntries...)
	cut := flueDoc(`"d"`, flueEntries...)
	cut = cut[:bytes.Index(cut, []byte(`"id":"c"`))+3]
	prettyCut := pretty(t, flueDoc(`"d"`, flueEntries...))
	prettyCut = prettyCut[:bytes.Index(prettyCut, []byte(`"id": "c"`))+3]
	prettyCutLine := bytes.Count(prettyCut[:bytes.LastIndexByte(prettyCut, '{')], []byte("\n")) + 1
	// A pretty-printed element without an id is named after the line
	// its object starts on.
	noID := pretty(t, flueDoc(`"a"`, flueEntries[0], `{"type":"message","parentId":"a","message":{"role":"user"}}`))
	noIDLine := bytes.Count(noID[:bytes.LastIndexByte(noID[:bytes.Index(noID, []byte(`"parentId": "a"`))], '{')], []byte("\n")) + 1
	noIDName := "L" + strconv.Itoa(noIDLine)
	runLoadCases(t, []loadCase{
		{
			name:     "one line: the stored leaf, not the last entry",
			in:       oneLine,
			ids:      []string{"a", "b", "c", "d", "e"},
			roots:    []string{"a"},
			children: map[string][]string{"a": {"b", "e"}},
			leaf:     "d",
			path:     []string{"a", "b", "c", "d"},
			format:   FormatFlue,
			version:  3,
			check: func(t *testing.T, s *Session) {
				full(t, s)
				if rawOf(t, s.Entry("a")) != flueEntries[0] {
					t.Errorf("Raw %s", rawOf(t, s.Entry("a")))
				}
			},
		},
		{
			name:   "pretty-printed",
			in:     pretty(t, oneLine),
			ids:    []string{"a", "b", "c", "d", "e"},
			leaf:   "d",
			path:   []string{"a", "b", "c", "d"},
			format: FormatFlue,
			check: func(t *testing.T, s *Session) {
				full(t, s)
				if s.Entry("a").Line <= 1 {
					t.Errorf("a.Line = %d", s.Entry("a").Line)
				}
			},
		},
		{
			name:  "leafId null: no leaf, empty path and context",
			in:    flueDoc("null", flueEntries...),
			leaf:  nilLeaf,
			path:  []string{},
			roots: []string{"a"},
			check: func(t *testing.T, s *Session) {
				c := s.Context(s.Leaf)
				if len(c.Messages) != 0 || c.Model != nil || c.ThinkingLevel != "off" || c.Compaction != nil {
					t.Errorf("context %+v", c)
				}
				r := s.Report(s.Leaf)
				if r.LeafID != nil || r.ActivePath == nil || len(r.ActivePath) != 0 || len(r.Context) != 0 || r.EntryCount != 5 {
					t.Errorf("report leaf %v path %v context %v", r.LeafID, r.ActivePath, r.Context)
				}
				if _, ok := s.UsageSince("a", s.Leaf); ok {
					t.Errorf("UsageSince with no leaf is known")
				}
			},
		},
		{
			name:  "unknown leafId: the last entry",
			in:    flueDoc(`"zzz"`, flueEntries...),
			leaf:  "e",
			path:  []string{"a", "e"},
			diags: []wantDiag{{0, SevWarning, `leafId "zzz" does not exist`}},
		},
		{
			name: "no leafId member: the last entry",
			in:   flueDoc("", flueEntries...),
			leaf: "e",
		},
		{
			name:  "cut short mid-entries",
			in:    cut,
			ids:   []string{"a", "b"},
			leaf:  "b",
			diags: []wantDiag{{1, SevError, "document cut short"}},
		},
		{
			name: "pretty-printed, cut short mid-entries",
			in:   prettyCut,
			ids:  []string{"a", "b"},
			// The line on which the cut entry starts.
			diags: []wantDiag{{prettyCutLine, SevError, "document cut short"}},
		},
		{
			name:  "an element that is not an object",
			in:    flueDoc(`"b"`, flueEntries[0], "5", flueEntries[1]),
			ids:   []string{"a", "b"},
			diags: []wantDiag{{1, SevError, "entry skipped: not a JSON object"}},
		},
		{
			name:  "an element without an id",
			in:    noID,
			ids:   []string{"a", noIDName},
			diags: []wantDiag{{noIDLine, SevWarning, "no id; using " + noIDName}},
			check: func(t *testing.T, s *Session) {
				if e := mustEntry(t, s, noIDName); e.Parent == nil || e.Parent.ID != "a" {
					t.Errorf("%s parent %v", noIDName, e.Parent)
				}
			},
		},
	})
}

// ---- context and usage ----

func TestContext(t *testing.T) {
	type ctxCase struct {
		name     string
		in       []byte
		leaf     string // "" for s.Leaf
		want     []string
		model    string // "provider/model"; "-" for none; "" not checked
		thinking string
	}
	chain := func(firstKept string) []byte {
		return jsonl(header, user("u1", ""), asst("a1", "u1"), user("u2", "a1"), asst("a2", "u2"),
			compaction("comp", "a2", firstKept), user("u3", "comp"), user("x", "u1"))
	}
	cases := []ctxCase{
		{
			name:     "no compaction",
			in:       jsonl(header, user("u1", ""), asst("a1", "u1"), user("u2", "a1")),
			want:     []string{"user:u1", "assistant:a1", "user:u2"},
			model:    "anthropic/claude-a",
			thinking: "off",
		},
		{
			name:  "compaction with firstKeptEntryId on the path",
			in:    chain("u2"),
			leaf:  "u3",
			want:  []string{"compactionSummary:comp", "user:u2", "assistant:a2", "user:u3"},
			model: "anthropic/claude-a",
		},
		{
			name:  "firstKeptEntryId not in the session",
			in:    chain("elsewhere"),
			leaf:  "u3",
			want:  []string{"compactionSummary:comp", "user:u3"},
			model: "anthropic/claude-a",
		},
		{
			name: "firstKeptEntryId on another branch",
			in:   chain("x"),
			leaf: "u3",
			want: []string{"compactionSummary:comp", "user:u3"},
		},
		{
			name: "two compactions: the earlier is dropped",
			in: jsonl(header, user("u1", ""), compaction("c1", "u1", "u1"), user("u2", "c1"),
				compaction("c2", "u2", "u2"), user("u3", "c2")),
			want:  []string{"compactionSummary:c2", "user:u2", "user:u3"},
			model: "-",
		},
		{
			name: "two compactions, the later keeping from before the earlier",
			in: jsonl(header, user("u1", ""), compaction("c1", "u1", "u1"), user("u2", "c1"),
				compaction("c2", "u2", "u1"), user("u3", "c2")),
			want: []string{"compactionSummary:c2", "user:u1", "user:u2", "user:u3"},
		},
		{
			name: "compaction is the leaf",
			in:   jsonl(header, user("u1", ""), user("u2", "u1"), compaction("c", "u2", "u2")),
			want: []string{"compactionSummary:c", "user:u2"},
		},
		{
			name: "branch summaries: an empty one is not context",
			in: jsonl(header, user("u1", ""),
				ent("branch_summary", "bs1", "u1", `"fromId":"root","summary":""`),
				ent("branch_summary", "bs2", "bs1", `"fromId":"u1","summary":"went elsewhere"`),
				ent("branch_summary", "bs3", "bs2", `"fromId":"u1"`),
				user("u2", "bs3")),
			want: []string{"user:u1", "branchSummary:bs2", "user:u2"},
		},
		{
			name: "custom messages are context even when not displayed; custom entries are not",
			in: jsonl(header, user("u1", ""),
				ent("custom_message", "cm1", "u1", `"customType":"note","content":"hidden","display":false`),
				ent("custom_message", "cm2", "cm1", `"customType":"note","content":[{"type":"text","text":"shown"}],"display":true`),
				ent("custom", "cu", "cm2", `"customType":"state","data":{"k":1}`),
				user("u2", "cu")),
			want: []string{"user:u1", "custom:cm1", "custom:cm2", "user:u2"},
		},
		{
			name: "settings, labels and names are not context",
			in: jsonl(header, user("u1", ""),
				label("l", "u1", "u1", `"x"`),
				ent("session_info", "n", "l", `"name":"N"`),
				ent("thinking_level_change", "th", "n", `"thinkingLevel":"high"`),
				ent("model_change", "m", "th", `"provider":"openai","modelId":"gpt-5"`),
				user("u2", "m")),
			want:     []string{"user:u1", "user:u2"},
			model:    "openai/gpt-5",
			thinking: "high",
		},
		{
			name: "thinking level: the last change on the path",
			in: jsonl(header, user("u1", ""),
				ent("thinking_level_change", "t1", "u1", `"thinkingLevel":"high"`),
				ent("thinking_level_change", "t2", "t1", `"thinkingLevel":"medium"`),
				ent("thinking_level_change", "t3", "u1", `"thinkingLevel":"low"`), // another branch
				user("u2", "t2")),
			want:     []string{"user:u1", "user:u2"},
			thinking: "medium",
		},
		{
			name: "model: the last on the path, from a change or an assistant message",
			in: jsonl(header, user("u1", ""), asstModel("a1", "u1", "anthropic", "claude-a"),
				ent("model_change", "m", "a1", `"provider":"openai","modelId":"gpt-5"`),
				asstModel("a2", "m", "google", "gemini"),
				ent("model_change", "m2", "a2", `"provider":"xai","modelId":"grok"`)), // leaf
			leaf:  "a2",
			want:  []string{"user:u1", "assistant:a1", "assistant:a2"},
			model: "google/gemini",
		},
		{
			name: "message roles carried through",
			in: jsonl(header, user("u1", ""),
				ent("message", "tr", "u1", `"message":{"role":"toolResult","toolCallId":"c","toolName":"bash","content":[],"isError":false}`),
				ent("message", "bx", "tr", `"message":{"role":"bashExecution","command":"ls","output":"","cancelled":false,"truncated":false}`),
				ent("message", "hm", "bx", `"message":{"role":"hookMessage","customType":"h","content":"x","display":true}`)),
			want: []string{"user:u1", "toolResult:tr", "bashExecution:bx", "custom:hm"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := Load(c.in, "ctx.jsonl")
			if err != nil {
				t.Fatal(err)
			}
			checkDiags(t, s, nil)
			leaf := s.Leaf
			if c.leaf != "" {
				leaf = mustEntry(t, s, c.leaf)
			}
			ctx := s.Context(leaf)
			if got := ctxRefs(ctx); !reflect.DeepEqual(got, c.want) {
				t.Errorf("context:\n got  %v\n want %v", got, c.want)
			}
			model := ""
			if ctx.Model != nil {
				model = ctx.Model.Provider + "/" + ctx.Model.ModelID
			}
			if c.model != "" && model != strings.TrimPrefix(c.model, "-") {
				t.Errorf("model %q, want %q", model, c.model)
			}
			want := c.thinking
			if want == "" {
				want = "off"
			}
			if ctx.ThinkingLevel != want {
				t.Errorf("thinking %q, want %q", ctx.ThinkingLevel, want)
			}
			if len(ctx.Messages) > 0 && ctx.Messages[0].Role == RoleCompactionSummary && ctx.Compaction != ctx.Messages[0].Entry {
				t.Errorf("Compaction %v is not the summary's entry", idOf(ctx.Compaction))
			}
		})
	}
	t.Run("nil leaf", func(t *testing.T) {
		s, err := Load(jsonl(header, user("u1", "")), "ctx.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		c := s.Context(nil)
		if len(c.Messages) != 0 || c.Model != nil || c.ThinkingLevel != "off" || c.Compaction != nil {
			t.Errorf("Context(nil) = %+v", c)
		}
	})
}

func TestUsageSince(t *testing.T) {
	s, err := Load(jsonl(header, user("u1", ""), asstUsage("a1", "u1", 10, 1), user("u2", "a1"),
		asstUsage("a2", "u2", 20, 2), asstUsage("a3", "a2", 30, 3), user("b", "a1")), "usage.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	leaf := mustEntry(t, s, "a3")
	cases := []struct {
		since   string
		leaf    *Entry
		ok      bool
		entries int
		input   float64
		cost    float64
	}{
		{"u1", leaf, true, 4, 60, 6},
		{"a1", leaf, true, 3, 50, 5},
		{"a2", leaf, true, 1, 30, 3},
		{"a3", leaf, true, 0, 0, 0}, // the leaf itself: nothing since
		{"b", leaf, false, 0, 0, 0}, // another branch: unknown
		{"zzz", leaf, false, 0, 0, 0},
		{"", leaf, false, 0, 0, 0},
		{"u1", nil, false, 0, 0, 0},
		{"u1", s.Entry("b"), true, 2, 10, 1},
	}
	for _, c := range cases {
		t.Run(c.since+"→"+idOf(c.leaf), func(t *testing.T) {
			st, ok := s.UsageSince(c.since, c.leaf)
			if ok != c.ok || st.Entries != c.entries || st.Usage.Input != c.input || st.Usage.Cost.Total != c.cost {
				t.Errorf("got ok=%v entries=%d input=%v cost=%v; want ok=%v entries=%d input=%v cost=%v",
					ok, st.Entries, st.Usage.Input, st.Usage.Cost.Total, c.ok, c.entries, c.input, c.cost)
			}
		})
	}
}

// ---- bytes in, bytes kept ----

func TestRawPreserved(t *testing.T) {
	odd := `{"type":"message", "id":"a" ,"parentId":null,"timestamp":"` + ts + `","message":{"role":"user","content":"caf\u00e9 \"q\" \/ \ud83d\ude00"},` +
		`"zeta":{"n":[1,2.50,1e3,-0.0,1E+2]},"dup":1,"dup":2,"nested":{"deeper":{"deepest":[[],{}]}}}`
	extra := ent("message", "b", "a", `"message":{"role":"assistant","content":[],"futureField":{"x":[true,false,null]}},"topLevelFuture":"kept"`)
	runLoadCases(t, []loadCase{
		{
			name: "v3 entries with unknown fields, spacing, escapes and repeated names",
			in:   jsonl(header, odd, extra),
			ids:  []string{"a", "b"},
			check: func(t *testing.T, s *Session) {
				if rawOf(t, s.Entry("a")) != odd {
					t.Errorf("a: Raw\n got  %s\n want %s", rawOf(t, s.Entry("a")), odd)
				}
				if rawOf(t, s.Entry("b")) != extra {
					t.Errorf("b: Raw\n got  %s\n want %s", rawOf(t, s.Entry("b")), extra)
				}
				if string(s.Header.Raw) != header {
					t.Errorf("header Raw %s", s.Header.Raw)
				}
			},
		},
		{
			name: "v1 entries keep their own text",
			in:   jsonl(v1User("one"), v1User("two")),
			ids:  []string{"L1", "L2"},
			diags: []wantDiag{
				{0, SevWarning, "no session header"},
			},
			check: func(t *testing.T, s *Session) {
				if rawOf(t, s.Entry("L2")) != v1User("two") {
					t.Errorf("Raw %s", rawOf(t, s.Entry("L2")))
				}
			},
		},
	})
}

func TestLoadErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		in   string
	}{
		{"empty", ""},
		{"newlines", "\n\n\n"},
		{"whitespace only", "   \n\t\r\n  "},
		{"byte-order mark only", "\xef\xbb\xbf"},
		{"byte-order mark and blank lines", "\xef\xbb\xbf\n  \n"},
		{"null", "null\n"},
		{"arrays", "[]\n[1]\n"},
		{"text", "hello\nworld\n"},
		{"truncated header alone", `{"type":"session","vers`},
		{"Flue document cut before its entries", `{"version":3,"entries":[`},
		{"Flue document cut in its first entry", `{"version":3,"entries":[{"type":"mess`},
		{"NUL bytes", "\x00\x00\x00\n\x00"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := Load([]byte(c.in), "weird-name.jsonl")
			if err == nil {
				t.Fatalf("no error; %d entries, diagnostics %v", len(s.Entries), s.Diagnostics)
			}
			if s != nil {
				t.Errorf("a session with the error")
			}
			if !errors.Is(err, ErrNotSession) || !strings.Contains(err.Error(), "weird-name.jsonl") {
				t.Errorf("error %q: want ErrNotSession naming the file", err)
			}
			for _, l := range fileLoads(t, []byte(c.in), "weird-name.jsonl") {
				if l.s != nil || !errors.Is(l.err, ErrNotSession) || strings.ReplaceAll(l.err.Error(), l.file, "weird-name.jsonl") != err.Error() {
					t.Errorf("%s: error %v, Load's %v", l.name, l.err, err)
				}
			}
		})
	}

	t.Run("nil", func(t *testing.T) {
		if _, err := Load(nil, "nil.jsonl"); !errors.Is(err, ErrNotSession) {
			t.Errorf("error %v", err)
		}
	})
	t.Run("binary file", func(t *testing.T) {
		path := filepath.Join("..", "testdata", "bad", "binary.bin")
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(data, []byte{0}) {
			t.Fatal("binary.bin has no NUL bytes")
		}
		_, err = LoadFile(path)
		if !errors.Is(err, ErrNotSession) || !strings.Contains(err.Error(), "binary.bin") {
			t.Errorf("error %v: want ErrNotSession naming the file", err)
		}
	})
	t.Run("directory", func(t *testing.T) {
		dir := t.TempDir()
		_, err := LoadFile(dir)
		if err == nil || !strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), "directory") {
			t.Errorf("error %v", err)
		}
	})
	t.Run("missing file", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "no-such-session.jsonl")
		_, err := LoadFile(path)
		if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "no-such-session.jsonl") {
			t.Errorf("error %v", err)
		}
	})
	t.Run("reader fails", func(t *testing.T) {
		_, err := Read(io.MultiReader(strings.NewReader(header+"\n"), errReader{}), "pipe-name")
		if err == nil || !strings.Contains(err.Error(), "pipe-name") {
			t.Errorf("error %v", err)
		}
	})
	t.Run("Read is Load", func(t *testing.T) {
		in := jsonl(header, user("a", ""), "{bad", user("b", "a"))
		s, err := Read(bytes.NewReader(in), "-")
		if err != nil {
			t.Fatal(err)
		}
		if s.File != "-" || !reflect.DeepEqual(ids(s.Entries), []string{"a", "b"}) || len(s.Diagnostics) != 1 {
			t.Errorf("file %q ids %v diagnostics %v", s.File, ids(s.Entries), s.Diagnostics)
		}
	})
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("broken pipe") }

// ---- scale ----

func TestLoadMillionEntryChain(t *testing.T) {
	if testing.Short() {
		t.Skip("1,000,000 entries: skipped with -short")
	}
	const n = 1_000_000
	buf := make([]byte, 0, n*80)
	buf = append(buf, header...)
	buf = append(buf, '\n')
	for i := range n {
		buf = append(buf, `{"type":"message","id":"e`...)
		buf = strconv.AppendInt(buf, int64(i), 10)
		if i == 0 {
			buf = append(buf, `","parentId":null`...)
		} else {
			buf = append(buf, `","parentId":"e`...)
			buf = strconv.AppendInt(buf, int64(i-1), 10)
			buf = append(buf, '"')
		}
		buf = append(buf, `,"message":{"role":"user","content":"x"}}`+"\n"...)
	}
	start := time.Now()
	s, err := Load(buf, "chain.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("loaded %d entries (%d MB) in %v", n, len(buf)>>20, time.Since(start))
	if len(s.Entries) != n || len(s.Roots) != 1 || s.Leaf == nil || s.Leaf.ID != "e999999" || len(s.Diagnostics) != 0 {
		t.Fatalf("entries %d roots %d leaf %v diagnostics %v", len(s.Entries), len(s.Roots), idOf(s.Leaf), s.Diagnostics)
	}
	path := s.Path(s.Leaf)
	if len(path) != n || path[0].ID != "e0" || path[n-1] != s.Leaf {
		t.Fatalf("path: %d entries", len(path))
	}
	ctx := s.Context(s.Leaf)
	if len(ctx.Messages) != n || ctx.Messages[n-1].Entry != s.Leaf {
		t.Fatalf("context: %d messages", len(ctx.Messages))
	}
	if r := s.Report(s.Leaf); len(r.ActivePath) != n || r.Stats.Path.Messages[RoleUser] != n {
		t.Fatalf("report: path %d", len(r.ActivePath))
	}
	checkInvariants(t, s)
	t.Logf("load, path, context, report and checks in %v", time.Since(start))
}

// ---- the input is never modified ----

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

func TestSilentReplies(t *testing.T) {
	cases := []struct {
		name, content string
		want          bool
	}{
		{"first text", `[{"type":"text","text":"NO_REPLY"}]`, true},
		{"after whitespace", `[{"type":"text","text":"\n  NO_REPLY: nothing to say"}]`, true},
		{"after thinking", `[{"type":"thinking","thinking":"hm"},{"type":"text","text":"NO_REPLY"}]`, true},
		{"text before type", `[{"text":"NO_REPLY","type":"text"}]`, true},
		{"string content", `"NO_REPLY"`, true},
		{"later text only", `[{"type":"text","text":"Done."},{"type":"text","text":"NO_REPLY"}]`, false},
		{"mid sentence", `[{"type":"text","text":"I said NO_REPLY"}]`, false},
		{"lower case", `[{"type":"text","text":"no_reply"}]`, false},
		{"empty", `[]`, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, role := range []string{"assistant", "user"} {
				src := `{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/"}` + "\n" +
					`{"type":"message","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"` + role + `","content":` + c.content + `}}` + "\n"
				s, err := Load([]byte(src), "t.jsonl")
				if err != nil {
					t.Fatal(err)
				}
				want := c.want && role == "assistant"
				if got := s.Entries[0].Silent; got != want {
					t.Errorf("%s: Silent = %v, want %v", role, got, want)
				}
			}
		})
	}
}

// TestToolCallIDs: Load reads the ids of an assistant message's tool calls
// and the call a result answers, leniently, as the rest of the head.
func TestToolCallIDs(t *testing.T) {
	cases := []struct {
		name, message string
		calls         []string
		answers       string
	}{
		{"calls", `{"role":"assistant","content":[{"type":"text","text":"x"},{"type":"toolCall","id":"c1","name":"bash"},{"type":"toolCall","id":"c\u0032","name":"read"}]}`, []string{"c1", "c2"}, ""},
		{"id before type", `{"role":"assistant","content":[{"id":"c1","type":"toolCall"}]}`, []string{"c1"}, ""},
		{"no id or not a string", `{"role":"assistant","content":[{"type":"toolCall"},{"type":"toolCall","id":7},{"type":"toolCall","id":""}]}`, nil, ""},
		{"not a call", `{"role":"assistant","content":[{"type":"text","id":"c1"}]}`, nil, ""},
		{"user's calls are not calls", `{"role":"user","content":[{"type":"toolCall","id":"c1"}]}`, nil, ""},
		{"result", `{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[]}`, nil, "c1"},
		{"result, id not a string", `{"role":"toolResult","toolCallId":1,"content":[]}`, nil, ""},
		{"assistant's toolCallId", `{"role":"assistant","toolCallId":"c1","content":[]}`, nil, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := `{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/"}` + "\n" +
				`{"type":"message","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":` + c.message + `}` + "\n"
			s, err := Load([]byte(src), "t.jsonl")
			if err != nil {
				t.Fatal(err)
			}
			e := s.Entries[0]
			if !slices.Equal(e.CallIDs, c.calls) || e.ToolCallID != c.answers {
				t.Errorf("CallIDs %q, ToolCallID %q; want %q, %q", e.CallIDs, e.ToolCallID, c.calls, c.answers)
			}
		})
	}
}

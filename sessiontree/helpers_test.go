package sessiontree

import (
	"bytes"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

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

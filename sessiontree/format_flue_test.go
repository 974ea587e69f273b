package sessiontree

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

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

// checkFlueSession checks what the full Flue document of flueEntries holds,
// as loaded.
func checkFlueSession(t *testing.T, s *Session) {
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

func TestFlue(t *testing.T) {
	oneLine := flueDoc(`"d"`, flueEntries...)
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
				checkFlueSession(t, s)
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
				checkFlueSession(t, s)
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
	})
}

// TestFlueBroken: a stored leaf that names nothing or is missing, a document
// cut short, elements that are not objects or have no id.
func TestFlueBroken(t *testing.T) {
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

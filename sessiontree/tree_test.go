package sessiontree

import (
	"reflect"
	"strconv"
	"testing"
	"time"
)

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
	})
}

// TestLoadSelfParentsAndLongCycles: an entry that is its own parent, several
// cycles, and a cycle too long to follow by recursion.
func TestLoadSelfParentsAndLongCycles(t *testing.T) {
	long := []string{header}
	const n = 10000
	long = append(long, user("e0", "e"+strconv.Itoa(n-1)))
	for i := 1; i < n; i++ {
		long = append(long, user("e"+strconv.Itoa(i), "e"+strconv.Itoa(i-1)))
	}
	runLoadCases(t, []loadCase{
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

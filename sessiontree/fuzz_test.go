package sessiontree

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// maxSeedSize caps the seed files: the fuzzer mutates every seed, and big
// ones only slow it down.
const maxSeedSize = 1 << 20

// fuzzSeeds are the session files under ../testdata (conformance/*/*.jsonl,
// bad/*, demo/*.jsonl and whatever else is added there), and a few edge
// cases written here.
func fuzzSeeds(tb testing.TB) [][]byte {
	tb.Helper()
	var seeds [][]byte
	root := filepath.Join("..", "testdata")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		name := d.Name()
		inBad := filepath.Base(filepath.Dir(path)) == "bad"
		session := strings.HasSuffix(name, ".jsonl") || strings.HasSuffix(name, ".json") && name != "expect.json"
		if !inBad && !session || strings.Contains(path, string(filepath.Separator)+"fuzz"+string(filepath.Separator)) {
			return nil
		}
		fi, err := d.Info()
		if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxSeedSize {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		seeds = append(seeds, data)
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	if len(seeds) == 0 {
		tb.Fatal("no seed files under ../testdata")
	}
	inline := []string{
		"",
		"\n",
		"\xef\xbb\xbf",
		"null\n",
		header + "\n",
		header + "\r\n" + user("a", "") + "\r\n" + user("b", "a") + "\r\n",
		string(jsonl(v1User("one"), "", v1("compaction", `"summary":"S","firstKeptEntryIndex":1`), v1User("two"))),
		string(jsonl(header, user("a", "b"), user("b", "a"), user("c", "c"), user("d", "zzz"), user("a", "d"))),
		string(jsonl(header, user("a", ""), label("l", "a", "a", `"x"`), label("m", "l", "a", `""`), label("n", "m", "q", `"y"`))),
		string(jsonlNoEOL(header, user("a", ""), `{"type":"message","id":"b","parentId":"a","mess`)),
		string(jsonl(`{"type":"title","title":"T"}`, header, ent("ttsr_injection", "t", "", `"injectedRules":[]`))),
		string(flueDoc(`"d"`, flueEntries...)),
		string(flueDoc("null", flueEntries...)),
		`{"version":3,"entries":[` + user("a", "") + `,5,` + user("b", "a"),
		"{\n  \"entries\": [\n    {\"type\":\"message\",\"id\":\"a\"}\n  ],\n  \"leafId\": \"a\"\n}\n",
		string(jsonl(header, ent("message", "a", "", `"message":"x","usage":[1]`), ent("message", "b", "a", `"message":{"content":[1,"x",{"type":"toolCall"}],"usage":{"cost":3}}`))),
	}
	for _, s := range inline {
		seeds = append(seeds, []byte(s))
	}
	return seeds
}

// FuzzLoad loads arbitrary bytes and checks what must hold of any session:
// a tree (no cycles, consistent links), unique ids, an unmodified input,
// and Report, Path and Context that terminate for every leaf.
func FuzzLoad(f *testing.F) {
	for _, seed := range fuzzSeeds(f) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		orig := bytes.Clone(data)
		s, err := Load(data, "fuzz.jsonl")
		if !bytes.Equal(data, orig) {
			t.Fatal("Load modified its input")
		}
		// Read as a file is, in chunks of a few bytes: the same session.
		fromFile, ferr := load(&source{name: "fuzz.jsonl", file: bytes.NewReader(data)}, 5)
		if (err == nil) != (ferr == nil) || err != nil && err.Error() != ferr.Error() {
			t.Fatalf("read as a file: error %v, Load's %v", ferr, err)
		}
		if err == nil {
			sameSession(t, fromFile, s)
		}
		if err != nil {
			if s != nil {
				t.Fatal("Load returned a session and an error")
			}
			if !errors.Is(err, ErrNotSession) || !strings.Contains(err.Error(), "fuzz.jsonl") {
				t.Fatalf("error %q is not ErrNotSession naming the file", err)
			}
			return
		}
		checkInvariants(t, s)
		exerciseLeaves(t, s)
		checkObjectLinesKept(t, s, data)
		if !bytes.Equal(data, orig) {
			t.Fatal("Report, Path or Context modified the input")
		}
	})
}

// checkInvariants checks what must hold of every loaded session. It is
// linear in the number of entries, so it also runs on huge sessions.
func checkInvariants(tb testing.TB, s *Session) {
	tb.Helper()
	checkEntries(tb, s)
	isEntry := func(e *Entry) bool { return e.Index >= 0 && e.Index < len(s.Entries) && s.Entries[e.Index] == e }
	checkAcyclic(tb, s, isEntry)
	checkLinks(tb, s, isEntry)
	checkParents(tb, s)
	// Children: timestamps that parse never go backwards (milliseconds, as
	// the reference compares), and equal ones keep file order.
	for _, e := range s.Entries {
		var prev *Entry
		for _, c := range e.Children {
			if !c.TimeOK {
				continue
			}
			if prev != nil {
				a, b := prev.Time.UnixMilli(), c.Time.UnixMilli()
				if b < a || b == a && c.Index < prev.Index {
					tb.Fatalf("children of %s out of order: %s (%s) before %s (%s)", e.ID, prev.ID, prev.Timestamp, c.ID, c.Timestamp)
				}
			}
			prev = c
		}
	}
	for id := range s.Labels {
		if s.Entry(id) == nil {
			tb.Fatalf("label on %q, which is not an entry", id)
		}
	}

	if s.Leaf != nil && !isEntry(s.Leaf) {
		tb.Fatalf("the leaf is not an entry of the session")
	}
	if s.Leaf == nil && len(s.Entries) > 0 && s.Format != FormatFlue {
		tb.Fatalf("a JSONL session with entries has no leaf")
	}
	for _, d := range s.Diagnostics {
		if d.Severity != SevError && d.Severity != SevWarning && d.Severity != SevInfo || d.Line < 0 || d.Message == "" {
			tb.Fatalf("bad diagnostic %+v", d)
		}
	}
	if len(s.Diagnostics) > maxDiagnostics {
		tb.Fatalf("%d diagnostics kept", len(s.Diagnostics))
	}
}

// checkEntries: every entry is in its place, with a unique id and its JSON.
func checkEntries(tb testing.TB, s *Session) {
	tb.Helper()
	n := len(s.Entries)
	seen := make(map[string]*Entry, n)
	for i, e := range s.Entries {
		if e == nil {
			tb.Fatalf("entry %d is nil", i)
		}
		if e.Index != i {
			tb.Fatalf("entry %s: Index %d at position %d", e.ID, e.Index, i)
		}
		if o := seen[e.ID]; o != nil {
			tb.Fatalf("id %q used by the entries on lines %d and %d", e.ID, o.Line, e.Line)
		}
		seen[e.ID] = e
		if s.Entry(e.ID) != e {
			tb.Fatalf("Entry(%q) is not the entry with that id", e.ID)
		}
		raw, err := e.Raw()
		if err != nil {
			tb.Fatalf("entry %s: Raw: %v", e.ID, err)
		}
		if s.Format != FormatAider && (!bytes.HasPrefix(raw, []byte("{")) || !raw.IsValid(jsonOpts)) { // Aider's are Markdown
			tb.Fatalf("entry %s: Raw is not a JSON object: %.200q", e.ID, raw)
		}
	}
}

// checkAcyclic: every Parent chain ends at a root without revisiting an entry.
func checkAcyclic(tb testing.TB, s *Session, isEntry func(*Entry) bool) {
	tb.Helper()
	n := len(s.Entries)
	const (
		unvisited = iota
		onWalk
		done
	)
	state := make([]uint8, n)
	var walk []*Entry
	for _, e := range s.Entries {
		walk = walk[:0]
		x := e
		for x != nil && state[x.Index] == unvisited {
			state[x.Index] = onWalk
			walk = append(walk, x)
			if len(walk) > n {
				tb.Fatalf("the parent chain from %s is longer than the session", e.ID)
			}
			if p := x.Parent; p != nil && !isEntry(p) {
				tb.Fatalf("entry %s: parent %p is not an entry of the session", x.ID, p)
			}
			x = x.Parent
		}
		if x != nil && state[x.Index] == onWalk {
			tb.Fatalf("parent cycle through %s", x.ID)
		}
		for _, y := range walk {
			state[y.Index] = done
		}
	}
}

// checkLinks: children point back to their parent, each non-root is a
// child once, and Roots are exactly the entries with no Parent.
func checkLinks(tb testing.TB, s *Session, isEntry func(*Entry) bool) {
	tb.Helper()
	n := len(s.Entries)
	inChildren := make([]bool, n)
	for _, e := range s.Entries {
		for _, c := range e.Children {
			if !isEntry(c) || c.Parent != e {
				tb.Fatalf("%s is a child of %s but its Parent is %v", c.ID, e.ID, idOf(c.Parent))
			}
			if inChildren[c.Index] {
				tb.Fatalf("%s is listed twice as a child", c.ID)
			}
			inChildren[c.Index] = true
		}
	}
	// Roots are exactly the entries with no Parent, in file order.
	var roots []*Entry
	for _, e := range s.Entries {
		if e.Parent == nil {
			roots = append(roots, e)
		} else if !inChildren[e.Index] {
			tb.Fatalf("%s is missing from its parent's children", e.ID)
		}
	}
	if len(roots) != len(s.Roots) {
		tb.Fatalf("Roots has %d entries; %d entries have no parent", len(s.Roots), len(roots))
	}
	for i := range roots {
		if roots[i] != s.Roots[i] {
			tb.Fatalf("Roots[%d] is %s, want %s", i, s.Roots[i].ID, roots[i].ID)
		}
	}
}

// checkParents: parents are what parentId names; a root whose parentId
// names another entry is where a cycle was cut, and says so.
func checkParents(tb testing.TB, s *Session) {
	tb.Helper()
	cuts := map[int]bool{}
	for _, d := range s.Diagnostics {
		if strings.Contains(d.Message, "parent cycle") {
			cuts[d.Line] = true
		}
	}
	for _, e := range s.Entries {
		named := s.Entry(e.ParentID)
		switch {
		case e.Parent != nil && e.Parent != named:
			tb.Fatalf("%s: Parent %s, but parentId %q names %v", e.ID, e.Parent.ID, e.ParentID, idOf(named))
		case e.Parent == nil && named != nil && named != e && s.Suppressed == 0 && !cuts[e.Line]:
			tb.Fatalf("%s: a root, but parentId %q names an entry, and no cycle was reported", e.ID, e.ParentID)
		}
	}
}

// exerciseLeaves computes the report, and the path and context of every
// leaf, and checks their shape.
func exerciseLeaves(tb testing.TB, s *Session) {
	tb.Helper()
	r := s.Report(s.Leaf)
	if _, err := json.Marshal(r); err != nil {
		tb.Fatalf("the report does not encode as JSON: %v", err)
	}
	if len(r.ActivePath) != len(s.Path(s.Leaf)) || r.EntryCount != len(s.Entries) {
		tb.Fatalf("report: path %d entries, entry count %d", len(r.ActivePath), r.EntryCount)
	}
	leaves := s.Leaves()
	if s.Leaf != nil {
		leaves = append(leaves, s.Leaf) // the Flue leaf need not be a leaf of the tree
	}
	for _, leaf := range leaves {
		path := s.Path(leaf)
		if len(path) == 0 || path[len(path)-1] != leaf || path[0].Parent != nil {
			tb.Fatalf("Path(%s) does not run from a root to the leaf", leaf.ID)
		}
		on := make(map[*Entry]bool, len(path))
		for i, e := range path {
			if i > 0 && e.Parent != path[i-1] {
				tb.Fatalf("Path(%s): %s follows %s, which is not its parent", leaf.ID, e.ID, path[i-1].ID)
			}
			on[e] = true
		}
		ctx := s.Context(leaf)
		for _, m := range ctx.Messages {
			if !on[m.Entry] {
				tb.Fatalf("Context(%s) holds %s, which is not on the path", leaf.ID, m.Entry.ID)
			}
		}
		if ctx.Compaction != nil && (len(ctx.Messages) == 0 || ctx.Messages[0].Entry != ctx.Compaction) {
			tb.Fatalf("Context(%s): the compaction summary is not first", leaf.ID)
		}
		_ = s.Stats(path)
	}
	if len(s.Path(nil)) != 0 || len(s.Context(nil).Messages) != 0 {
		tb.Fatal("a nil leaf has a path or context")
	}
}

// checkObjectLinesKept checks that in a JSONL session no line that is a
// JSON object was skipped: odd member types must not cost an entry.
func checkObjectLinesKept(tb testing.TB, s *Session, data []byte) {
	tb.Helper()
	if s.Format == FormatFlue {
		return
	}
	lines := appendLines(nil, data, 0, 1)
	for _, d := range s.Diagnostics {
		if d.Severity != SevError || d.Line < 1 || d.Line > len(lines) {
			continue
		}
		text := bytes.TrimSpace(lines[d.Line-1].text)
		if bytes.HasPrefix(text, []byte("{")) && jsontext.Value(text).IsValid(jsonOpts) {
			tb.Fatalf("line %d is a JSON object but was skipped: %s\n%.300q", d.Line, d.Message, text)
		}
	}
}

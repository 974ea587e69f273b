package sessiontree

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// loadAgents loads testdata/claude/agents/s1.jsonl and its subagents.
func loadAgents(t *testing.T) (*Session, *Subagents) {
	t.Helper()
	path := filepath.Join("..", "testdata", "claude", "agents", "s1.jsonl")
	s, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	subs, err := LoadSubagents(s, path)
	if err != nil {
		t.Fatal(err)
	}
	return s, subs
}

// checkTree checks the tree's invariants after grafting: every entry at
// its index and known by its id, no cycle, parents and children agree,
// children sorted by time, roots without parents.
func checkTree(t *testing.T, s *Session) {
	t.Helper()
	for i, e := range s.Entries {
		if e.Index != i || s.Entry(e.ID) != e {
			t.Fatalf("entry %s: index %d at %d, by id %v", e.ID, e.Index, i, s.Entry(e.ID))
		}
		steps := 0
		for p := e; p.Parent != nil; p = p.Parent {
			if steps++; steps > len(s.Entries) {
				t.Fatalf("entry %s: a cycle above it", e.ID)
			}
		}
		if e.Parent != nil && (e.ParentID != e.Parent.ID || !slices.Contains(e.Parent.Children, e)) {
			t.Errorf("entry %s: parent %s does not hold it", e.ID, e.Parent.ID)
		}
		for k := 1; k < len(e.Children); k++ {
			a, b := e.Children[k-1], e.Children[k]
			if a.TimeOK && b.TimeOK && (a.Time.After(b.Time) || a.Time.Equal(b.Time) && a.Index > b.Index) {
				t.Errorf("entry %s: children %s, %s out of order", e.ID, a.ID, b.ID)
			}
		}
	}
	for _, r := range s.Roots {
		if r.Parent != nil {
			t.Errorf("root %s has a parent", r.ID)
		}
	}
}

// TestGraftSubagents: the subagents of testdata/claude/agents/s1.jsonl
// grafted into its tree, each under the result of the call that ran it
// (the row that shows the call; a4 inside a1, which ran it), the ones no
// call ran after the session's roots; their
// entries read from their own files, and closed with the session.
func TestGraftSubagents(t *testing.T) {
	s, subs := loadAgents(t)
	defer subs.Close()
	n := len(s.Entries)
	errs := s.GraftSubagents(subs, nil)
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "agent-bad.jsonl") {
		t.Errorf("errors %v, want agent-bad.jsonl's", errs)
	}
	checkTree(t, s)
	if len(s.Entries) <= n {
		t.Fatalf("%d entries after grafting, %d before", len(s.Entries), n)
	}
	byAgent := map[string]*Graft{}
	for _, g := range s.Grafts() {
		byAgent[g.AgentID] = g
	}
	for _, c := range []struct {
		agent, call, callID, under, root, leaf, parent, typ string
		depth                                               int
	}{
		{"a1", "m2", "toolu_A", "m3", "a1-1", "a1-6", "", "Explore", 1},
		{"a2", "m4", "toolu_B", "m5", "a2-1", "a2-2", "", "", 1},
		{"a3", "m4", "toolu_C", "m5", "a3-1", "a3-2", "", "", 1},
		{"a4", "a1-4", "toolu_N", "a1-5", "a4-1", "a4-2", "a1", "general-purpose", 2},
		{"w1", "", "", "", "w1-1", "w1-2", "", "workflow-subagent", 1},
		{"old", "", "", "", "o-1", "o-2", "", "", 1},
	} {
		g := byAgent[c.agent]
		if g == nil {
			t.Errorf("%s: not grafted", c.agent)
			continue
		}
		parent, call := "", ""
		if g.Parent != nil {
			parent = g.Parent.AgentID
		}
		if g.Call != nil {
			call = g.Call.ID
		}
		if call != c.call || g.CallID != c.callID || g.Root.ID != c.root || g.Leaf.ID != c.leaf ||
			parent != c.parent || g.Type != c.typ || g.Depth != c.depth {
			t.Errorf("%s: call %s %s root %s leaf %s parent %q type %q depth %d", c.agent, call, g.CallID,
				g.Root.ID, g.Leaf.ID, parent, g.Type, g.Depth)
		}
		if c.call != "" {
			call := mustEntry(t, s, c.call)
			if g.Root.Parent != mustEntry(t, s, c.under) || !slices.Contains(s.GraftsAt(call, c.callID), g) || !slices.Contains(s.GraftedAt(call), g) {
				t.Errorf("%s: not under %s", c.agent, c.call)
			}
		} else if !slices.Contains(s.Roots, g.Root) {
			t.Errorf("%s: no call, and not a root", c.agent)
		}
		for e := g.Leaf; e != nil && e != g.Root.Parent; e = e.Parent {
			if s.GraftOf(e) != g {
				t.Errorf("%s: entry %s is in %v", c.agent, e.ID, s.GraftOf(e))
			}
		}
	}
	if got := ids(mustEntry(t, s, "m3").Children); strings.Join(got, " ") != "m4 a1-1" {
		t.Errorf("m3's children %v: by time, the conversation first", got)
	}
	if s.GraftOf(mustEntry(t, s, "m3")) != nil || s.GraftsAt(mustEntry(t, s, "m4"), "toolu_A") != nil {
		t.Error("the session's own entries are in no graft")
	}
	if got := ids(s.Roots); got[0] != "m1" || len(got) != 3 {
		t.Errorf("roots %v: m1, then the subagents no call ran", got)
	}
	if s.Path(mustEntry(t, s, "a4-2"))[0].ID != "m1" {
		t.Error("a4-2's path does not start at the session's root")
	}
}

// TestGraftedClose: a grafted entry reads its own file, until the
// session it was grafted into is closed (twice is no error).
func TestGraftedClose(t *testing.T) {
	s, subs := loadAgents(t)
	defer subs.Close()
	s.GraftSubagents(subs, nil)
	if b, err := mustEntry(t, s, "a1-6").Decode(); err != nil || !strings.Contains(blocksText(b.Message.Content), "Two callers") {
		t.Errorf("a1-6: %v %v", b, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := mustEntry(t, s, "a1-6").Raw(); err == nil {
		t.Error("a grafted entry read after Close")
	}
	if err := s.Close(); err != nil {
		t.Errorf("a second Close: %v", err)
	}
}

// TestGraftSidechains: the sidechains of the session's own file grafted
// under the call that ran each (the session's roots lose them), in order
// of time among the call's children.
func TestGraftSidechains(t *testing.T) {
	s := mustLoad(t, fixture(t, "claude", "sidechains.jsonl"))
	if errs := s.GraftSubagents(nil, nil); len(errs) != 0 {
		t.Fatal(errs)
	}
	checkTree(t, s)
	if got := strings.Join(ids(s.Roots), " "); got != "u1" {
		t.Errorf("roots %s", got)
	}
	if got := strings.Join(ids(mustEntry(t, s, "r1").Children), " "); got != "s1 t1 a2" {
		t.Errorf("r1's children %s: the sidechains hang from the result of the call that ran them", got)
	}
	if len(s.Grafts()) != 2 || s.GraftOf(mustEntry(t, s, "s3")) != s.Grafts()[0] || s.Grafts()[0].Leaf.ID != "s4" {
		t.Errorf("grafts %+v", s.Grafts())
	}
	if s.Leaf.ID != "a2" {
		t.Errorf("leaf %s", s.Leaf.ID)
	}
}

// TestGraftRefusedSidechain: sidechains that would make a cycle are left
// where they are, and the error says why.
func TestGraftRefusedSidechain(t *testing.T) {
	task := func(id, prompt string) string {
		return `{"type":"tool_use","id":"` + id + `","name":"Task","input":{"prompt":"` + prompt + `"}}`
	}
	side := func(uuid, parent, content string) string {
		return claudeJSONL("user", uuid, parent, `"isSidechain":true,"message":{"role":"user","content":"`+content+`"}`)
	}
	sideCall := func(uuid, parent, call, prompt string) string {
		return strings.Replace(claudeReply(uuid, parent, "m"+uuid, task(call, prompt)), `"type":"assistant"`, `"type":"assistant","isSidechain":true`, 1)
	}
	main := claudeJSONL("user", "u", "", `"message":{"role":"user","content":"go"}`)
	for _, c := range []struct {
		name  string
		lines []string
		want  []string // what each sidechain's graft says ("" grafted)
	}{
		{"a sidechain that holds its own call", []string{main, side("x", "", "P"), sideCall("y", "x", "c1", "P")},
			[]string{"holds the call"}},
		{"two sidechains that call each other", []string{main,
			side("x", "", "P"), sideCall("x2", "x", "c1", "Q"),
			side("y", "", "Q"), sideCall("y2", "y", "c2", "P")},
			[]string{"", "holds the call"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := mustLoad(t, jsonl(c.lines...))
			errs := s.GraftSubagents(nil, nil)
			var got []string
			for _, err := range errs {
				if !errors.Is(err, ErrGraft) {
					t.Errorf("%v does not wrap ErrGraft", err)
				}
				got = append(got, err.Error())
			}
			if wantErrs := slices.DeleteFunc(slices.Clone(c.want), func(w string) bool { return w == "" }); len(got) != len(wantErrs) {
				t.Fatalf("errors %q, want %q", got, c.want)
			}
			for _, w := range c.want {
				if w != "" && !strings.Contains(strings.Join(got, "\n"), w) {
					t.Errorf("errors %q lack %q", got, w)
				}
			}
			checkTree(t, s)
		})
	}

}

// TestGraftRefusedSession: what Graft refuses of a session, and why; the
// session is left as it was.
func TestGraftRefusedSession(t *testing.T) {
	s, subs := loadAgents(t)
	defer s.Close()
	defer subs.Close()
	var a1 *Subagent
	for _, x := range subs.List {
		if x.AgentID == "a1" {
			a1 = x
		}
	}
	other := mustLoad(t, fixture(t, "claude", "session.jsonl"))
	n := len(s.Entries)
	for _, c := range []struct {
		name string
		sub  *Session
		at   GraftPoint
		want string
	}{
		{"itself", s, GraftPoint{}, "into itself"},
		{"a call of another session", a1.Session, GraftPoint{Call: other.Entries[0]}, "not an entry of"},
		{"no sidechain", nil, GraftPoint{}, "no sidechain"},
		{"a sidechain of another session", nil, GraftPoint{Sidechain: &Sidechain{Root: other.Entries[0]}}, "no sidechain"},
	} {
		if _, err := s.Graft(c.sub, c.at); err == nil || !errors.Is(err, ErrGraft) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	if _, err := s.Graft(a1.Session, GraftPoint{Call: mustEntry(t, s, "m2"), CallID: "toolu_A"}); err != nil {
		t.Fatal(err)
	}
	again, err := LoadFile(a1.Path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Graft(again, GraftPoint{}); err == nil || !strings.Contains(err.Error(), `entry id "a1-1" is also in`) ||
		!strings.Contains(err.Error(), "agent-a1.jsonl") {
		t.Errorf("the same subagent twice: %v", err)
	}
	again.Close()
	if _, err := s.Graft(a1.Session, GraftPoint{}); err == nil || !strings.Contains(err.Error(), "already grafted") {
		t.Errorf("a session grafted twice: %v", err)
	}
	if len(s.Entries) != n+len(a1.Session.Entries) {
		t.Errorf("%d entries, want %d", len(s.Entries), n+len(a1.Session.Entries))
	}
	checkTree(t, s)
}

// TestSortChildren: grafted roots take their place among the call's
// children as collectChildren would have put them: by time, ties in file
// order, an unparsed time with the sibling before it.
func TestSortChildren(t *testing.T) {
	at := func(id string, index int, ts string) *Entry {
		e := &Entry{ID: id, Index: index, Timestamp: ts}
		if tm, err := time.Parse(time.RFC3339Nano, ts); err == nil {
			e.Time, e.TimeOK = tm, true
		}
		return e
	}
	for _, c := range []struct {
		name     string
		children []*Entry
		want     string
	}{
		{"by time", []*Entry{at("b", 2, "2026-01-01T00:00:02Z"), at("a", 9, "2026-01-01T00:00:01Z")}, "a b"},
		{"a tie in file order", []*Entry{at("g", 9, "2026-01-01T00:00:01Z"), at("m", 2, "2026-01-01T00:00:01Z")}, "m g"},
		{"an unparsed time after its file predecessor", []*Entry{at("x", 3, "?"), at("a", 1, "2026-01-01T00:00:05Z"),
			at("b", 5, "2026-01-01T00:00:01Z")}, "b a x"},
	} {
		p := &Entry{Children: c.children}
		sortChildren(p)
		if got := strings.Join(ids(p.Children), " "); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}

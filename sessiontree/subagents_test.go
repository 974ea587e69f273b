package sessiontree

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSidechains: the subagents' conversations inside the session's own
// file (Claude Code 1.0) are sidechains, each tied to the Task call that
// ran it: by its prompt, else by order.
func TestSidechains(t *testing.T) {
	s := mustLoad(t, fixture(t, "claude", "sidechains.jsonl"))
	if len(s.Sidechains) != 2 || s.AgentID != "" {
		t.Fatalf("%d sidechains, agent %q", len(s.Sidechains), s.AgentID)
	}
	a1 := mustEntry(t, s, "a1")
	for k, c := range []struct {
		root, call string
		ids        []string
	}{
		{"s1", "toolu_1", []string{"s1", "s2", "s3", "s4"}},
		{"t1", "toolu_2", []string{"t1", "t2"}},
	} {
		sc := s.Sidechains[k]
		var ids []string
		for _, e := range sc.Entries {
			ids = append(ids, e.ID)
			if s.SidechainOf(e) != sc {
				t.Errorf("%s: SidechainOf", e.ID)
			}
		}
		if sc.Root.ID != c.root || sc.CallID != c.call || sc.Call != a1 || strings.Join(ids, " ") != strings.Join(c.ids, " ") {
			t.Errorf("sidechain %d: root %s call %s %v entries %v", k, sc.Root.ID, sc.CallID, sc.Call, ids)
		}
	}
	for _, id := range []string{"u1", "a1", "r1", "a2"} {
		if s.SidechainOf(mustEntry(t, s, id)) != nil {
			t.Errorf("%s is in a sidechain", id)
		}
	}
	if s.Leaf.ID != "a2" {
		t.Errorf("leaf %s", s.Leaf.ID)
	}
}

// TestSidechainRules: what ties a sidechain to its call, best first, and
// what ties it to none.
func TestSidechainRules(t *testing.T) {
	task := func(id, prompt string) string {
		return `{"type":"tool_use","id":"` + id + `","name":"Task","input":{"prompt":"` + prompt + `"}}`
	}
	side := func(uuid, parent, content, agent string) string {
		return claudeJSONL("user", uuid, parent, `"isSidechain":true,"agentId":"`+agent+`","message":{"role":"user","content":"`+content+`"}`)
	}
	result := func(uuid, parent, call, agent string) string {
		return claudeJSONL("user", uuid, parent, `"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"`+call+`","content":"x"}]},"toolUseResult":{"agentId":"`+agent+`"}`)
	}
	for _, c := range []struct {
		name  string
		lines []string
		want  []string // each sidechain's call
	}{
		{"by agentId over prompt", []string{claudeJSONL("user", "u", "", `"message":{"role":"user","content":"go"}`),
			claudeReply("a", "u", "m", task("c1", "P")+","+task("c2", "P")),
			side("x", "", "P", "ag2"), result("r", "a", "c2", "ag2")}, []string{"c2"}},
		{"a sidechain before any call", []string{side("x", "", "P", ""),
			claudeJSONL("user", "u", "", `"message":{"role":"user","content":"go"}`),
			claudeReply("a", "u", "m", task("c1", "Q"))}, []string{""}},
		{"no call at all", []string{claudeJSONL("user", "u", "", `"message":{"role":"user","content":"go"}`),
			side("x", "", "P", "")}, []string{""}},
		{"a cycle", []string{claudeJSONL("user", "u", "", `"message":{"role":"user","content":"go"}`),
			side("x", "y", "P", ""), side("y", "x", "P", "")}, []string{""}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := mustLoad(t, jsonl(c.lines...))
			var got []string
			for _, sc := range s.Sidechains {
				got = append(got, sc.CallID)
				if (sc.Call == nil) != (sc.CallID == "") {
					t.Errorf("call %v id %q", sc.Call, sc.CallID)
				}
			}
			if strings.Join(got, ",") != strings.Join(c.want, ",") {
				t.Errorf("calls %q, want %q", got, c.want)
			}
		})
	}
}

// TestSubagentTranscriptHasNoSidechains: a subagent's own file is all
// sidechain: it names its agent, and has no sidechains of its own.
func TestSubagentTranscriptHasNoSidechains(t *testing.T) {
	s := mustLoad(t, fixture(t, "claude", "agent-a1b2c3.jsonl"))
	if s.AgentID != "a1b2c3" || len(s.Sidechains) != 0 || s.SidechainOf(s.Entries[0]) != nil {
		t.Errorf("agent %q, %d sidechains", s.AgentID, len(s.Sidechains))
	}
}

// TestLoadSubagents: the subagents beside a session, each tied to the
// call that ran it: by its meta file's toolUseId, by the agentId its
// call's result names (an async launch), by its prompt, and a nested one
// to a call of the subagent that ran it; a workflow's step to none.
func TestLoadSubagents(t *testing.T) {
	path := filepath.Join("..", "testdata", "claude", "agents", "s1.jsonl")
	s, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	subs, err := LoadSubagents(s, path)
	if err != nil {
		t.Fatal(err)
	}
	defer subs.Close()
	got := map[string]*Subagent{}
	for _, x := range subs.List {
		got[x.AgentID] = x
	}
	if len(subs.List) != 7 || got["other"] != nil {
		var ids []string
		for _, x := range subs.List {
			ids = append(ids, x.AgentID)
		}
		t.Fatalf("subagents %v", ids)
	}
	m2, m4 := mustEntry(t, s, "m2"), mustEntry(t, s, "m4")
	a1 := got["a1"]
	for _, c := range []struct {
		id     string
		call   string
		entry  *Entry
		parent *Subagent
		typ    string
	}{
		{"a1", "toolu_A", m2, nil, "Explore"},
		{"a2", "toolu_B", m4, nil, ""},
		{"a3", "toolu_C", m4, nil, ""},
		{"a4", "toolu_N", nil, a1, "general-purpose"},
		{"w1", "", nil, nil, "workflow-subagent"},
		{"old", "", nil, nil, ""},
	} {
		x := got[c.id]
		if x == nil || x.Err != nil || x.Session == nil || x.Session.AgentID != c.id {
			t.Fatalf("%s: %+v", c.id, x)
		}
		if c.entry == nil && c.parent != nil {
			c.entry = mustEntry(t, c.parent.Session, "a1-4")
		}
		if x.CallID != c.call || x.Call != c.entry || x.Parent != c.parent || x.Type != c.typ {
			t.Errorf("%s: call %q %v parent %v type %q", c.id, x.CallID, x.Call, x.Parent, x.Type)
		}
		if c.entry != nil {
			if f := subs.ForCall(c.entry, c.call); len(f) != 1 || f[0] != x {
				t.Errorf("%s: ForCall %v", c.id, f)
			}
		}
	}
	if bad := got["bad"]; bad.Err == nil || bad.Session != nil {
		t.Errorf("bad: %+v", bad)
	}
	if u := subs.Unplaced(); len(u) != 3 { // w1, old and bad
		t.Errorf("unplaced %d", len(u))
	}
	if f := subs.ForCall(m4, "toolu_A"); len(f) != 0 {
		t.Errorf("ForCall of another call: %v", f)
	}
}

// TestLoadSubagentsNone: a session with no subagents, one of another
// format, and one read from no file have none.
func TestLoadSubagentsNone(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ name, data string }{
		{"c.jsonl", string(jsonl(claudeJSONL("user", "u", "", `"message":{"role":"user","content":"go"}`)))},
		{"p.jsonl", string(jsonl(header, user("1", "")))},
	} {
		p := filepath.Join(dir, c.name)
		if err := os.WriteFile(p, []byte(c.data), 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := LoadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		subs, err := LoadSubagents(s, p)
		if err != nil || len(subs.List) != 0 || subs.ForCall(s.Entries[0], "x") != nil {
			t.Errorf("%s: %v %v", c.name, subs, err)
		}
		s.Close()
	}
	s := mustLoad(t, fixture(t, "claude", "session.jsonl"))
	if subs, err := LoadSubagents(s, "-"); err != nil || len(subs.List) != 0 {
		t.Errorf("stdin: %v %v", subs, err)
	}
	var none *Subagents
	if none.ForCall(nil, "") != nil || none.Unplaced() != nil || none.Close() != nil {
		t.Error("a nil Subagents is not empty")
	}
}

// TestLoadSubagentsOfSubagent: a subagent's own transcript has as
// subagents only the ones it ran, not itself or its siblings.
func TestLoadSubagentsOfSubagent(t *testing.T) {
	dir := filepath.Join("..", "testdata", "claude", "agents", "s1", "subagents")
	for _, c := range []struct {
		file string
		want []string
	}{
		{"agent-a1.jsonl", []string{"a4"}},
		{"agent-a2.jsonl", nil},
		{"agent-a4.jsonl", nil},
	} {
		path := filepath.Join(dir, c.file)
		s, err := LoadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		subs, err := LoadSubagents(s, path)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, x := range subs.List {
			got = append(got, x.AgentID)
			if x.Call == nil || s.Entry(x.Call.ID) != x.Call {
				t.Errorf("%s: %s is not tied to a call of the file", c.file, x.AgentID)
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: subagents %v, want %v", c.file, got, c.want)
		}
		subs.Close()
		s.Close()
	}
}

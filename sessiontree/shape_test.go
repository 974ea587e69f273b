package sessiontree

import (
	"os"
	"slices"
	"testing"

	"github.com/go-json-experiment/json"
)

// loadShape loads a fixture of testdata/shape: sessions as Claude Code
// and Codex write them, with bookkeeping hanging off the conversation.
func loadShape(t *testing.T, name string) *Session {
	t.Helper()
	data, err := os.ReadFile("testdata/shape/" + name)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Load(data, name)
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, s)
	return s
}

// rawForks counts the entries with two children or more: the branch
// points of the tree as the file writes it.
func rawForks(s *Session) int {
	n := 0
	for _, e := range s.Entries {
		if len(e.Children) > 1 {
			n++
		}
	}
	return n
}

// prompts are the ids of the messages the user typed, in file order, and
// those of them on the path.
func prompts(s *Session, path []*Entry) (all, onPath []string) {
	for _, e := range s.Entries {
		if e.Type == TypeMessage && e.Role == RoleUser {
			all = append(all, e.ID)
			if slices.Contains(path, e) {
				onPath = append(onPath, e.ID)
			}
		}
	}
	return all, onPath
}

// A Claude Code transcript: progress lines, attachments, hook records and
// snapshots hang off its messages as extra children, its compaction's
// logical parent is not in the file, a line's parent was lost, and the
// user rewound once (u2 abandoned for u3, both children of a2): one real
// fork.
func TestShapeClaude(t *testing.T) {
	s := loadShape(t, "claude-forks.jsonl")
	if got := rawForks(s); got < 3 {
		t.Fatalf("the fixture's tree forks %d times as written; it should show bookkeeping forks", got)
	}
	leaves, forks := s.Shape()
	if leaves != 2 || forks != 1 {
		t.Errorf("Shape() = %d leaves, %d branch points; want 2, 1 (the rewind)", leaves, forks)
	}
	r := s.Report(s.Leaf)
	if r.Stats.Leaves != 2 || r.Stats.BranchPoints != 1 {
		t.Errorf("report: %d leaves, %d branch points", r.Stats.Leaves, r.Stats.BranchPoints)
	}
	if s.Leaf == nil || s.Leaf.ID != "a7" {
		t.Fatalf("leaf %v, want a7", s.Leaf)
	}
	path := s.Path(s.Leaf)
	all, onPath := prompts(s, path)
	if want := []string{"u1", "u2", "u3", "u4", "u5"}; !slices.Equal(all, want) {
		t.Fatalf("prompts %v, want %v", all, want)
	}
	// Every prompt but the one rewound is on the active path.
	if want := []string{"u1", "u3", "u4", "u5"}; !slices.Equal(onPath, want) {
		t.Errorf("prompts on the path %v, want %v", onPath, want)
	}
	if path[0].ID != "u1" {
		t.Errorf("path starts at %s", path[0].ID)
	}
	for id, parent := range map[string]string{"cb1": "a5", "u5": "a6"} {
		e := mustEntry(t, s, id)
		if !e.ParentGuessed || e.Parent == nil || e.Parent.ID != parent {
			t.Errorf("%s: parent %v (guessed %v), want %s, guessed", id, e.Parent, e.ParentGuessed, parent)
		}
	}
	var info []int
	for _, d := range s.Diagnostics {
		if d.Severity == SevInfo {
			info = append(info, d.Line)
		} else {
			t.Errorf("diagnostic %+v", d)
		}
	}
	if !slices.Equal(info, []int{21, 26}) {
		t.Errorf("info diagnostics on lines %v, want 21, 26", info)
	}
	for _, e := range s.Entries {
		var line struct {
			Type string `json:"type"`
		}
		raw, _ := e.Raw()
		if err := json.Unmarshal(raw, &line); err != nil {
			t.Fatal(err)
		}
		want := line.Type != "user" && line.Type != "assistant" && e.Type != TypeCompaction
		if e.Bookkeeping != want || e.ParentGuessed && e.ID != "cb1" && e.ID != "u5" {
			t.Errorf("%s (%s): bookkeeping %v, guessed %v", e.ID, line.Type, e.Bookkeeping, e.ParentGuessed)
		}
	}
	// Clicking the first prompt shows the conversation as it went on.
	if got := NewestLeaf(mustEntry(t, s, "u1")); got.ID != "a7" {
		t.Errorf("NewestLeaf(u1) = %s, want a7", got.ID)
	}
}

// A Codex rollout is a chain: its bookkeeping (task events, turn
// contexts, token counts, the events that repeat an item) never forks,
// and every prompt is on the path.
func TestShapeCodex(t *testing.T) {
	s := loadShape(t, "codex-turns.jsonl")
	if leaves, forks := s.Shape(); leaves != 1 || forks != 0 {
		t.Errorf("Shape() = %d leaves, %d branch points; want 1, 0", leaves, forks)
	}
	all, onPath := prompts(s, s.Path(s.Leaf))
	if len(all) != 3 || !slices.Equal(all, onPath) {
		t.Errorf("prompts %v, on the path %v", all, onPath)
	}
	n := 0
	for _, e := range s.Entries {
		var line struct {
			Type    string `json:"type"`
			Payload struct {
				Type string `json:"type"`
			} `json:"payload"`
		}
		raw, _ := e.Raw()
		if err := json.Unmarshal(raw, &line); err != nil {
			t.Fatal(err)
		}
		want := line.Type == "event_msg" || line.Type == "turn_context"
		if e.Bookkeeping != want || e.ParentGuessed {
			t.Errorf("line %d (%s %s): bookkeeping %v, guessed %v", e.Line, line.Type, line.Payload.Type, e.Bookkeeping, e.ParentGuessed)
		}
		if e.Bookkeeping {
			n++
		}
	}
	if n != 30 {
		t.Errorf("%d bookkeeping entries, want 30 (ten a turn)", n)
	}
}

// pi keeps the reference's rule: an orphan is a root, with a warning,
// and nothing in it is bookkeeping.
func TestShapePiOrphanIsRoot(t *testing.T) {
	s, err := Load(jsonl(`{"type":"session","version":3,"id":"s"}`,
		`{"type":"message","id":"a","parentId":null,"message":{"role":"user","content":"hi"}}`,
		`{"type":"message","id":"b","parentId":"gone","message":{"role":"user","content":"again"}}`), "pi.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	b := mustEntry(t, s, "b")
	if b.Parent != nil || b.ParentGuessed || len(s.Roots) != 2 {
		t.Errorf("b: parent %v, guessed %v; roots %d", b.Parent, b.ParentGuessed, len(s.Roots))
	}
	if len(s.Diagnostics) != 1 || s.Diagnostics[0].Severity != SevWarning {
		t.Errorf("diagnostics %+v", s.Diagnostics)
	}
	if leaves, forks := s.Shape(); leaves != 2 || forks != 0 {
		t.Errorf("Shape() = %d, %d", leaves, forks)
	}
}

// An orphan of the session's own conversation follows the line of that
// conversation before it, never a sidechain's line; an orphan of a
// sidechain written into the session's file starts a sidechain of its
// own, and stays a root.
func TestGuessedParentKeepsItsChain(t *testing.T) {
	side := func(uuid, parent, content string) string {
		return claudeJSONL("user", uuid, parent, `"isSidechain":true,"message":{"role":"user","content":"`+content+`"}`)
	}
	mainMsg := func(uuid, parent, content string) string {
		return claudeJSONL("user", uuid, parent, `"message":{"role":"user","content":"`+content+`"}`)
	}
	s := mustLoad(t, jsonl(
		mainMsg("u1", "", "go"),
		claudeReply("a1", "u1", "m1", `{"type":"tool_use","id":"c1","name":"Task","input":{"prompt":"look"}}`),
		side("s1", "", "look"),
		side("s2", "s1", "more"),
		claudeJSONL("user", "r1", "a1", `"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"c1","content":"done"}]}`),
		side("s3", "lost-1", "again"),
		mainMsg("u2", "lost-2", "next")))
	if u2 := mustEntry(t, s, "u2"); !u2.ParentGuessed || u2.Parent == nil || u2.Parent.ID != "r1" {
		t.Errorf("u2: parent %v, want r1", u2.Parent)
	}
	if s3 := mustEntry(t, s, "s3"); s3.ParentGuessed || s3.Parent != nil || len(s.Sidechains) != 2 {
		t.Errorf("s3: parent %v; %d sidechains", s3.Parent, len(s.Sidechains))
	}
}

package sessiontree

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

// genBranching writes a pi session of n entries: user prompts and
// replies with recorded costs, each new entry under a random earlier one
// (a branch where it is not the last), a write or an edit in some replies
// with a result (an error in some), and labels (pi's labels are entries of
// the tree: one under an entry inside a path ends a branch of its own).
func genBranching(r *rand.Rand, n int) []byte {
	lines := []string{header}
	ids := []string{}
	for i := range n {
		id := "e" + strconv.Itoa(i)
		parent := ""
		if len(ids) > 0 {
			parent = ids[len(ids)-1]
			if r.IntN(4) == 0 {
				parent = ids[r.IntN(len(ids))]
			}
		}
		at := fmt.Sprintf("2026-03-01T09:%02d:%02d.000Z", i/60%60, i%60)
		switch {
		case i%2 == 0:
			lines = append(lines, entAt("message", id, parent, at, `"message":{"role":"user","content":"prompt `+id+`","timestamp":1}`))
		case i%7 == 3:
			// a reply that writes a file, then its result under it
			tool := []string{"write", "edit"}[r.IntN(2)]
			file := "f" + strconv.Itoa(r.IntN(5)) + ".go"
			lines = append(lines, entAt("message", id, parent, at, `"message":{"role":"assistant","content":[{"type":"toolCall","id":"c`+id+`","name":"`+tool+`","arguments":{"path":"`+file+`","content":"x"}}],"provider":"p","model":"m","usage":{"input":10,"output":5,"cacheRead":2,"cacheWrite":1,"totalTokens":18,"cost":{"total":0.25}},"stopReason":"toolUse","timestamp":1}`))
			ids = append(ids, id)
			isErr := r.IntN(3) == 0
			id, parent = id+"r", id
			lines = append(lines, entAt("message", id, parent, at, `"message":{"role":"toolResult","toolCallId":"c`+parent+`","toolName":"`+tool+`","content":[{"type":"text","text":"done"}],"isError":`+strconv.FormatBool(isErr)+`,"timestamp":1}`))
		default:
			cost := float64(r.IntN(100)) / 100
			lines = append(lines, entAt("message", id, parent, at, fmt.Sprintf(`"message":{"role":"assistant","content":[{"type":"text","text":"ok"}],"provider":"p","model":"m","usage":{"input":%d,"output":3,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"total":%v}},"stopReason":"stop","timestamp":1}`, i, cost)))
		}
		ids = append(ids, id)
		if r.IntN(10) == 0 {
			lines = append(lines, label("l"+id, id, id, `"mark"`))
		}
	}
	return jsonl(lines...)
}

// TestBranchesPartition: on generated branching sessions, the branches
// cover every entry of the conversation exactly once; each runs from its
// fork's child down to its leaf; the first is the active path; and each
// branch's figures are the sums over its entries, counted here from the
// raw entries, not through Stats.
func TestBranchesPartition(t *testing.T) {
	for seed := range uint64(20) {
		r := rand.New(rand.NewPCG(seed, 7))
		s, err := Load(genBranching(r, 20+r.IntN(200)), "gen.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		pairs := PairCalls(s)
		bs := s.Branches(s.Leaf)
		if !bs[0].Active || bs[0].Leaf != s.Leaf || !slices.Equal(bs[0].Entries, s.Path(s.Leaf)) {
			t.Fatalf("seed %d: the first branch is not the active path", seed)
		}
		leaves, _ := s.Shape()
		if len(bs) != leaves {
			t.Errorf("seed %d: %d branches, Shape says %d leaves", seed, len(bs), leaves)
		}
		in := map[*Entry]int{}
		for i, b := range bs {
			for k, e := range b.Entries {
				in[e]++
				if k > 0 && e.Parent != b.Entries[k-1] {
					t.Fatalf("seed %d branch %d: entry %s does not follow %s", seed, i, e.ID, b.Entries[k-1].ID)
				}
			}
			if i > 0 && b.Fork != nil && b.Entries[0].Parent != b.Fork {
				t.Fatalf("seed %d branch %d: forks at %s but starts under %s", seed, i, b.Fork.ID, b.Entries[0].ParentID)
			}
			if last := b.Entries[len(b.Entries)-1]; last != b.Leaf {
				t.Fatalf("seed %d branch %d: ends at %s, leaf %s", seed, i, last.ID, b.Leaf.ID)
			}
			checkFigures(t, s, pairs, b, seed, i)
		}
		checkSubtrees(t, s, pairs, seed)
		for _, e := range s.Entries {
			if in[e] != 1 {
				t.Errorf("seed %d: entry %s (%s) in %d branches", seed, e.ID, e.Type, in[e])
			}
		}
	}
}

// checkFigures recounts a branch's figures from its entries.
func checkFigures(t *testing.T, s *Session, pairs *Pairs, b Branch, seed uint64, i int) {
	t.Helper()
	var cost, tokens float64
	turns, calls := 0, 0
	var files []string
	for _, e := range b.Entries {
		if e.Type != TypeMessage || e.Role != RoleAssistant {
			continue
		}
		turns++
		calls += e.ToolCalls
		if u := e.Usage; u != nil {
			cost += u.Cost.Total
			tokens += u.Input + u.Output + u.CacheRead + u.CacheWrite
		}
		m := mustDecode(t, e)
		for _, blk := range m.Content {
			if blk.Type != "toolCall" {
				continue
			}
			res := pairs.Result(e, blk.ID)
			if res == nil || mustDecode(t, res).IsError {
				continue
			}
			args, _ := DecodeArguments(blk.Arguments)
			if p := args["path"].(string); !slices.Contains(files, p) {
				files = append(files, p)
			}
		}
	}
	f := s.Figures(b.Entries, pairs)
	if f.Turns != turns || f.ToolCalls != calls || f.Tokens != tokens || fmt.Sprintf("%.6f", f.Cost.USD) != fmt.Sprintf("%.6f", cost) ||
		f.Entries != len(b.Entries) || !slices.Equal(f.Files, files) {
		t.Errorf("seed %d branch %d: figures %d turns %d calls %v tokens $%v files %q; recounted %d %d %v $%v %q",
			seed, i, f.Turns, f.ToolCalls, f.Tokens, f.Cost.USD, f.Files, turns, calls, tokens, cost, files)
	}
}

func mustDecode(t *testing.T, e *Entry) *Message {
	t.Helper()
	b, err := e.Decode()
	if err != nil || b.Message == nil {
		t.Fatalf("decode %s: %v", e.ID, err)
	}
	return b.Message
}

// TestTouchedPatch: a Codex apply_patch that ran touches every file its
// headers name, moves included; one that failed touches none.
func TestTouchedPatch(t *testing.T) {
	for _, c := range []struct {
		patch string
		want  []string
	}{
		{"*** Begin Patch\n*** Update File: a.go\n@@\n-x\n+y\n*** Add File: b.go\n+z\n*** End Patch", []string{"a.go", "b.go"}},
		{"*** Begin Patch\n*** Update File: old.go\n*** Move to: new.go\n*** Delete File: gone.go\n*** End Patch", []string{"old.go", "new.go", "gone.go"}},
		{"no headers", nil},
	} {
		if got := patchTargets(c.patch); !slices.Equal(got, c.want) {
			t.Errorf("patchTargets(%q) = %q, want %q", c.patch, got, c.want)
		}
	}
}

// TestBranchesClaude: in a Claude Code session with forks, progress lines
// and attachments, the bookkeeping makes no branch and is in none, every
// other entry is in exactly one, and the tokens of the branches add up to
// the tree's.
func TestBranchesClaude(t *testing.T) {
	s := loadShape(t, "claude-forks.jsonl")
	bs := s.Branches(s.Leaf)
	leaves, _ := s.Shape()
	if len(bs) != leaves {
		t.Fatalf("%d branches, Shape says %d leaves", len(bs), leaves)
	}
	talks := s.talks()
	in := map[*Entry]int{}
	var tokens float64
	for _, b := range bs {
		for _, e := range b.Entries {
			in[e]++
		}
		tokens += s.Figures(b.Entries, nil).Tokens
	}
	for _, e := range s.Entries {
		if want := map[bool]int{true: 1, false: 0}[talks[e.Index]]; in[e] != want && !(in[e] == 1 && onPath(s, e)) {
			t.Errorf("entry %s (%s, bookkeeping %v) in %d branches", e.ID, e.Type, e.Bookkeeping, in[e])
		}
	}
	st := s.Stats(s.Entries)
	if u := st.Usage; tokens != u.Input+u.Output+u.CacheRead+u.CacheWrite {
		t.Errorf("branches' tokens %v, the tree's %v", tokens, u.Input+u.Output+u.CacheRead+u.CacheWrite)
	}
}

// onPath reports whether e is on the active path (where bookkeeping is
// part of the trunk: the path to the leaf is taken whole).
func onPath(s *Session, e *Entry) bool { return slices.Contains(s.Path(s.Leaf), e) }

// checkSubtrees: every entry's subtree figures, summed bottom up, are
// Figures over the entries under it, gathered here by walking down.
func checkSubtrees(t *testing.T, s *Session, pairs *Pairs, seed uint64) {
	t.Helper()
	touched := func(e *Entry) []string { return s.Touched([]*Entry{e}, pairs) }
	subs := s.SubtreeFigures(func(*Entry) bool { return true }, touched)
	for _, e := range s.Entries {
		var under []*Entry
		for stack := []*Entry{e}; len(stack) > 0; {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			under = append(under, x)
			stack = append(stack, x.Children...)
		}
		want := s.Figures(under, pairs)
		slices.Sort(want.Files)
		got := subs[e]
		if got.Entries != want.Entries || got.Turns != want.Turns || got.ToolCalls != want.ToolCalls || got.Tokens != want.Tokens ||
			fmt.Sprintf("%.6f", got.Cost.USD) != fmt.Sprintf("%.6f", want.Cost.USD) || !got.First.Equal(want.First) ||
			!got.Last.Equal(want.Last) || !slices.Equal(got.Files, want.Files) {
			t.Fatalf("seed %d: subtree of %s: %+v, want %+v", seed, e.ID, got, want)
		}
	}
}

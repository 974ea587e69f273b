package main

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"

	"canopy/internal/text"
	"canopy/sessiontree"
)

// TestInspectBranches: inspect --branches --json splits the tree: the
// branches' entries add up to the tree's, the active path's figures are
// inspect's path usage, and the costs of all the branches add up to the
// tree's; the text form has a row per branch and one for those left.
func TestInspectBranches(t *testing.T) {
	for _, file := range []string{"../../testdata/demo/demo.jsonl", "../../testdata/claude/session.jsonl",
		"../../sessiontree/testdata/shape/claude-forks.jsonl", "../../testdata/codex/rollout.jsonl"} {
		code, out, errs := canopy(t, nil, "inspect", "--branches", "--json", file)
		if code != exitOK {
			t.Fatalf("inspect --branches %s: exit %d: %s", file, code, errs)
		}
		var got branchesJSON
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%s: %v\n%s", file, err, out)
		}
		_, rep, _ := canopy(t, nil, "inspect", "--json", file)
		var r sessiontree.Report
		if err := json.Unmarshal([]byte(rep), &r); err != nil {
			t.Fatal(err)
		}
		if len(got.Branches) != r.Stats.Leaves || !got.Branches[0].Active || got.Branches[0].LeafID != *r.LeafID {
			t.Fatalf("%s: %d branches (first %+v), %d leaves", file, len(got.Branches), got.Branches[0], r.Stats.Leaves)
		}
		entries := 0
		var cost float64
		for _, b := range got.Branches {
			entries += b.Entries
			if b.Cost != nil {
				cost += *b.Cost
			}
			if b.Active && b.ForkID != nil {
				t.Errorf("%s: branch %s: fork %v, active %v", file, b.LeafID, b.ForkID, b.Active)
			}
		}
		tree := r.Stats.Tree
		if entries > tree.Entries {
			t.Errorf("%s: the branches hold %d entries, the tree %d", file, entries, tree.Entries)
		}
		pu := r.Stats.Path.Usage
		if a := got.Branches[0]; a.Entries != len(r.ActivePath) || a.Tokens != pu.Input+pu.Output+pu.CacheRead+pu.CacheWrite {
			t.Errorf("%s: active branch %d entries %v tokens; the path %d, %v", file, a.Entries, a.Tokens,
				len(r.ActivePath), pu.Input+pu.Output+pu.CacheRead+pu.CacheWrite)
		}
		treeCost := tree.Cost().USD
		if math.Abs(cost-treeCost) > 1e-9 {
			t.Errorf("%s: branches cost $%v, the tree $%v", file, cost, treeCost)
		}
		_, text, _ := canopy(t, nil, "inspect", "--branches", file)
		if rows := strings.Count(text, "\n"); rows < len(got.Branches)+1 || !strings.Contains(text, "active") {
			t.Errorf("%s: text form:\n%s", file, text)
		}
	}
}

// TestPageBranchFigures: the page's sidebar carries, on the first row of
// every branch left, the figures of the subtree under it; where that
// subtree is the one branch (no other forks from it), they are inspect
// --branches' figures for it: turns, calls and files.
func TestPageBranchFigures(t *testing.T) {
	file := "../../testdata/demo/demo.jsonl"
	code, page, errs := canopy(t, nil, "export", file, "-o", "-")
	if code != exitOK {
		t.Fatalf("export: %d %s", code, errs)
	}
	_, out, _ := canopy(t, nil, "inspect", "--branches", "--json", file)
	var got branchesJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	i := strings.Index(page, `id="tree-data"`)
	i += strings.Index(page[i:], ">") + 1
	j := i + strings.Index(page[i:], "</script>")
	var tree struct {
		ID  []string          `json:"id"`
		P   []int             `json:"p"`
		Fig map[int][2]string `json:"g"`
	}
	if err := json.Unmarshal([]byte(page[i:j]), &tree); err != nil {
		t.Fatalf("tree data: %v", err)
	}
	pos := map[string]int{}
	kids := make([]int, len(tree.ID))
	for p, id := range tree.ID {
		pos[id] = p
		if tree.P[p] >= 0 {
			kids[tree.P[p]]++
		}
	}
	checked := 0
	for _, b := range got.Branches[1:] {
		// The branch's first row: up from the leaf to the fork's child.
		p := pos[b.LeafID]
		single := true
		for tree.P[p] != pos[*b.ForkID] {
			p = tree.P[p]
			single = single && kids[p] == 1
		}
		fig, ok := tree.Fig[p]
		if !ok {
			t.Errorf("branch %s: no figures on its first row %s", b.LeafID, tree.ID[p])
			continue
		}
		if !single {
			continue
		}
		checked++
		want := fmt.Sprintf("%s · %s · ", text.Count(b.Turns, "turn", "turns"), text.Count(b.ToolCalls, "call", "calls"))
		if !strings.HasPrefix(fig[1], want) || !strings.HasSuffix(fig[1], " · "+text.Count(len(b.Files), "file", "files")) {
			t.Errorf("branch %s: row figures %q; inspect: %d turns, %d calls, %d files", b.LeafID, fig[1], b.Turns, b.ToolCalls, len(b.Files))
		}
	}
	if checked == 0 {
		t.Fatal("no branch of the demo was checked")
	}
}

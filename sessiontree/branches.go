package sessiontree

import (
	"slices"
	"time"
)

// A Branch is the part of the tree one leaf adds: the entries from where
// it leaves the branch it forks from, down to the leaf.
//
// Branches are listed so that they partition the conversation: the
// active path (the path to Session.Leaf) is the trunk, listed first, with
// no fork; every other leaf follows in the sidebar's order (depth first,
// children oldest first), and forks at its deepest ancestor that is on a
// branch listed before it. So every entry that carries the conversation
// is in exactly one branch, and what was spent on the branches that were
// left is the sum over the branches after the first. Bookkeeping never
// makes a branch (Shape): a record off the conversation is in none.
type Branch struct {
	Leaf *Entry
	// Fork is the entry the branch leaves its branch at: the first of
	// Entries is its child. Nil for the trunk, and for a branch of a root
	// of its own.
	Fork    *Entry
	Entries []*Entry // the fork's child (or a root) to the leaf, in path order
	Active  bool     // the trunk: the active path
}

// Branches lists the session's branches (see Branch), the path to active
// the trunk (usually Session.Leaf). With no active leaf (a Flue document
// whose leafId is null) there is no trunk: every branch is one that was
// left. Nothing recurses: a 1,000,000-entry chain is one walk.
func (s *Session) Branches(active *Entry) []Branch {
	talks := s.talks()
	covered := make([]bool, len(s.Entries))
	var out []Branch
	if active != nil {
		path := s.Path(active)
		for _, e := range path {
			if s.own(e) {
				covered[e.Index] = true
			}
		}
		out = append(out, Branch{Leaf: active, Entries: path, Active: true})
	}
	for _, leaf := range s.leavesInOrder(talks) {
		if covered[leaf.Index] {
			continue
		}
		var up []*Entry
		a := leaf
		for ; a != nil && s.own(a) && !covered[a.Index]; a = a.Parent {
			covered[a.Index] = true
			up = append(up, a)
		}
		slices.Reverse(up)
		b := Branch{Leaf: leaf, Entries: up}
		if a != nil && s.own(a) {
			b.Fork = a
		}
		out = append(out, b)
	}
	return out
}

// own reports whether e is one of the session's own entries (not one of
// a grafted conversation's).
func (s *Session) own(e *Entry) bool {
	return e.Index < len(s.Entries) && s.Entries[e.Index] == e
}

// leavesInOrder are the entries that end the conversation (talks, with
// no child that talks), depth first from the roots, children in order.
func (s *Session) leavesInOrder(talks []bool) []*Entry {
	var leaves []*Entry
	stack := make([]*Entry, 0, len(s.Roots))
	for i := len(s.Roots) - 1; i >= 0; i-- {
		stack = append(stack, s.Roots[i])
	}
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !s.own(e) || !talks[e.Index] {
			continue
		}
		n := 0
		for i := len(e.Children) - 1; i >= 0; i-- {
			if c := e.Children[i]; s.own(c) && talks[c.Index] {
				stack = append(stack, c)
				n++
			}
		}
		if n == 0 {
			leaves = append(leaves, e)
		}
	}
	return leaves
}

// Figures are what a part of the tree did and what it spent: sums over
// its entries.
type Figures struct {
	Entries   int
	Turns     int // the model's replies (a reply written over several lines once)
	ToolCalls int
	Tokens    float64 // input, output, cache read and cache write
	Cost      Cost
	// First and Last are the earliest and latest timestamps; zero when
	// no entry has one that parses.
	First, Last time.Time
	Files       []string // written, edited or patched by the tools that ran (Touched)
}

// Spent is the time from the first timestamp to the last.
func (f *Figures) Spent() time.Duration {
	if f.First.IsZero() {
		return 0
	}
	return f.Last.Sub(f.First)
}

// Figures sums entries. pairs is the session's calls paired with their
// results (PairCalls), for the files its tools touched; nil leaves Files
// empty, and decodes nothing.
func (s *Session) Figures(entries []*Entry, pairs *Pairs) Figures {
	st := s.Stats(entries)
	u := st.Usage
	f := Figures{Entries: st.Entries, Turns: st.Messages[RoleAssistant], ToolCalls: st.ToolCalls,
		Tokens: u.Input + u.Output + u.CacheRead + u.CacheWrite, Cost: st.Cost()}
	for _, e := range entries {
		if !e.TimeOK {
			continue
		}
		if f.First.IsZero() || e.Time.Before(f.First) {
			f.First = e.Time
		}
		if e.Time.After(f.Last) {
			f.Last = e.Time
		}
	}
	if pairs != nil {
		f.Files = s.Touched(entries, pairs)
	}
	return f
}

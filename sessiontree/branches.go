package sessiontree

import (
	"math"
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
	for _, e := range s.preorder() {
		if !talks[e.Index] || slices.ContainsFunc(e.Children, func(c *Entry) bool { return s.own(c) && talks[c.Index] }) {
			continue
		}
		leaves = append(leaves, e)
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
	a := AgentOf(s.Format)
	x := &estimator{on: a.EstimateCost, noModelFree: a.NoModelUnbilled}
	var sum figSum
	for _, e := range entries {
		sum.add(e, x)
	}
	f := sum.figures()
	if pairs != nil {
		f.Files = s.Touched(entries, pairs)
	}
	return f
}

// SubtreeFigures sums, for each entry at says yes to, the figures of its
// subtree: itself and every entry under it (the session's own, not a
// grafted conversation's). files is what each entry's calls touched
// (Touched's rule, found by the caller, which decodes the entries anyway);
// nil leaves Files empty. Every entry is added once, bottom up, and a
// file is merged into a larger set at most log n times: no walk per
// subtree, nothing recursive.
func (s *Session) SubtreeFigures(at func(e *Entry) bool, files func(e *Entry) []string) map[*Entry]Figures {
	a := AgentOf(s.Format)
	x := &estimator{on: a.EstimateCost, noModelFree: a.NoModelUnbilled}
	order := s.preorder()
	sums := make([]figSum, len(s.Entries))
	sets := make([]map[string]bool, len(s.Entries))
	out := map[*Entry]Figures{}
	for k := len(order) - 1; k >= 0; k-- {
		e := order[k]
		sum, set := &sums[e.Index], sets[e.Index]
		sum.add(e, x)
		if files != nil {
			for _, f := range files(e) {
				if set == nil {
					set = map[string]bool{}
				}
				set[f] = true
			}
		}
		if at(e) {
			f := sum.figures()
			for file := range set {
				f.Files = append(f.Files, file)
			}
			slices.Sort(f.Files)
			out[e] = f
		}
		if p := e.Parent; p != nil && s.own(p) {
			sums[p.Index].merge(sum)
			sets[p.Index] = union(sets[p.Index], set)
		}
		sets[e.Index] = nil
	}
	return out
}

// union is a and b in the larger of the two.
func union(a, b map[string]bool) map[string]bool {
	if len(a) < len(b) {
		a, b = b, a
	}
	if a == nil {
		return b
	}
	for f := range b {
		a[f] = true
	}
	return a
}

// preorder is the session's own entries depth first from the roots,
// children in order: a parent before everything under it.
func (s *Session) preorder() []*Entry {
	out := make([]*Entry, 0, len(s.Entries))
	stack := make([]*Entry, 0, len(s.Roots))
	for i := len(s.Roots) - 1; i >= 0; i-- {
		stack = append(stack, s.Roots[i])
	}
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !s.own(e) {
			continue
		}
		out = append(out, e)
		for i := len(e.Children) - 1; i >= 0; i-- {
			stack = append(stack, e.Children[i])
		}
	}
	return out
}

// figSum adds up Figures entry by entry, as Stats counts them: the same
// replies, calls, tokens, and cost (recorded, estimated, unknown).
type figSum struct {
	entries, turns, calls       int
	tokens, recorded, estimated float64
	estimatedAny                bool
	unpriced, nUsage            int
	missing                     unrecorded
	usageCost                   float64 // the replies' recorded cost (NoTokens)
	first, last                 time.Time
}

func (f *figSum) add(e *Entry, x *estimator) {
	f.entries++
	if e.TimeOK {
		f.span(e.Time, e.Time)
	}
	switch {
	case e.Type == TypeCompaction && e.Usage != nil:
		f.recorded += e.Usage.Cost.Total
	case e.Type != TypeMessage || e.Continues || e.Role != RoleAssistant:
	default:
		f.turns++
		f.calls += e.ToolCalls
		if u := e.Usage; u != nil {
			f.tokens += u.Input + u.Output + u.CacheRead + u.CacheWrite
			f.recorded += u.Cost.Total
			f.usageCost += u.Cost.Total
		}
		usd, p := x.price(e)
		switch p {
		case priced:
			f.estimated += usd
			f.estimatedAny = true
		case unpriced:
			f.unpriced++
		}
		f.missing.add(x, e)
	}
}

func (f *figSum) span(first, last time.Time) {
	if first.IsZero() {
		return
	}
	if f.first.IsZero() || first.Before(f.first) {
		f.first = first
	}
	if last.After(f.last) {
		f.last = last
	}
}

func (f *figSum) merge(o *figSum) {
	f.entries += o.entries
	f.turns += o.turns
	f.calls += o.calls
	f.tokens += o.tokens
	f.recorded += o.recorded
	f.usageCost += o.usageCost
	f.estimated += o.estimated
	f.estimatedAny = f.estimatedAny || o.estimatedAny
	f.unpriced += o.unpriced
	f.missing.merge(&o.missing)
	f.span(o.first, o.last)
}

// figures is the sum as Figures, its cost as Stats.Cost says it.
func (f *figSum) figures() Figures {
	noTokens := f.missing.any() && f.tokens == 0 && f.usageCost == 0
	return Figures{Entries: f.entries, Turns: f.turns, ToolCalls: f.calls, Tokens: f.tokens,
		First: f.first, Last: f.last,
		Cost: Cost{USD: min(f.recorded+f.estimated, math.MaxFloat64), Estimated: f.estimatedAny,
			Unknown: (f.unpriced > 0 || noTokens) && !f.estimatedAny && f.recorded == 0}}
}

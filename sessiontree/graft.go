package sessiontree

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
)

// Grafting: a subagent's conversation made part of the session's tree,
// under the tool call that ran it, so that one tree, one set of ids and
// one renderer serve both. A subagent's transcript (a file of its own,
// loaded by LoadSubagents) has its entries appended to the session's; a
// sidechain written in the session's own file (Session.Sidechains) is
// there already. Either way the conversation's roots become children of
// the call's entry, sorted among its children by the session's rule (by
// time, ties in file order), and a Graft describes it.

// Graft is a conversation grafted into a session's tree: a subagent's,
// run by the tool call CallID of the entry Call.
type Graft struct {
	AgentID     string // the subagent's agentId; "" when not told
	Type        string // its type ("Explore"); "" when not told
	Description string // what the call said it was for; "" when not told
	// File is where its entries are read from: the subagent's transcript,
	// or the session's own file for a sidechain.
	File   string
	Call   *Entry // the entry whose message makes the call; nil: none (its roots are roots of the session)
	CallID string
	// Root is the first entry of its conversation, the root of Leaf's
	// path; Leaf its last (the subagent's session's leaf: what it ended
	// on). The conversation is the path from Root to Leaf; the graft's
	// other entries are branches of it.
	Root, Leaf *Entry
	// Parent is the conversation Call is in (a subagent that ran
	// another); nil: the session's own. Depth counts them: 1 for a
	// conversation run from the session's own, 2 from one of those, ...
	Parent *Graft
	Depth  int
	index  int // in Session.grafts
}

// GraftPoint says what to graft and where.
type GraftPoint struct {
	// Call is the entry of the session that makes the call CallID; nil:
	// the conversation's roots become roots of the session, after its own.
	Call   *Entry
	CallID string
	// Sidechain, when grafting one of the session's own sidechains (the
	// session to graft is then nil).
	Sidechain *Sidechain
	// What the conversation is, as LoadSubagents tells it.
	AgentID, Type, Description string
}

// ErrGraft is wrapped by the errors of Graft: the conversation was left
// where it was.
var ErrGraft = errors.New("not grafted")

// Graft grafts a conversation into s: sub, a subagent's session loaded
// on its own (LoadSubagents), or, with sub nil, at.Sidechain, one of s's
// own sidechains. Its roots become children of at.Call (an entry of s:
// graft a subagent that another ran after that one), or, with no call,
// sub's roots become roots of s, after its own. The entries of sub are
// appended to s's (their Index renumbered; they read their bytes from
// sub's file still), and sub is s's from then on: s.Close closes it, and
// sub itself is not to be used again.
//
// Nothing is grafted, and the error says why (naming the file), when an
// entry of sub has an id that s has (ids name entries in links and in the
// page: they must stay unique), when at.Call is not an entry of s, when
// sub is already grafted, or when the sidechain's root is not a root of
// s's tree or its call is inside it (the tree would have a cycle).
func (s *Session) Graft(sub *Session, at GraftPoint) (*Graft, error) {
	if at.Call != nil && !s.has(at.Call) {
		return nil, fmt.Errorf("call %s: not an entry of %s: %w", at.Call.ID, s.File, ErrGraft)
	}
	if sub == nil {
		return s.graftSidechain(at)
	}
	return s.graftSession(sub, at)
}

// has tells whether e is an entry of s.
func (s *Session) has(e *Entry) bool {
	return e.Index >= 0 && e.Index < len(s.Entries) && s.Entries[e.Index] == e
}

func (s *Session) graftSession(sub *Session, at GraftPoint) (*Graft, error) {
	switch {
	case sub == s:
		return nil, fmt.Errorf("%s: a session cannot be grafted into itself: %w", s.File, ErrGraft)
	case sub.graftedInto:
		return nil, fmt.Errorf("%s: already grafted: %w", sub.File, ErrGraft)
	case len(sub.Entries) == 0:
		return nil, fmt.Errorf("%s: no entries: %w", sub.File, ErrGraft)
	}
	for _, e := range sub.Entries {
		if s.byID[e.ID] != nil {
			return nil, fmt.Errorf("%s: entry id %q is also in %s: %w", sub.File, e.ID, s.File, ErrGraft)
		}
	}
	leaf := sub.Leaf
	if leaf == nil {
		leaf = sub.Entries[len(sub.Entries)-1]
	}
	g := &Graft{AgentID: at.AgentID, Type: at.Type, Description: at.Description, File: sub.File,
		Call: at.Call, CallID: at.CallID, Root: rootOf(leaf), Leaf: leaf}
	roots := sub.Roots
	base := len(s.Entries)
	for i, e := range sub.Entries {
		e.Index = base + i
		s.byID[e.ID] = e
	}
	s.Entries = append(s.Entries, sub.Entries...)
	for id, l := range sub.Labels {
		s.Labels[id] = l
	}
	sub.graftedInto = true
	s.grafted = append(s.grafted, sub)
	s.top = nil // the forest of sidechain grafts is made again when needed
	s.record(g, sub.Entries)
	if at.Call == nil {
		s.Roots = append(s.Roots, roots...)
		return g, nil
	}
	under := hangPoint(at.Call, at.CallID)
	for _, r := range roots {
		r.Parent, r.ParentID = under, under.ID
	}
	under.Children = append(under.Children, roots...)
	sortChildren(under)
	return g, nil
}

// hangPoint is the entry a conversation run by call id of entry call
// hangs from in the tree: the call's result, when it is among the few
// entries below the call, else the call. Readers look for a subagent
// under the row that shows its call, and that row is the result's (the
// call's own message may be hidden, or make several calls).
func hangPoint(call *Entry, id string) *Entry {
	const near = 64 // results follow their call within a few entries
	queue := append(make([]*Entry, 0, 8), call.Children...)
	for n := 0; n < len(queue) && n < near; n++ {
		e := queue[n]
		for k := range e.Answered() {
			if e.AnsweredID(k) == id {
				return e
			}
		}
		queue = append(queue, e.Children...)
	}
	return call
}

func (s *Session) graftSidechain(at GraftPoint) (*Graft, error) {
	sc := at.Sidechain
	switch {
	case sc == nil || sc.Root == nil || !s.has(sc.Root) || s.SidechainOf(sc.Root) != sc:
		return nil, fmt.Errorf("%s: no sidechain of this session to graft: %w", s.File, ErrGraft)
	case s.GraftOf(sc.Root) != nil:
		return nil, fmt.Errorf("%s: the sidechain at %s is already grafted: %w", s.File, sc.Root.ID, ErrGraft)
	case sc.Root.Parent != nil:
		return nil, fmt.Errorf("%s: the sidechain at %s is not a root of the tree: %w", s.File, sc.Root.ID, ErrGraft)
	}
	leaf := sc.Entries[len(sc.Entries)-1]
	g := &Graft{AgentID: at.AgentID, Type: at.Type, Description: at.Description, File: s.File,
		Call: at.Call, CallID: at.CallID, Root: sc.Root, Leaf: leaf}
	if rootOf(leaf) != sc.Root {
		g.Leaf = sc.Root // the sidechain's last line is not below its root (a hostile file)
	}
	if at.Call != nil {
		if !s.joinTrees(sc.Root, at.Call) {
			return nil, fmt.Errorf("%s: the sidechain at %s holds the call %s that ran it: %w", s.File, sc.Root.ID, at.CallID, ErrGraft)
		}
		i, found := slices.BinarySearchFunc(s.Roots, sc.Root.Index, func(r *Entry, k int) int { return r.Index - k })
		if found {
			s.Roots = slices.Delete(s.Roots, i, i+1)
		}
		// The result is in the call's tree, which joinTrees found apart
		// from the sidechain's: no cycle either way.
		under := hangPoint(at.Call, at.CallID)
		sc.Root.Parent, sc.Root.ParentID = under, under.ID
		under.Children = append(under.Children, sc.Root)
		sortChildren(under)
	}
	s.record(g, sc.Entries)
	return g, nil
}

// record keeps g, the graft of the entries es.
func (s *Session) record(g *Graft, es []*Entry) {
	g.index = len(s.grafts)
	g.Depth = 1
	if g.Call != nil {
		if p := s.GraftOf(g.Call); p != nil {
			g.Parent, g.Depth = p, p.Depth+1
		}
		if s.graftsAt == nil {
			s.graftsAt = map[*Entry][]*Graft{}
		}
		s.graftsAt[g.Call] = append(s.graftsAt[g.Call], g)
	}
	s.grafts = append(s.grafts, g)
	if n := len(s.Entries); len(s.graftOf) < n {
		s.graftOf = slices.Grow(s.graftOf, n-len(s.graftOf))[:n]
	}
	for _, e := range es {
		s.graftOf[e.Index] = int32(g.index) + 1
	}
}

// rootOf is the root of e's tree.
func rootOf(e *Entry) *Entry {
	for e.Parent != nil {
		e = e.Parent
	}
	return e
}

// joinTrees makes the tree of root a subtree of call's, unless call is
// in it (a cycle): a union-find over the trees, made at the first
// sidechain grafted (one pass over the entries), so that grafting a
// thousand sidechains under calls deep in a long session does not walk up
// from each call to its root.
func (s *Session) joinTrees(root, call *Entry) bool {
	if len(s.top) != len(s.Entries) {
		s.top = make([]int32, len(s.Entries))
		for i := range s.top {
			s.top[i] = -1
		}
		var walk []*Entry
		for _, e := range s.Entries {
			walk = walk[:0]
			p := e
			for ; p != nil && s.top[p.Index] < 0; p = p.Parent {
				walk = append(walk, p)
			}
			if len(walk) == 0 {
				continue
			}
			t := int32(walk[len(walk)-1].Index) // a root
			if p != nil {
				t = s.top[p.Index] // the root of a tree already walked
			}
			for _, q := range walk {
				s.top[q.Index] = t
			}
		}
	}
	find := func(i int32) int32 {
		r := i
		for s.top[r] != r {
			r = s.top[r]
		}
		for s.top[i] != r { // path compression
			s.top[i], i = r, s.top[i]
		}
		return r
	}
	rc := find(int32(call.Index))
	if rc == int32(root.Index) {
		return false
	}
	s.top[root.Index] = rc
	return true
}

// sortChildren sorts p's children by the session's rule, as
// collectChildren does: by timestamp to the millisecond, oldest first,
// with a stable sort from file order; an entry whose timestamp does not
// parse sorts with the sibling before it in file order.
func sortChildren(p *Entry) {
	slices.SortFunc(p.Children, func(a, b *Entry) int { return a.Index - b.Index })
	type keyed struct {
		e   *Entry
		key int64
	}
	buf := make([]keyed, len(p.Children))
	var last int64 = -1 << 63
	for i, c := range p.Children {
		if c.TimeOK {
			last = c.Time.UnixMilli()
		}
		buf[i] = keyed{c, last}
	}
	slices.SortStableFunc(buf, func(a, b keyed) int { return cmp.Compare(a.key, b.key) })
	for i := range buf {
		p.Children[i] = buf[i].e
	}
}

// Grafts lists the conversations grafted into s, in the order they were.
func (s *Session) Grafts() []*Graft { return s.grafts }

// GraftsAt lists the conversations that the call id of entry e ran (in
// the order they were grafted; usually one).
func (s *Session) GraftsAt(e *Entry, id string) []*Graft {
	var out []*Graft
	for _, g := range s.graftsAt[e] {
		if g.CallID == id {
			out = append(out, g)
		}
	}
	return out
}

// GraftedAt lists every conversation grafted under entry e, whatever
// call of it ran them.
func (s *Session) GraftedAt(e *Entry) []*Graft { return s.graftsAt[e] }

// GraftOf is the grafted conversation e is an entry of; nil for an entry
// of the session's own conversation.
func (s *Session) GraftOf(e *Entry) *Graft {
	if e == nil || !s.has(e) || e.Index >= len(s.graftOf) {
		return nil
	}
	if k := s.graftOf[e.Index]; k > 0 {
		return s.grafts[k-1]
	}
	return nil
}

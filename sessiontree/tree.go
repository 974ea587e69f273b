package sessiontree

import (
	"cmp"
	"slices"
	"strconv"
)

// build links the entries into the tree and replays labels and names. It
// never recurses: a million-entry chain is as cheap as a flat list.
func (s *Session) build() {
	s.indexIDs()
	s.linkParents()
	s.breakCycles()
	s.collectChildren()
	s.replay()
	s.chooseLeaf()
}

// indexIDs maps ids to entries. When an id repeats, the id names the LAST
// entry that carries it, as in the reference (a map filled in file order);
// earlier ones get a new unique id so every entry stays addressable.
func (s *Session) indexIDs() {
	s.byID = make(map[string]*Entry, len(s.Entries))
	for _, e := range s.Entries {
		if old, dup := s.byID[e.ID]; dup {
			renamed := old.ID + "~L" + strconv.Itoa(old.Line)
			for n := 2; s.byID[renamed] != nil; n++ {
				renamed = old.ID + "~L" + strconv.Itoa(old.Line) + "." + strconv.Itoa(n)
			}
			s.diag(e.Line, SevWarning, "duplicate id %q (also on line %d); the earlier entry is shown as %q", e.ID, old.Line, renamed)
			old.ID = renamed
			s.byID[renamed] = old
		}
		s.byID[e.ID] = e
	}
}

// linkParents sets Parent. Roots: no parent, a parent equal to the entry's
// own id, or a parent that does not exist (an orphan). A reader that
// guesses parents (guessParents: Claude Code's, Codex's) makes an orphan
// of the session's own conversation the child of the entry of that
// conversation before it in the file that is not bookkeeping, when there
// is one: the conversation's path stays whole across a compaction whose
// logical parent the file does not hold, or a line lost to an edit. (An
// orphan of a sidechain written into the session's file starts a
// sidechain of its own, Session.Sidechains, and stays a root.)
func (s *Session) linkParents() {
	var prev *Entry // the last entry of the session's own conversation that is not bookkeeping
	for _, e := range s.Entries {
		own := s.guessParents && !s.inSidechain(e)
		switch p := s.byID[e.ParentID]; {
		case e.ParentID == "":
		case e.ParentID == e.ID:
			s.diag(e.Line, SevWarning, "entry %s is its own parent; shown as a root", e.ID)
		case p == nil && own && prev != nil:
			s.diag(e.Line, SevInfo, "entry %s: parent %s is not in the file; shown after line %d, the entry before it", e.ID, e.ParentID, prev.Line)
			e.Parent, e.ParentID, e.ParentGuessed = prev, prev.ID, true
		case p == nil:
			s.diag(e.Line, SevWarning, "entry %s: parent %s does not exist; shown as a root", e.ID, e.ParentID)
		default:
			// The parent's id is the same string: keep one copy of it,
			// not 100,000 more in a big session.
			e.Parent, e.ParentID = p, p.ID
		}
		if own && !e.Bookkeeping {
			prev = e
		}
	}
}

// inSidechain reports whether e is of a sidechain written into the
// session's file (Session.Sidechains).
func (s *Session) inSidechain(e *Entry) bool {
	return e.Index < len(s.sidechainOf) && s.sidechainOf[e.Index] != 0
}

// breakCycles finds parent cycles (which the reference follows forever) and
// cuts each at its earliest entry in file order, which becomes a root.
func (s *Session) breakCycles() {
	// state: 0 unvisited, otherwise the walk that visited the entry; done
	// walks are recorded so a later walk stops at their entries.
	state := make([]int32, len(s.Entries))
	for start := range s.Entries {
		walk := int32(start + 1)
		e := s.Entries[start]
		for e != nil && state[e.Index] == 0 {
			state[e.Index] = walk
			e = e.Parent
		}
		if e == nil || state[e.Index] != walk {
			continue // reached a root, or an earlier walk's entries
		}
		// e is on a cycle found by this walk: collect it, cut at the earliest.
		cut := e
		for c := e.Parent; c != e; c = c.Parent {
			if c.Index < cut.Index {
				cut = c
			}
		}
		s.diag(cut.Line, SevWarning, "parent cycle through entry %s broken there: shown as a root", cut.ID)
		cut.Parent = nil
	}
}

// collectChildren fills Children and Roots. Children are sorted by
// timestamp, oldest first, with a stable sort, as in the reference. An
// entry whose timestamp does not parse sorts with the sibling before it
// in file order, so it keeps its place.
func (s *Session) collectChildren() {
	for _, e := range s.Entries {
		if e.Parent == nil {
			s.Roots = append(s.Roots, e)
		} else {
			e.Parent.Children = append(e.Parent.Children, e)
		}
	}
	type keyed struct {
		e   *Entry
		key int64
	}
	var buf []keyed
	for _, p := range s.Entries {
		if len(p.Children) < 2 {
			continue
		}
		buf = buf[:0]
		var last int64 = -1 << 63
		sorted := true
		for _, c := range p.Children {
			k := last
			if c.TimeOK {
				// Milliseconds, as the reference compares (JavaScript
				// Date): UnixNano overflows outside the years 1678 to 2262
				// and sorted the year 2300 before 2000.
				k = c.Time.UnixMilli()
			}
			if k < last {
				sorted = false
			}
			buf = append(buf, keyed{c, k})
			last = k
		}
		if sorted {
			continue
		}
		slices.SortStableFunc(buf, func(a, b keyed) int { return cmp.Compare(a.key, b.key) })
		for i := range buf {
			p.Children[i] = buf[i].e
		}
	}
}

// replay applies label and session_info entries in file order.
func (s *Session) replay() {
	for _, e := range s.Entries {
		switch e.Type {
		case TypeLabel:
			if s.byID[e.TargetID] == nil {
				s.diag(e.Line, SevWarning, "label %q names entry %q, which does not exist; ignored", e.Label, e.TargetID)
				continue
			}
			if e.Label == "" {
				delete(s.Labels, e.TargetID)
			} else {
				s.Labels[e.TargetID] = e.Label
			}
		case TypeSessionInfo:
			if e.Name != "" {
				s.Name = e.Name
			}
		}
	}
	if s.Name == "" {
		s.Name = s.Header.Title
	}
}

// chooseLeaf sets the leaf on load: the last entry in file order, or the
// leaf the input stores (a Flue document's leafId).
func (s *Session) chooseLeaf() {
	if len(s.Entries) > 0 {
		s.Leaf = s.Entries[len(s.Entries)-1]
	}
	if f := s.stored; f != nil && f.stored {
		switch {
		case f.entry != nil:
			s.Leaf = f.entry
		case !f.set:
			s.Leaf = nil
		case s.byID[f.id] != nil:
			s.Leaf = s.byID[f.id]
		default:
			s.diag(0, SevWarning, "stored leafId %q does not exist; using the last entry", f.id)
		}
	}
}

// Entry returns the entry with the given id, or nil.
func (s *Session) Entry(id string) *Entry { return s.byID[id] }

// Path returns the entries from the root to leaf, inclusive. A nil leaf has
// an empty path.
func (s *Session) Path(leaf *Entry) []*Entry {
	n := 0
	for e := leaf; e != nil; e = e.Parent {
		n++
	}
	path := make([]*Entry, n)
	for e := leaf; e != nil; e = e.Parent {
		n--
		path[n] = e
	}
	return path
}

// Leaves returns every entry without children, in file order.
func (s *Session) Leaves() []*Entry {
	var out []*Entry
	for _, e := range s.Entries {
		if len(e.Children) == 0 {
			out = append(out, e)
		}
	}
	return out
}

// NewestLeaf returns the leaf reached from e by following the last (newest)
// child down: what the reference shows when a tree row is clicked. The
// newest child that carries the conversation on is the one followed: a
// bookkeeping child with nothing under it is passed over (bookkeeping is
// never a branch), unless every child is one.
func NewestLeaf(e *Entry) *Entry {
	for e != nil && len(e.Children) > 0 {
		next := e.Children[len(e.Children)-1]
		for i := len(e.Children) - 1; i >= 0; i-- {
			if c := e.Children[i]; !c.Bookkeeping || len(c.Children) > 0 {
				next = c
				break
			}
		}
		e = next
	}
	return e
}

// Shape counts the conversation's leaves and branch points: the entries
// where it ends, and those where it forks (with two children or more
// that carry it on). Bookkeeping is never a branch: a child that is
// bookkeeping, with none but bookkeeping under it, carries nothing on.
// In a session with no entry that is not bookkeeping, every entry counts.
func (s *Session) Shape() (leaves, branchPoints int) {
	talks := s.talks()
	for _, e := range s.Entries {
		if !talks[e.Index] {
			continue
		}
		n := 0
		for _, c := range e.Children {
			if c.Index < len(talks) && s.Entries[c.Index] == c && talks[c.Index] {
				n++
			}
		}
		switch {
		case n == 0:
			leaves++
		case n > 1:
			branchPoints++
		}
	}
	return leaves, branchPoints
}

// talks is, by entry index, whether the entry or one under it is not
// bookkeeping: whether it carries the conversation. Every entry does when
// none is bookkeeping, or every one is.
func (s *Session) talks() []bool {
	talks := make([]bool, len(s.Entries))
	some := false
	for _, e := range s.Entries {
		if e.Bookkeeping {
			continue
		}
		some = true
		// Up to the first ancestor already marked: each entry is marked
		// once, nothing recurses.
		for a := e; a != nil; a = a.Parent {
			if a.Index >= len(talks) || s.Entries[a.Index] != a || talks[a.Index] {
				break // marked, or an entry of another session
			}
			talks[a.Index] = true
		}
	}
	if !some {
		for i := range talks {
			talks[i] = true
		}
	}
	return talks
}

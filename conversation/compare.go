package conversation

import (
	"canopy/sessiontree"
)

// Fork is where the paths to two entries part, what a comparison of two
// branches shows: At, the last entry both paths hold (nil when they share
// none: two roots), and A and B, each path's entries after it, in path
// order. A side is empty when its end is on the other's path (at or above
// the fork).
type Fork struct {
	At   *sessiontree.Entry
	A, B []*sessiontree.Entry
}

// ForkOf is the fork of the paths to a and b. It walks each path once
// (no recursion: any depth).
func ForkOf(s *sessiontree.Session, a, b *sessiontree.Entry) Fork {
	pa, pb := s.Path(a), s.Path(b)
	k := 0
	for k < len(pa) && k < len(pb) && pa[k] == pb[k] {
		k++
	}
	f := Fork{A: pa[k:], B: pb[k:]}
	if k > 0 {
		f.At = pa[k-1]
	}
	return f
}

// TouchedFile is one file a side of a comparison changed: its path, how
// many of its replies changed it, and the last that did.
type TouchedFile struct {
	Path    string
	Replies int
	Last    *sessiontree.Entry
}

// FilesTouched lists the files the entries' calls that ran wrote, edited
// or patched (Session.Touched's rule, the branches' figures'), each once,
// in the order first touched, with the replies that touched each.
func (c *Context) FilesTouched(entries []*sessiontree.Entry) []TouchedFile {
	var out []TouchedFile
	at := map[string]int{}
	for _, e := range entries {
		if e.Type != sessiontree.TypeMessage || e.Role != sessiontree.RoleAssistant || len(e.CallIDs) == 0 {
			continue // Touched reads no other entry: none is decoded
		}
		for _, p := range c.S.Touched([]*sessiontree.Entry{e}, c.Pairs) {
			i, ok := at[p]
			if !ok {
				i = len(out)
				at[p] = i
				out = append(out, TouchedFile{Path: p})
			}
			out[i].Last = e
			out[i].Replies++
		}
	}
	return out
}

package export

import (
	"context"

	"canopy/scope"
	"canopy/sessiontree"
)

// Cut is a session cut to what is shared.
type Cut struct {
	Session *sessiontree.Session
	Leaf    *sessiontree.Entry // in Session
	Omitted []string           // what was left out, for the page's header
}

// Scope cuts s to what o shares: the page is made from a new session file
// holding only that, which is also what readers download. With nothing
// to leave out, the cut is s itself.
func Scope(ctx context.Context, s *sessiontree.Session, leaf *sessiontree.Entry, o scope.Options) (Cut, error) {
	if ctx.Err() != nil {
		return Cut{}, ErrInterrupted
	}
	if !o.Active() {
		return Cut{Session: s, Leaf: leaf}, nil
	}
	data, summary, err := scope.Apply(s, leaf, o)
	if err != nil {
		return Cut{}, err
	}
	cut, err := sessiontree.Load(data, s.File)
	if err != nil {
		return Cut{}, err
	}
	return Cut{Session: cut, Leaf: sameEntry(cut, leaf), Omitted: summary.Omitted}, nil
}

// sameEntry is e's entry in s, a session made from e's (cut or redacted);
// s's leaf when e is nil or not in s.
func sameEntry(s *sessiontree.Session, e *sessiontree.Entry) *sessiontree.Entry {
	if e != nil {
		if same := s.Entry(e.ID); same != nil {
			return same
		}
	}
	return s.Leaf
}

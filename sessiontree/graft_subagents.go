package sessiontree

import (
	"fmt"
)

// GraftSubagents grafts a Claude Code session's subagents into s: first
// s's own sidechains, each under the call that ran it (one that no call
// can be told to have run stays a root, and is still a Graft), then the
// subagents of subs, parents first, each under its call or, when no call
// can be told to have run it, after s's roots. s may be the session subs
// were loaded for, or a cut or a redacted copy of it: calls are found in s
// by their entries' ids.
//
// prepare gives the session to graft for each subagent: x.Session itself
// (prepare nil), or a cut or a redacted copy of it; a nil session leaves
// x out. A subagent whose call is not in s (a cut left it out), or whose
// parent was left out, is left out too. The errors say which were left
// out for another reason, and why, each naming its file: a file that
// could not be loaded, prepare's errors, ids that s already has (Graft).
//
// The subagents' sessions are s's afterwards: those grafted are closed by
// s.Close, the others are closed here. subs.Close may still be called.
func (s *Session) GraftSubagents(subs *Subagents, prepare func(*Subagent) (*Session, error)) []error {
	var errs []error
	errs = append(errs, s.graftSidechains()...)
	if subs == nil {
		return errs
	}
	done := map[*Subagent]bool{}
	var pending []*Subagent
	for _, x := range subs.List {
		if x.Session == nil {
			if x.Err != nil {
				errs = append(errs, fmt.Errorf("subagent left out: %w", x.Err))
			}
			continue
		}
		pending = append(pending, x)
	}
	// Rounds: a subagent goes once the one that ran it has (nesting is a
	// few levels deep; a parent that never goes leaves its own out).
	for progress := true; progress; {
		progress = false
		rest := pending[:0]
		for _, x := range pending {
			if x.Parent != nil && !done[x.Parent] {
				rest = append(rest, x)
				continue
			}
			progress = true
			ok, err := s.graftSubagent(x, prepare)
			if err != nil {
				errs = append(errs, err)
			}
			done[x] = ok
		}
		pending = rest
	}
	for _, x := range subs.List {
		if x.Session != nil && !x.Session.graftedInto {
			x.Session.Close()
		}
	}
	return errs
}

// graftSubagent grafts x under its call in s, and says whether it did.
func (s *Session) graftSubagent(x *Subagent, prepare func(*Subagent) (*Session, error)) (bool, error) {
	at := GraftPoint{CallID: x.CallID, AgentID: x.AgentID, Type: x.Type, Description: x.Description}
	if x.Call != nil {
		if at.Call = s.Entry(x.Call.ID); at.Call == nil {
			return false, nil // a cut left the call out
		}
	}
	sub := x.Session
	if prepare != nil {
		var err error
		if sub, err = prepare(x); err != nil {
			return false, fmt.Errorf("subagent %s left out: %w", x.Path, err)
		}
		if sub == nil {
			return false, nil
		}
	}
	if _, err := s.Graft(sub, at); err != nil {
		if sub != x.Session {
			sub.Close()
		}
		return false, fmt.Errorf("subagent left out: %w", err)
	}
	return true, nil
}

// graftSidechains grafts s's own sidechains under the calls that ran
// them, those in a sidechain after it.
func (s *Session) graftSidechains() []error {
	var errs []error
	pending := append([]*Sidechain(nil), s.Sidechains...)
	for progress := true; progress && len(pending) > 0; {
		progress = false
		rest := pending[:0]
		for _, sc := range pending {
			if sc.Call != nil {
				if in := s.SidechainOf(sc.Call); in != nil && in != sc && s.GraftOf(in.Root) == nil {
					rest = append(rest, sc) // its call is in a sidechain not grafted yet
					continue
				}
			}
			progress = true
			if _, err := s.Graft(nil, GraftPoint{Call: sc.Call, CallID: sc.CallID, Sidechain: sc}); err != nil {
				errs = append(errs, fmt.Errorf("sidechain left where it is: %w", err))
			}
		}
		pending = rest
		if !progress { // calls in each other's sidechains: Graft says why not
			for _, sc := range pending {
				if _, err := s.Graft(nil, GraftPoint{Call: sc.Call, CallID: sc.CallID, Sidechain: sc}); err != nil {
					errs = append(errs, fmt.Errorf("sidechain left where it is: %w", err))
				}
			}
		}
	}
	return errs
}

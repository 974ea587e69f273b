// Package scope cuts a session down to what its owner chose to share: only
// the path to one leaf, no thinking, no tool output, no hidden extension
// messages or state. It writes a new session file rather than hiding things
// in the page, so that the page and the session it lets readers download
// hold exactly the same content.
//
// Scope chooses which entries to keep, the same way for every format; the
// session's reader writes them in its own format (sessiontree.Cut): a pi
// JSONL file of version 3 (a Flue document for Flue input) in which every
// entry keeps its id, legacy files' `L<n>` ids written out, so that links
// into a page made from the whole file still name the same entries; a
// Claude Code transcript or a Codex rollout in its own format, each line
// kept at its place and each line left out an empty line.
package scope

import (
	"canopy/internal/text"
	"canopy/sessiontree"
)

// Options say what to leave out.
type Options struct {
	PathOnly     bool // only the path from the root to the leaf
	NoThinking   bool // thinking blocks
	NoToolOutput bool // tool results' content and details, user commands' output
	NoHidden     bool // custom messages not displayed to the user, and extension state
}

// Active reports whether the options leave anything out.
func (o Options) Active() bool {
	return o.PathOnly || o.NoThinking || o.NoToolOutput || o.NoHidden
}

// Summary says what was left out, for the page header.
type Summary struct {
	Omitted []string // e.g. "3 other branches (41 entries)", "thinking (12 blocks)"
}

// Placeholders put where content was removed.
const (
	OutputLeftOut = sessiontree.OutputLeftOut
)

// Apply writes the session s, seen from leaf, without what o leaves out.
func Apply(s *sessiontree.Session, leaf *sessiontree.Entry, o Options) ([]byte, Summary, error) {
	f := s.Cut()
	keep, counts := selectEntries(s, leaf, o, f)
	cut := sessiontree.CutOptions{NoThinking: o.NoThinking, NoToolOutput: o.NoToolOutput, NoHidden: o.NoHidden}
	out, err := f.Write(keep, leaf, cut, &counts.CutCounts)
	if err != nil {
		return nil, Summary{}, err
	}
	return out, Summary{Omitted: counts.omitted()}, nil
}

// Why an entry was left out, for the summary.
const (
	kept uint8 = iota
	outBranch
	outThinking
	outHidden
	outState
)

// selectEntries is which entries o keeps, by index, and the counts of
// what it leaves out of them: the other branches, entries of thinking
// only, hidden custom messages, extension state the format does not need.
func selectEntries(s *sessiontree.Session, leaf *sessiontree.Entry, o Options, f sessiontree.Cut) ([]bool, counters) {
	why := make([]uint8, len(s.Entries))
	if o.PathOnly {
		for i := range why {
			why[i] = outBranch
		}
		for _, e := range s.Path(leaf) {
			why[e.Index] = kept
		}
		keepSidechains(s, why)
	}
	for _, e := range s.Entries {
		if why[e.Index] != kept {
			continue
		}
		// The leaf stays, but for its thinking (the reader's leaf is
		// then the entry before it).
		thinking := false
		if o.NoThinking { // thinking reads and decodes the entry
			thinking, _ = f.Thinking(e)
		}
		if thinking {
			why[e.Index] = outThinking
		} else if e == leaf || !o.NoHidden {
			continue
		} else if hiddenMessage(e) && !e.Notice {
			why[e.Index] = outHidden
		} else if e.Type == sessiontree.TypeCustom && !f.Needed(e) {
			why[e.Index] = outState
		}
	}
	keep := make([]bool, len(s.Entries))
	for i, w := range why {
		keep[i] = w == kept
	}
	if o.PathOnly || o.NoHidden {
		f.Names(keep, leaf)
	}
	var c counters
	for _, e := range s.Entries {
		switch {
		case keep[e.Index]:
		case why[e.Index] == outBranch:
			c.branches++
		case why[e.Index] == outThinking:
			_, n := f.Thinking(e)
			c.Thinking += n
		case why[e.Index] == outHidden:
			c.hidden++
		case why[e.Index] == outState:
			c.Data++
		}
	}
	return keep, c
}

// keepSidechains keeps, in a path-only cut, the subagents written into
// the file whose call is kept, as a subagent's own file is
// (export/subagents.go): they are drawn in their call's card.
func keepSidechains(s *sessiontree.Session, why []uint8) {
	for changed := true; changed; {
		changed = false
		for _, sc := range s.Sidechains {
			if sc.Call == nil || why[sc.Call.Index] != kept || why[sc.Root.Index] == kept {
				continue
			}
			for _, e := range sc.Entries {
				why[e.Index] = kept
			}
			changed = true
		}
	}
}

// counters count what the cut left out: the entries scope leaves out,
// and what the format's cut leaves out of the entries kept.
type counters struct {
	branches, hidden int
	sessiontree.CutCounts
}

// omitted says what the counts left out.
func (c *counters) omitted() []string {
	var omitted []string
	if c.branches > 0 {
		omitted = append(omitted, "every branch but the one shown ("+text.Count(c.branches, "entry", "entries")+")")
	}
	if c.hidden > 0 {
		omitted = append(omitted, "custom messages hidden from the user ("+text.Count(c.hidden, "message", "messages")+")")
	}
	if c.Thinking > 0 {
		omitted = append(omitted, "thinking ("+text.Count(c.Thinking, "block", "blocks")+")")
	}
	if c.Outputs > 0 {
		omitted = append(omitted, "tool output ("+text.Count(c.Outputs, "result", "results")+")")
	}
	if c.Data > 0 {
		omitted = append(omitted, "extension state ("+text.Count(c.Data, "entry", "entries")+")")
	}
	return omitted
}

// hiddenMessage: a custom message the user never saw (the model did).
func hiddenMessage(e *sessiontree.Entry) bool {
	switch {
	case e.Type == sessiontree.TypeCustomMessage:
		return !e.Display
	case e.Type == sessiontree.TypeMessage && e.Role == sessiontree.RoleCustom:
		return !e.Display
	}
	return false
}

package render

import (
	cv "canopy/conversation"
	"canopy/sessiontree"
)

// entryContext is what rendering one entry needs from the whole session.
// It is made by the first of the two passes over a session
// (newEntryContext), and read by the second, which renders the entries on
// every core: each row is written by the one worker that renders its entry.
type entryContext struct {
	s     *sessiontree.Session
	model *cv.Context        // the calls paired with their results, once
	pairs *sessiontree.Pairs // model.Pairs: which result is drawn in which call's card
	rows  []rowInfo          // by entry index: tree row text and flags
	depth []int32            // by entry index: how many entries are above it on its path
	// convs holds, for each grafted conversation drawn in its call's
	// card (a subagent's: see subagents.go), what is drawn there.
	convs map[*sessiontree.Graft]*conversation
}

// newEntryContext is the first of the two passes over a session, and it
// decodes nothing: it pairs tool calls with their results from what Load
// read of every entry (sessiontree.PairCalls), flags the rows of results,
// drawn in their call's card when they are its result, and counts every
// entry's depth. The second pass renders the entries and fills in their
// tree rows (gatherRow) as it goes: each entry is decoded once, not once
// for its row and again for its HTML (that first decoding was a tenth of
// the export's time at 100,000 entries).
func newEntryContext(s *sessiontree.Session, order []int) *entryContext {
	model := cv.New(s)
	ec := &entryContext{s: s, model: model, pairs: model.Pairs, rows: make([]rowInfo, len(s.Entries)), depth: depths(s, order)}
	for i, e := range s.Entries {
		if isResult(e) {
			ec.rows[i].flags = flagToolResult
			if ec.pairs.Paired(e) {
				ec.rows[i].flags |= flagEmbedded
			}
		}
	}
	if len(s.Grafts()) > 0 {
		ec.markConversations()
	}
	return ec
}

func isResult(e *sessiontree.Entry) bool {
	return e.Type == sessiontree.TypeMessage && e.Role == sessiontree.RoleToolResult
}

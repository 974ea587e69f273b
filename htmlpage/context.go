package htmlpage

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
	// records holds, by the index of the entry whose card folds them,
	// the bookkeeping entries drawn there (markRecords).
	records map[int][]int
	host    []*sessiontree.Entry                        // by index: the card a folded record is drawn in
	decoded func(*sessiontree.Entry, *sessiontree.Body) // Options.Decoded
}

// gotBody hands an entry of the session and its body to Options.Decoded.
func (ec *entryContext) gotBody(e *sessiontree.Entry, b *sessiontree.Body) {
	if ec.decoded != nil && b != nil {
		ec.decoded(e, b)
	}
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
	ec.markRecords(order)
	return ec
}

// markRecords takes out of the conversation what is not a turn of it,
// keeping every entry addressable:
//   - a later line of a streamed reply (Continues) is drawn in its first
//     line's card, which places a link target where its blocks start;
//   - a bookkeeping entry (progress, attachments, token counts, …) is
//     folded into the card of the entry it hangs off (recordsView),
//     found as the page's script finds the card of any entry without one
//     of its own: up its parents, past the entries drawn in other cards;
//     and its tree row is a setting's, which only the All filter shows.
//
// A bookkeeping entry with no such card above it (the records a file
// starts with) keeps a card of its own. order is tree order: parents
// before children, so that each entry's parents are marked first.
func (ec *entryContext) markRecords(order []int) {
	const embedded = flagEmbedded
	for _, i := range order {
		e := ec.s.Entries[i]
		if e.Continues {
			ec.rows[i].flags |= embedded
			continue
		}
		if !e.Bookkeeping {
			continue
		}
		ec.rows[i].flags |= flagSettings
		if ec.rows[i].flags&embedded != 0 {
			continue // drawn in a subagent's conversation
		}
		h := e.Parent
		for h != nil && ec.rows[h.Index].flags&embedded != 0 {
			if ec.host != nil && ec.host[h.Index] != nil {
				h = ec.host[h.Index] // a record: its card is found already
				break
			}
			h = h.Parent
		}
		if h == nil {
			continue
		}
		if ec.records == nil {
			ec.records, ec.host = map[int][]int{}, make([]*sessiontree.Entry, len(ec.s.Entries))
		}
		ec.rows[i].flags |= embedded
		ec.records[h.Index] = append(ec.records[h.Index], i)
		ec.host[i] = h
	}
}

func isResult(e *sessiontree.Entry) bool {
	return e.Type == sessiontree.TypeMessage && e.Role == sessiontree.RoleToolResult
}

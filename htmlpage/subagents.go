package htmlpage

import (
	"fmt"
	"strings"
	"time"

	"canopy/internal/text"
	"canopy/sessiontree"
)

// Subagents' conversations, grafted into the session's tree under the
// calls that ran them (sessiontree.Graft). The entries on a
// conversation's path, from its root to its leaf, are drawn inside the
// card of the call that ran it, after the call's result: a
// <details class="subagent"> whose summary says what it was, holding each
// of those entries as its own <article> (its results in its cards, the
// subagents it ran in theirs). Their tree rows are under the call, and
// they are flagged embedded, as a result drawn in its call's card is: the
// page's script finds them in the entry that draws the call. A
// conversation's other entries (branches of it), and those of one that
// no call ran, are entries as any other: the store's.

// maxNesting bounds how deep conversations are drawn inside one
// another's cards (a subagent's subagent is drawn in a card drawn in a
// card): the files say how deep they go, and a hostile one could go a
// thousand levels. Past it, a conversation's entries are drawn as any
// other entry (the store's), and its call's card says so.
const maxNesting = 8

// conversation is what a grafted conversation's call card draws.
type conversation struct {
	drawn    []int // the entries on its path (by index), less results drawn in their calls' cards
	messages int   // the messages on its path
}

// markConversations flags the entries on the path of each conversation
// drawn in its call's card (embedded: no block of their own), and lists
// what each card draws.
func (ec *entryContext) markConversations() {
	ec.convs = map[*sessiontree.Graft]*conversation{}
	var path []*sessiontree.Entry
	for _, g := range ec.s.Grafts() {
		if g.Call == nil || g.Leaf == nil || g.Depth > maxNesting {
			continue
		}
		path = path[:0]
		e := g.Leaf
		for ; e != nil && e != g.Root; e = e.Parent {
			path = append(path, e)
		}
		if e == nil {
			continue // never expected: Root is the root of Leaf's path
		}
		path = append(path, e)
		c := &conversation{}
		for k := len(path) - 1; k >= 0; k-- {
			e := path[k]
			ec.rows[e.Index].flags |= flagEmbedded
			if e.Type == sessiontree.TypeMessage {
				c.messages++
			}
			if !(isResult(e) && ec.pairs.Paired(e)) && !e.Continues {
				c.drawn = append(c.drawn, e.Index)
			}
		}
		ec.convs[g] = c
	}
}

// subagentView is a conversation drawn in its call's card.
type subagentView struct {
	Summary string       // what it was: its type, what for, how long
	Entries []*entryView // its path's entries
	Note    string       // why its entries are not drawn here (nested too deep)
}

// subagentViews draws the conversations that the call id of entry e ran
// (a is the call's arguments), those v has not drawn yet. It decodes and
// draws their entries, which fills in their tree rows: the worker drawing
// e is the one that writes them.
func (r *Renderer) subagentViews(ec *entryContext, v *entryView, e *sessiontree.Entry, id string, a args) []*subagentView {
	var out []*subagentView
	for _, g := range ec.s.GraftsAt(e, id) {
		if v.hasDrawn(g) {
			continue
		}
		v.grafts = append(v.grafts, g)
		c := ec.convs[g]
		if c == nil {
			out = append(out, &subagentView{Summary: conversationSummary(g, nil, a),
				Note: fmt.Sprintf("Run more than %d subagents deep: its entries are in the tree, under this call.", maxNesting)})
			continue
		}
		sv := &subagentView{Summary: conversationSummary(g, c, a)}
		for _, i := range c.drawn {
			x := ec.s.Entries[i]
			b, err := x.Decode() // nil when err is not
			ec.gatherRow(i, b)
			sv.Entries = append(sv.Entries, r.view(ec, x, b, err))
		}
		out = append(out, sv)
	}
	return out
}

func (v *entryView) hasDrawn(g *sessiontree.Graft) bool {
	for _, d := range v.grafts {
		if d == g {
			return true
		}
	}
	return false
}

// orphanSubagents draws, after the rest of e, the conversations that e's
// calls ran that no card drew: when e cannot be decoded, or its content
// is not what Load read (see orphanResults). Their entries have no block
// of their own, and would otherwise not be on the page at all.
func (r *Renderer) orphanSubagents(ec *entryContext, v *entryView, e *sessiontree.Entry) {
	for _, g := range ec.s.GraftedAt(e) {
		if v.hasDrawn(g) {
			continue
		}
		tv := &toolView{Name: "subagent", Class: toolClass(""), Summary: "call " + g.CallID}
		tv.Agents = r.subagentViews(ec, v, e, g.CallID, nil)
		v.Parts = append(v.Parts, part{Tool: tv})
	}
}

// conversationSummary says what a conversation was: "Explore subagent:
// Find callers · 6 messages · 8 s". Its type and what it was for come
// from the subagent's meta file, else from the call's arguments (a Task
// call's subagent_type and description).
func conversationSummary(g *sessiontree.Graft, c *conversation, a args) string {
	what := "Subagent"
	if kind := text.Or(g.Type, a.str("subagent_type")); kind != "" {
		what = kind + " subagent"
	}
	parts := []string{what + text.Prefixed(": ", text.OneLine(text.Or(g.Description, a.str("description"))))}
	if c != nil {
		parts = append(parts, text.Count(c.messages, "message", "messages"))
	}
	if d := span(g.Root, g.Leaf); d != "" {
		parts = append(parts, d)
	}
	return strings.Join(parts, " · ")
}

// span is how long a conversation ran, from its first entry to its last:
// "8 s", "3 min 5 s", "1 h 2 min"; "" when their times are not known.
func span(first, last *sessiontree.Entry) string {
	if first == nil || last == nil || !first.TimeOK || !last.TimeOK || last.Time.Before(first.Time) {
		return ""
	}
	d := last.Time.Sub(first.Time).Round(time.Second)
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%d s", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%d min %d s", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%d h %d min", int(d.Hours()), int(d.Minutes())%60)
}

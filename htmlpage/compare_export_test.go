package htmlpage

import (
	"fmt"
	"time"

	cv "canopy/conversation"
	"canopy/sessiontree"
)

// CompareFigures is the compare view's table of figures for two sides'
// entries, as Go computes it (Session.Stats, the header's cells): rows
// of [name, A's, B's], what the browser test reads in the page.
func CompareFigures(s *sessiontree.Session, a, b []*sessiontree.Entry) [][3]string {
	ra, rb := statsRowOf("A", s.Stats(a)), statsRowOf("B", s.Stats(b))
	sa, sb := s.Stats(a), s.Stats(b)
	span := func(es []*sessiontree.Entry) string {
		d, ok := cv.Span(es)
		if !ok {
			return "—"
		}
		sec := int64(d.Round(time.Second) / time.Second)
		h, m := sec/3600, sec%3600/60
		sec %= 60
		switch {
		case h > 0:
			return fmt.Sprintf("%d h %d min", h, m)
		case m > 0:
			return fmt.Sprintf("%d min %d s", m, sec)
		}
		return fmt.Sprintf("%d s", sec)
	}
	num := func(n int) string { return statsRowOf("", sessiontree.Stats{Entries: n}).Entries }
	return [][3]string{
		{"Entries", ra.Entries, rb.Entries},
		{"Prompts", num(sa.Messages["user"]), num(sb.Messages["user"])},
		{"Replies", num(sa.Messages["assistant"]), num(sb.Messages["assistant"])},
		{"Tool calls", ra.ToolCalls, rb.ToolCalls},
		{"Tokens in / out", ra.Input + " / " + ra.Output, rb.Input + " / " + rb.Output},
		{"Cache read / write", ra.CacheRead + " / " + ra.CacheWrite, rb.CacheRead + " / " + rb.CacheWrite},
		{"Cost", ra.Cost, rb.Cost},
		{"Time spent", span(a), span(b)},
		{"Files touched", num(len(cv.FilesTouched(a))), num(len(cv.FilesTouched(b)))},
	}
}

// InCard says which entries are drawn in another entry's card (a result
// in its call's, a record folded into its turn), not as entries of their
// own: the page's flagEmbedded.
func InCard(s *sessiontree.Session) func(*sessiontree.Entry) bool {
	ec := newEntryContext(s, treeOrder(s))
	return func(e *sessiontree.Entry) bool { return ec.rows[e.Index].flags&flagEmbedded != 0 }
}

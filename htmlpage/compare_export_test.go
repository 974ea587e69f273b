package htmlpage

import (
	cv "canopy/conversation"
	"canopy/internal/text"
	"canopy/sessiontree"
)

// CompareFigures is the compare view's table of figures for two sides'
// entries, as Go computes it (Session.Stats, the header's cells): rows
// of [name, A's, B's], what the browser test reads in the page.
func CompareFigures(s *sessiontree.Session, a, b []*sessiontree.Entry) [][3]string {
	ra, rb := statsRowOf("A", s.Stats(a)), statsRowOf("B", s.Stats(b))
	sa, sb := s.Stats(a), s.Stats(b)
	span := func(es []*sessiontree.Entry) string {
		f := s.Figures(es, nil)
		if f.First.IsZero() {
			return "—"
		}
		return text.Spent(f.Spent())
	}
	c := cv.New(s)
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
		{"Files touched", num(len(c.FilesTouched(a))), num(len(c.FilesTouched(b)))},
	}
}

// InCard says which entries are drawn in another entry's card (a result
// in its call's, a record folded into its turn), not as entries of their
// own: the page's flagEmbedded.
func InCard(s *sessiontree.Session) func(*sessiontree.Entry) bool {
	ec := newEntryContext(s, treeOrder(s))
	return func(e *sessiontree.Entry) bool { return ec.rows[e.Index].flags&flagEmbedded != 0 }
}

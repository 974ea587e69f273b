package htmlpage

import (
	"fmt"
	"strconv"
	"time"

	"canopy/internal/text"
	"canopy/pricing"
	"canopy/sessiontree"
)

// pageFigures are what the page says each branch did and spent
// (sessiontree.Branches, Figures): in the sidebar, on the first row of
// every branch that leaves a fork (the active path's too), the figures of
// the subtree under it; in the header, the active path's and those of the
// branches that were left.
type pageFigures struct {
	rows               map[*sessiontree.Entry][2]string // the sidebar's, by the row's entry: short, whole
	active, left, tree sessiontree.Figures
	leftBranches       int
	leftEntries        []*sessiontree.Entry
	leftSpent          time.Duration // each branch's first to last timestamp, added up
}

// figuresOf computes the page's figures once the entries are drawn: rows
// holds the files each entry's calls touched (callView).
func figuresOf(s *sessiontree.Session, leaf *sessiontree.Entry, rows []rowInfo) pageFigures {
	files := func(e *sessiontree.Entry) []string {
		if e.Index < len(rows) && s.Entries[e.Index] == e {
			return rows[e.Index].files
		}
		return nil
	}
	var pf pageFigures
	starts := map[*sessiontree.Entry]bool{}
	next := map[*sessiontree.Entry]*sessiontree.Entry{} // on the active path, each entry's child
	var left []*sessiontree.Entry
	var spentLeft time.Duration
	for _, b := range s.Branches(leaf) {
		if b.Active {
			pf.active = withFiles(s.Figures(b.Entries, nil), b.Entries, files)
			for k := 1; k < len(b.Entries); k++ {
				next[b.Entries[k-1]] = b.Entries[k]
			}
			continue
		}
		pf.leftBranches++
		left = append(left, b.Entries...)
		f := s.Figures(b.Entries, nil)
		spentLeft += f.Spent()
		starts[b.Entries[0]] = true
		if c := next[b.Fork]; c != nil {
			starts[c] = true // the active path's row at the same fork: its figures beside the branch's
		}
	}
	if pf.leftBranches > 0 {
		pf.left = withFiles(s.Figures(left, nil), left, files)
	}
	pf.leftSpent = spentLeft
	pf.leftEntries = left
	pf.tree = withFiles(s.Figures(s.Entries, nil), s.Entries, files)
	subs := s.SubtreeFigures(func(e *sessiontree.Entry) bool { return starts[e] }, files)
	pf.rows = make(map[*sessiontree.Entry][2]string, len(subs))
	for e, f := range subs {
		pf.rows[e] = [2]string{figureCost(f.Cost) + " · " + text.Count(f.Turns, "turn", "turns"), figuresText(&f)}
	}
	return pf
}

// withFiles is f with the files entries' calls touched, each once.
func withFiles(f sessiontree.Figures, entries []*sessiontree.Entry, files func(*sessiontree.Entry) []string) sessiontree.Figures {
	seen := map[string]bool{}
	for _, e := range entries {
		for _, p := range files(e) {
			if !seen[p] {
				seen[p] = true
				f.Files = append(f.Files, p)
			}
		}
	}
	return f
}

// figuresText is a subtree's figures on one line, for its row:
// "3 turns · 4 calls · 42.8k tokens · $0.03 · 52s · 1 file".
func figuresText(f *sessiontree.Figures) string {
	return text.Count(f.Turns, "turn", "turns") + " · " + text.Count(f.ToolCalls, "call", "calls") + " · " +
		shortCount(f.Tokens) + " tokens · " + figureCost(f.Cost) + " · " + spent(f.Spent()) + " · " +
		text.Count(len(f.Files), "file", "files")
}

// figureCost is a cost in a line of figures: recorded, ≈ estimated, "—"
// when no price is known (never a $0 that means unknown).
func figureCost(c sessiontree.Cost) string {
	switch {
	case c.Unknown:
		return "cost —"
	case c.Estimated:
		return pricing.Approx(c.USD)
	case c.USD > 0 && c.USD < 0.01:
		return fmt.Sprintf("$%.4f", c.USD)
	}
	return fmt.Sprintf("$%.2f", c.USD)
}

// shortCount is a count for a small space: 980, 42.8k, 1.2M.
func shortCount(f float64) string {
	switch {
	case f >= 1e9:
		return strconv.FormatFloat(f/1e9, 'f', 1, 64) + "G"
	case f >= 1e6:
		return strconv.FormatFloat(f/1e6, 'f', 1, 64) + "M"
	case f >= 1e4:
		return strconv.FormatFloat(f/1e3, 'f', 1, 64) + "k"
	}
	return text.Thousands(f)
}

// spent is a time spent: "52s", "14 min", "2 h 05 min".
func spent(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%d min", int(d.Minutes()))
	}
	return fmt.Sprintf("%d h %02d min", int(d.Hours()), int(d.Minutes())%60)
}

// figureRows completes the header's table (sessionStats: the active path,
// the whole tree) with each row's time and files, and a row for the
// branches that were left: what they did and spent.
func figureRows(s *sessiontree.Session, rows []statsRow, pf *pageFigures) []statsRow {
	set := func(r *statsRow, f *sessiontree.Figures) {
		r.Time, r.Files = spent(f.Spent()), text.Count(len(f.Files), "file touched", "files touched")
	}
	// The branches left were not one stretch of time: each its own.
	set(&rows[0], &pf.active)
	if len(rows) > 1 {
		set(&rows[1], &pf.tree)
	}
	if pf.leftBranches > 0 {
		r := statsRowOf(text.Count(pf.leftBranches, "branch left", "branches left"), s.Stats(pf.leftEntries))
		set(&r, &pf.left)
		r.Time = spent(pf.leftSpent)
		rows = append(rows, r)
	}
	return rows
}

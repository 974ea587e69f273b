package htmlpage

import (
	"encoding/hex"
	"fmt"
	"html/template"
	"path/filepath"
	"strings"

	"canopy/internal/text"
	"canopy/pricing"
	"canopy/sessiontree"
)

// header is what the page's template is executed with, all but its two
// slots' contents: what the session is and where it came from (its id,
// date, file and hash, what was left out of it), what it holds and cost on
// the path shown and in the whole tree, its diagnostics, and the filter
// buttons.
func (r *Renderer) header(s *sessiontree.Session, path []*sessiontree.Entry, opts Options) *pageData {
	d := &pageData{
		Theme: text.Or(opts.Theme, "auto"), CSP: r.csp, Version: opts.Version,
		CSS: template.CSS(r.css), JS: template.JS(r.js),
		TotalEntries: len(s.Entries), PathLength: len(path),
		SessionID: text.Or(s.Header.ID, "(no id)"), Cwd: s.Header.Cwd,
		Format:     s.FormatLabel(),
		SourceName: filepath.Base(s.File), SourceSize: byteSize(int(s.Size)),
		SHA256:    hex.EncodeToString(s.SHA256[:]),
		HasSource: !opts.NoSource, Nav: opts.Nav,
		TreeJSON: treeSlot, SourceJSON: sourceSlot,
	}
	d.DownloadName = sessiontree.TrimCompressedExt(d.SourceName)
	d.Title = text.Or(opts.Title, text.Or(s.Title(), "Session "+d.SessionID))
	d.Date, _ = parseTime(s.Header.Timestamp)
	d.Omitted = opts.Omitted
	if opts.NoSource {
		d.Omitted = append(d.Omitted, "the session file (not embedded for download)")
	}
	if opts.OriginalSHA256 != d.SHA256 {
		d.OriginalSHA256 = opts.OriginalSHA256
	}
	for _, m := range FilterModes {
		d.Filters = append(d.Filters, filterButton{m, filterLabel[m], m == "default"})
	}
	d.Stats, d.Models, d.CostNotes = sessionStats(s, path)
	for _, e := range s.Entries {
		if e.Silent { // rowOf's flagSilent
			d.SilentTurns++
		}
	}
	for _, c := range s.ChildSessions {
		if d.Nav != nil {
			break // the archive links them
		}
		d.ChildSessions = append(d.ChildSessions, c.Session+text.Prefixed(" · task ", c.TaskID))
	}
	for _, dg := range s.Diagnostics {
		d.Diagnostics = append(d.Diagnostics, fmt.Sprintf("Line %d: %s: %s", dg.Line, dg.Severity, dg.Message))
	}
	return d
}

type filterButton struct {
	Mode, Label string
	On          bool
}

type statsRow struct {
	Name, Roles                                string
	Entries, Messages, ToolCalls               string
	Input, Output, CacheRead, CacheWrite, Cost string
	CostTitle                                  string // what an estimated or unknown cost means
	Time, Files                                string // first to last timestamp; files touched (figureRows)
}

// sessionStats is the header's table of statistics, for the path and
// the whole tree (one row when they are the same), the models used, and
// notes on the cost when it is estimated or unknown.
func sessionStats(s *sessiontree.Session, path []*sessiontree.Entry) ([]statsRow, string, []string) {
	pathStats, treeStats := s.Stats(path), s.Stats(s.Entries)
	rows := []statsRow{statsRowOf("Active path", pathStats), statsRowOf("Whole tree", treeStats)}
	if len(path) == len(s.Entries) {
		rows = rows[:1]                // one branch: the path is the tree
		rows[0].Name = "Whole session" // not "Session", the id's label above it
	}
	var models []string
	for _, m := range treeStats.Models {
		models = append(models, modelName(m.Provider, m.ModelID))
	}
	return rows, strings.Join(models, ", "), costNotes(treeStats.Cost())
}

// costNotes says, under the table, what its estimated costs are and
// which models no price was found for (the tree's: the path's are
// among them).
func costNotes(c sessiontree.Cost) []string {
	var notes []string
	if c.Estimated {
		notes = append(notes, "≈ Estimated: the session records tokens, not prices; each message is priced at its date by "+pricing.Source()+".")
	}
	if len(c.Unpriced) > 0 {
		var names []string
		for _, m := range c.Unpriced {
			names = append(names, text.Or(modelName(m.Provider, m.ModelID), "(no model named)"))
		}
		whose := "its"
		if len(names) > 1 {
			whose = "their"
		}
		notes = append(notes, "No price for "+strings.Join(names, ", ")+" in "+pricing.Source()+": "+whose+" tokens are not in the cost.")
	}
	return notes
}

// costCell is a row's cost: recorded, as before; else estimated (≈);
// "—" when nothing priced the tokens, never a $0 that means unknown.
func costCell(st *sessiontree.Stats) (cell, title string) {
	c := st.Cost()
	switch {
	case c.Unknown && st.NoTokens:
		return "—", "unknown: the session records neither tokens nor prices"
	case c.Unknown:
		return "—", "unknown: no price for the models used"
	case c.Estimated:
		title = "estimated from " + pricing.Source()
		if len(c.Unpriced) > 0 {
			title += "; without the models it has no price for"
		}
		return pricing.Approx(c.USD), title
	}
	return fmt.Sprintf("$%.4f", c.USD), ""
}

var roleName = map[string]string{
	"user": "user", "assistant": "assistant", "toolResult": "tool result", "bashExecution": "user command", "custom": "custom",
}

var roleNames = map[string]string{
	"user": "user", "assistant": "assistant", "toolResult": "tool results", "bashExecution": "user commands", "custom": "custom",
}

func statsRowOf(name string, st sessiontree.Stats) statsRow {
	msgs := 0
	for _, n := range st.Messages {
		msgs += n
	}
	var parts []string
	for _, role := range []string{"user", "assistant", "toolResult", "bashExecution", "custom"} {
		if n := st.Messages[role]; n > 0 {
			name := roleNames[role]
			if n == 1 {
				name = roleName[role]
			}
			parts = append(parts, fmt.Sprintf("%d %s", n, name))
		}
	}
	row := statsRow{
		Name: name, Entries: text.Thousands(float64(st.Entries)),
		Messages:  text.Thousands(float64(msgs)),
		Roles:     "messages: " + text.Or(strings.Join(parts, " · "), "none"),
		ToolCalls: text.Thousands(float64(st.ToolCalls)),
		Input:     text.Thousands(st.Usage.Input), Output: text.Thousands(st.Usage.Output),
		CacheRead: text.Thousands(st.Usage.CacheRead), CacheWrite: text.Thousands(st.Usage.CacheWrite),
	}
	row.Cost, row.CostTitle = costCell(&st)
	return row
}

func byteSize(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

func parseTime(ts string) (string, bool) {
	e := &sessiontree.Entry{Timestamp: ts}
	if t, err := timeParse(ts); err == nil {
		e.Time, e.TimeOK = t, true
		return formatTime(e), true
	}
	return "", false
}

package archive

import (
	"bytes"
	"canopy/searchindex"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"html/template"
	"strings"

	"github.com/tdewolff/minify/v2"
	mincss "github.com/tdewolff/minify/v2/css"

	"canopy/assets"
	"canopy/internal/text"
	"canopy/templates"
	"canopy/usage"
)

// UsageName is the archive's usage page, beside its index: the tokens
// and cost of its sessions per day, project, agent and model, as charts
// (SVG drawn when the archive is made) and tables, made from what the
// manifest records of each session (Session.Spend), so that a shard's
// merge and a re-run that loads no session make it the same.
const UsageName = "usage.html"

// ownPage reports whether a page of the archive is one the archive makes
// of all its sessions (the index, the usage page, the search index's
// files), not a session's: a merge makes them again from every shard's
// sessions.
func ownPage(p string) bool {
	return p == "index.html" || p == UsageName || searchindex.IsIndexFile(p)
}

// CountsUsage reports whether a source's spend is counted in usage (the
// archive's usage page, canopy usage): not a backup, a copy a gateway
// kept aside of a transcript that is counted itself.
func CountsUsage(r *Rotation) bool { return r == nil || r.Kind != RotationBackup }

// lacksSpend reports whether a session recorded by an earlier run was
// recorded without its spend (by a canopy that did not record it): it is
// loaded again rather than taken from the manifest.
func lacksSpend(s *Session) bool {
	u := s.Usage
	return s.Spend == nil && (len(s.Models) > 0 || u.Input+u.Output+u.CacheRead+u.CacheWrite > 0 || u.Cost.Total != 0)
}

// usageSessions are the archive's sessions as package usage sums them:
// each with its source's hash, so that copies of one session are counted
// once, as canopy usage counts them.
func usageSessions(rows []Session, sources []SourceRecord) []usage.Session {
	sum := make(map[string]string, len(sources))
	for _, s := range sources {
		sum[s.Path] = s.SHA256
	}
	out := make([]usage.Session, 0, len(rows))
	for i := range rows {
		s := &rows[i]
		if !CountsUsage(s.Rotation) {
			continue
		}
		out = append(out, usage.Session{Key: sum[s.Source], Agent: usage.Agent(s.Format, s.Gateway != nil), Project: s.Project, Spend: s.Spend})
	}
	return out
}

type usageData struct {
	CSP, Version, Title string
	CSS                 template.CSS
	Total               usageRowView
	Notes               []string
	Sections            []usageSection
}

type usageSection struct {
	Heading, Anchor, Column string
	Chart                   template.HTML
	Caption                 string
	Rows                    []usageRowView
	Total                   usageRowView
}

// usageRowView is a row of a usage table, its figures written out.
type usageRowView struct {
	Key                                  string
	Sessions, Replies                    string
	Input, Output, CacheRead, CacheWrite string
	Tokens, Cost, CostNote               string
}

func usageRowOf(key string, r *usage.Row) usageRowView {
	return usageRowView{
		Key: key, Sessions: text.Thousands(float64(r.Sessions)), Replies: text.Thousands(float64(r.Replies)),
		Input: text.Thousands(r.Input), Output: text.Thousands(r.Output),
		CacheRead: text.Thousands(r.CacheRead), CacheWrite: text.Thousands(r.CacheWrite),
		Tokens: text.Thousands(r.Tokens), Cost: r.CostText(), CostNote: r.CostNote(),
	}
}

// renderUsage makes usage.html of the archive's rows (its index's),
// their sources giving each its hash.
func renderUsage(rows []Session, sources []SourceRecord, version string) ([]byte, error) {
	ss := usageSessions(rows, sources)
	d := &usageData{Version: version, Title: "Usage · Session archive"}
	for _, by := range usage.Dimensions {
		rep := usage.Sum(ss, by)
		sec := usageSection{Heading: "By " + string(by), Anchor: "by-" + string(by), Column: by.Heading()}
		for i := range rep.Rows {
			sec.Rows = append(sec.Rows, usageRowOf(text.Or(rep.Rows[i].Key, by.None()), &rep.Rows[i]))
		}
		sec.Total = usageRowOf("Total", &rep.Total)
		sec.Chart, sec.Caption = drawChart(&rep)
		d.Sections = append(d.Sections, sec)
		if by == usage.ByDay {
			d.Total = sec.Total
			d.Notes = usageNotes(&rep)
		}
	}
	return executeUsage(d)
}

// usageNotes say what the page's costs are made of.
func usageNotes(rep *usage.Report) []string {
	var notes []string
	t := &rep.Total
	if t.CostEstimated {
		notes = append(notes, "≈ estimated: the sessions record tokens, not prices; each reply is priced at its date by "+rep.PriceTable+".")
	}
	if t.UnpricedReplies > 0 {
		notes = append(notes, "— unknown: no price for "+text.Count(t.UnpricedReplies, "reply", "replies")+" ("+text.Thousands(t.UnpricedTokens)+" tokens; "+strings.Join(t.UnpricedModels, ", ")+"): not in any cost.")
	}
	if rep.Copies > 0 {
		notes = append(notes, text.Count(rep.Copies, "session file is a copy", "session files are copies")+" of another, counted once.")
	}
	notes = append(notes, "Days are UTC. Each reply counts on the day of its timestamp, under its own model; the tokens and costs are those of the sessions' pages.")
	return notes
}

// executeUsage runs the template with the page's minified CSS and a CSP
// that allows only it: the page has no script.
func executeUsage(d *usageData) ([]byte, error) {
	m := minify.New()
	m.AddFunc("text/css", mincss.Minify)
	c, err := m.String("text/css", assets.UsageCSS)
	if err != nil {
		return nil, fmt.Errorf("minifying usage.css: %w", err)
	}
	d.CSS = template.CSS(c)
	d.CSP = "default-src 'none'; style-src '" + assets.CSPHash(c) + "'; base-uri 'none'; form-action 'none'"
	t, err := templates.Parse(nil, UsageName)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, "usage", d); err != nil {
		return nil, fmt.Errorf("executing the usage template: %w", err)
	}
	return buf.Bytes(), nil
}

// usagePage makes usage.html of the archive's rows and returns it with
// its record in the manifest (as the index's: its key is its hash).
func usagePage(rows []Session, sources []SourceRecord, version string, flags []string) ([]byte, PageRecord, error) {
	page, err := renderUsage(rows, sources, version)
	if err != nil {
		return nil, PageRecord{}, err
	}
	sum := sha256.Sum256(page)
	h := hex.EncodeToString(sum[:])
	return page, PageRecord{Path: UsageName, SHA256: h, Canopy: version, Flags: flags, Key: h}, nil
}

package archive

import (
	"bytes"
	"fmt"
	"html/template"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/tdewolff/minify/v2"
	mincss "github.com/tdewolff/minify/v2/css"
	minjs "github.com/tdewolff/minify/v2/js"

	"canopy/assets"
	"canopy/export"
	"canopy/internal/text"
	"canopy/pricing"
	"canopy/templates"
)

type indexData struct {
	CSP, Version, Flags string
	Title               string // "Session archive"
	CSS                 template.CSS
	JS                  template.JS
	Total               totals
	Projects            []projectView
	Skipped             []Problem
	// Secrets says which sessions hold credentials, and what was done
	// with them; "" when none does.
	Secrets string
}

type projectView struct {
	Name, Anchor string
	Sessions     []rowView
	Total        totals
}

type totals struct {
	Sessions, Entries, Branches string // Sessions: "3 sessions", or "3 sessions and 5 subagents"
	Input, Output, Cost         string
	CostNote                    string // what Cost is made of: recorded, estimated, left out
	n, subs, entries, branches  int
	in, out                     float64
	cost                        costTotals
}

// add counts a session in the totals; sub: a subagent's transcript,
// counted apart.
func (t *totals) add(s *Session, sub bool) {
	if sub {
		t.subs++
	} else {
		t.n++
	}
	t.entries += s.Entries
	t.branches += s.Branches
	t.in += s.Usage.Input + s.Usage.CacheRead + s.Usage.CacheWrite
	t.out += s.Usage.Output
	t.cost.add(s)
}

func (t *totals) format() {
	t.Sessions, t.Entries, t.Branches = text.Thousands(float64(t.n))+" session", text.Thousands(float64(t.entries)), text.Thousands(float64(t.branches))
	if t.n != 1 {
		t.Sessions += "s"
	}
	if t.subs > 0 {
		t.Sessions += " and " + text.Count(t.subs, "subagent", "subagents")
	}
	t.Input, t.Output = text.Thousands(t.in), text.Thousands(t.out)
	t.Cost, t.CostNote = t.cost.format()
}

type rowView struct {
	Title, Href, Key     string
	Notes                []string
	Started, StartedText string
	Last, LastText       string
	Entries, Branches    int
	Models, Format       string
	Depth                int  // 0 for a session; 1 for a subagent it ran, 2 for one that subagent ran, …
	Sub                  bool // a subagent's transcript (listed under what ran it, or on its own when that is not in the archive)
	Tokens               float64
	Input, Output, Cost  string
	CostValue, CostTitle string
	Secrets              string // "4 secrets kept", "4 secrets redacted"; "" for none
}

// renderIndex makes index.html: every session, grouped by project, with
// totals; a Claude Code subagent's transcript is listed under what ran
// it. all is every session the relations were made of (some may have
// failed to render and are not in ss; a stale one whose source moved may
// be in ss and not in all).
func renderIndex(ss []Session, rel *Relations, all []Session, skipped []Problem, version string, flags []string) ([]byte, error) {
	l := newIndexLinks(ss, rel, all)
	projects := map[string]*projectTops{}
	for k := range ss {
		s := &ss[k]
		if l.runner(s) >= 0 {
			continue // listed under what ran it
		}
		p := projects[s.Project]
		if p == nil {
			p = &projectTops{view: projectView{Name: text.Or(s.Project, "(no project)"), Anchor: projectAnchor(s.Project)}}
			projects[s.Project] = p
		}
		p.tops = append(p.tops, s)
	}
	names := make([]string, 0, len(projects))
	for k := range projects {
		names = append(names, k)
	}
	sort.Strings(names)
	var d indexData
	var grand totals
	for _, k := range names {
		p := projects[k]
		// Newest activity first; the page path breaks ties.
		sort.SliceStable(p.tops, func(i, j int) bool {
			a, b := p.tops[i], p.tops[j]
			if a.LastActivity != b.LastActivity {
				return a.LastActivity > b.LastActivity
			}
			return href("index.html", a.Page) < href("index.html", b.Page)
		})
		for _, s := range p.tops {
			l.list(&p.view, &grand, s, 0)
		}
		p.view.Total.format()
		d.Projects = append(d.Projects, p.view)
	}
	grand.format()
	d.Total = grand
	d.Version, d.Title = version, "Session archive"
	d.Skipped = skipped
	d.Flags = strings.Join(flags, " ")
	d.Secrets = secretsNote(ss, slices.Contains(flags, "--redact"))
	for i := range d.Projects {
		for j := range d.Projects[i].Sessions {
			r := &d.Projects[i].Sessions[j]
			if r.Secrets != "" {
				r.Secrets += map[bool]string{true: " redacted", false: " kept"}[slices.Contains(flags, "--redact")]
			}
		}
	}
	return executeIndex(&d)
}

// SecretsHeld says how many of ss hold credentials, sessions and
// subagents' transcripts counted apart as the index counts them, and how
// many in all: "2 sessions and 1 subagent hold credentials (18 secrets in
// all)"; "" when none does.
func SecretsHeld(ss []Session) string {
	var sessions, subs, total int
	for i := range ss {
		switch {
		case ss[i].Secrets == 0:
			continue
		case ss[i].Agent != nil:
			subs++
		default:
			sessions++
		}
		total += ss[i].Secrets
	}
	var who []string
	if sessions > 0 {
		who = append(who, text.Count(sessions, "session", "sessions"))
	}
	if subs > 0 {
		who = append(who, text.Count(subs, "subagent", "subagents"))
	}
	if len(who) == 0 {
		return ""
	}
	verb := " hold"
	if sessions+subs == 1 {
		verb = " holds"
	}
	return strings.Join(who, " and ") + verb + " credentials (" + text.Count(total, "secret", "secrets") + " in all)"
}

// secretsNote is what the index says of the credentials in ss: how many
// sessions hold them and, where they are kept, how to publish the
// archive safely.
func secretsNote(ss []Session, redacted bool) string {
	held := SecretsHeld(ss)
	if held == "" {
		return ""
	}
	if redacted {
		return held + ": replaced by [REDACTED:kind#n] markers in their pages and here."
	}
	return held + ", marked below and kept as they are: this archive is an audit record, not for publishing. To publish it, make it with --redact (canopy archive SRC… -o OUTDIR --redact)."
}

// projectTops are a project's sessions that are not listed under another.
type projectTops struct {
	view projectView
	tops []*Session
}

// list adds the row of s to project p at depth, then the rows of the
// subagents it ran, in the order they started; and counts them all.
func (l *indexLinks) list(p *projectView, grand *totals, s *Session, depth int) {
	r := l.row(s)
	r.Depth = depth
	p.Sessions = append(p.Sessions, r)
	p.Total.add(s, r.Sub)
	grand.add(s, r.Sub)
	i, ok := l.byPage[s.Page]
	if !ok || depth > len(l.all) {
		return
	}
	for _, j := range l.rel.Agents[i] {
		if sub := l.rows[l.all[j].Page]; sub != nil {
			l.list(p, grand, sub, depth+1)
		}
	}
}

// indexLinks are what an index row needs to name a session's relations.
type indexLinks struct {
	rel       *Relations
	all       []Session      // what rel indexes
	byPage    map[string]int // into all
	inArchive map[string]bool
	rows      map[string]*Session // the index's rows, by page
}

func newIndexLinks(ss []Session, rel *Relations, all []Session) *indexLinks {
	l := &indexLinks{rel: rel, all: all, byPage: map[string]int{}, inArchive: map[string]bool{}, rows: map[string]*Session{}}
	for i, s := range all {
		l.byPage[s.Page] = i
	}
	for k := range ss {
		l.inArchive[ss[k].Page] = true
		l.rows[ss[k].Page] = &ss[k]
	}
	return l
}

// runner is what ran the subagent s (by its index in all), when the
// index lists it: s is then listed under it. -1 otherwise.
func (l *indexLinks) runner(s *Session) int {
	if i, ok := l.byPage[s.Page]; ok {
		if j := l.rel.AgentOf[i]; j >= 0 && l.inArchive[l.all[j].Page] {
			return j
		}
	}
	return -1
}

// row is a session's row of the index.
func (l *indexLinks) row(s *Session) rowView {
	r := rowView{
		Title: s.Title, Href: href("index.html", s.Page),
		Started: s.Started, StartedText: shortTime(s.Started), Last: s.LastActivity, LastText: shortTime(s.LastActivity),
		Entries: s.Entries, Branches: s.Branches, Models: strings.Join(s.Models, ", "), Format: s.Format + text.Prefixed(" ", s.FormatVersion),
		Tokens: s.Usage.Input + s.Usage.CacheRead + s.Usage.CacheWrite + s.Usage.Output,
		Input:  text.Thousands(s.Usage.Input + s.Usage.CacheRead + s.Usage.CacheWrite), Output: text.Thousands(s.Usage.Output),
	}
	var costNote string
	r.Cost, r.CostTitle, r.CostValue, costNote = sessionCost(s)
	if s.Secrets > 0 {
		r.Secrets = text.Count(s.Secrets, "secret", "secrets")
	}
	if s.Stale != "" {
		r.Notes = append(r.Notes, "stale: the page is from an earlier run; "+s.Stale)
	}
	if g := s.Gateway; g != nil {
		r.Key = g.Key + text.Prefixed(" · topic ", g.Topic)
		if note := gatewayNote(g, s.Title); note != "" {
			r.Notes = append(r.Notes, note)
		}
		if g.Key == "" {
			r.Notes = append(r.Notes, "gateway key not recorded: no entry of its store names this session now")
		}
	}
	if s.Rotation != nil {
		r.Notes = append(r.Notes, rotationNote(s.Rotation))
	}
	if s.Locked {
		r.Notes = append(r.Notes, "locked when archived: archived as it stood")
	}
	switch {
	case s.Agent != nil:
		r.Sub = true
		r.Notes = append(r.Notes, agentNote(s.Agent))
	case s.ID != "":
		r.Notes = append(r.Notes, "id "+s.ID)
	}
	if i, related := l.byPage[s.Page]; related { // a stale session moved elsewhere is not linked
		r.Notes = append(r.Notes, l.relations(i)...)
	}
	if s.Silent > 0 {
		r.Notes = append(r.Notes, text.Count(s.Silent, "silent turn", "silent turns")+" (NO_REPLY or HEARTBEAT_OK, not delivered)")
	}
	if s.Diagnostics > 0 {
		r.Notes = append(r.Notes, export.ProblemsRead(s.Diagnostics))
	}
	if costNote != "" {
		r.Notes = append(r.Notes, costNote)
	}
	return r
}

// gatewayNote is what a gateway store says of a session, less what its
// title already says.
func gatewayNote(g *GatewayInfo, title string) string {
	var note []string
	for _, x := range []string{g.DisplayName, g.ChatType, g.Subject} {
		if x != "" && x != title {
			note = append(note, x)
		}
	}
	// The store's own counters, as the gateway last saw them.
	if g.InputTokens > 0 || g.OutputTokens > 0 || g.TotalTokens > 0 {
		note = append(note, fmt.Sprintf("store: %s in / %s out / %s total tokens", text.Thousands(g.InputTokens), text.Thousands(g.OutputTokens), text.Thousands(g.TotalTokens)))
	}
	if g.ContextTokens > 0 {
		note = append(note, "context "+text.Thousands(g.ContextTokens))
	}
	if g.CompactionCount > 0 {
		note = append(note, text.Count(int(g.CompactionCount), "compaction", "compactions"))
	}
	return strings.Join(note, " · ")
}

// rotationNote is a rotated transcript's note in the index.
func rotationNote(r *Rotation) string {
	note := r.Kind
	if r.At != "" {
		note += " at " + shortTime(r.At)
	}
	return note
}

// relations are the notes on session i's parent, forks and child tasks.
func (l *indexLinks) relations(i int) []string {
	var notes []string
	for _, x := range []struct {
		what string
		j    int
	}{{"fork of", l.rel.ForkOf[i]}, {"task of", l.rel.TaskOf[i]}, {"topic of", l.rel.TopicOf[i]}} {
		if x.j >= 0 && l.inArchive[l.all[x.j].Page] {
			notes = append(notes, x.what+" "+l.all[x.j].Title)
		}
	}
	if n := len(l.rel.Forks[i]); n > 0 {
		notes = append(notes, text.Count(n, "fork", "forks"))
	}
	if n := len(l.rel.Tasks[i]) + len(l.rel.Unlinked[i]); n > 0 {
		notes = append(notes, text.Count(n, "child task", "child tasks"))
	}
	notes = append(notes, l.agentNotes(i)...)
	if n := len(l.rel.Earlier[i]); n > 0 {
		notes = append(notes, text.Count(n, "earlier session", "earlier sessions")+" of this key")
	}
	if j := l.rel.Next[i]; j >= 0 && l.inArchive[l.all[j].Page] {
		notes = append(notes, "followed by "+l.all[j].Title)
	}
	return notes
}

// executeIndex runs the template with the index's own minified CSS and JS
// and a CSP that allows only them.
func executeIndex(d *indexData) ([]byte, error) {
	m := minify.New()
	m.AddFunc("text/css", mincss.Minify)
	m.AddFunc("application/javascript", minjs.Minify)
	c, err := m.String("text/css", assets.IndexCSS+assets.IndexSearchCSS)
	if err != nil {
		return nil, fmt.Errorf("minifying index.css: %w", err)
	}
	j, err := m.String("application/javascript", assets.IndexJS+"\n"+assets.IndexSearchJS)
	if err != nil {
		return nil, fmt.Errorf("minifying index.js: %w", err)
	}
	d.CSS, d.JS = template.CSS(c), template.JS(j)
	// 'self': the search index's scripts, in the archive's folder.
	d.CSP = "default-src 'none'; script-src '" + assets.CSPHash(j) + "' 'self'; style-src '" + assets.CSPHash(c) + "'; base-uri 'none'; form-action 'none'"
	t, err := templates.Parse(nil, "index.html")
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, "index", d); err != nil {
		return nil, fmt.Errorf("executing the index template: %w", err)
	}
	return buf.Bytes(), nil
}

func shortTime(s string) string {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return s
	}
	return t.UTC().Format("2006-01-02 15:04")
}

// dollars writes a cost: cents, or four decimals below a cent (a short
// session's cost would read $0.00).
func dollars(f float64) string { return pricing.Dollars(f) }

package archive

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"canopy/htmlpage"
)

// build is what a run makes of its sources: the sessions it archives and
// their pages, what it keeps of the previous archive, and in the end the
// rows of the index, the manifest's records and the result.
type build struct {
	prev     *Manifest // the previous archive's, or nil
	recs     records   // prev's, by path
	rd       *readResult
	problems []Problem
	passed   []Problem // files of gateway stores not archived, and why
	sessions []Session // to archive, each with its page
	srcs     []Source  // their sources
	sources  []SourceRecord
	stale    []carried // pages of the previous archive kept as they are
	moved    []carried // pages of the previous archive whose source has another page now
	all      []Session // what the sessions link among: sessions, and stale ones that keep a page
	rel      *Relations
	navs     []*htmlpage.Nav
	keys     []string
	mine     []bool // the sessions this shard renders; nil: all

	rows  []Session    // the index's, and the manifest's
	pages []PageRecord // the manifest's
	res   *Result
}

// newBuild starts a build from what readSources learned; problems are
// Discover's.
func newBuild(prev *Manifest, recs records, rd *readResult, problems []Problem) *build {
	problems = append(problems, rd.problems...)
	for _, p := range problems {
		if _, ok := rd.failed[absPath(p.Path)]; !ok {
			rd.failed[absPath(p.Path)] = errors.New(p.Error)
		}
	}
	return &build{prev: prev, recs: recs, rd: rd, problems: problems,
		sessions: rd.sessions, srcs: rd.srcs, sources: rd.sources, res: &Result{}}
}

// plan names the pages, sorts out what of the previous archive this run
// does not make again, and links the sessions: their navigation, and the
// key of each page.
func (b *build) plan(out string, o *Options) error {
	assignPages(b.sessions, b.srcs, b.rd.sums, pageOwners(b.recs))
	pageOf := map[string]string{}
	for _, s := range b.sessions {
		pageOf[s.Source] = s.Page
	}
	for i := range b.sources {
		b.sources[i].Page = pageOf[b.sources[i].Path]
	}
	b.stale, b.moved = b.carryOver(o)
	for _, c := range b.stale {
		if err := c.flagsMatch(o); err != nil {
			return err
		}
	}
	// Stale sessions are linked too: their pages stay, and a fork's page
	// goes on linking to its parent's. (Sessions moved to another page
	// are not: the new page stands for them.)
	b.all = append([]Session(nil), b.sessions...)
	for _, c := range b.stale {
		// (A page the previous archive lost too cannot be kept: no link.)
		if fi, err := os.Lstat(filepath.Join(out, filepath.FromSlash(c.page.Path))); err == nil && fi.Mode().IsRegular() {
			b.all = append(b.all, c.session)
		}
	}
	srcSum := map[string]string{}
	for _, rec := range b.sources {
		srcSum[rec.Path] = rec.SHA256
	}
	b.rel = relate(b.all)
	b.navs = make([]*htmlpage.Nav, len(b.sessions))
	b.keys = make([]string, len(b.sessions))
	for i, s := range b.sessions {
		b.navs[i] = nav(b.all, b.rel, i)
		b.keys[i] = pageKey(o.Version, o.flags(), srcSum[s.Source], s.Title, b.navs[i], b.rel.agentSums(b.all, i, srcSum)...)
	}
	b.share(o)
	return nil
}

// collect counts the pages made. A session whose page could not be made
// keeps the page it had, stale, or is a problem; a session moved to
// another page keeps its old one, stale, if the new one could not be
// made. The stale pages are then put in the staging directory, and what
// the index and the manifest list is sorted.
func (b *build) collect(r *runner, m *madePages) error {
	made := make([]bool, len(b.sessions))
	for i := range b.sessions {
		if !b.isMine(i) {
			continue // another shard's
		}
		if m.perr[i] != nil {
			if err := b.failed(r, i, m.perr[i]); err != nil {
				return err
			}
			continue
		}
		made[i] = true
		if m.kept[i] {
			b.res.Kept++
		} else {
			b.res.Rendered++
		}
		b.rows = append(b.rows, b.sessions[i])
		b.pages = append(b.pages, m.pages[i])
	}
	for _, c := range b.moved {
		if made[c.movedTo] || !b.isMine(c.movedTo) {
			continue
		}
		c.reason = "source moved to " + b.sessions[c.movedTo].Source + ", which could not be archived: " + staleReason(m.perr[c.movedTo])
		if err := c.flagsMatch(r.o); err != nil {
			return err
		}
		b.stale = append(b.stale, c)
	}
	if err := b.keepStale(r); err != nil {
		return err
	}
	sort.SliceStable(b.rows, func(i, j int) bool { return b.rows[i].Source < b.rows[j].Source })
	sort.SliceStable(b.sources, func(i, j int) bool { return b.sources[i].Path < b.sources[j].Path })
	sort.SliceStable(b.problems, func(i, j int) bool { return b.problems[i].Path < b.problems[j].Path })
	sort.SliceStable(b.passed, func(i, j int) bool { return b.passed[i].Path < b.passed[j].Path })
	b.res.Sessions = len(b.rows)
	b.res.SecretsHeld = SecretsHeld(b.rows)
	b.res.Problems = b.problems
	b.res.Passed = b.passed
	return nil
}

// failed handles session i, whose page could not be made (err): the
// page it had, if any, is kept, stale; else it is a problem.
func (b *build) failed(r *runner, i int, err error) error {
	s := &b.sessions[i]
	os.Remove(filepath.Join(r.stage, filepath.FromSlash(s.Page)))
	// The page it had: its source changed or could not be read again
	// while this run made it. Keep the previous one, stale.
	if pp, ok := b.recs.pages[s.Page]; ok {
		if ps, ok := b.recs.sessions[s.Page]; ok {
			c := carried{session: ps, page: pp, reason: staleReason(err), movedTo: -1}
			if c.source, ok = b.recs.sources[ps.Source]; ok {
				c.source.Path = s.Source // where it is now; its hash is the one the page was made from
			}
			if err := c.flagsMatch(r.o); err != nil {
				return err
			}
			b.stale = append(b.stale, c)
			b.sources = dropSource(b.sources, s.Source)
			return nil
		}
	}
	b.problems = append(b.problems, Problem{s.Source, strings.TrimPrefix(err.Error(), s.Source+": ")})
	for j := range b.sources {
		if b.sources[j].Path == s.Source {
			b.sources[j].Page = "" // no page was made
		}
	}
	return nil
}

// keepStale puts the stale pages in the staging directory as they are,
// and in the index and the manifest marked stale; a stale page that
// cannot be kept either is reported as lost.
func (b *build) keepStale(r *runner) error {
	sort.SliceStable(b.stale, func(i, j int) bool { return b.stale[i].session.Source < b.stale[j].session.Source })
	for _, c := range b.stale {
		st := Stale{Source: c.session.Source, Page: c.page.Path, Reason: c.reason}
		if err := r.keepStalePage(c.page.Path); err != nil {
			if errors.Is(err, errWrite) || r.interrupted() != nil {
				return err
			}
			st.Page = ""
			st.Reason += "; its page could not be kept either: " + err.Error()
			b.res.Stale = append(b.res.Stale, st)
			continue
		}
		b.res.Stale = append(b.res.Stale, st)
		c.session.Stale, c.page.Stale = c.reason, c.reason
		b.rows = append(b.rows, c.session)
		b.pages = append(b.pages, c.page)
		if c.source.Path != "" && !hasSource(b.sources, c.source.Path) {
			c.source.Page = c.page.Path
			b.sources = append(b.sources, c.source)
		}
	}
	return nil
}

// writeIndex writes the index and the manifest into the staging
// directory, and counts the previous archive's pages that are gone.
func (r *runner) writeIndex(b *build) error {
	o := r.o
	skipped := b.skipped()
	indexHTML, err := renderIndex(b.rows, b.rel, b.all, skipped, o.Version, o.flags())
	if err != nil {
		return err
	}
	if err := writeStaged(filepath.Join(r.stage, "index.html"), indexHTML); err != nil {
		return err
	}
	search, err := r.writeSearch(b.rows, b.recs)
	if err != nil {
		return err
	}
	isum := sha256.Sum256(indexHTML)
	pages := append(append(b.pages, search...), PageRecord{Path: "index.html", SHA256: hex.EncodeToString(isum[:]), Canopy: o.Version, Flags: o.flags(),
		Key: hex.EncodeToString(isum[:])})
	usageHTML, usageRec, err := usagePage(b.rows, b.sources, o.Version, o.flags())
	if err != nil {
		return err
	}
	if err := writeStaged(filepath.Join(r.stage, UsageName), usageHTML); err != nil {
		return err
	}
	pages = append(pages, usageRec)
	sort.Slice(pages, func(i, j int) bool { return pages[i].Path < pages[j].Path })
	shard := b.shardInfo(o)
	m := &Manifest{Canopy: o.Version, Flags: o.flags(), Sources: b.sources, Pages: pages, Sessions: b.rows, Skipped: skipped, Shard: shard}
	data, err := m.encode()
	if err != nil {
		return err
	}
	if err := writeStaged(filepath.Join(r.stage, ManifestName), data); err != nil {
		return err
	}
	if b.prev != nil {
		now := map[string]bool{}
		for _, p := range pages {
			now[p.Path] = true
		}
		for _, p := range b.prev.Pages {
			if !now[p.Path] && !inSearch(p.Path) {
				b.res.Removed++
			}
		}
	}
	return nil
}

// skipped is every file not archived, and why: the files skipped as
// problems and those of gateway stores passed over, by path.
func (b *build) skipped() []Problem {
	if len(b.passed) == 0 {
		return b.problems
	}
	out := append(append([]Problem(nil), b.problems...), b.passed...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

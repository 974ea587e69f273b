// Package archive turns directories of sessions into an archive for audit:
// one page per session (as canopy export makes it), an index of them all,
// links between forks, child tasks and topics, and a manifest of hashes
// that `canopy verify` re-checks. A re-run renders only what changed, and
// the archive is swapped in whole, so an interrupted run leaves the
// previous one as it was.
package archive

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/go-json-experiment/json"

	"canopy/internal/outpath"
	"canopy/redact"
	"canopy/render"
	"canopy/sessiontree"
)

// Options control a run.
type Options struct {
	Jobs    int       // sessions loaded and rendered at once; 0 means one per core
	Redact  bool      // replace credentials in pages and the index, as export --redact does
	Since   time.Time // when set, only sessions active at or after it
	Version string    // the canopy version, written into pages and the manifest
	// Prune removes the pages of sessions whose sources are gone (no
	// longer there, or no longer among the sources named) instead of
	// keeping them as stale. A source that is there but cannot be read,
	// or that changes while it is archived, keeps its page either way:
	// that may pass, and the page is all the archive has of it.
	Prune bool

	// Progress, when set, is told of each step (from one goroutine at a time).
	Progress func(Progress)
}

// Progress is where a run is.
type Progress struct {
	Phase string // "reading" (sources hashed and summarized), "pages" (made or kept)
	Done  int
	Total int
	Path  string // the file just finished
}

// Result says what a run did.
type Result struct {
	Sessions int       // sessions in the archive, stale ones included
	Rendered int       // pages made anew
	Kept     int       // pages kept from the previous archive, their sources unchanged
	Removed  int       // pages of the previous archive no longer in it
	Stale    []Stale   // pages kept although their sources could not be archived
	Problems []Problem // files reported and skipped
	// Leftover, when set, is a directory holding files that were put in
	// OUTDIR while the run made the new archive: not in the previous
	// archive's manifest, they were moved there instead of removed.
	Leftover string
}

// Stale is a session whose source this run could not archive (missing,
// unreadable, changed while it was read): its page from the previous
// archive is kept, and marked so in the index and the manifest.
type Stale struct {
	Source string // as the previous manifest names it
	Page   string // "" when the page could not be kept either
	Reason string
}

// Incomplete reports whether the archive is not all this run was asked
// to make: some pages are stale, or files had to be moved aside. The
// command exits 1 then, so that scripts notice.
func (r *Result) Incomplete() bool {
	return len(r.Stale) > 0 || r.Leftover != ""
}

// flags lists the options that shape pages, as the manifest records them.
func (o *Options) flags() []string {
	f := []string{}
	if o.Redact {
		f = append(f, "--redact")
	}
	return f
}

// ErrInterrupted is wrapped (with the context's error) by the error of a
// run stopped by its context.
var ErrInterrupted = errors.New("interrupted")

// testHooks are seams for the tests: nil in a real run.
var testHooks struct {
	// writeFault is called before each write into the staging directory
	// (from every worker at once); the error it returns is that write's
	// (a full disk, say).
	writeFault func(path string) error
	// afterLoad is called when a page's session has been loaded, before
	// it is rendered (a source can then be changed under the render).
	afterLoad func(path string)
}

// Run archives the sources into out and returns what it did.
//
// out is replaced only when it is missing, empty, or an archive canopy
// made that holds nothing its manifest does not list; and never when it
// is, holds or lies inside a source (outpath.Dir). Every refusal comes
// before anything is created. The new archive is made in a staging
// directory beside out and swapped in whole: a failure (a full disk) or
// an interrupt (ctx done) removes the staging directory and leaves out
// as it was; the error then wraps ctx's error and ErrInterrupted.
func Run(ctx context.Context, srcs []string, out string, o Options) (*Result, error) {
	if o.Jobs <= 0 {
		o.Jobs = runtime.GOMAXPROCS(0)
	}
	for _, s := range srcs {
		switch s {
		case "-":
			return nil, errors.New("SRC -: canopy archive reads session files and directories, not standard input (save it to a file first)")
		case "":
			return nil, errors.New("an empty SRC")
		}
	}
	resolved, err := outpath.Dir(out, srcs)
	if err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(resolved)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", out, err)
	}
	// Refused here, before the lock or any directory is made.
	if _, err := checkOutdir(abs, out); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%w: %s left as it was: %w", ErrInterrupted, out, err)
	}
	r := &runner{ctx: ctx, o: &o, name: out, out: abs, stage: siblingPath(abs, "staging")}
	res, err := r.run(srcs)
	r.cleanup(err == nil)
	if err != nil {
		if cerr := ctx.Err(); cerr != nil {
			return nil, fmt.Errorf("%w: %s left as it was: %w", ErrInterrupted, out, cerr)
		}
		return nil, err
	}
	return res, nil
}

// runner is one run, and what it must undo if it fails.
type runner struct {
	ctx   context.Context
	o     *Options
	name  string // OUTDIR as given, for messages
	out   string // OUTDIR, absolute, a top-level link resolved
	stage string

	madeDirs  []string // OUTDIR's parents this run made, deepest first
	unlock    func()
	stageMade bool
	swapped   bool
}

// cleanup undoes what a run made and does not leave: the staging
// directory, the lock, and on failure the parent directories it made.
func (r *runner) cleanup(ok bool) {
	if r.stageMade && !r.swapped {
		os.RemoveAll(r.stage)
	}
	if r.unlock != nil {
		r.unlock()
	}
	if !ok {
		for _, d := range r.madeDirs {
			os.Remove(d) // fails, as it should, if anything else is in it now
		}
	}
}

// interrupted returns ctx's error once the run is to stop.
func (r *runner) interrupted() error {
	return r.ctx.Err()
}

func (r *runner) run(srcs []string) (*Result, error) {
	o := r.o
	var err error
	if r.madeDirs, err = makeParents(filepath.Dir(r.out)); err != nil {
		return nil, err
	}
	// Two runs into one archive would share the staging directory.
	if r.unlock, err = lock(siblingPath(r.out, "lock")); err != nil {
		return nil, err
	}
	if err := recoverSwap(r.out); err != nil {
		return nil, err
	}
	// Again, now that no other run can change it: the archive as it is.
	prev, err := checkOutdir(r.out, r.name)
	if err != nil {
		return nil, err
	}
	found, problems := Discover(srcs, r.out, r.stage)
	if err := r.interrupted(); err != nil {
		return nil, err
	}

	var redactor *redact.Redactor
	if o.Redact {
		if redactor, err = redact.New(); err != nil {
			return nil, err
		}
	}
	// 1. Hash every source; summarize the sessions whose source changed.
	rd := readSources(r.ctx, found, prev, redactor, o)
	if err := r.interrupted(); err != nil {
		return nil, err
	}
	problems = append(problems, rd.problems...)
	for _, p := range problems {
		if _, ok := rd.failed[absPath(p.Path)]; !ok {
			rd.failed[absPath(p.Path)] = errors.New(p.Error)
		}
	}
	sessions, sessionSrc, sources := rd.sessions, rd.srcs, rd.sources

	// 2. Name the pages, see what of the previous archive this run does
	// not make again, and link the sessions.
	assignPages(sessions, sessionSrc, rd.sums, pageOwners(prev))
	pageOf := map[string]string{}
	for _, s := range sessions {
		pageOf[s.Source] = s.Page
	}
	for i := range sources {
		sources[i].Page = pageOf[sources[i].Path]
	}
	stale, moved := carryOver(prev, sessions, rd, o)
	for _, c := range stale {
		if err := c.flagsMatch(o); err != nil {
			return nil, err
		}
	}
	// Stale sessions are linked too: their pages stay, and a fork's page
	// goes on linking to its parent's. (Sessions moved to another page
	// are not: the new page stands for them.)
	all := append([]Session(nil), sessions...)
	for _, c := range stale {
		// (A page the previous archive lost too cannot be kept: no link.)
		if fi, err := os.Lstat(filepath.Join(r.out, filepath.FromSlash(c.page.Path))); err == nil && fi.Mode().IsRegular() {
			all = append(all, c.session)
		}
	}
	srcSum := map[string]string{}
	for _, rec := range sources {
		srcSum[rec.Path] = rec.SHA256
	}
	rel := relate(all)
	navs := make([]*render.Nav, len(sessions))
	keys := make([]string, len(sessions))
	for i := range sessions {
		navs[i] = nav(all, rel, i)
		keys[i] = pageKey(o.Version, o.flags(), srcSum[sessions[i].Source], sessions[i].Title, navs[i])
	}

	// 3. Make the pages in a staging directory: unchanged ones are linked
	// from the previous archive, the others rendered.
	if err := os.RemoveAll(r.stage); err != nil {
		return nil, fmt.Errorf("clearing %s: %w", r.stage, err)
	}
	r.stageMade = true
	if err := mkdirStaged(r.stage); err != nil {
		return nil, err
	}
	rr, err := render.New()
	if err != nil {
		return nil, err
	}
	pages, kept, perr, err := r.makePages(rr, sessions, sessionSrc, navs, keys, prev, redactor)
	if err != nil {
		return nil, err
	}
	res := &Result{}
	var rows []Session
	var newPages []PageRecord
	prevSession := map[string]Session{}
	prevPage := map[string]PageRecord{}
	prevSource := map[string]SourceRecord{}
	if prev != nil {
		for _, s := range prev.Sessions {
			prevSession[s.Page] = s
		}
		for _, p := range prev.Pages {
			prevPage[p.Path] = p
		}
		for _, s := range prev.Sources {
			prevSource[s.Path] = s
		}
	}
	made := make([]bool, len(sessions))
	for i := range sessions {
		s := &sessions[i]
		if perr[i] == nil {
			made[i] = true
			if kept[i] {
				res.Kept++
			} else {
				res.Rendered++
			}
			rows = append(rows, *s)
			newPages = append(newPages, pages[i])
			continue
		}
		os.Remove(filepath.Join(r.stage, filepath.FromSlash(s.Page)))
		// The page it had: its source changed or could not be read again
		// while this run made it. Keep the previous one, stale.
		if pp, ok := prevPage[s.Page]; ok {
			if ps, ok := prevSession[s.Page]; ok {
				c := carried{session: ps, page: pp, reason: staleReason(perr[i]), movedTo: -1}
				if c.source, ok = prevSource[ps.Source]; ok {
					c.source.Path = s.Source // where it is now; its hash is the one the page was made from
				}
				if err := c.flagsMatch(o); err != nil {
					return nil, err
				}
				stale = append(stale, c)
				sources = dropSource(sources, s.Source)
				continue
			}
		}
		problems = append(problems, Problem{s.Source, strings.TrimPrefix(perr[i].Error(), s.Source+": ")})
		for j := range sources {
			if sources[j].Path == s.Source {
				sources[j].Page = "" // no page was made
			}
		}
	}
	// A session moved to another page is removed from its old one once the
	// new one is made; if that failed, the old page stays, stale.
	for _, c := range moved {
		if made[c.movedTo] {
			continue
		}
		c.reason = "source moved to " + sessions[c.movedTo].Source + ", which could not be archived: " + staleReason(perr[c.movedTo])
		if err := c.flagsMatch(o); err != nil {
			return nil, err
		}
		stale = append(stale, c)
	}
	sort.SliceStable(stale, func(i, j int) bool { return stale[i].session.Source < stale[j].session.Source })
	for _, c := range stale {
		st := Stale{Source: c.session.Source, Page: c.page.Path, Reason: c.reason}
		if err := r.keepStalePage(c.page.Path); err != nil {
			if errors.Is(err, errWrite) || r.interrupted() != nil {
				return nil, err
			}
			st.Page = ""
			st.Reason += "; its page could not be kept either: " + err.Error()
			res.Stale = append(res.Stale, st)
			continue
		}
		res.Stale = append(res.Stale, st)
		c.session.Stale, c.page.Stale = c.reason, c.reason
		rows = append(rows, c.session)
		newPages = append(newPages, c.page)
		if c.source.Path != "" && !hasSource(sources, c.source.Path) {
			c.source.Page = c.page.Path
			sources = append(sources, c.source)
		}
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].Source < rows[j].Source })
	sort.SliceStable(sources, func(i, j int) bool { return sources[i].Path < sources[j].Path })
	res.Sessions = len(rows)
	sort.SliceStable(problems, func(i, j int) bool { return problems[i].Path < problems[j].Path })
	res.Problems = problems

	// 4. The index and the manifest.
	indexHTML, err := renderIndex(rows, rel, all, problems, o.Version, o.flags())
	if err != nil {
		return nil, err
	}
	if err := writeStaged(filepath.Join(r.stage, "index.html"), indexHTML); err != nil {
		return nil, err
	}
	isum := sha256.Sum256(indexHTML)
	newPages = append(newPages, PageRecord{Path: "index.html", SHA256: hex.EncodeToString(isum[:]), Canopy: o.Version, Flags: o.flags(),
		Key: hex.EncodeToString(isum[:])})
	sort.Slice(newPages, func(i, j int) bool { return newPages[i].Path < newPages[j].Path })
	m := &Manifest{Canopy: o.Version, Flags: o.flags(), Sources: sources, Pages: newPages, Sessions: rows, Skipped: problems}
	if m.Sources == nil {
		m.Sources = []SourceRecord{}
	}
	if m.Sessions == nil {
		m.Sessions = []Session{}
	}
	if m.Skipped == nil {
		m.Skipped = []Problem{}
	}
	data, err := m.encode()
	if err != nil {
		return nil, err
	}
	if err := writeStaged(filepath.Join(r.stage, ManifestName), data); err != nil {
		return nil, err
	}
	if prev != nil {
		now := map[string]bool{}
		for _, p := range newPages {
			now[p.Path] = true
		}
		for _, p := range prev.Pages {
			if !now[p.Path] {
				res.Removed++
			}
		}
	}

	// 5. Swap the new archive in, the last moment an interrupt stops it.
	if err := r.interrupted(); err != nil {
		return nil, err
	}
	old, err := swap(r.stage, r.out)
	if err != nil {
		return nil, err
	}
	r.swapped = true
	if old != "" {
		// Only what the previous manifest lists is removed: anything put
		// in OUTDIR during the run is moved aside, never deleted.
		left, err := removeOwned(old, prev)
		if err != nil || len(left) > 0 {
			aside, rerr := moveAside(old, r.out)
			if rerr != nil {
				return nil, fmt.Errorf("the archive is in place, but the previous one in %s still holds %s, not in its manifest: %w", old, describe(left), rerr)
			}
			res.Leftover = aside
		}
	}
	return res, nil
}

// readResult is what readSources learned.
type readResult struct {
	sessions []Session // to archive, less those --since leaves out
	srcs     []Source  // their sources
	sums     []string  // their sources' SHA-256
	sources  []SourceRecord
	problems []Problem
	// failed holds why each source that could not be archived could not,
	// by absolute path; excluded, the sources --since left out.
	failed   map[string]error
	excluded map[string]bool
}

// readSources hashes every source and summarizes the sessions among them:
// those whose source the previous archive already had (by hash) from its
// manifest, the others by loading them.
func readSources(ctx context.Context, found []Source, prev *Manifest, redactor *redact.Redactor, o *Options) *readResult {
	recs := make([]SourceRecord, len(found))
	sums := make([]Session, len(found))
	ok := make([]bool, len(found))
	errs := make([]error, len(found))
	// What the previous run learned of a source is found by the source's
	// hash, not its path: the same directory named another way (relative,
	// absolute, moved) is not a reason to load every session again.
	type known struct {
		session *Session
		format  string
	}
	prevByHash := map[string]known{}
	sameFlags := prev != nil && prev.Canopy == o.Version && strings.Join(prev.Flags, " ") == strings.Join(o.flags(), " ")
	if sameFlags {
		sha := map[string]SourceRecord{}
		for _, r := range prev.Sources {
			sha[r.Path] = r
		}
		for i := range prev.Sessions {
			if r, ok := sha[prev.Sessions[i].Source]; ok {
				prevByHash[r.SHA256] = known{&prev.Sessions[i], r.Format}
			}
		}
	}
	if redactor != nil {
		// The store's labels are shown in the index: redacted too.
		for i := range found {
			if g := found[i].Gateway; g != nil {
				red := *g
				for _, f := range []*string{&red.Key, &red.DisplayName, &red.Subject, &red.ChatType, &red.Provider, &red.Topic} {
					*f, _ = redactor.Text(*f)
				}
				found[i].Gateway = &red
			}
		}
	}
	progress := o.progress("reading", len(found))
	each(ctx, len(found), o.Jobs, func(i int) {
		src := found[i]
		defer progress(src.Path)
		size, sum, err := hashFile(ctx, src.Path)
		if err != nil {
			errs[i] = err
			return
		}
		recs[i] = SourceRecord{Path: src.Path, Size: size, SHA256: sum, Format: src.Format}
		if src.Format == FormatGateway {
			ok[i] = true
			return
		}
		if k, found := prevByHash[sum]; found {
			sums[i] = *k.session
			sums[i].Source = src.Path
			sums[i].Gateway = src.Gateway // the store may have changed alone
			sums[i].Stale = ""            // its source is back as it was
			recs[i].Format = k.format
			ok[i] = true
			return
		}
		s, err := load(src, redactor)
		if err != nil {
			errs[i] = err
			return
		}
		defer s.Close()
		if src.Format == FormatFlue && s.Format != sessiontree.FormatFlue {
			// A .json file that is not a Flue document: JSONL that
			// happens to be one object long is not what it holds.
			errs[i] = fmt.Errorf("not a Flue session document: %w", sessiontree.ErrNotSession)
			return
		}
		sums[i] = summarize(s, src)
		if err := s.Err(); err != nil {
			errs[i] = err // the first prompt could not be read again
			return
		}
		recs[i].Format = fmt.Sprintf("%s v%d", s.Format, s.Version)
		ok[i] = true
	})
	rd := &readResult{failed: map[string]error{}, excluded: map[string]bool{}}
	if ctx.Err() != nil {
		return rd // the caller stops
	}
	for i, src := range found {
		if !ok[i] {
			rd.failed[absPath(src.Path)] = errs[i]
			// A .json file met while walking that is no session (a
			// settings file beside the sessions) is not worth a report.
			if !src.Explicit && src.Format == FormatFlue && errors.Is(errs[i], sessiontree.ErrNotSession) {
				continue
			}
			rd.problems = append(rd.problems, Problem{src.Path, strings.TrimPrefix(errs[i].Error(), src.Path+": ")})
			continue
		}
		if src.Format != FormatGateway {
			s := sums[i]
			if !o.Since.IsZero() && s.LastActivity != "" {
				if t, err := time.Parse(time.RFC3339, s.LastActivity); err == nil && t.Before(o.Since) {
					rd.excluded[absPath(src.Path)] = true
					continue
				}
			}
			rd.sessions = append(rd.sessions, s)
			rd.srcs = append(rd.srcs, src)
			rd.sums = append(rd.sums, recs[i].SHA256)
		}
		rd.sources = append(rd.sources, recs[i])
	}
	return rd
}

// makePages puts every session's page in the staging directory: linked
// from the previous archive when its key is unchanged and the old page
// is still a regular file with the hash the manifest gives, else
// rendered. Failures of a session (its source unreadable, changed) are
// reported by session in perr; a failure to write (a full disk) or an
// interrupt stops all the work and is returned as err.
func (r *runner) makePages(rr *render.Renderer, sessions []Session, srcs []Source, navs []*render.Nav, keys []string, prev *Manifest,
	redactor *redact.Redactor) (pages []PageRecord, kept []bool, perr []error, err error) {
	o := r.o
	prevPage := map[string]PageRecord{}
	if prev != nil {
		for _, p := range prev.Pages {
			prevPage[p.Path] = p
		}
	}
	pages = make([]PageRecord, len(sessions))
	kept = make([]bool, len(sessions))
	perr = make([]error, len(sessions))
	// The first write failure cancels the others' work.
	ctx, abort := context.WithCancelCause(r.ctx)
	defer abort(nil)
	progress := o.progress("pages", len(sessions))
	each(ctx, len(sessions), o.Jobs, func(i int) {
		s := &sessions[i]
		dest := filepath.Join(r.stage, filepath.FromSlash(s.Page))
		if err := mkdirStaged(filepath.Dir(dest)); err != nil {
			abort(err)
			return
		}
		pages[i] = PageRecord{Path: s.Page, Source: s.Source, Canopy: o.Version, Flags: o.flags(), Key: keys[i]}
		if p, found := prevPage[s.Page]; found && p.Key == keys[i] && p.Stale == "" {
			old := filepath.Join(r.out, filepath.FromSlash(s.Page))
			// Lstat first: a link or a FIFO where the page was is made
			// again, never kept (nor opened in a way that could block).
			if fi, err := os.Lstat(old); err == nil && fi.Mode().IsRegular() {
				if _, sum, err := hashFile(ctx, old); err == nil && sum == p.SHA256 {
					err := linkOrCopy(old, dest)
					if errors.Is(err, errWrite) {
						abort(err)
						return
					}
					if err == nil {
						pages[i].SHA256, kept[i] = sum, true
						progress(s.Source)
						return
					}
					// The old page went meanwhile: made again.
				}
			}
		}
		sum, serr, werr := renderPage(ctx, rr, srcs[i], redactor, render.Options{Version: o.Version, Nav: navs[i], Title: s.Title}, dest)
		if werr != nil {
			abort(werr)
			return
		}
		pages[i].SHA256, perr[i] = sum, serr
		progress(s.Source)
	})
	if err := r.ctx.Err(); err != nil {
		return nil, nil, nil, err
	}
	if err := context.Cause(ctx); err != nil {
		return nil, nil, nil, err
	}
	return pages, kept, perr, nil
}

// progress returns a function to call as each of total items is done.
func (o *Options) progress(phase string, total int) func(path string) {
	if o.Progress == nil {
		return func(string) {}
	}
	var mu sync.Mutex
	done := 0
	o.Progress(Progress{Phase: phase, Total: total})
	return func(p string) {
		mu.Lock()
		defer mu.Unlock()
		done++
		o.Progress(Progress{Phase: phase, Done: done, Total: total, Path: p})
	}
}

// each calls f(0..n-1) on `jobs` goroutines, taking items in order. Once
// ctx is done no item is started: the caller checks ctx to tell a
// finished loop from a stopped one.
func each(ctx context.Context, n, jobs int, f func(i int)) {
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(jobs, max(n, 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f(i)
			}
		}()
	}
feed:
	for i := range n {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
}

// load reads one session, redacted when r is set. The caller closes it.
func load(src Source, r *redact.Redactor) (*sessiontree.Session, error) {
	// sessiontree opens the file with a plain open, which would wait
	// forever on a FIFO: a source that is no longer a regular file is
	// refused first.
	fi, err := os.Stat(src.Path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: is %s, not a regular file: not read", src.Path, outpath.Kind(fi.Mode()))
	}
	s, err := sessiontree.LoadFile(src.Path)
	if err != nil {
		return nil, err
	}
	if r == nil {
		return s, nil
	}
	defer s.Close()
	// The whole file at once: redaction works on the text as a whole.
	source, err := s.ReadSource()
	if err != nil {
		return nil, err
	}
	data, _ := r.Redact(source)
	red, err := sessiontree.Load(data, s.File)
	if err != nil {
		return nil, fmt.Errorf("reloading the redacted session: %w", err)
	}
	return red, nil
}

// renderPage writes one session's page to dest and returns its SHA-256.
// What goes wrong with the session (serr: its source unreadable, changed
// while it was read again) is told apart from what goes wrong with the
// archive (werr: a write failed, the run was interrupted): the first
// skips one session, the second stops the run.
func renderPage(ctx context.Context, r *render.Renderer, src Source, red *redact.Redactor, opts render.Options, dest string) (sum string, serr, werr error) {
	s, err := load(src, red)
	if err != nil {
		return "", err, nil
	}
	defer s.Close()
	if testHooks.afterLoad != nil {
		testHooks.afterLoad(src.Path)
	}
	if red != nil {
		opts.Omitted = []string{"secrets: replaced by [REDACTED:kind#n] markers, here and in the session file the page embeds"}
		// The page gives the redacted file's hash; the original's is in
		// the archive's manifest.
	}
	f, err := createStaged(dest)
	if err != nil {
		return "", nil, err
	}
	sw := &stagedWriter{ctx: ctx, f: f, path: dest}
	h := sha256.New()
	w := bufio.NewWriterSize(io.MultiWriter(sw, h), 1<<20)
	rerr := r.Render(w, s, opts)
	if rerr == nil {
		rerr = w.Flush()
	}
	cerr := f.Close()
	switch {
	case sw.err != nil:
		return "", nil, sw.err
	case ctx.Err() != nil:
		return "", nil, ctx.Err()
	case rerr != nil:
		return "", rerr, nil
	case cerr != nil:
		return "", nil, fmt.Errorf("%w: %s: %w", errWrite, dest, cerr)
	}
	return hex.EncodeToString(h.Sum(nil)), nil, nil
}

// errWrite marks a failure to write the new archive (a full disk, a
// read-only file system): the run fails and the previous archive stays.
var errWrite = errors.New("writing the new archive")

// stagedWriter writes a page into the staging directory, keeping the
// first write error (the archive's failure, whatever the renderer makes
// of it) and stopping once ctx is done.
type stagedWriter struct {
	ctx  context.Context
	f    *os.File
	path string
	err  error
}

func (w *stagedWriter) Write(p []byte) (int, error) {
	if err := w.ctx.Err(); err != nil {
		return 0, err
	}
	if testHooks.writeFault != nil {
		if err := testHooks.writeFault(w.path); err != nil {
			w.err = fmt.Errorf("%w: %s: %w", errWrite, w.path, err)
			return 0, w.err
		}
	}
	n, err := w.f.Write(p)
	if err != nil && w.err == nil {
		w.err = fmt.Errorf("%w: %s: %w", errWrite, w.path, err)
	}
	return n, err
}

// createStaged, writeStaged and mkdirStaged make files and directories
// in the staging directory; their errors wrap errWrite.
func createStaged(p string) (*os.File, error) {
	if testHooks.writeFault != nil {
		if err := testHooks.writeFault(p); err != nil {
			return nil, fmt.Errorf("%w: %s: %w", errWrite, p, err)
		}
	}
	f, err := os.Create(p)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errWrite, err)
	}
	return f, nil
}

func writeStaged(p string, data []byte) error {
	f, err := createStaged(p)
	if err != nil {
		return err
	}
	sw := &stagedWriter{ctx: context.Background(), f: f, path: p}
	_, err = sw.Write(data)
	if cerr := f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("%w: %s: %w", errWrite, p, cerr)
	}
	if sw.err != nil {
		return sw.err
	}
	return err
}

func mkdirStaged(p string) error {
	if testHooks.writeFault != nil {
		if err := testHooks.writeFault(p); err != nil {
			return fmt.Errorf("%w: %s: %w", errWrite, p, err)
		}
	}
	if err := os.MkdirAll(p, 0o755); err != nil {
		return fmt.Errorf("%w: %w", errWrite, err)
	}
	return nil
}

// pageKey hashes everything a session's page is made from.
func pageKey(version string, flags []string, sourceSHA, title string, nav *render.Nav) string {
	h := sha256.New()
	writeKey(h, "canopy "+version, strings.Join(flags, " "), sourceSHA, title)
	b, _ := json.Marshal(nav, json.Deterministic(true))
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil))
}

func writeKey(h hash.Hash, parts ...string) {
	for _, p := range parts {
		fmt.Fprintf(h, "%d:%s\n", len(p), p)
	}
}

// assignPages names each session's page after its source: sessions/, then
// the source's name in the archive with .html for its extension. Two
// sources that would share a name (a.json and a.jsonl) are told apart by
// a suffix, in source order. A name the previous archive gave another
// source's page is not taken (owners: its pages by the source each
// shows): that page may be kept, stale, and a page is never replaced by
// another session's.
func assignPages(ss []Session, srcs []Source, sums []string, owners map[string]owner) {
	used := map[string]bool{"index.html": true, ManifestName: true}
	for i := range ss {
		rel := srcs[i].Rel
		rel = strings.TrimSuffix(rel, path.Ext(rel))
		me := owner{abs: absPath(srcs[i].Path), base: filepath.Base(srcs[i].Path), sha: sums[i]}
		p := "sessions/" + rel + ".html"
		for n := 2; used[p] || !owners[p].same(me); n++ {
			p = fmt.Sprintf("sessions/%s~%d.html", rel, n)
		}
		used[p] = true
		ss[i].Page = p
	}
}

// owner is the source a page of the previous archive shows.
type owner struct {
	abs, base, sha string
}

// same reports whether a page shown by o may be given to the session of
// source s: no one had it (o is zero), or it is the same source: the
// same file name, at the same place or with the same bytes (a directory
// named another way, or moved).
func (o owner) same(s owner) bool {
	return o == owner{} || o.base == s.base && (o.abs == s.abs || o.sha == s.sha)
}

// pageOwners maps the previous archive's session pages to their sources.
func pageOwners(prev *Manifest) map[string]owner {
	out := map[string]owner{}
	if prev == nil {
		return out
	}
	sha := map[string]string{}
	for _, s := range prev.Sources {
		sha[s.Path] = s.SHA256
	}
	for _, s := range prev.Sessions {
		out[s.Page] = owner{abs: absPath(s.Source), base: filepath.Base(s.Source), sha: sha[s.Source]}
	}
	return out
}

// absPath is p made absolute (p itself if that fails): sources named
// relative in one run and absolute in another are the same.
func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// carried is a session of the previous archive whose page this run does
// not make again.
type carried struct {
	session Session      // the previous manifest's record
	page    PageRecord   // and its page's
	source  SourceRecord // and its source's (Path "" if it had none)
	reason  string       // why the page is stale
	movedTo int          // the session that archives its source under another page now, or -1
}

// flagsMatch refuses to keep a stale page made with other flags than this
// run's: kept as it is in a --redact archive, a page made without
// --redact would show the secrets the archive says it hides.
func (c *carried) flagsMatch(o *Options) error {
	if strings.Join(c.page.Flags, " ") == strings.Join(o.flags(), " ") {
		return nil
	}
	return fmt.Errorf("%s: its page %s was made with flags [%s] and cannot be made again with [%s] (%s): restore the source, run with the previous flags, or archive into a new OUTDIR",
		c.session.Source, c.page.Path, strings.Join(c.page.Flags, " "), strings.Join(o.flags(), " "), c.reason)
}

// carryOver sorts the sessions of the previous archive whose pages no
// session of this run has taken: stale (the page is kept, and says why),
// moved (the source is archived under another page now: its old page
// goes once the new one is made), or gone on purpose (--since left the
// source out, or --prune a source that is no longer there): removed.
func carryOver(prev *Manifest, sessions []Session, rd *readResult, o *Options) (stale, moved []carried) {
	if prev == nil {
		return nil, nil
	}
	taken := map[string]bool{}
	curByAbs := map[string]int{}
	curBySHA := map[string]int{}
	for i, s := range sessions {
		taken[s.Page] = true
		curByAbs[absPath(s.Source)] = i
		if _, ok := curBySHA[rd.sums[i]]; !ok {
			curBySHA[rd.sums[i]] = i
		}
	}
	pageRec := map[string]PageRecord{}
	for _, p := range prev.Pages {
		pageRec[p.Path] = p
	}
	srcRec := map[string]SourceRecord{}
	for _, s := range prev.Sources {
		srcRec[s.Path] = s
	}
	for _, ps := range prev.Sessions {
		pr, ok := pageRec[ps.Page]
		if !ok || taken[ps.Page] {
			continue
		}
		c := carried{session: ps, page: pr, source: srcRec[ps.Source], movedTo: -1}
		a := absPath(ps.Source)
		if j, ok := curByAbs[a]; ok {
			c.movedTo = j
		} else if j, ok := curBySHA[c.source.SHA256]; ok && c.source.SHA256 != "" {
			c.movedTo = j
		}
		if c.movedTo >= 0 {
			moved = append(moved, c)
			continue
		}
		if rd.excluded[a] {
			continue // --since left it out: removed
		}
		gone := false
		if err, ok := rd.failed[a]; ok {
			c.reason = staleReason(err)
		} else if fi, err := os.Stat(ps.Source); errors.Is(err, fs.ErrNotExist) {
			c.reason, gone = "source missing: "+ps.Source+" is no longer there", true
		} else if err != nil {
			c.reason = "source unreadable: " + err.Error()
		} else if !fi.Mode().IsRegular() {
			c.reason = "source unreadable: " + ps.Source + " is " + outpath.Kind(fi.Mode()) + " now"
		} else {
			c.reason, gone = "source not among this run's sources: "+ps.Source, true
		}
		if gone && o.Prune {
			continue // removed, as asked
		}
		stale = append(stale, c)
	}
	return stale, moved
}

// staleReason says why a source could not be archived, for a stale page.
func staleReason(err error) string {
	msg := err.Error()
	if errors.Is(err, sessiontree.ErrChanged) {
		return "source changed while it was archived: " + msg
	}
	return "source could not be archived: " + msg
}

func dropSource(rs []SourceRecord, p string) []SourceRecord {
	out := rs[:0]
	for _, r := range rs {
		if r.Path != p {
			out = append(out, r)
		}
	}
	return out
}

func hasSource(rs []SourceRecord, p string) bool {
	for _, r := range rs {
		if r.Path == p {
			return true
		}
	}
	return false
}

// keepStalePage puts a stale page of the previous archive in the staging
// directory as it is (its hash is not checked: the manifest keeps the
// one it had, so a page changed since is what verify reports). It must
// be a regular file: there is nothing to keep of a link or a FIFO.
func (r *runner) keepStalePage(page string) error {
	old := filepath.Join(r.out, filepath.FromSlash(page))
	fi, err := os.Lstat(old)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is %s", page, outpath.Kind(fi.Mode()))
	}
	dest := filepath.Join(r.stage, filepath.FromSlash(page))
	if err := mkdirStaged(filepath.Dir(dest)); err != nil {
		return err
	}
	return linkOrCopy(old, dest)
}

// linkOrCopy puts a kept page in the staging directory: a hard link where
// the file system allows it (pages are never changed in place, so sharing
// the file with the old archive is safe), else a copy. Its errors wrap
// errWrite: the page was there a moment ago, and failing to put it in
// the new archive is the archive's failure, not the session's.
func linkOrCopy(old, dest string) error {
	if testHooks.writeFault != nil {
		if err := testHooks.writeFault(dest); err != nil {
			return fmt.Errorf("%w: %s: %w", errWrite, dest, err)
		}
	}
	if err := os.Link(old, dest); err == nil {
		return nil
	}
	in, err := outpath.OpenRegular(old)
	if err != nil {
		return err // the old page is gone: it is made again, or not kept
	}
	defer in.Close()
	outF, err := os.Create(dest)
	if err != nil {
		return fmt.Errorf("%w: %w", errWrite, err)
	}
	if _, err := io.Copy(outF, in); err != nil {
		outF.Close()
		return fmt.Errorf("%w: copying %s: %w", errWrite, old, err)
	}
	if err := outF.Close(); err != nil {
		return fmt.Errorf("%w: %w", errWrite, err)
	}
	return nil
}

// siblingPath is a hidden path beside out, on the same file system, for
// the staging directory and the swap.
func siblingPath(out, what string) string {
	return filepath.Join(filepath.Dir(out), "."+filepath.Base(out)+".canopy-"+what)
}

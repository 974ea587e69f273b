// Package archive turns directories of sessions into an archive for audit:
// one page per session (as canopy export makes it), an index of them all,
// links between forks, child tasks and topics, and a manifest of hashes
// that `canopy verify` re-checks. A re-run renders only what changed, and
// the archive is swapped in whole, so an interrupted run leaves the
// previous one as it was.
package archive

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/go-json-experiment/json"

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
	Sessions int       // sessions in the archive
	Rendered int       // pages made anew
	Kept     int       // pages kept from the previous archive
	Removed  int       // pages of the previous archive no longer in it
	Problems []Problem // files reported and skipped
}

// flags lists the options that shape pages, as the manifest records them.
func (o *Options) flags() []string {
	f := []string{}
	if o.Redact {
		f = append(f, "--redact")
	}
	return f
}

// Run archives the sources into out.
func Run(srcs []string, out string, o Options) (*Result, error) {
	if o.Jobs <= 0 {
		o.Jobs = runtime.GOMAXPROCS(0)
	}
	out = filepath.Clean(out)
	stage := siblingPath(out, "staging")
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return nil, err
	}
	// Two runs into one archive would share the staging directory.
	unlock, err := lock(siblingPath(out, "lock"))
	if err != nil {
		return nil, err
	}
	defer unlock()
	if err := recoverSwap(out); err != nil {
		return nil, err
	}
	prev, err := previousArchive(out)
	if err != nil {
		return nil, err
	}
	found, problems := Discover(srcs, out, stage)

	var redactor *redact.Redactor
	if o.Redact {
		if redactor, err = redact.New(); err != nil {
			return nil, err
		}
	}
	// 1. Hash every source; summarize the sessions whose source changed.
	sessions, sessionSrc, sources, more := readSources(found, prev, redactor, &o)
	problems = append(problems, more...)

	// 2. Name the pages and link the sessions.
	assignPages(sessions, sessionSrc)
	pageOf := map[string]string{}
	for _, s := range sessions {
		pageOf[s.Source] = s.Page
	}
	for i := range sources {
		sources[i].Page = pageOf[sources[i].Path]
	}
	srcSum := map[string]string{}
	for _, r := range sources {
		srcSum[r.Path] = r.SHA256
	}
	rel := relate(sessions)
	navs := make([]*render.Nav, len(sessions))
	keys := make([]string, len(sessions))
	for i := range sessions {
		navs[i] = nav(sessions, rel, i)
		keys[i] = pageKey(o.Version, o.flags(), srcSum[sessions[i].Source], sessions[i].Title, navs[i])
	}

	// 3. Make the pages in a staging directory: unchanged ones are linked
	// from the previous archive, the others rendered.
	if err := os.RemoveAll(stage); err != nil {
		return nil, fmt.Errorf("clearing %s: %w", stage, err)
	}
	if err := os.MkdirAll(stage, 0o755); err != nil {
		return nil, err
	}
	r, err := render.New()
	if err != nil {
		return nil, err
	}
	pages, kept, perr := makePages(r, sessions, sessionSrc, navs, keys, prev, redactor, out, stage, &o)
	res := &Result{}
	var keptSessions []Session
	var keptPages []PageRecord
	for i := range sessions {
		if perr[i] != nil {
			problems = append(problems, Problem{sessions[i].Source, strings.TrimPrefix(perr[i].Error(), sessions[i].Source+": ")})
			os.Remove(filepath.Join(stage, filepath.FromSlash(sessions[i].Page)))
			for j := range sources {
				if sources[j].Path == sessions[i].Source {
					sources[j].Page = "" // no page was made
				}
			}
			continue
		}
		if kept[i] {
			res.Kept++
		} else {
			res.Rendered++
		}
		keptSessions = append(keptSessions, sessions[i])
		keptPages = append(keptPages, pages[i])
	}
	res.Sessions = len(keptSessions)
	sort.SliceStable(problems, func(i, j int) bool { return problems[i].Path < problems[j].Path })
	res.Problems = problems

	// 4. The index and the manifest.
	indexHTML, err := renderIndex(keptSessions, rel, sessions, problems, o.Version, o.flags())
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(stage, "index.html"), indexHTML, 0o644); err != nil {
		return nil, err
	}
	isum := sha256.Sum256(indexHTML)
	keptPages = append(keptPages, PageRecord{Path: "index.html", SHA256: hex.EncodeToString(isum[:]), Canopy: o.Version, Flags: o.flags(),
		Key: hex.EncodeToString(isum[:])})
	sort.Slice(keptPages, func(i, j int) bool { return keptPages[i].Path < keptPages[j].Path })
	m := &Manifest{Canopy: o.Version, Flags: o.flags(), Sources: sources, Pages: keptPages, Sessions: keptSessions, Skipped: problems}
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
	if err := os.WriteFile(filepath.Join(stage, ManifestName), data, 0o644); err != nil {
		return nil, err
	}
	if prev != nil {
		now := map[string]bool{}
		for _, p := range keptPages {
			now[p.Path] = true
		}
		for _, p := range prev.Pages {
			if !now[p.Path] {
				res.Removed++
			}
		}
	}

	// 5. Swap the new archive in.
	if err := swap(stage, out); err != nil {
		return nil, err
	}
	return res, nil
}

// readSources hashes every source and summarizes the sessions among them:
// those whose source the previous archive already had (by hash) from its
// manifest, the others by loading them. It returns the sessions to archive
// (less those --since leaves out) with their sources, the source records
// of the manifest, and the files it could not read.
func readSources(found []Source, prev *Manifest, redactor *redact.Redactor, o *Options) (sessions []Session, sessionSrc []Source, sources []SourceRecord, problems []Problem) {
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
	each(len(found), o.Jobs, func(i int) {
		src := found[i]
		defer progress(src.Path)
		size, sum, err := hashFile(src.Path)
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
	for i, src := range found {
		if !ok[i] {
			// A .json file met while walking that is no session (a
			// settings file beside the sessions) is not worth a report.
			if !src.Explicit && src.Format == FormatFlue && errors.Is(errs[i], sessiontree.ErrNotSession) {
				continue
			}
			problems = append(problems, Problem{src.Path, strings.TrimPrefix(errs[i].Error(), src.Path+": ")})
			continue
		}
		if src.Format != FormatGateway {
			s := sums[i]
			if !o.Since.IsZero() && s.LastActivity != "" {
				if t, err := time.Parse(time.RFC3339, s.LastActivity); err == nil && t.Before(o.Since) {
					continue
				}
			}
			sessions = append(sessions, s)
			sessionSrc = append(sessionSrc, src)
		}
		sources = append(sources, recs[i])
	}

	return sessions, sessionSrc, sources, problems
}

// makePages puts every session's page in the staging directory: linked
// from the previous archive when its key is unchanged and the old page
// still has the hash the manifest gives, else rendered. Failures are
// reported by session in perr.
func makePages(r *render.Renderer, sessions []Session, srcs []Source, navs []*render.Nav, keys []string, prev *Manifest,
	redactor *redact.Redactor, out, stage string, o *Options) (pages []PageRecord, kept []bool, perr []error) {
	prevPage := map[string]PageRecord{}
	if prev != nil {
		for _, p := range prev.Pages {
			prevPage[p.Path] = p
		}
	}
	pages = make([]PageRecord, len(sessions))
	kept = make([]bool, len(sessions))
	perr = make([]error, len(sessions))
	progress := o.progress("pages", len(sessions))
	each(len(sessions), o.Jobs, func(i int) {
		s := &sessions[i]
		defer progress(s.Source)
		dest := filepath.Join(stage, filepath.FromSlash(s.Page))
		if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
			perr[i] = err
			return
		}
		pages[i] = PageRecord{Path: s.Page, Source: s.Source, Canopy: o.Version, Flags: o.flags(), Key: keys[i]}
		if p, found := prevPage[s.Page]; found && p.Key == keys[i] {
			old := filepath.Join(out, filepath.FromSlash(s.Page))
			if _, sum, err := hashFile(old); err == nil && sum == p.SHA256 {
				if err := linkOrCopy(old, dest); err == nil {
					pages[i].SHA256, kept[i] = sum, true
					return
				}
			}
		}
		pages[i].SHA256, perr[i] = renderPage(r, srcs[i], redactor, render.Options{Version: o.Version, Nav: navs[i], Title: s.Title}, dest)
	})
	return pages, kept, perr
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

// each calls f(0..n-1) on `jobs` goroutines, taking items in order.
func each(n, jobs int, f func(i int)) {
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
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}

// load reads one session, redacted when r is set. The caller closes it.
func load(src Source, r *redact.Redactor) (*sessiontree.Session, error) {
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
func renderPage(r *render.Renderer, src Source, red *redact.Redactor, opts render.Options, dest string) (string, error) {
	s, err := load(src, red)
	if err != nil {
		return "", err
	}
	defer s.Close()
	if red != nil {
		opts.Omitted = []string{"secrets: replaced by [REDACTED:kind#n] markers, here and in the session file the page embeds"}
		// The page gives the redacted file's hash; the original's is in
		// the archive's manifest.
	}
	f, err := os.Create(dest)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	w := bufio.NewWriterSize(io.MultiWriter(f, h), 1<<20)
	if err := r.Render(w, s, opts); err != nil {
		f.Close()
		return "", err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return "", err
	}
	if err := f.Close(); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
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
// a suffix, in source order.
func assignPages(ss []Session, srcs []Source) {
	used := map[string]bool{"index.html": true, ManifestName: true}
	for i := range ss {
		rel := srcs[i].Rel
		rel = strings.TrimSuffix(rel, path.Ext(rel))
		p := "sessions/" + rel + ".html"
		for n := 2; used[p]; n++ {
			p = fmt.Sprintf("sessions/%s~%d.html", rel, n)
		}
		used[p] = true
		ss[i].Page = p
	}
}

// linkOrCopy puts a kept page in the staging directory: a hard link where
// the file system allows it (pages are never changed in place, so sharing
// the file with the old archive is safe), else a copy.
func linkOrCopy(old, dest string) error {
	if err := os.Link(old, dest); err == nil {
		return nil
	}
	in, err := os.Open(old)
	if err != nil {
		return err
	}
	defer in.Close()
	outF, err := os.Create(dest)
	if err != nil {
		return err
	}
	if _, err := io.Copy(outF, in); err != nil {
		outF.Close()
		return err
	}
	return outF.Close()
}

// previousArchive reads out's manifest. out must be missing, empty, or an
// archive: the swap replaces the whole directory, so a directory holding
// anything else is refused.
func previousArchive(out string) (*Manifest, error) {
	fi, err := os.Stat(out)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", out)
	}
	m, err := readManifest(out)
	if err != nil {
		// An unreadable manifest: render everything again.
		return nil, nil
	}
	if m == nil {
		ents, err := os.ReadDir(out)
		if err != nil {
			return nil, err
		}
		if len(ents) > 0 {
			return nil, fmt.Errorf("%s is not empty and holds no %s: not replacing it with an archive", out, ManifestName)
		}
	}
	return m, nil
}

// siblingPath is a hidden path beside out, on the same file system, for
// the staging directory and the swap.
func siblingPath(out, what string) string {
	return filepath.Join(filepath.Dir(out), "."+filepath.Base(out)+".canopy-"+what)
}

package archive

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-json-experiment/json"

	"canopy/export"
	"canopy/htmlpage"
	"canopy/internal/jobs"
	"canopy/redact"
	"canopy/searchindex"
	"canopy/sessiontree"
)

// madePages is what makePages did for each session.
type madePages struct {
	pages []PageRecord
	kept  []bool  // linked from the previous archive, not rendered
	perr  []error // why the session's page could not be made; nil when it was
}

// makePages puts every session's page in the staging directory: linked
// from the previous archive when its key is unchanged and the old page
// is still a regular file with the hash the manifest gives, else
// rendered. Failures of a session (its source unreadable, changed) are
// reported by session in perr; a failure to write (a full disk) or an
// interrupt stops all the work and is returned as err.
func (r *runner) makePages(rr *htmlpage.Renderer, b *build, redactor *redact.Redactor) (*madePages, error) {
	o := r.o
	n := len(b.sessions)
	m := &madePages{pages: make([]PageRecord, n), kept: make([]bool, n), perr: make([]error, n)}
	// The first write failure cancels the others' work.
	ctx, abort := context.WithCancelCause(r.ctx)
	defer abort(nil)
	mine := n
	if b.mine != nil {
		mine = 0
		for _, ok := range b.mine {
			if ok {
				mine++
			}
		}
	}
	progress := o.progress("pages", mine)
	jobs.Each(ctx, n, o.Jobs, func(i int) {
		if !b.isMine(i) {
			return // another shard renders it
		}
		s := &b.sessions[i]
		dest := filepath.Join(r.stage, filepath.FromSlash(s.Page))
		if err := mkdirStaged(filepath.Dir(dest)); err != nil {
			abort(err)
			return
		}
		m.pages[i] = PageRecord{Path: s.Page, Source: s.Source, Canopy: o.Version, Flags: o.flags(), Key: b.keys[i]}
		var sum string
		var err error
		if r.keepableText(b.recs, s.Page) { // else made again, with its text file
			if sum, err = r.keepPage(ctx, b.recs.pages[s.Page], b.keys[i], dest); err == nil && sum != "" {
				if err = r.keepText(s.Page); err == nil {
					r.keptText(b.recs, s.Page)
				}
			}
		}
		if err != nil {
			abort(err)
			return
		}
		if sum == "" {
			// Subagents: a Claude Code session's page draws its subagents
			// under the calls that ran them, as canopy export's does;
			// their own pages are linked from it too (Nav).
			page := export.Options{Redactor: redactor, Archived: true, Subagents: true,
				Page: htmlpage.Options{Version: o.Version, Nav: b.navs[i], Title: s.Title}}
			var werr error
			sum, m.perr[i], werr = renderPage(ctx, rr, b.srcs[i], page, dest, r.stage, s.Page, r.counted)
			if werr != nil {
				abort(werr)
				return
			}
		} else {
			m.kept[i] = true
		}
		m.pages[i].SHA256 = sum
		progress(s.Source)
	})
	if err := r.ctx.Err(); err != nil {
		return nil, err
	}
	if err := context.Cause(ctx); err != nil {
		return nil, err
	}
	return m, nil
}

// keepPage links the previous archive's page p into the staging
// directory at dest when it was made with this key, is not stale, and is
// still a regular file with the hash the manifest gives. It returns the
// page's hash, "" when it is to be made again; an error is the archive's
// (a write failed).
func (r *runner) keepPage(ctx context.Context, p PageRecord, key, dest string) (string, error) {
	if p.Path == "" || p.Key != key || p.Stale != "" {
		return "", nil
	}
	old := filepath.Join(r.out, filepath.FromSlash(p.Path))
	// Lstat first: a link or a FIFO where the page was is made again,
	// never kept (nor opened in a way that could block).
	if fi, err := os.Lstat(old); err != nil || !fi.Mode().IsRegular() {
		return "", nil
	}
	if _, sum, err := hashFile(ctx, old); err != nil || sum != p.SHA256 {
		return "", nil
	}
	if err := linkOrCopy(old, dest); err != nil {
		if errors.Is(err, errWrite) {
			return "", err
		}
		return "", nil // the old page went meanwhile: made again
	}
	return p.SHA256, nil
}

// prepare loads a source and makes of it what its page shows, through the
// export pipeline (redacted when o has a Redactor). The caller closes the
// session.
func prepare(ctx context.Context, src Source, o export.Options) (*export.Prepared, error) {
	// No MaxInput: a source that is no longer a regular file (a FIFO put
	// in its place) is refused, not opened.
	var s *sessiontree.Session
	var err error
	if src.store != nil {
		s, err = src.store.Load(src.Session)
	} else {
		s, err = export.Load(ctx, export.Input{Path: src.Path})
	}
	if err != nil {
		return nil, err
	}
	p, err := export.Prepare(ctx, s, o)
	if err != nil || p.Session != s {
		s.Close() // the page is made of a session in memory
	}
	return p, err
}

// renderPage writes one session's page to dest, and its text file for
// the search index into stage (pagePath is the page's path in the
// archive), and returns the page's SHA-256.
// What goes wrong with the session (serr: its source unreadable, changed
// while it was read again) is told apart from what goes wrong with the
// archive (werr: a write failed, the run was interrupted): the first
// skips one session, the second stops the run.
func renderPage(ctx context.Context, r *htmlpage.Renderer, src Source, o export.Options, dest, stage, pagePath string, counted *countedText) (sum string, serr, werr error) {
	p, err := prepare(ctx, src, o)
	if err != nil {
		if ctx.Err() != nil {
			return "", nil, ctx.Err()
		}
		return "", err, nil
	}
	defer p.Session.Close()
	// The search text is gathered as the page decodes the entries.
	g := searchindex.NewGatherer(p.Session)
	p.Page.Decoded = g.Add
	if testHooks.afterLoad != nil {
		testHooks.afterLoad(src.Path)
	}
	f, err := createStaged(dest)
	if err != nil {
		return "", nil, err
	}
	sw := &stagedWriter{ctx: ctx, f: f, path: dest}
	h := sha256.New()
	rerr := export.Render(ctx, r, io.MultiWriter(sw, h), p)
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
	// Its text for the search index, from the session the page shows.
	if err := writeSearchText(ctx, p, g, stage, pagePath, counted); err != nil {
		return "", nil, err
	}
	return hex.EncodeToString(h.Sum(nil)), nil, nil
}

// pageKey hashes everything a session's page is made from: its source,
// and the others drawn in it (more: a Claude Code session's subagents,
// their paths and hashes).
func pageKey(version string, flags []string, sourceSHA, title string, nav *htmlpage.Nav, more ...string) string {
	h := sha256.New()
	writeKey(h, "canopy "+version, strings.Join(flags, " "), sourceSHA, title)
	b, _ := json.Marshal(nav, json.Deterministic(true))
	h.Write(b)
	writeKey(h, more...)
	return hex.EncodeToString(h.Sum(nil))
}

func writeKey(h hash.Hash, parts ...string) {
	for _, p := range parts {
		fmt.Fprintf(h, "%d:%s\n", len(p), p)
	}
}

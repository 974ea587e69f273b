package archive

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"canopy/export"
	"canopy/internal/jobs"
	"canopy/redact"
	"canopy/sessiontree"
)

// readResult is what readSources learned.
type readResult struct {
	sessions []Session // to archive, less those --since leaves out
	srcs     []Source  // their sources
	sums     []string  // their sources' SHA-256
	sources  []SourceRecord
	problems []Problem
	passed   []Problem // files of a gateway store that are not sessions
	// failed holds why each source that could not be archived could not,
	// by absolute path; excluded, the sources --since left out.
	failed   map[string]error
	excluded map[string]bool
}

// sourceRead is what was learned of one source.
type sourceRead struct {
	ok      bool
	rec     SourceRecord
	session Session // for a session's source
	err     error   // why it could not be read (ok false)
}

// known is what the previous run learned of a source, found by its hash.
type known struct {
	session *Session
	format  string
}

// readSources hashes every source and summarizes the sessions among them:
// those whose source the previous archive already had (by hash) from its
// manifest, the others by loading them. finder counts the credentials in
// each, and with o.Redact replaces them in what the index shows.
func readSources(ctx context.Context, found []Source, prev *Manifest, recs records, finder *redact.Redactor, o *Options) *readResult {
	byHash := knownSessions(prev, recs, o)
	if o.Redact {
		redactLabels(found, finder)
	}
	reads := make([]sourceRead, len(found))
	stores := hashStores(ctx, found)
	progress := o.progress("reading", len(found))
	jobs.Each(ctx, len(found), o.Jobs, func(i int) {
		defer progress(found[i].Path)
		reads[i] = readSource(ctx, found[i], byHash, stores, finder, o.Redact)
	})
	rd := &readResult{failed: map[string]error{}, excluded: map[string]bool{}}
	if ctx.Err() != nil {
		return rd // the caller stops
	}
	for i, src := range found {
		rd.add(src, reads[i], o.Since)
	}
	return rd
}

// knownSessions maps the hashes of the previous archive's sources to what
// it learned of their sessions, when it was made by this version with
// these flags. By hash, not path: the same directory named another way
// (relative, absolute, moved) is not a reason to load every session
// again.
func knownSessions(prev *Manifest, recs records, o *Options) map[string]known {
	byHash := map[string]known{}
	if prev == nil || prev.Canopy != o.Version || strings.Join(prev.Flags, " ") != strings.Join(o.flags(), " ") {
		return byHash
	}
	add := func(ss []Session) {
		for i := range ss {
			if r, ok := recs.sources[ss[i].Source]; ok && !lacksSpend(&ss[i]) {
				_, session := storeFile(ss[i].Source) // a database's sessions share its hash
				byHash[r.SHA256+session] = known{&ss[i], r.Format}
			}
		}
	}
	if prev.Shard != nil {
		add(prev.Shard.Sessions) // every session, the other shards' too
	}
	add(prev.Sessions)
	return byHash
}

// redactLabels redacts the gateway stores' labels: the index shows them.
func redactLabels(found []Source, redactor *redact.Redactor) {
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

// readSource hashes one source and summarizes its session: from what the
// previous run learned of the same bytes, else by loading it as its page
// is made, its credentials counted by finder (and replaced, with
// redacted).
func readSource(ctx context.Context, src Source, byHash map[string]known, stores map[string]fileSum, finder *redact.Redactor, redacted bool) sourceRead {
	size, sum, err := hashSource(ctx, src, stores)
	if err != nil {
		return sourceRead{err: err}
	}
	rec := SourceRecord{Path: src.Path, Size: size, SHA256: sum, Format: src.Format}
	if src.Format == FormatGateway {
		return sourceRead{ok: true, rec: rec}
	}
	if k, found := byHash[sum+src.Session]; found {
		s := *k.session
		s.Source = src.Path
		s.Gateway = src.Gateway // the store may have changed alone
		s.Rotation, s.Locked = src.Rotation, src.Locked
		s.Stale = "" // its source is back as it was
		rec.Format = k.format
		return sourceRead{ok: true, rec: rec, session: s}
	}
	p, err := prepare(ctx, src, export.Options{Redactor: finder, KeepSecrets: !redacted, Archived: true})
	if err != nil {
		return sourceRead{err: err}
	}
	s := p.Session
	defer s.Close()
	if src.Format == FormatFlue && !sessiontree.AgentOf(s.Format).Document {
		// A .json file that is not a session document (Flue's, or an
		// agent's of that kind): JSONL that happens to be one object long
		// is not what it holds.
		return sourceRead{err: fmt.Errorf("not a Flue session document: %w", sessiontree.ErrNotSession)}
	}
	summary := summarize(s, src)
	if err := s.Err(); err != nil {
		return sourceRead{err: err} // the first prompt could not be read again
	}
	summary.Secrets = p.Report.Total()
	if a := summary.Agent; a != nil && redacted {
		red := *a // the meta file's words are shown in the index and in links
		red.Type, _ = finder.Text(red.Type)
		red.Description, _ = finder.Text(red.Description)
		summary.Agent = &red
	}
	rec.Format = fmt.Sprintf("%s v%d", s.Format, s.Version)
	return sourceRead{ok: true, rec: rec, session: summary}
}

// add records what was read of one source: a session to archive (unless
// --since leaves it out), a source, or a problem.
func (rd *readResult) add(src Source, r sourceRead, since time.Time) {
	if !r.ok {
		rd.failed[absPath(src.Path)] = r.err
		// A .json file met while walking that is no session (a settings
		// file beside the sessions) is not worth a report.
		// In a gateway store's directory it is listed all the same: all a
		// store holds is archived or listed.
		if !src.Explicit && src.Format == FormatFlue && errors.Is(r.err, sessiontree.ErrNotSession) {
			if src.InStore {
				rd.passed = append(rd.passed, Problem{src.Path, "not archived: not a session (" + strings.TrimPrefix(r.err.Error(), src.Path+": ") + ")"})
			}
			return
		}
		rd.problems = append(rd.problems, Problem{src.Path, strings.TrimPrefix(r.err.Error(), src.Path+": ")})
		return
	}
	if src.Format != FormatGateway {
		if !since.IsZero() && r.session.LastActivity != "" {
			if t, err := time.Parse(time.RFC3339, r.session.LastActivity); err == nil && t.Before(since) {
				rd.excluded[absPath(src.Path)] = true
				return
			}
		}
		rd.sessions = append(rd.sessions, r.session)
		rd.srcs = append(rd.srcs, src)
		rd.sums = append(rd.sums, r.rec.SHA256)
	}
	rd.sources = append(rd.sources, r.rec)
}

package archive

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"canopy/internal/outpath"
	"canopy/sessiontree"
)

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
func (b *build) carryOver(o *Options) (stale, moved []carried) {
	prev, recs, sessions, rd := b.prev, b.recs, b.sessions, b.rd
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
	for _, ps := range prev.Sessions {
		pr, ok := recs.pages[ps.Page]
		if !ok || taken[ps.Page] {
			continue
		}
		c := carried{session: ps, page: pr, source: recs.sources[ps.Source], movedTo: -1}
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
		} else if fi, err := os.Stat(first(storeFile(ps.Source))); errors.Is(err, fs.ErrNotExist) {
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

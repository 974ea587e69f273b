package archive

import (
	"fmt"
	"path/filepath"
)

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
		rel := pageStem(srcs[i].Rel)
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
func pageOwners(prev records) map[string]owner {
	out := make(map[string]owner, len(prev.sessions))
	for page, s := range prev.sessions {
		out[page] = owner{abs: absPath(s.Source), base: filepath.Base(s.Source), sha: prev.sources[s.Source].SHA256}
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

package archive

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"github.com/go-json-experiment/json"

	"canopy/searchindex"
)

// Merge builds the archive at out from the archives of the shards of one
// sharded run (Run with Options.Shards): their pages, and an index and a
// manifest of them all, byte for byte what one run over the same sources
// makes. The shards must all be there, made by this version with the
// same flags from the same sources. Like Run, it replaces out only when
// out is missing, empty or an archive canopy made, and swaps the new
// archive in whole; pages out already has with the same hash are kept as
// they are, and a merge that would change nothing writes nothing.
func Merge(ctx context.Context, shards []string, out string, version string) (*Result, error) {
	if len(shards) == 0 {
		return nil, errors.New("no shard to merge")
	}
	abs, err := resolveOutdir(out, shards)
	if err != nil {
		return nil, err
	}
	ms, dirs, err := readShards(shards, version)
	if err != nil {
		return nil, err
	}
	r := &runner{ctx: ctx, o: &Options{Version: version}, name: out, out: abs, stage: siblingPath(abs, "staging")}
	res, err := r.merge(dirs, ms)
	return r.finish(res, err)
}

// readShards reads the shards' manifests and returns them and their
// directories in shard order, once it has checked that they are the
// whole of one sharded run.
func readShards(dirs []string, version string) ([]*Manifest, []string, error) {
	ms := make([]*Manifest, len(dirs))
	ordered := make([]string, len(dirs))
	for _, d := range dirs {
		m, err := readManifest(d)
		switch {
		case err != nil:
			return nil, nil, fmt.Errorf("%s: %w", d, err)
		case m == nil:
			return nil, nil, fmt.Errorf("%s: no %s: not a shard of an archive", d, ManifestName)
		case m.Shard == nil:
			return nil, nil, fmt.Errorf("%s: an archive, not a shard (made without --shard)", d)
		case m.Shard.Count != len(dirs):
			return nil, nil, fmt.Errorf("%s: shard %d of %d, and %d shards given: merge every shard of the run, once", d, m.Shard.Index, m.Shard.Count, len(dirs))
		case m.Shard.Index < 0 || m.Shard.Index >= len(dirs):
			return nil, nil, fmt.Errorf("%s: shard %d of %d: not a shard number", d, m.Shard.Index, m.Shard.Count)
		case ms[m.Shard.Index] != nil:
			return nil, nil, fmt.Errorf("%s: shard %d given twice", d, m.Shard.Index)
		case m.Canopy != version:
			return nil, nil, fmt.Errorf("%s: made by canopy %s, not %s: make the shards again, or merge with that version", d, m.Canopy, version)
		}
		ms[m.Shard.Index], ordered[m.Shard.Index] = m, d
		m.Pages = withoutIndex(m.Pages)
	}
	first, err := json.Marshal(ms[0].Shard.Sessions, json.Deterministic(true))
	if err != nil {
		return nil, nil, err
	}
	for k, m := range ms[1:] {
		if fmt.Sprint(m.Flags) != fmt.Sprint(ms[0].Flags) {
			return nil, nil, fmt.Errorf("shard %d was made with flags %v, shard 0 with %v", k+1, m.Flags, ms[0].Flags)
		}
		b, err := json.Marshal(m.Shard.Sessions, json.Deterministic(true))
		if err != nil {
			return nil, nil, err
		}
		if !bytes.Equal(b, first) {
			return nil, nil, fmt.Errorf("shards 0 and %d were made from different sources (or the sources changed between them): run every shard again", k+1)
		}
	}
	return ms, ordered, nil
}

// withoutIndex drops a shard's own index (of its share) and search index
// from its pages: the merge makes those of them all.
func withoutIndex(ps []PageRecord) []PageRecord {
	out := ps[:0:0]
	for _, p := range ps {
		if !ownPage(p.Path) {
			out = append(out, p)
		}
	}
	return out
}

// merged is what the shards add up to.
type merged struct {
	m      *Manifest // the archive's, the index among its pages
	index  []byte
	usage  []byte            // usage.html
	from   map[string]string // page path -> the shard directory that has it
	stale  []Stale
	shards int
	// The search index's files, and their records.
	search     []searchindex.File
	searchRecs []PageRecord
}

// combine adds the shards up as one run would have made them: the rows,
// pages and sources of each (those every shard has, once), the files
// skipped, and an index linking all the sessions.
func (r *runner) combine(dirs []string, ms []*Manifest) (*merged, error) {
	out := &merged{from: map[string]string{}, shards: len(ms)}
	var rows []Session
	var pages []PageRecord
	sources := map[string]SourceRecord{}
	var skipped []Problem
	seenSkip := map[Problem]bool{}
	var stale []Session
	for k, m := range ms {
		dir := dirs[k]
		rows = append(rows, m.Sessions...)
		for _, s := range m.Sessions {
			if s.Stale != "" {
				stale = append(stale, s)
				out.stale = append(out.stale, Stale{Source: s.Source, Page: s.Page, Reason: s.Stale})
			}
		}
		for _, p := range m.Pages {
			if _, dup := out.from[p.Path]; dup {
				return nil, fmt.Errorf("page %s is in two shards: they are not of one run", p.Path)
			}
			out.from[p.Path] = dir
			pages = append(pages, p)
		}
		for _, s := range m.Sources {
			if old, ok := sources[s.Path]; ok && old != s {
				return nil, fmt.Errorf("source %s: the shards saw it differently (it changed between them): run every shard again", s.Path)
			}
			sources[s.Path] = s
		}
		for _, p := range m.Skipped {
			if !seenSkip[p] {
				seenSkip[p] = true
				skipped = append(skipped, p)
			}
		}
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].Source < rows[j].Source })
	sort.SliceStable(skipped, func(i, j int) bool { return skipped[i].Path < skipped[j].Path })
	sort.SliceStable(stale, func(i, j int) bool { return stale[i].Source < stale[j].Source })
	srcs := make([]SourceRecord, 0, len(sources))
	for _, s := range sources {
		srcs = append(srcs, s)
	}
	sort.Slice(srcs, func(i, j int) bool { return srcs[i].Path < srcs[j].Path })
	all := append(append([]Session(nil), ms[0].Shard.Sessions...), stale...)
	first := ms[0]
	index, err := renderIndex(rows, relate(all), all, skipped, first.Canopy, first.Flags)
	if err != nil {
		return nil, err
	}
	_, searchRecs, searchFiles, err := r.buildSearch(rows, func(page string) string { return out.from[searchindex.TextPath(page)] }, nil)
	if err != nil {
		return nil, err
	}
	out.search, out.searchRecs = searchFiles, searchRecs
	pages = append(pages, searchRecs...)
	isum := sha256.Sum256(index)
	sum := hex.EncodeToString(isum[:])
	pages = append(pages, PageRecord{Path: "index.html", SHA256: sum, Canopy: first.Canopy, Flags: first.Flags, Key: sum})
	usageHTML, usageRec, err := usagePage(rows, srcs, first.Canopy, first.Flags)
	if err != nil {
		return nil, err
	}
	out.usage, pages = usageHTML, append(pages, usageRec)
	sort.Slice(pages, func(i, j int) bool { return pages[i].Path < pages[j].Path })
	out.m = &Manifest{Canopy: first.Canopy, Flags: first.Flags, Sources: srcs, Pages: pages, Sessions: rows, Skipped: skipped}
	out.index = index
	return out, nil
}

// merge makes the merged archive: nothing at all when out already is
// it, else a staging directory of the pages (kept from out when they
// are the same, else taken from their shard), the index and the
// manifest, swapped in.
func (r *runner) merge(dirs []string, ms []*Manifest) (*Result, error) {
	// The search index's records carry the shards' flags, as a run's do.
	r.o.Redact = slices.Contains(ms[0].Flags, "--redact")
	mg, err := r.combine(dirs, ms)
	if err != nil {
		return nil, err
	}
	data, err := mg.m.encode()
	if err != nil {
		return nil, err
	}
	prev, err := r.open()
	if err != nil {
		return nil, err
	}
	res := &Result{Sessions: len(mg.m.Sessions), Stale: mg.stale}
	if prev != nil && r.unchanged(data, mg.m) {
		res.Kept = len(mg.m.Sessions)
		return res, nil
	}
	if err := r.makeStage(); err != nil {
		return nil, err
	}
	recs := prev.records()
	for _, p := range mg.m.Pages {
		if ownPage(p.Path) {
			continue
		}
		if err := r.interrupted(); err != nil {
			return nil, err
		}
		kept, err := r.placePage(p, recs.pages[p.Path], mg.from[p.Path])
		switch {
		case err != nil:
			return nil, err
		case inSearch(p.Path):
			// A session's text for the search index: placed with its
			// page, not counted as one.
		case kept:
			res.Kept++
		default:
			res.Rendered++
		}
	}
	if err := r.placeSearch(mg.search, mg.searchRecs, recs); err != nil {
		return nil, err
	}
	if err := writeStaged(filepath.Join(r.stage, "index.html"), mg.index); err != nil {
		return nil, err
	}
	if err := writeStaged(filepath.Join(r.stage, UsageName), mg.usage); err != nil {
		return nil, err
	}
	if err := writeStaged(filepath.Join(r.stage, ManifestName), data); err != nil {
		return nil, err
	}
	if prev != nil {
		for _, p := range prev.Pages {
			if _, ok := mg.from[p.Path]; !ok && !ownPage(p.Path) && !inSearch(p.Path) {
				res.Removed++
			}
		}
	}
	return r.swapIn(&build{prev: prev, res: res})
}

// unchanged reports whether out holds the merged archive already: the
// same manifest, and every page it lists there with its hash.
func (r *runner) unchanged(data []byte, m *Manifest) bool {
	old, err := os.ReadFile(filepath.Join(r.out, ManifestName))
	if err != nil || !bytes.Equal(old, data) {
		return false
	}
	for _, p := range m.Pages {
		name := filepath.Join(r.out, filepath.FromSlash(p.Path))
		if fi, err := os.Lstat(name); err != nil || !fi.Mode().IsRegular() {
			return false
		}
		if _, sum, err := hashFile(r.ctx, name); err != nil || sum != p.SHA256 {
			return false
		}
	}
	return true
}

// placePage puts page p in the staging directory: linked from out when
// out has it with the same hash (kept), else from its shard's directory,
// whose copy must have the hash its manifest gives.
func (r *runner) placePage(p, old PageRecord, shardDir string) (kept bool, err error) {
	dest := filepath.Join(r.stage, filepath.FromSlash(p.Path))
	if err := mkdirStaged(filepath.Dir(dest)); err != nil {
		return false, err
	}
	if old.SHA256 == p.SHA256 && old.Stale == p.Stale {
		if sum, err := r.keepPage(r.ctx, old, old.Key, dest); err != nil {
			return false, err
		} else if sum != "" {
			return true, nil
		}
	}
	src := filepath.Join(shardDir, filepath.FromSlash(p.Path))
	if fi, err := os.Lstat(src); err != nil || !fi.Mode().IsRegular() {
		return false, fmt.Errorf("%s: page %s is missing or not a regular file: run that shard again", shardDir, p.Path)
	}
	if _, sum, err := hashFile(r.ctx, src); err != nil || sum != p.SHA256 {
		return false, fmt.Errorf("%s: page %s does not match its shard's manifest: run that shard again", shardDir, p.Path)
	}
	return false, linkOrCopy(src, dest)
}

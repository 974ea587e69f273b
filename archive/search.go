package archive

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"canopy/export"
	"canopy/internal/outpath"
	"canopy/searchindex"
)

// The archive's search index (package searchindex): each session's text
// file is made with its page and kept with it; the rest of the index is
// made from the text files after the pages, by Run and by Merge alike.

// writeSearchText writes the text file of p's session, whose page is
// page, into the staging directory stage (the text of the entries g
// gathered as the page was drawn taken from it), and counts its terms into
// counted (when not nil).
func writeSearchText(ctx context.Context, p *export.Prepared, g *searchindex.Gatherer, stage, page string, counted *countedText) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	entries := searchindex.Extract(p.Session, p.Leaf, g)
	data, err := searchindex.EncodeText(page, entries)
	if err != nil {
		return err
	}
	dest := filepath.Join(stage, filepath.FromSlash(searchindex.TextPath(page)))
	if err := mkdirStaged(filepath.Dir(dest)); err != nil {
		return err
	}
	if err := writeStaged(dest, data); err != nil {
		return err
	}
	if counted != nil {
		counted.add(page, data, counted.dict.Count(entries))
	}
	return nil
}

// countedText is the terms of the text files a run writes, by page,
// counted as they are written: the index is built from them without
// reading the files back. The pages kept from the previous archive are
// not here: their text files are read.
type countedText struct {
	dict *searchindex.Dict
	mu   sync.Mutex
	text map[string]counted
}

// counted is one text file's hash and terms.
type counted struct {
	sum   string
	terms *searchindex.Terms
}

func newCountedText() *countedText {
	return &countedText{dict: searchindex.NewDict(), text: map[string]counted{}}
}

func (c *countedText) add(page string, data []byte, t *searchindex.Terms) {
	sum := sha256.Sum256(data)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.text != nil { // not released
		c.text[page] = counted{hex.EncodeToString(sum[:]), t}
	}
}

// known records the hash of page's text file, kept as it was: its
// terms are not counted.
func (c *countedText) known(page, sum string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.text != nil { // not released
		c.text[page] = counted{sum: sum}
	}
}

// release forgets the text files counted, once they are handed to Build.
func (c *countedText) release() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.text = nil
}

// dictOf is the Dict the terms were counted with (nil: none were).
func (c *countedText) dictOf() *searchindex.Dict {
	if c == nil {
		return nil
	}
	return c.dict
}

// get is what was counted of page's text file (ok false: it was not
// written this run).
func (c *countedText) get(page string) (counted, bool) {
	if c == nil {
		return counted{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	t, ok := c.text[page]
	return t, ok
}

// keepableText reports whether the previous archive's text file of page
// can be kept: listed in its manifest, there, a regular file with the
// hash listed. A page whose text file cannot be kept is made again.
func (r *runner) keepableText(recs records, page string) bool {
	p, ok := recs.pages[searchindex.TextPath(page)]
	if !ok {
		return false
	}
	old := filepath.Join(r.out, filepath.FromSlash(p.Path))
	if fi, err := os.Lstat(old); err != nil || !fi.Mode().IsRegular() {
		return false
	}
	_, sum, err := hashFile(r.ctx, old)
	return err == nil && sum == p.SHA256
}

// keptText records that page's text file was kept from the previous
// archive, its hash checked (keepableText): the index knows its hash
// without reading it.
func (r *runner) keptText(recs records, page string) {
	if p, ok := recs.pages[searchindex.TextPath(page)]; ok {
		r.counted.known(page, p.SHA256)
	}
}

// keepText links the previous archive's text file of page into the
// staging directory (after keepableText said it can be). A text file
// that is not there (a stale page's, from before search) is no error:
// that session is found by its title only.
func (r *runner) keepText(page string) error {
	rel := filepath.FromSlash(searchindex.TextPath(page))
	old := filepath.Join(r.out, rel)
	if fi, err := os.Lstat(old); err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	dest := filepath.Join(r.stage, rel)
	if err := mkdirStaged(filepath.Dir(dest)); err != nil {
		return err
	}
	return linkOrCopy(old, dest)
}

// searchRow is what the index shows of a session and filters it by.
func searchRow(s *Session) searchindex.Session {
	agent := s.Format
	if s.Agent != nil {
		agent += " subagent"
	}
	return searchindex.Session{Page: s.Page, Title: s.Title, Agent: agent, Project: s.Project,
		Date: s.LastActivity, Models: s.Models}
}

// buildSearch makes the search index of the rows from their text files
// in the staging directory (or, when dirOf gives one, in each session's
// dir: a merge's shards). It returns the manifest's records of the text
// files and of the index's files, and the index's files. When prev (the
// previous archive's records) is given and the index would be made of
// what the previous one was (searchKey), the previous index's files are
// linked into the staging directory instead, and files is nil.
func (r *runner) buildSearch(rows []Session, dirOf func(page string) string, prev *records) (texts, index []PageRecord, files []searchindex.File, err error) {
	ss := make([]searchindex.Session, len(rows))
	sums := make([]string, len(rows)) // the text files' hashes, by row; "" for none
	known := true                     // every row's text file is there, its hash known
	for i := range rows {
		ss[i] = searchRow(&rows[i])
		rel := searchindex.TextPath(rows[i].Page)
		c, ok := r.counted.get(rows[i].Page)
		sums[i], known = c.sum, known && ok
		if c.terms != nil {
			ss[i].Terms = c.terms
			continue
		}
		dir := r.stage
		if dirOf != nil {
			dir = dirOf(rows[i].Page)
		}
		// Read as Build needs it: thousands of text files are not held
		// at once.
		ss[i].Read = func() ([]byte, error) {
			data, err := readText(filepath.Join(dir, filepath.FromSlash(rel)))
			if data != nil {
				sum := sha256.Sum256(data)
				sums[i] = hex.EncodeToString(sum[:])
			}
			return data, err
		}
	}
	// The counted terms are in ss now, for Build to drop as it goes.
	r.counted.release()
	if known && prev != nil {
		index, err := r.keepSearch(*prev, r.searchKey(ss, sums))
		if err != nil || index != nil {
			return r.textRecords(rows, sums), index, nil, err
		}
	}
	if testHooks.searchBuilt != nil {
		testHooks.searchBuilt()
	}
	files, err = searchindex.Build(r.ctx, ss, r.o.Jobs, r.counted.dictOf())
	if err != nil {
		return nil, nil, nil, err
	}
	key := r.searchKey(ss, sums)
	for _, f := range files {
		rec := r.searchRecord(f.Path, f.Data)
		if f.Path == searchindex.MetaPath {
			rec.Key = key
		}
		index = append(index, rec)
	}
	return r.textRecords(rows, sums), index, files, nil
}

// textRecords are the manifest's records of the rows' text files.
func (r *runner) textRecords(rows []Session, sums []string) []PageRecord {
	var out []PageRecord
	for i := range rows {
		if sums[i] != "" {
			out = append(out, r.searchRecordSum(searchindex.TextPath(rows[i].Page), sums[i]))
		}
	}
	return out
}

// searchKey names what an index is made of: canopy's version and flags,
// and each session (what the index shows of it, and its text file's
// hash), in page order. It is meta.js's key in the manifest: an index
// with the key of the previous archive's is that index.
func (r *runner) searchKey(ss []searchindex.Session, sums []string) string {
	order := make([]int, len(ss))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return ss[order[a]].Page < ss[order[b]].Page })
	h := sha256.New()
	writeKey(h, "search index", r.o.Version, strings.Join(r.o.flags(), " "))
	for _, i := range order {
		s := &ss[i]
		writeKey(h, s.Page, s.Title, s.Agent, s.Project, s.Date, strings.Join(s.Models, "\n"), sums[i])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// keepSearch links the previous archive's index files (meta.js and the
// shards) into the staging directory when its meta.js has the key and
// every one of them is still what the manifest says; it returns their
// records, or nil when the index is to be built (nothing left linked).
func (r *runner) keepSearch(prev records, key string) ([]PageRecord, error) {
	if meta, ok := prev.pages[searchindex.MetaPath]; !ok || meta.Key != key {
		return nil, nil
	}
	var recs []PageRecord
	for path, p := range prev.pages {
		if searchindex.IsIndexFile(path) {
			recs = append(recs, p)
		}
	}
	sort.Slice(recs, func(i, j int) bool { return recs[i].Path < recs[j].Path })
	var linked []string
	for _, p := range recs {
		dest := filepath.Join(r.stage, filepath.FromSlash(p.Path))
		if err := mkdirStaged(filepath.Dir(dest)); err != nil {
			return nil, err
		}
		sum, err := r.keepPage(r.ctx, p, p.Key, dest)
		if err != nil {
			return nil, err
		}
		if sum == "" {
			// Built after all: the links go, so that no write
			// goes through one into the previous archive.
			for _, l := range linked {
				if err := os.Remove(l); err != nil {
					return nil, fmt.Errorf("%w: %w", errWrite, err)
				}
			}
			return nil, nil
		}
		linked = append(linked, dest)
	}
	return recs, nil
}

// searchRecord is the manifest's record of a file of the search index.
func (r *runner) searchRecord(path string, data []byte) PageRecord {
	sum := sha256.Sum256(data)
	return r.searchRecordSum(path, hex.EncodeToString(sum[:]))
}

// searchRecordSum is searchRecord of a file whose hash is known.
func (r *runner) searchRecordSum(path, sum string) PageRecord {
	return PageRecord{Path: path, SHA256: sum, Canopy: r.o.Version, Flags: r.o.flags(), Key: sum}
}

// placeSearch puts the index's files in the staging directory: one the
// previous archive has with the same bytes is linked from it, not
// written again (a re-run rewrites only the shards whose postings
// changed).
func (r *runner) placeSearch(files []searchindex.File, recs []PageRecord, prev records) error {
	for i, f := range files {
		dest := filepath.Join(r.stage, filepath.FromSlash(f.Path))
		if err := mkdirStaged(filepath.Dir(dest)); err != nil {
			return err
		}
		kept, err := r.keepPage(r.ctx, prev.pages[f.Path], recs[i].Key, dest)
		if err != nil {
			return err
		}
		if kept == "" {
			if err := writeStaged(dest, f.Data); err != nil {
				return err
			}
		}
	}
	return nil
}

// writeSearch makes the search index of a run's rows and puts it in the
// staging directory; it returns the records of its files and the text
// files.
func (r *runner) writeSearch(rows []Session, prev records) ([]PageRecord, error) {
	texts, index, files, err := r.buildSearch(rows, nil, &prev)
	if err != nil {
		return nil, err
	}
	if err := r.placeSearch(files, index, prev); err != nil {
		return nil, err
	}
	return append(texts, index...), nil
}

// readText reads a text file (nil, nil when there is none: a session
// kept stale from an archive made before search). It must be a regular
// file, opened without blocking.
func readText(p string) ([]byte, error) {
	fi, err := os.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, nil
	}
	f, err := outpath.OpenRegular(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// inSearch reports whether an archive's path is one of the search
// index's files (text files included).
func inSearch(path string) bool {
	return strings.HasPrefix(path, searchindex.Dir+"/")
}

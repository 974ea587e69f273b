package searchindex

import (
	"context"
	"encoding/hex"
	"fmt"
	"slices"
	"sort"
	"sync"
	"unicode/utf8"

	"github.com/klauspost/compress/gzip"
)

// Session is what Build needs of one session: its row (what a result
// shows and is filtered by) and its text file's bytes (nil: only its
// title is searched).
type Session struct {
	Page    string // the page's path in the archive
	Title   string
	Agent   string // pi, claude-code, codex, …
	Project string
	Date    string // last activity, RFC 3339
	Models  []string
	Text    []byte // its text file (EncodeText)
}

// File is one file of the index.
type File struct {
	Path string
	Data []byte
}

// metaPayload is what meta.js holds.
type metaPayload struct {
	Version  int      `json:"v"`
	MaxToken int      `json:"maxToken"` // MaxTokenRunes
	Keys     []string `json:"keys"`     // the shards' keys, sorted
	// Sessions, in page order (a posting's number is an index here):
	// page, title, agent, project, date, models joined by "\n", text
	// file id ("" for none), length in terms.
	Sessions [][8]any `json:"s"`
}

// shardPayload is what a shard holds: its terms, sorted, and for each
// the sessions it is in: the session's number (the first as it is, the
// others as the difference from the one before) and how many times.
type shardPayload struct {
	Terms    []string   `json:"t"`
	Postings [][]uint32 `json:"p"`
}

// Build makes the index of ss (the meta file and the shards; the text
// files are the caller's, made with the pages) with jobs sessions read at
// once. The same sessions give the same bytes, whatever their order.
func Build(ctx context.Context, ss []Session, jobs int) ([]File, error) {
	ss = slices.Clone(ss)
	sort.Slice(ss, func(i, j int) bool { return ss[i].Page < ss[j].Page })
	docs, err := readDocs(ctx, ss, max(jobs, 1))
	if err != nil {
		return nil, err
	}
	post := map[string][]uint32{}
	for n, d := range docs {
		for _, t := range d.terms {
			post[t.term] = append(post[t.term], uint32(n), t.tf)
		}
	}
	terms := make([]string, 0, len(post))
	for t := range post {
		terms = append(terms, t)
	}
	sort.Strings(terms)
	groups := shardGroups(terms, post)
	files := make([]File, 0, len(groups)+1)
	meta := metaPayload{Version: 1, MaxToken: MaxTokenRunes, Keys: make([]string, 0, len(groups))}
	for _, g := range groups {
		meta.Keys = append(meta.Keys, g.key)
		p := shardPayload{Terms: g.terms, Postings: make([][]uint32, len(g.terms))}
		for i, t := range g.terms {
			p.Postings[i] = deltas(post[t])
		}
		id := hex.EncodeToString([]byte(g.key))
		data, err := register("shard", id, p, gzip.BestCompression)
		if err != nil {
			return nil, err
		}
		files = append(files, File{Path: shardDir + id + ".js", Data: data})
	}
	for n, s := range ss {
		id := ""
		if s.Text != nil {
			id = textID(s.Page)
		}
		meta.Sessions = append(meta.Sessions, [8]any{s.Page, s.Title, s.Agent, s.Project, s.Date, joinLines(s.Models), id, docs[n].length})
	}
	data, err := register("meta", "", meta, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	files = append(files, File{Path: MetaPath, Data: data})
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	return files, nil
}

func joinLines(ss []string) string {
	out := ""
	for i, s := range ss {
		if i > 0 {
			out += "\n"
		}
		out += s
	}
	return out
}

// deltas writes a term's postings (number, count pairs) with each number
// but the first as the difference from the one before: small numbers,
// which compress well.
func deltas(p []uint32) []uint32 {
	out := make([]uint32, len(p))
	prev := uint32(0)
	for i := 0; i < len(p); i += 2 {
		out[i], out[i+1] = p[i]-prev, p[i+1]
		prev = p[i]
	}
	return out
}

// termTF is a term of a session and how many times it occurs there.
type termTF struct {
	term string
	tf   uint32
}

// doc is a session's terms, sorted, and its length in terms.
type doc struct {
	terms  []termTF
	length int
}

// readDocs decodes and tokenizes each session's title and text file,
// jobs at a time.
func readDocs(ctx context.Context, ss []Session, jobs int) ([]doc, error) {
	docs := make([]doc, len(ss))
	errs := make([]error, len(ss))
	var wg sync.WaitGroup
	next := make(chan int)
	for range jobs {
		wg.Go(func() {
			for i := range next {
				docs[i], errs[i] = readDoc(&ss[i])
			}
		})
	}
	for i := range ss {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return docs, nil
}

// readDoc is one session's terms: its title's, and its text file's.
func readDoc(s *Session) (doc, error) {
	counts := map[string]uint32{}
	length := 0
	add := func(t string) { counts[t]++; length++ }
	Tokens(s.Title, add)
	if s.Text != nil {
		page, entries, err := DecodeText(s.Text)
		if err != nil {
			return doc{}, fmt.Errorf("%s: %w", TextPath(s.Page), err)
		}
		if page != s.Page {
			return doc{}, fmt.Errorf("%s: the text of %s, not of %s", TextPath(s.Page), page, s.Page)
		}
		for _, e := range entries {
			Tokens(e.Text, add)
		}
	}
	d := doc{terms: make([]termTF, 0, len(counts)), length: length}
	for t, n := range counts {
		d.terms = append(d.terms, termTF{t, n})
	}
	sort.Slice(d.terms, func(i, j int) bool { return d.terms[i].term < d.terms[j].term })
	return d, nil
}

// Shards: a term is in the shard of its first keyRunes characters (the
// whole term when shorter). A shard that would hold more than
// maxShardPostings postings is split by one character more, down to
// maxKeyRunes: a query then loads less than that of postings for a term
// that is not itself that common.
const (
	keyRunes         = 2
	maxKeyRunes      = 6
	maxShardPostings = 24 << 10
)

// group is one shard: its key and its terms, sorted.
type group struct {
	key   string
	terms []string
}

// shardGroups deals the sorted terms into shards: with keys that are
// prefixes of their terms, the longest key that is a prefix of a term
// being its shard's.
func shardGroups(terms []string, post map[string][]uint32) []group {
	var out []group
	var split func(key string, depth int, terms []string)
	split = func(key string, depth int, terms []string) {
		size := 0
		for _, t := range terms {
			size += len(post[t]) / 2
		}
		if size <= maxShardPostings || depth >= maxKeyRunes {
			out = append(out, group{key, terms})
			return
		}
		// The terms no longer than the key stay in its shard (the one
		// term equal to it); the others go by one character more.
		var own []string
		i := 0
		for i < len(terms) && utf8.RuneCountInString(terms[i]) <= depth {
			own = append(own, terms[i])
			i++
		}
		if len(own) > 0 {
			out = append(out, group{key, own})
		}
		forEach(terms[i:], depth+1, func(k string, ts []string) { split(k, depth+1, ts) })
	}
	forEach(terms, keyRunes, func(k string, ts []string) { split(k, keyRunes, ts) })
	sort.Slice(out, func(i, j int) bool { return out[i].key < out[j].key })
	return out
}

// forEach calls f with each run of the sorted terms that share their
// first n characters, and those characters. Sorted terms with a common
// prefix are consecutive.
func forEach(terms []string, n int, f func(key string, terms []string)) {
	for i := 0; i < len(terms); {
		k := prefix(terms[i], n)
		j := i + 1
		for j < len(terms) && prefix(terms[j], n) == k {
			j++
		}
		f(k, terms[i:j])
		i = j
	}
}

// prefix is s's first n characters (all of s when shorter).
func prefix(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}

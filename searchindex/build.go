package searchindex

import (
	"context"
	"encoding/hex"
	"slices"
	"sort"

	"github.com/klauspost/compress/gzip"
)

// Session is what Build needs of one session: its row (what a result
// shows and is filtered by) and its text file's bytes (nil: only its
// title is searched, unless Terms is given).
type Session struct {
	Page    string // the page's path in the archive
	Title   string
	Agent   string // pi, claude-code, codex, …
	Project string
	Date    string // last activity, RFC 3339
	Models  []string
	Text    []byte // its text file (EncodeText)
	// Terms: its text file's terms, when the caller counted them as it
	// made the file (Text then need not be read); nil: counted from Text.
	Terms *Terms
	// Read, when Text and Terms are nil, reads the text file (nil, nil:
	// there is none) when Build comes to it: so that a caller need not
	// hold thousands of text files at once.
	Read func() ([]byte, error)
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
// once. The sessions' Terms, when given, were counted with d (nil: a new
// Dict, and every session read from its text file). The same sessions
// give the same bytes, whatever their order.
func Build(ctx context.Context, ss []Session, jobs int, d *Dict) ([]File, error) {
	if d == nil {
		d = NewDict()
	}
	ss = slices.Clone(ss)
	sort.Slice(ss, func(i, j int) bool { return ss[i].Page < ss[j].Page })
	docs, hasText, err := countDocs(ctx, ss, jobs, d)
	if err != nil {
		return nil, err
	}
	post, lengths := postings(ss, docs, d)
	terms := make([]string, 0, len(post))
	byTerm := make(map[string]uint32, len(post))
	for id, p := range post {
		if len(p) > 0 {
			t := d.term(uint32(id))
			terms = append(terms, t)
			byTerm[t] = uint32(id)
		}
	}
	sort.Strings(terms)
	groups := shardGroups(terms, func(t string) int { return len(post[byTerm[t]]) / 2 })
	files := make([]File, len(groups), len(groups)+1)
	err = parallel(ctx, len(groups), jobs, func(i int) error {
		g := groups[i]
		p := shardPayload{Terms: g.terms, Postings: make([][]uint32, len(g.terms))}
		for i, t := range g.terms {
			p.Postings[i] = deltas(post[byTerm[t]])
		}
		id := hex.EncodeToString([]byte(g.key))
		data, err := register("shard", id, p, gzip.DefaultCompression)
		files[i] = File{Path: shardDir + id + ".js", Data: data}
		return err
	})
	if err != nil {
		return nil, err
	}
	meta := metaPayload{Version: 1, MaxToken: MaxTokenRunes, Keys: make([]string, 0, len(groups))}
	for _, g := range groups {
		meta.Keys = append(meta.Keys, g.key)
	}
	for n, s := range ss {
		id := ""
		if hasText[n] {
			id = textID(s.Page)
		}
		meta.Sessions = append(meta.Sessions, [8]any{s.Page, s.Title, s.Agent, s.Project, s.Date, joinLines(s.Models), id, lengths[n]})
	}
	data, err := register("meta", "", meta, gzip.DefaultCompression)
	if err != nil {
		return nil, err
	}
	files = append(files, File{Path: MetaPath, Data: data})
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	return files, nil
}

// postings is, by term number, the sessions each term is in (their
// numbers, ascending, each with how many times), and each session's
// length in terms: its title's and its text's.
func postings(ss []Session, docs []*Terms, d *Dict) (post [][]uint32, lengths []int) {
	post = make([][]uint32, d.size())
	lengths = make([]int, len(ss))
	add := func(id, n, count uint32) {
		for int(id) >= len(post) {
			post = append(post, nil)
		}
		post[id] = append(post[id], n, count)
	}
	for n := range ss {
		title := map[uint32]uint32{}
		Tokens(ss[n].Title, func(t string) { title[d.id(t)]++; lengths[n]++ })
		if t := docs[n]; t != nil {
			lengths[n] += t.length
			for i := 0; i < len(t.pairs); i += 2 {
				id, c := t.pairs[i], t.pairs[i+1]
				if tc, ok := title[id]; ok {
					c += tc
					delete(title, id)
				}
				add(id, uint32(n), c)
			}
		}
		for id, c := range title {
			add(id, uint32(n), c)
		}
	}
	return post, lengths
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

package searchindex

import (
	"context"
	"encoding/hex"
	"slices"
	"sort"
	"strings"

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
// Dict, and every session read from its text file); Build drops them
// (sets Terms to nil) once it has their postings. The same sessions give
// the same bytes, whatever their order.
func Build(ctx context.Context, sessions []Session, jobs int, d *Dict) ([]File, error) {
	if d == nil {
		d = NewDict()
	}
	ss := make([]*Session, len(sessions))
	for i := range sessions {
		ss[i] = &sessions[i]
	}
	sort.Slice(ss, func(i, j int) bool { return ss[i].Page < ss[j].Page })
	docs, hasText, err := countDocs(ctx, ss, jobs, d)
	if err != nil {
		return nil, err
	}
	post := postings(ss, docs, d)
	// The counted terms are in the postings now: they go (an archive's
	// are as many as its postings).
	clear(docs)
	for _, s := range ss {
		s.Terms = nil
	}
	groups := shardGroups(post.terms, post.sizes)
	files := make([]File, len(groups), len(groups)+1)
	err = parallel(ctx, len(groups), jobs, func(i int) error {
		g := groups[i]
		p := shardPayload{Terms: g.terms, Postings: make([][]uint32, len(g.terms))}
		for j := range g.terms {
			p.Postings[j] = deltas(post.of(g.first + j))
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
		meta.Sessions = append(meta.Sessions, [8]any{s.Page, s.Title, s.Agent, s.Project, s.Date, joinLines(s.Models), id, post.lengths[n]})
	}
	data, err := register("meta", "", meta, gzip.DefaultCompression)
	if err != nil {
		return nil, err
	}
	files = append(files, File{Path: MetaPath, Data: data})
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	return files, nil
}

// postingList is every term's postings: the terms sorted, and for the
// i-th, sizes[i] postings (session number, ascending, and how many times)
// at flat[2*at[i]:]. One flat array, not a slice a term: a term's slice
// grown by append wastes up to half of it, over millions of postings.
type postingList struct {
	terms   []string
	sizes   []int
	at      []int
	flat    []uint32
	lengths []int // each session's length in terms: its title's and its text's
}

// of is the i-th term's postings.
func (p *postingList) of(i int) []uint32 {
	return p.flat[2*p.at[i] : 2*(p.at[i]+p.sizes[i])]
}

// postings gathers the postings of the sessions' terms (docs, by
// session; nil for none) and of their titles' words, in two passes: one
// counts each term's postings, the other writes them in place.
func postings(ss []*Session, docs []*Terms, d *Dict) *postingList {
	p := &postingList{lengths: make([]int, len(ss))}
	// Each title's terms, counted, numbered first (the Dict is then
	// whole): those also in the session's text (added to its count
	// there) and the others.
	both := make([]map[uint32]uint32, len(ss))
	only := make([]map[uint32]uint32, len(ss))
	for n := range ss {
		title := map[uint32]uint32{}
		Tokens(ss[n].Title, func(t string) { title[d.id(t)]++; p.lengths[n]++ })
		if t := docs[n]; t != nil && len(title) > 0 {
			both[n] = map[uint32]uint32{}
			for i := 0; i < len(t.pairs); i += 2 {
				if c, ok := title[t.pairs[i]]; ok {
					both[n][t.pairs[i]] = c
					delete(title, t.pairs[i])
				}
			}
		}
		only[n] = title
	}
	all := d.all()
	// each calls f with each term of session n and its count there.
	each := func(n int, f func(id, count uint32)) {
		if t := docs[n]; t != nil {
			for i := 0; i < len(t.pairs); i += 2 {
				id, c := t.pairs[i], t.pairs[i+1]
				if len(both[n]) > 0 {
					c += both[n][id]
				}
				f(id, c)
			}
		}
		for id, c := range only[n] {
			f(id, c)
		}
	}
	count := make([]int, len(all))
	for n := range ss {
		if docs[n] != nil {
			p.lengths[n] += docs[n].length
		}
		each(n, func(id, _ uint32) { count[id]++ })
	}
	// The terms that occur, sorted, and where each one's postings go.
	ids := make([]uint32, 0, len(all))
	for id, c := range count {
		if c > 0 {
			ids = append(ids, uint32(id))
		}
	}
	slices.SortFunc(ids, func(a, b uint32) int { return strings.Compare(all[a], all[b]) })
	p.terms, p.sizes, p.at = make([]string, len(ids)), make([]int, len(ids)), make([]int, len(ids))
	pos := make([]int, len(all)) // by term number: where its next posting goes
	total := 0
	for i, id := range ids {
		p.terms[i], p.sizes[i], p.at[i] = all[id], count[id], total
		pos[id] = total
		total += count[id]
	}
	p.flat = make([]uint32, 2*total)
	for n := range ss {
		each(n, func(id, c uint32) {
			p.flat[2*pos[id]], p.flat[2*pos[id]+1] = uint32(n), c
			pos[id]++
		})
	}
	return p
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

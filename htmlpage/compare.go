package htmlpage

import (
	"github.com/go-json-experiment/json/jsontext"

	"canopy/pricing"
	"canopy/sessiontree"
)

// compareData is what the page's compare view (assets/page/compare.js)
// needs beyond the tree's data: each entry's share of a branch's figures,
// its time and the files its calls changed, by position in tree order
// (the tree data's member "x"). The view sums them over the entries of
// each side, from the fork to the leaf; what an entry contributes is
// Session.Stats of that entry alone, so that the sums are the figures
// Session.Stats gives for the side (TestCompareFiguresSum holds the two
// together). It is written only for a session with two leaves or more:
// a single path has nothing to compare.
type compareData struct {
	// Figures: by position, the figures of the entries that count in
	// Stats (messages, compactions; a model change counts nothing), null
	// for the others: an array, not an object keyed by position, which
	// cost a sort of 100,000 keys written out (figuresColumn).
	Figures figuresColumn `json:"u"`
	// Roles are the roles Figures count under, each written once: a
	// figure's role is its index here.
	Roles []string `json:"roles"`
	// Times: by position, the entry's time in milliseconds after T0, or
	// null when it has none.
	T0    int64      `json:"t0"`
	Times treeColumn `json:"ts"`
	// Files: by position, the files the entry's calls that ran wrote,
	// edited or patched (the rows' files, sessiontree.FileTargets: the
	// branches' figures' rule): [path, position of the result whose card
	// shows the change] each.
	Files map[int][]fileChange `json:"files"`
	// Priced names the price table estimated costs come from, when an
	// entry's cost is estimated (the view's note under an ≈ cost).
	Priced string `json:"priced,omitzero"`
}

// entryFigures is one entry's Stats, written as an array: [role, tool
// calls, input, output, cache read, cache write, recorded cost, estimated
// cost, flags], with trailing zeros left out. role is the index in Roles
// of the Stats.Messages key it counts under (-1 for none). flags:
// figEstimated (its cost is estimated), figUnpriced (its model has no
// price), figNoTokens (a reply of a format that records tokens recorded
// none). A value of fixed size: as a slice of tokens, grown figure by
// figure, it was five allocations an entry, and gen-100k's compare data
// took 38 ms to gather where it takes 20 (one core).
type entryFigures struct {
	set  bool // false: the entry has none (null)
	role int
	n    int // how many of nums are written
	nums [8]float64
}

const (
	figEstimated = 1 << iota
	figUnpriced
	figNoTokens
)

// fileChange is a file an entry's call changed, and the position of the
// call's result (its card's id).
type fileChange struct {
	path string
	card int
}

func (f fileChange) MarshalJSONTo(enc *jsontext.Encoder) error {
	for _, t := range []jsontext.Token{jsontext.BeginArray, jsontext.String(f.path), jsontext.Int(int64(f.card)), jsontext.EndArray} {
		if err := enc.WriteToken(t); err != nil {
			return err
		}
	}
	return nil
}

// figuresColumn is Figures: each position's entryFigures (unset: null).
type figuresColumn []entryFigures

func (c figuresColumn) MarshalJSONTo(enc *jsontext.Encoder) error {
	if err := enc.WriteToken(jsontext.BeginArray); err != nil {
		return err
	}
	for i := range c {
		if err := c[i].write(enc); err != nil {
			return err
		}
	}
	return enc.WriteToken(jsontext.EndArray)
}

func (f *entryFigures) write(enc *jsontext.Encoder) error {
	if !f.set {
		return enc.WriteToken(jsontext.Null)
	}
	if err := enc.WriteToken(jsontext.BeginArray); err != nil {
		return err
	}
	if err := enc.WriteToken(jsontext.Int(int64(f.role))); err != nil {
		return err
	}
	for _, v := range f.nums[:f.n] {
		if err := enc.WriteToken(jsontext.Float(v)); err != nil {
			return err
		}
	}
	return enc.WriteToken(jsontext.EndArray)
}

// entrySum sums one entry at a time, into the same Stats: 100,000
// entries summed each with a Stats of its own made as many maps.
type entrySum struct {
	stats *sessiontree.Statter
	one   []*sessiontree.Entry
	st    sessiontree.Stats
}

// of is e's Stats, good until the next call.
func (s *entrySum) of(e *sessiontree.Entry) *sessiontree.Stats {
	s.one[0] = e
	s.stats.StatsInto(&s.st, s.one)
	return &s.st
}

// figuresOf is e's share of a branch's figures, unset when it has none.
func (d *compareData) figuresOf(sum *entrySum, e *sessiontree.Entry, roles map[string]int) entryFigures {
	switch e.Type {
	case sessiontree.TypeMessage, sessiontree.TypeCustomMessage, sessiontree.TypeCompaction:
	default:
		return entryFigures{}
	}
	st := sum.of(e)
	role := ""
	for r := range st.Messages { // one at most: one entry
		role = r
	}
	flags := 0
	if st.CostEstimated {
		flags |= figEstimated
		d.Priced = pricing.Source()
	}
	if len(st.UnpricedModels) > 0 {
		flags |= figUnpriced
	}
	if st.NoTokens {
		flags |= figNoTokens
	}
	u := st.Usage
	f := entryFigures{set: true, nums: [8]float64{float64(st.ToolCalls), u.Input, u.Output, u.CacheRead, u.CacheWrite,
		u.Cost.Total + st.CompactionUsage.Cost.Total, st.EstimatedCost, float64(flags)}}
	f.n = len(f.nums)
	for f.n > 0 && f.nums[f.n-1] == 0 {
		f.n--
	}
	if role == "" && f.n == 0 {
		return entryFigures{}
	}
	r := -1
	if role != "" {
		var ok bool
		if r, ok = roles[role]; !ok {
			r = len(d.Roles)
			roles[role] = r
			d.Roles = append(d.Roles, role)
		}
	}
	f.role = r
	return f
}

// newCompareData gathers the compare view's data, positions in tree
// order (pos: entry index to position). The files are the rows' (found as
// the cards were drawn: callView), so nothing is decoded again.
func newCompareData(s *sessiontree.Session, order, pos []int, rows []rowInfo) *compareData {
	if leaves, _ := s.Shape(); leaves < 2 {
		return nil
	}
	d := &compareData{Figures: make(figuresColumn, len(order)), Roles: []string{}, Files: map[int][]fileChange{}}
	roles := map[string]int{}
	sum := &entrySum{stats: s.Statter(), one: make([]*sessiontree.Entry, 1)}
	first := true
	for _, e := range s.Entries {
		d.Figures[pos[e.Index]] = d.figuresOf(sum, e, roles)
		if r := &rows[e.Index]; len(r.files) > 0 && len(r.fileCards) == len(r.files) {
			fs := make([]fileChange, len(r.files))
			for k, p := range r.files {
				fs[k] = fileChange{p, pos[r.fileCards[k]]}
			}
			d.Files[pos[e.Index]] = fs
		}
		if e.TimeOK && (first || e.Time.UnixMilli() < d.T0) {
			d.T0, first = e.Time.UnixMilli(), false
		}
	}
	d.Times = treeColumn{len(order), func(p int) jsontext.Token {
		e := s.Entries[order[p]]
		if !e.TimeOK {
			return jsontext.Null
		}
		return jsontext.Int(e.Time.UnixMilli() - d.T0)
	}}
	return d
}

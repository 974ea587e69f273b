package searchindex

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"canopy/internal/jobs"
)

// Dict numbers the terms of one index, keeping one copy of each. A term
// found by Tokens is a slice of the text it was found in: kept as it is,
// it would keep that whole text in memory (every session's, until the
// index is built). Safe for concurrent use.
type Dict struct {
	mu    sync.RWMutex
	ids   map[string]uint32
	terms []string
}

// NewDict is an empty Dict.
func NewDict() *Dict { return &Dict{ids: map[string]uint32{}} }

// Terms is one session's text counted: each term's number in its Dict
// and how many times it occurs, and how many terms there are in all. A
// caller that has the entries at hand when it writes their text file
// counts them there (Dict.Count), which spares Build reading the file
// back; Build counts the others from their text files.
type Terms struct {
	dict   *Dict
	pairs  []uint32 // term number, count; in no order
	length int
}

// Count counts the terms of entries' text.
func (d *Dict) Count(entries []Entry) *Terms {
	counts := map[string]uint32{}
	length := 0
	for i := range entries {
		Tokens(entries[i].Text, func(t string) { counts[t]++; length++ })
	}
	t := &Terms{dict: d, pairs: make([]uint32, 0, 2*len(counts)), length: length}
	// The terms already numbered (most, once an index has a few hundred
	// sessions) under the read lock, which the pages being drawn at once
	// share; the new ones under the write lock.
	var fresh []string
	d.mu.RLock()
	for w, n := range counts {
		if id, ok := d.ids[w]; ok {
			t.pairs = append(t.pairs, id, n)
		} else {
			fresh = append(fresh, w)
		}
	}
	d.mu.RUnlock()
	if len(fresh) > 0 {
		d.mu.Lock()
		defer d.mu.Unlock()
		for _, w := range fresh {
			t.pairs = append(t.pairs, d.idLocked(w), counts[w])
		}
	}
	return t
}

// id is term's number, given it one if it has none.
func (d *Dict) id(term string) uint32 {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.idLocked(term)
}

func (d *Dict) idLocked(term string) uint32 {
	id, ok := d.ids[term]
	if !ok {
		id = uint32(len(d.terms))
		term = strings.Clone(term)
		d.ids[term] = id
		d.terms = append(d.terms, term)
	}
	return id
}

// all is every term d has numbered, by number.
func (d *Dict) all() []string {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return d.terms
}

// countDocs is each session's Terms: those given, counted by d, as they
// are; the others counted from their text files, jobs at a time (nil for
// a session with no text file); and whether each has a text file.
func countDocs(ctx context.Context, ss []*Session, jobs int, d *Dict) ([]*Terms, []bool, error) {
	docs := make([]*Terms, len(ss))
	has := make([]bool, len(ss))
	err := parallel(ctx, len(ss), jobs, func(i int) error {
		s := ss[i]
		if s.Terms != nil && s.Terms.dict == d {
			docs[i], has[i] = s.Terms, true
			return nil
		}
		text := s.Text
		if text == nil && s.Read != nil {
			var err error
			if text, err = s.Read(); err != nil {
				return fmt.Errorf("%s: %w", TextPath(s.Page), err)
			}
		}
		if text == nil {
			return nil
		}
		page, entries, err := DecodeText(text)
		if err != nil {
			return fmt.Errorf("%s: %w", TextPath(s.Page), err)
		}
		if page != s.Page {
			return fmt.Errorf("%s: the text of %s, not of %s", TextPath(s.Page), page, s.Page)
		}
		docs[i], has[i] = d.Count(entries), true
		return nil
	})
	return docs, has, err
}

// parallel calls f(i) for i from 0 to n-1, jobs at a time (jobs.Each),
// and returns the first error by i (the context's when it is done first).
func parallel(ctx context.Context, n, workers int, f func(i int) error) error {
	errs := make([]error, n)
	jobs.Each(ctx, n, workers, func(i int) { errs[i] = f(i) })
	if err := ctx.Err(); err != nil {
		return err
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

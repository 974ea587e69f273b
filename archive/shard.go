package archive

import (
	"fmt"
	"sort"
)

// ShardInfo is what the manifest of one shard of a sharded run records
// beyond its own pages: which shard it is, and what it learned of the
// sessions the other shards render (so that a re-run of the shard loads
// none of them again, and the merge can link them all).
type ShardInfo struct {
	Index int `json:"index"` // from 0
	Count int `json:"count"`
	// Sessions are every session of the run, each with its page, in the
	// order the run links them: the same in every shard of one run.
	Sessions []Session `json:"sessions"`
	// Sources are the sources of the sessions other shards render.
	Sources []SourceRecord `json:"sources"`
}

// checkShard checks a --shard I/N pair.
func checkShard(i, n int) error {
	switch {
	case n < 0 || n == 0 && i != 0:
		return fmt.Errorf("--shard %d/%d: N must be at least 1", i, n)
	case n > 0 && (i < 0 || i >= n):
		return fmt.Errorf("--shard %d/%d: I runs from 0 to %d (shards are numbered from 0, as JOB_COMPLETION_INDEX is)", i, n, n-1)
	}
	return nil
}

// partition deals the sessions out to n shards, balanced by the size of
// their sources: largest first (the page name breaks ties, so that every
// shard of a run computes the same partition), each to the shard with
// the fewest bytes so far (the lowest-numbered of equals). It returns
// each session's shard.
func partition(ss []Session, size map[string]int64, n int) []int {
	order := make([]int, len(ss))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		sa, sb := size[ss[order[a]].Source], size[ss[order[b]].Source]
		if sa != sb {
			return sa > sb
		}
		return ss[order[a]].Page < ss[order[b]].Page
	})
	load := make([]int64, n)
	shard := make([]int, len(ss))
	for _, i := range order {
		best := 0
		for k := 1; k < n; k++ {
			if load[k] < load[best] {
				best = k
			}
		}
		shard[i] = best
		load[best] += size[ss[i].Source] + 1 // +1: an empty source still costs a page
	}
	return shard
}

// share marks the sessions this run renders: all of them, or its
// shard's share.
func (b *build) share(o *Options) {
	if o.Shards == 0 {
		return
	}
	size := map[string]int64{}
	for _, rec := range b.sources {
		size[rec.Path] = rec.Size
	}
	shard := partition(b.sessions, size, o.Shards)
	b.mine = make([]bool, len(b.sessions))
	for i, k := range shard {
		b.mine[i] = k == o.Shard
	}
}

// isMine reports whether this run renders session i.
func (b *build) isMine(i int) bool {
	return b.mine == nil || b.mine[i]
}

// shardInfo sets aside the sources of the sessions other shards render
// and returns what the manifest records of the shard; nil when the run
// is not sharded.
func (b *build) shardInfo(o *Options) *ShardInfo {
	if b.mine == nil {
		return nil
	}
	theirs := map[string]bool{}
	for i, s := range b.sessions {
		if !b.mine[i] {
			theirs[s.Source] = true
		}
	}
	info := &ShardInfo{Index: o.Shard, Count: o.Shards, Sessions: b.sessions, Sources: []SourceRecord{}}
	own := b.sources[:0:0]
	for _, rec := range b.sources {
		if theirs[rec.Path] {
			info.Sources = append(info.Sources, rec)
		} else {
			own = append(own, rec)
		}
	}
	b.sources = own
	return info
}

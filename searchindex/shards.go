package searchindex

import (
	"sort"
	"unicode/utf8"
)

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

// group is one shard: its key and its terms, sorted, the first of them
// at index first of all the terms.
type group struct {
	key   string
	first int
	terms []string
}

// shardGroups deals the sorted terms into shards, sizes[i] being how many
// postings terms[i] has: with keys that are prefixes of their terms, the
// longest key that is a prefix of a term being its shard's.
func shardGroups(terms []string, sizes []int) []group {
	var out []group
	// split deals terms[lo:hi], which begin with key (depth characters).
	// Its depth is at most maxKeyRunes: it does not go deeper.
	var split func(key string, depth, lo, hi int)
	split = func(key string, depth, lo, hi int) {
		n := 0
		for i := lo; i < hi; i++ {
			n += sizes[i]
		}
		if n <= maxShardPostings || depth >= maxKeyRunes {
			out = append(out, group{key, lo, terms[lo:hi]})
			return
		}
		// The terms no longer than the key stay in its shard (the one
		// term equal to it, sorted first); the others go by one
		// character more.
		i := lo
		for i < hi && utf8.RuneCountInString(terms[i]) <= depth {
			i++
		}
		if i > lo {
			out = append(out, group{key, lo, terms[lo:i]})
		}
		forEach(terms, i, hi, depth+1, func(k string, a, b int) { split(k, depth+1, a, b) })
	}
	forEach(terms, 0, len(terms), keyRunes, func(k string, a, b int) { split(k, keyRunes, a, b) })
	sort.Slice(out, func(i, j int) bool { return out[i].key < out[j].key })
	return out
}

// forEach calls f with each run terms[a:b] of the sorted terms[lo:hi]
// that share their first n characters, and those characters. Sorted
// terms with a common prefix are consecutive.
func forEach(terms []string, lo, hi, n int, f func(key string, a, b int)) {
	for i := lo; i < hi; {
		k := prefix(terms[i], n)
		j := i + 1
		for j < hi && prefix(terms[j], n) == k {
			j++
		}
		f(k, i, j)
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

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

// group is one shard: its key and its terms, sorted.
type group struct {
	key   string
	terms []string
}

// shardGroups deals the sorted terms into shards: with keys that are
// prefixes of their terms, the longest key that is a prefix of a term
// being its shard's.
func shardGroups(terms []string, size func(term string) int) []group {
	var out []group
	var split func(key string, depth int, terms []string)
	split = func(key string, depth int, terms []string) {
		n := 0
		for _, t := range terms {
			n += size(t)
		}
		if n <= maxShardPostings || depth >= maxKeyRunes {
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

// A secret found anywhere is a secret everywhere: once a value is known to
// be a credential (found where its context says so: PGPASSWORD='…',
// Authorization: Basic …), every other place the same value stands in the
// input is replaced too, with the same marker. A password typed into a
// prompt ("the password is G7$k9mQ2@tR1xZ") has no shape of its own, and
// was left in clear beside the command that gave it away.

package redact

import (
	"bytes"
	"encoding/binary"
	"sort"
	"sync"
)

// minSpreadLen is the shortest secret whose other occurrences are
// replaced too: shorter values (a six-letter password) are common enough
// as words or parts of identifiers to be found by chance.
const minSpreadLen = 8

// distinctive says whether a secret's raw bytes are unlike a word, so
// that where else they stand they are the secret and not the word: at
// least minSpreadLen bytes, of at least two kinds among lower-case
// letters, upper-case letters, digits and others. The generated sessions'
// docker-compose URL, postgres://postgres:postgres@db, has the password
// "postgres", which is also the image, the user and the prose around it.
func distinctive(raw string) bool {
	if len(raw) < minSpreadLen {
		return false
	}
	var kinds [4]bool
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; {
		case 'a' <= c && c <= 'z':
			kinds[0] = true
		case 'A' <= c && c <= 'Z':
			kinds[1] = true
		case '0' <= c && c <= '9':
			kinds[2] = true
		default:
			kinds[3] = true
		}
	}
	n := 0
	for _, k := range kinds {
		if k {
			n++
		}
	}
	return n >= 2
}

// fewValues: up to this many distinct secrets, each is looked for with
// bytes.Index (a vectorised search); past it, in one pass over the input
// whatever their number, so that the cost stays in proportion to the
// input's size.
const fewValues = 8

// spread adds to hits (sorted by position, not overlapping) a hit for
// every other occurrence in data of a secret's raw bytes, of the same
// value and kind, where it stands on its own: not inside a longer word
// (a letter or digit at an edge that is one), and not right after an
// escaping backslash. Line numbers of the added hits are counted in data.
//
// A value the rules find standing alone (a token with a vendor's shape:
// ghp_…, AKIA…) is found wherever else it stands already; looking for it
// again cost the scan a third of its speed on the evaluation's session of
// planted tokens. found says whether the rules find a value alone.
func spread(data []byte, hits []hit, found func(value string) bool) []hit {
	if len(hits) == 0 {
		return hits
	}
	seen := map[string]bool{}
	var vals []hit // one per distinct raw form, longest first
	for _, h := range hits {
		raw := string(data[h.start:h.end])
		if !distinctive(raw) || seen[raw] || raw[len(raw)-1] == '\\' {
			continue
		}
		seen[raw] = true
		if found(h.value) {
			continue
		}
		vals = append(vals, h)
	}
	sort.SliceStable(vals, func(i, j int) bool { return vals[i].end-vals[i].start > vals[j].end-vals[j].start })
	var more []hit
	add := func(v hit, at int) {
		n := v.end - v.start
		if standsAlone(data, at, at+n) {
			more = append(more, hit{start: at, end: at + n, value: v.value, kind: v.kind})
		}
	}
	if len(vals) <= fewValues {
		searchEach(data, vals, add)
	} else {
		onePass(data, vals, add)
	}
	return merge(data, hits, more)
}

// searchEach finds the occurrences of each value's raw bytes with
// bytes.Index, the values of a large input on goroutines of their own (a
// search of 50 MB is a few milliseconds a value). add is called from
// this goroutine, value by value.
func searchEach(data []byte, vals []hit, add func(v hit, at int)) {
	at := make([][]int, len(vals))
	find := func(k int) {
		raw := data[vals[k].start:vals[k].end]
		for off := 0; ; {
			i := bytes.Index(data[off:], raw)
			if i < 0 {
				return
			}
			at[k] = append(at[k], off+i)
			off += i + 1
		}
	}
	if len(data) < parallelMin || len(vals) < 2 {
		for k := range vals {
			find(k)
		}
	} else {
		var wg sync.WaitGroup
		for k := range vals {
			wg.Go(func() { find(k) })
		}
		wg.Wait()
	}
	for k, v := range vals {
		for _, i := range at[k] {
			add(v, i)
		}
	}
}

// foundAlone says whether the rules find value, scanned as a text of its
// own, whole: a value with a shape of its own.
func (r *Redactor) foundAlone(value string) bool {
	w := newWorker(r)
	var hits []hit
	w.scanString(value, unit{start: 0, end: len(value), keyEnd: -1, line: 1, flags: uPlain}, nil, &hits)
	for _, h := range hits {
		if h.start == 0 && h.end == len(value) {
			return true
		}
	}
	return false
}

// onePass finds the occurrences of every value's raw bytes in one pass:
// a table of the first two bytes of each rejects most positions with one
// load, the first four pick the candidates.
func onePass(data []byte, vals []hit, add func(v hit, at int)) {
	var first [1 << 16 / 64]uint64
	byPrefix := map[uint32][]int{}
	for k, v := range vals {
		p := binary.LittleEndian.Uint32(data[v.start:])
		b := binary.LittleEndian.Uint16(data[v.start:])
		first[b/64] |= 1 << (b % 64)
		byPrefix[p] = append(byPrefix[p], k)
	}
	for i := 0; i+4 <= len(data); i++ {
		if b := binary.LittleEndian.Uint16(data[i:]); first[b/64]&(1<<(b%64)) == 0 {
			continue
		}
		for _, k := range byPrefix[binary.LittleEndian.Uint32(data[i:])] {
			v := vals[k]
			if bytes.HasPrefix(data[i:], data[v.start:v.end]) {
				add(v, i)
			}
		}
	}
}

// standsAlone says whether data[a:b] is a token of its own: no letter or
// digit joins it at an edge where it has one, and no backslash escapes
// its first byte.
func standsAlone(data []byte, a, b int) bool {
	if a > 0 && isAlnum(data[a]) && isAlnum(data[a-1]) {
		return false
	}
	if b < len(data) && isAlnum(data[b-1]) && isAlnum(data[b]) {
		return false
	}
	slashes := 0
	for i := a - 1; i >= 0 && data[i] == '\\'; i-- {
		slashes++
	}
	return slashes%2 == 0
}

// merge adds to hits those of found that overlap neither a hit nor one
// of found kept before them (at the same place, the longest first), in
// position order, with their line numbers counted in data. Both lists are
// walked once, in order: the cost is in proportion to their length.
func merge(data []byte, hits, found []hit) []hit {
	if len(found) == 0 {
		return hits
	}
	sort.SliceStable(found, func(i, j int) bool {
		if found[i].start != found[j].start {
			return found[i].start < found[j].start
		}
		return found[i].end > found[j].end
	})
	var added []hit
	k, keptEnd := 0, 0
	line, at := 1, 0
	for _, f := range found {
		for k < len(hits) && hits[k].end <= f.start {
			k++
		}
		if (k < len(hits) && hits[k].start < f.end) || f.start < keptEnd {
			continue // found where it was, inside a longer secret, or overlapping one kept
		}
		line += bytes.Count(data[at:f.start], []byte{'\n'})
		at = f.start
		f.line = line
		added = append(added, f)
		keptEnd = f.end
	}
	out := append(hits, added...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].start < out[j].start })
	return out
}

// The keyword automaton: a case-insensitive Aho-Corasick automaton over
// byte classes, compiled to a full DFA, and its four-way interleaved scan.

package redact

// acMatcher is a case-insensitive Aho-Corasick automaton compiled to a full
// DFA: one table lookup per input byte. The states at which some keyword
// ends are numbered from firstOut, the others below it, which keeps the
// hot loop to a load per byte and one compare for the four walks.
//
// The table holds each next state shifted by classBits (its row's offset):
// a walk's chain of dependent steps per byte is then an OR, a mask and a
// load, with no shift before the OR; the four walks wait on their chains,
// not on the CPU. On the redaction evaluation's 50 MB bench session, the
// scan of it as one string took 25 ms instead of 45 with the states
// unshifted in a table of half the size, and on real transcripts cycled
// to 50 MB 30 instead of 47 (BenchmarkACScan, 6 runs each, ±1 ms).
type acMatcher struct {
	class  [256]uint8              // byte -> byte class (case folded); class 0: in no keyword
	trans  *[1 << transBits]uint32 // state<<classBits | class -> next state<<classBits
	outs   [][]int32               // per state from firstOut (unshifted id-firstOut): keyword ids ending here
	kwLen  []int                   // keyword id -> length
	maxLen int
}

// At most 64 byte classes, and 2048 states of each kind, without output
// and with (gitleaks' keywords and ours make about 1,230 and 320): a
// transition index masked to transBits bits needs no bounds check, and
// the table (1 MB) is touched mostly in the rows of the few states that
// ordinary text reaches (a row is 256 bytes). A state ends a keyword when
// its shifted id has the bit of firstOut<<classBits, so the four walks'
// states ORed tell whether any of them does.
const (
	classBits = 6
	stateBits = 12
	transBits = classBits + stateBits
	transMask = 1<<transBits - 1
	firstOut  = 1 << (stateBits - 1) // the first id of a state with output
)

func lowerByte(b byte) byte {
	if 'A' <= b && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}

// newACMatcher compiles keywords (matched ASCII case-insensitively).
func newACMatcher(keywords []string) *acMatcher {
	class, nClass := byteClasses(keywords)
	nodes, kwLen, maxLen := buildTrie(keywords, &class)
	linkTrie(nodes, nClass)
	newID, nOut := renumber(nodes)
	m := &acMatcher{
		class:  class,
		trans:  new([1 << transBits]uint32),
		outs:   make([][]int32, nOut),
		kwLen:  kwLen,
		maxLen: maxLen,
	}
	for i, nd := range nodes {
		id := newID[i]
		for c := 0; c < nClass; c++ {
			m.trans[int(id)<<classBits|c] = uint32(newID[nd.next[c]]) << classBits
		}
		if len(nd.out) > 0 {
			m.outs[id-firstOut] = nd.out
		}
	}
	return m
}

// byteClasses: one class per distinct (lower-cased) keyword byte, 0 for
// the rest. The trie is built over classes, not bytes: a quarter of the
// memory and of the work.
func byteClasses(keywords []string) (class [256]uint8, nClass int) {
	nClass = 1
	for _, kw := range keywords {
		for i := 0; i < len(kw); i++ {
			c := lowerByte(kw[i])
			if class[c] == 0 {
				if nClass == 1<<classBits {
					panic("redact: too many distinct keyword bytes")
				}
				class[c] = uint8(nClass)
				nClass++
			}
		}
	}
	for c := 'A'; c <= 'Z'; c++ {
		class[c] = class[c+'a'-'A']
	}
	return class, nClass
}

// acNode is a state of the automaton while it is built.
type acNode struct {
	next [1 << classBits]int32
	fail int32
	out  []int32
}

func newACNode() *acNode {
	n := &acNode{}
	for i := range n.next {
		n.next[i] = -1
	}
	return n
}

// buildTrie builds the trie of the keywords over byte classes, with the
// keywords' lengths and the longest.
func buildTrie(keywords []string, class *[256]uint8) (nodes []*acNode, kwLen []int, maxLen int) {
	nodes = []*acNode{newACNode()}
	kwLen = make([]int, len(keywords))
	maxLen = 1
	for id, kw := range keywords {
		kwLen[id] = len(kw)
		maxLen = max(maxLen, len(kw))
		cur := int32(0)
		for i := 0; i < len(kw); i++ {
			c := class[kw[i]]
			if nodes[cur].next[c] < 0 {
				nodes = append(nodes, newACNode())
				nodes[cur].next[c] = int32(len(nodes) - 1)
			}
			cur = nodes[cur].next[c]
		}
		nodes[cur].out = append(nodes[cur].out, int32(id))
	}
	return nodes, kwLen, maxLen
}

// linkTrie sets, breadth-first, failure links, inherited outputs and full
// transitions.
func linkTrie(nodes []*acNode, nClass int) {
	queue := []int32{}
	for c := 0; c < nClass; c++ {
		if nx := nodes[0].next[c]; nx >= 0 {
			nodes[nx].fail = 0
			queue = append(queue, nx)
		} else {
			nodes[0].next[c] = 0
		}
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		f := nodes[s].fail
		nodes[s].out = append(nodes[s].out, nodes[f].out...)
		for c := 0; c < nClass; c++ {
			if nx := nodes[s].next[c]; nx >= 0 {
				nodes[nx].fail = nodes[f].next[c]
				queue = append(queue, nx)
			} else {
				nodes[s].next[c] = nodes[f].next[c]
			}
		}
	}
}

// renumber gives the states new ids: those without output from 0 (the
// root stays 0), the others from firstOut. It returns the number of
// states with output.
func renumber(nodes []*acNode) (newID []int32, nOut int) {
	newID = make([]int32, len(nodes))
	next := [2]int32{0, firstOut}
	for i, nd := range nodes {
		k := 0
		if len(nd.out) > 0 {
			k, nOut = 1, nOut+1
		}
		newID[i] = next[k]
		next[k]++
	}
	if next[0] > firstOut || next[1] > 1<<stateBits {
		panic("redact: keyword automaton too large")
	}
	return newID, nOut
}

// scan calls hit(keywordID, start) for every keyword occurrence in s
// (not necessarily in order). Longer strings are cut into four parts walked
// in one loop: independent chains of table lookups run in parallel on an
// out-of-order CPU, about three times as fast as a single walk.
func (m *acMatcher) scan(s string, hit func(kw int32, start int)) {
	if len(s) < 64 {
		m.walkFrom(s, 0, 0, len(s), len(s), hit)
		return
	}
	// Walk k starts fresh at cut k and reports the keywords that start
	// before cut k+1; it stops maxLen-1 bytes after that cut.
	q := len(s) / 4
	c1, c2, c3 := q, 2*q, 3*q
	trans, class := m.trans, &m.class
	const first = firstOut << classBits
	var a, b, c, d uint32
	i := 0
	for ; i < q; i++ {
		a = trans[(a|uint32(class[s[i]]))&transMask]
		b = trans[(b|uint32(class[s[c1+i]]))&transMask]
		c = trans[(c|uint32(class[s[c2+i]]))&transMask]
		d = trans[(d|uint32(class[s[c3+i]]))&transMask]
		if a|b|c|d >= first {
			if a >= first {
				m.report(a, i, c1, hit)
			}
			if b >= first {
				m.report(b, c1+i, c2, hit)
			}
			if c >= first {
				m.report(c, c2+i, c3, hit)
			}
			if d >= first {
				m.report(d, c3+i, len(s), hit)
			}
		}
	}
	tail := m.maxLen - 1
	m.walkFrom(s, a, i, min(len(s), c1+tail), c1, hit)
	m.walkFrom(s, b, c1+i, min(len(s), c2+tail), c2, hit)
	m.walkFrom(s, c, c2+i, min(len(s), c3+tail), c3, hit)
	m.walkFrom(s, d, c3+i, len(s), len(s), hit)
}

func (m *acMatcher) report(st uint32, i, startLimit int, hit func(kw int32, start int)) {
	for _, kw := range m.outs[st>>classBits-firstOut] {
		if start := i + 1 - m.kwLen[kw]; start < startLimit {
			hit(kw, start)
		}
	}
}

func (m *acMatcher) walkFrom(s string, st uint32, from, to, startLimit int, hit func(kw int32, start int)) {
	trans, class := m.trans, &m.class
	const first = firstOut << classBits
	for i := from; i < to; i++ {
		st = trans[(st|uint32(class[s[i]]))&transMask]
		if st >= first {
			m.report(st, i, startLimit, hit)
		}
	}
}

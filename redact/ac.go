// The keyword automaton: a case-insensitive Aho-Corasick automaton over
// byte classes, compiled to a full DFA, and its four-way interleaved scan.

package redact

// acMatcher is a case-insensitive Aho-Corasick automaton compiled to a full
// DFA: one table lookup per input byte. States are numbered so that every
// state at which some keyword ends has an id >= firstOut, which keeps the
// hot loop to a load and a compare per byte.
type acMatcher struct {
	class    [256]uint8              // byte -> byte class (case folded); class 0: in no keyword
	trans    *[1 << transBits]uint16 // state<<classBits | class -> next state
	firstOut uint16
	outs     [][]int32 // per state (indexed by id-firstOut): keyword ids ending here
	kwLen    []int     // keyword id -> length
	maxLen   int
}

// At most 64 byte classes and 4096 states (gitleaks' keywords and ours
// make about 1,550): a transition index masked to transBits bits needs no
// bounds check, and the table (512 KB) is touched mostly in the rows of
// the few states that ordinary text reaches.
const (
	classBits = 6
	stateBits = 12
	transBits = classBits + stateBits
	transMask = 1<<transBits - 1
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
	newID, firstOut := renumber(nodes)
	n := len(nodes)
	m := &acMatcher{
		class:    class,
		trans:    new([1 << transBits]uint16),
		firstOut: uint16(firstOut),
		outs:     make([][]int32, n-int(firstOut)),
		kwLen:    kwLen,
		maxLen:   maxLen,
	}
	for i, nd := range nodes {
		id := newID[i]
		for c := 0; c < nClass; c++ {
			m.trans[int(id)<<classBits|c] = uint16(newID[nd.next[c]])
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

// renumber gives the states new ids, those without output first (the
// root stays 0), and returns the first id of a state with output.
func renumber(nodes []*acNode) (newID []int32, firstOut int32) {
	n := len(nodes)
	if n > 1<<stateBits {
		panic("redact: keyword automaton too large")
	}
	newID = make([]int32, n)
	next := int32(0)
	for i, nd := range nodes {
		if len(nd.out) == 0 {
			newID[i] = next
			next++
		}
	}
	firstOut = next
	for i, nd := range nodes {
		if len(nd.out) > 0 {
			newID[i] = next
			next++
		}
	}
	return newID, firstOut
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
	first := m.firstOut
	var a, b, c, d uint16
	i := 0
	for ; i < q; i++ {
		a = trans[(uint32(a)<<classBits|uint32(class[s[i]]))&transMask]
		b = trans[(uint32(b)<<classBits|uint32(class[s[c1+i]]))&transMask]
		c = trans[(uint32(c)<<classBits|uint32(class[s[c2+i]]))&transMask]
		d = trans[(uint32(d)<<classBits|uint32(class[s[c3+i]]))&transMask]
		if a >= first || b >= first || c >= first || d >= first {
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

func (m *acMatcher) report(st uint16, i, startLimit int, hit func(kw int32, start int)) {
	for _, kw := range m.outs[st-m.firstOut] {
		if start := i + 1 - m.kwLen[kw]; start < startLimit {
			hit(kw, start)
		}
	}
}

func (m *acMatcher) walkFrom(s string, st uint16, from, to, startLimit int, hit func(kw int32, start int)) {
	trans, class := m.trans, &m.class
	first := m.firstOut
	for i := from; i < to; i++ {
		st = trans[(uint32(st)<<classBits|uint32(class[s[i]]))&transMask]
		if st >= first {
			m.report(st, i, startLimit, hit)
		}
	}
}

package fastlex

import (
	"fmt"

	"github.com/dlclark/regexp2/v2/syntax"
)

// matcher is one match of a native rule at a position.
type matcher struct {
	text   []rune
	from   int   // where the match starts (\G)
	end    int   // where it ended, once accepted
	caps   []int // per slot: start and end, -1 when the group took no part
	open   []int // per slot: where its capture opened
	marks  []int
	trail  []int // slot, old start, old end: undone on backtracking
	iters  int   // iterations of loops of more than one rune so far
	steps  int   // nodes run so far
	gaveUp bool  // past maxIters or maxSteps: regexp2 decides
}

// Bounds on one native match, past which the engine leaves the match to
// regexp2. maxIters bounds the iterations of loops of more than one
// rune: regexp2 keeps a frame on its backtracking stack for each and
// fails a match (for chroma: no match) past 100,000 slots of it, a limit
// the engine then need not copy. maxSteps bounds the work: where an
// expression backtracks badly, regexp2's own time limit (250 ms a rule,
// as chroma sets it) decides, as it would without the engine.
const (
	maxIters = 1000
	maxSteps = 50000
)

// match runs rule at text[pos:]: whether it matches, and the capture of
// each slot (start and end, -1 when the group took no part) in m.caps;
// known is false when the engine gave up (maxIters, maxSteps) and regexp2 must say.
func (m *matcher) match(rule *native, text []rune, pos int) (matched, known bool) {
	m.text, m.from = text, pos
	m.caps = resize(m.caps, 2*rule.slots)
	m.open = grow(m.open, rule.slots) // each set before it is read
	m.marks = grow(m.marks, rule.marks)
	m.trail = m.trail[:0]
	m.iters, m.steps, m.gaveUp = 0, 0, false
	ok := m.run(rule.start, pos)
	if m.gaveUp {
		return false, false
	}
	if !ok {
		return false, true
	}
	m.caps[0], m.caps[1] = pos, m.end
	return true, true
}

func grow(s []int, n int) []int {
	if cap(s) < n {
		return make([]int, n)
	}
	return s[:n]
}

// resize is s with n elements, each -1.
func resize(s []int, n int) []int {
	if cap(s) < n {
		s = make([]int, n)
	}
	s = s[:n]
	for i := range s {
		s[i] = -1
	}
	return s
}

// run matches from node n at pos to the end of the expression. On
// failure the captures are as they were.
func (m *matcher) run(n *nnode, pos int) bool {
	text := m.text
	for {
		if m.steps++; m.steps > maxSteps {
			m.gaveUp = true
			return false
		}
		switch n.op {
		case opAccept:
			m.end = pos
			return true
		case opMark:
			m.marks[n.slot] = pos
			return true
		case opLit:
			if !hasPrefix(text[pos:], n.lit) {
				return false
			}
			pos += len(n.lit)
		case opRune:
			if pos >= len(text) || !n.class.has(text[pos]) {
				return false
			}
			pos++
		case opAtomic:
			c := m.count(n, pos)
			if c < n.min {
				return false
			}
			pos += c
		case opBehind, opNotBehind:
			if m.behind(n, pos) != (n.op == opBehind) {
				return false
			}
		case opRef:
			ok, adv := m.ref(n, pos)
			if !ok {
				return false
			}
			pos += adv
		case opBol, opEol, opBeginning, opStart, opEndZ, opEnd, opBoundary, opNonBoundary:
			if !m.anchor(n.op, pos) {
				return false
			}
		default:
			return m.branch(n, pos)
		}
		n = n.next
	}
}

// branch runs a node with more than one way on: the rest of the match is
// run from within it, as each way is tried.
func (m *matcher) branch(n *nnode, pos int) bool {
	switch n.op {
	case opLoop:
		for c := m.count(n, pos); c >= n.min && !m.gaveUp; c-- {
			if m.run(n.next, pos+c) {
				return true
			}
		}
		return false
	case opLazy:
		return m.lazy(n, pos)
	case opAlt:
		for _, a := range n.alts {
			if m.run(a, pos) {
				return true
			}
			if m.gaveUp {
				return false
			}
		}
		return false
	case opOpen:
		old := m.open[n.slot]
		m.open[n.slot] = pos
		if m.run(n.next, pos) {
			return true
		}
		m.open[n.slot] = old
		return false
	case opClose:
		return m.close(n, pos)
	case opCommit, opAhead, opNotAhead:
		return m.committed(n, pos)
	case opGreedy:
		if n.min == 0 {
			return m.iterate(n, pos) || !m.gaveUp && m.run(n.next, pos)
		}
		return m.iterate(n, pos)
	case opLazyLoop:
		if n.min == 0 {
			return m.lazyNext(n.next, n, -1, pos)
		}
		return m.iterate(n, pos)
	case opLoopEnd:
		return m.loopEnd(n.loop, pos)
	}
	panic(fmt.Sprintf("fastlex: node op %d", n.op))
}

// iterate runs one more iteration of loop l from pos.
func (m *matcher) iterate(l *nnode, pos int) bool {
	if m.iters++; m.iters > maxIters {
		m.gaveUp = true
	}
	if m.gaveUp {
		return false
	}
	old := m.marks[l.slot]
	m.marks[l.slot] = pos
	ok := m.run(l.alts[0], pos)
	m.marks[l.slot] = old
	return ok
}

// loopEnd is where an iteration of l that started at its mark ended, at
// pos. Greedy (Branchmark): after an iteration that took runes, another,
// else (or failing that) what follows. Lazy (Lazybranchmark): what
// follows, else another iteration if this one took runes.
func (m *matcher) loopEnd(l *nnode, pos int) bool {
	mark := m.marks[l.slot]
	if l.op == opLazyLoop {
		return m.lazyNext(l.next, l, mark, pos)
	}
	if pos != mark && m.iterate(l, pos) {
		return true
	}
	return !m.gaveUp && m.run(l.next, pos)
}

func (m *matcher) lazyNext(next, l *nnode, mark, pos int) bool {
	if m.run(next, pos) {
		return true
	}
	return !m.gaveUp && pos != mark && m.iterate(l, pos)
}

// behind reports whether n's runes are the ones before pos.
func (m *matcher) behind(n *nnode, pos int) bool {
	from := pos - len(n.behind)
	if from < 0 {
		return false
	}
	for i := range n.behind {
		if !n.behind[i].has(m.text[from+i]) {
			return false
		}
	}
	return true
}

// count is how many runes of n's class follow pos, up to n.max.
func (m *matcher) count(n *nnode, pos int) int {
	rest := m.text[pos:]
	c := 0
	for c < n.max && c < len(rest) && n.class.has(rest[c]) {
		c++
	}
	return c
}

func (m *matcher) lazy(n *nnode, pos int) bool {
	rest := m.text[pos:]
	c := 0
	for ; c < n.min; c++ {
		if c >= len(rest) || !n.class.has(rest[c]) {
			return false
		}
	}
	for !m.gaveUp {
		if m.run(n.next, pos+c) {
			return true
		}
		if c >= n.max || c >= len(rest) || !n.class.has(rest[c]) {
			return false
		}
		c++
	}
	return false
}

func (m *matcher) close(n *nnode, pos int) bool {
	s := n.slot
	m.trail = append(m.trail, s, m.caps[2*s], m.caps[2*s+1])
	m.caps[2*s], m.caps[2*s+1] = m.open[s], pos
	if m.run(n.next, pos) {
		return true
	}
	m.undo(len(m.trail) - 3)
	return false
}

// undo restores the captures set since the trail was to long.
func (m *matcher) undo(to int) {
	for i := len(m.trail) - 3; i >= to; i -= 3 {
		s := m.trail[i]
		m.caps[2*s], m.caps[2*s+1] = m.trail[i+1], m.trail[i+2]
	}
	m.trail = m.trail[:to]
}

// committed runs an atomic group or lookaround: its body to the first
// match only, then what follows.
func (m *matcher) committed(n *nnode, pos int) bool {
	mark := len(m.trail)
	matched := m.run(n.alts[0], pos)
	switch n.op {
	case opNotAhead:
		if matched {
			m.undo(mark)
			return false
		}
		return m.run(n.next, pos)
	case opAhead:
		if !matched {
			return false
		}
	case opCommit:
		if !matched {
			return false
		}
		pos = m.marks[n.slot]
	}
	if m.run(n.next, pos) {
		return true
	}
	m.undo(mark)
	return false
}

// ref matches the text of a slot's capture again, as regexp2 does: a
// group that took no part matches nothing.
func (m *matcher) ref(n *nnode, pos int) (bool, int) {
	from, to := m.caps[2*n.slot], m.caps[2*n.slot+1]
	if from < 0 {
		return false, 0
	}
	return hasPrefix(m.text[pos:], m.text[from:to]), to - from
}

func (m *matcher) anchor(op nop, pos int) bool {
	text := m.text
	switch op {
	case opBol:
		return pos == 0 || text[pos-1] == '\n'
	case opEol:
		return pos == len(text) || text[pos] == '\n'
	case opBeginning:
		return pos == 0
	case opStart:
		return pos == m.from
	case opEndZ:
		return pos == len(text) || pos == len(text)-1 && text[pos] == '\n'
	case opEnd:
		return pos == len(text)
	case opBoundary:
		return m.boundary(pos)
	case opNonBoundary:
		return !m.boundary(pos)
	}
	return false
}

// boundary is regexp2's Runner.IsBoundary.
func (m *matcher) boundary(pos int) bool {
	text := m.text
	return (pos > 0 && syntax.IsWordChar(text[pos-1])) != (pos < len(text) && syntax.IsWordChar(text[pos]))
}

func hasPrefix(s, prefix []rune) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i, r := range prefix {
		if s[i] != r {
			return false
		}
	}
	return true
}

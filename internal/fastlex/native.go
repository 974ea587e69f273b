package fastlex

import (
	"math"

	"github.com/dlclark/regexp2/v2/syntax"
)

// Most of chroma's rules are simple expressions: runs of a class of
// runes, literals, alternations of keywords, captures side by side, a
// word boundary, a lookahead. For those the engine matches the rule
// itself, on regexp2's own parse of the expression (its sets, its
// case-folding, the loops its parser made atomic), by backtracking in the
// order regexp2 does: alternatives in turn, greedy loops longest first,
// lazy ones shortest first, atomic groups and lookarounds committing to
// their first match. The first match found is regexp2's. This saves the
// price of a regexp2 call (a runner from a pool, a match set up and torn
// down, a timer) at each try: Markdown's prose is one `.|\n` match a
// rune, Go's identifiers one `([a-zA-Z_]\w*)(\s*)(\()` try each.
//
// Anything else in the parse leaves the rule to regexp2: loops of more
// than one rune, conditionals, lookbehinds (right-to-left), balancing
// groups, case-insensitive nodes the parser did not fold into sets,
// ECMAScript modes. FuzzNative holds every rule of the lexers sessions
// use to regexp2, match and groups, at every position of the text.

// native is a rule's expression as a graph of nodes, each knowing what
// follows it.
type native struct {
	start *nnode
	slots int // capture slots, the whole match included
	marks int // atomic groups and lookarounds, each with a mark
}

type nop uint8

const (
	opAccept   nop = iota // the match ends here
	opMark                // a committed group's match ends here: note where
	opLit                 // the runes lit
	opRune                // one rune of the class
	opLoop                // min to max runes of the class, greedy, giving back
	opLazy                // min to max runes of the class, as few as will do
	opAtomic              // min to max runes of the class, as many as can be: no giving back
	opAlt                 // each of alts in turn
	opOpen                // a capture of slot starts
	opClose               // a capture of slot ends
	opCommit              // alts[0] to its first match, then on (an atomic group)
	opAhead               // alts[0] matches here, then on from here (a lookahead)
	opNotAhead            // alts[0] does not match here
	opBol
	opEol
	opBeginning
	opStart
	opEndZ
	opEnd
	opBoundary
	opNonBoundary
	opRef    // the text of slot's capture again
	opBehind // the runes before are behind (a lookbehind of fixed length)
	opNotBehind
	opGreedy   // a loop of alts[0], as many times as it goes (M 0 or 1, no bound)
	opLazyLoop // a loop of alts[0], as few times as will do (M 0 or 1, no bound)
	opLoopEnd  // the end of an iteration of loop
)

type nnode struct {
	op       nop
	next     *nnode
	alts     []*nnode
	lit      []rune
	class    runeClass
	min, max int
	slot     int         // opOpen, opClose, opRef: the capture slot; opMark, committed groups and loops: the mark
	behind   []runeClass // opBehind, opNotBehind: the runes before, in order
	loop     *nnode      // opLoopEnd: its loop
}

// runeClass is one rune (one), any rune but one (notOne), a set, or the
// union of a few of those; ascii says which ASCII runes it holds.
type runeClass struct {
	tests []runeTest
	ascii [2]uint64
}

type runeTest struct {
	set    *syntax.CharSet
	ch     rune
	notOne bool
}

func (t *runeTest) match(r rune) bool {
	switch {
	case t.set != nil:
		return t.set.Contains(r)
	case t.notOne:
		return r != t.ch
	}
	return r == t.ch
}

func newRuneClass(tests []runeTest) runeClass {
	c := runeClass{tests: tests}
	for r := range rune(128) {
		if c.slow(r) {
			c.ascii[r/64] |= 1 << (r % 64)
		}
	}
	return c
}

func (c *runeClass) has(r rune) bool {
	if r < 128 {
		return c.ascii[r/64]&(1<<(r%64)) != 0
	}
	return c.slow(r)
}

func (c *runeClass) slow(r rune) bool {
	for i := range c.tests {
		if c.tests[i].match(r) {
			return true
		}
	}
	return false
}

// unsupported options on any node.
const badOptions = syntax.IgnoreCase | syntax.RightToLeft | syntax.ECMAScript | syntax.RE2

// newNative returns chroma's compiled expression, parsed, as a native
// rule, or nil when the parse holds what the engine does not match itself.
func newNative(tree *syntax.RegexTree) *native {
	if tree.Options&badOptions != 0 {
		return nil
	}
	root := tree.Root
	if root.T != syntax.NtCapture || len(root.Children) != 1 || root.M != 0 || root.N != -1 {
		return nil
	}
	// Group numbers to capture slots, as regexp2's writer maps them.
	b := &builder{slots: tree.Captop}
	if tree.Capnumlist != nil && tree.Captop != len(tree.Capnumlist) {
		b.slots = len(tree.Capnumlist)
		b.caps = map[int]int{}
		for i, num := range tree.Capnumlist {
			b.caps[num] = i
		}
	}
	accept := &nnode{op: opAccept}
	start, ok := b.build(root.Children[0], accept)
	if !ok {
		return nil
	}
	// Capture 0 is the whole match: the engine reads it from where it started and ended.
	return &native{start: start, slots: b.slots, marks: b.marks}
}

type builder struct {
	caps  map[int]int // group number -> slot, when numbers have gaps
	slots int
	marks int
}

func (b *builder) slot(group int) (int, bool) {
	if b.caps == nil {
		return group, group >= 0 && group < b.slots
	}
	s, ok := b.caps[group]
	return s, ok
}

// build returns the node graph matching n and then next.
func (b *builder) build(n *syntax.RegexNode, next *nnode) (*nnode, bool) {
	if (n.T == syntax.NtPosLook || n.T == syntax.NtNegLook) && n.Options&syntax.RightToLeft != 0 {
		return b.lookbehind(n, next)
	}
	if n.Options&badOptions != 0 {
		return nil, false
	}
	switch n.T {
	case syntax.NtConcatenate, syntax.NtGroup:
		for i := len(n.Children) - 1; i >= 0; i-- {
			var ok bool
			if next, ok = b.build(n.Children[i], next); !ok {
				return nil, false
			}
		}
		return next, true
	case syntax.NtEmpty:
		return next, true
	case syntax.NtNothing:
		return &nnode{op: opAlt}, true // no alternative: never matches
	case syntax.NtMulti:
		return &nnode{op: opLit, lit: n.Str, next: next}, true
	case syntax.NtOne, syntax.NtNotone, syntax.NtSet:
		return b.runes(n, opRune, 1, 1, next)
	case syntax.NtOneloop, syntax.NtNotoneloop, syntax.NtSetloop:
		return b.runes(n, opLoop, n.M, n.N, next)
	case syntax.NtOnelazy, syntax.NtNotonelazy, syntax.NtSetlazy:
		return b.runes(n, opLazy, n.M, n.N, next)
	case syntax.NtOneloopatomic, syntax.NtNotoneloopatomic, syntax.NtSetloopatomic:
		return b.runes(n, opAtomic, n.M, n.N, next)
	case syntax.NtAlternate:
		alt := &nnode{op: opAlt, next: next}
		for _, c := range n.Children {
			entry, ok := b.build(c, next)
			if !ok {
				return nil, false
			}
			alt.alts = append(alt.alts, entry)
		}
		return alt, true
	case syntax.NtCapture:
		return b.capture(n, next)
	case syntax.NtAtomic, syntax.NtPosLook, syntax.NtNegLook:
		return b.committed(n, next)
	case syntax.NtLoop, syntax.NtLazyloop:
		return b.loop(n, next)
	case syntax.NtRef:
		s, ok := b.slot(n.M)
		return &nnode{op: opRef, slot: s, next: next}, ok
	}
	if op, ok := anchors[n.T]; ok {
		return &nnode{op: op, next: next}, true
	}
	return nil, false
}

var anchors = map[syntax.NodeType]nop{
	syntax.NtBol: opBol, syntax.NtEol: opEol, syntax.NtBeginning: opBeginning,
	syntax.NtStart: opStart, syntax.NtEndZ: opEndZ, syntax.NtEnd: opEnd,
	syntax.NtBoundary: opBoundary, syntax.NtNonboundary: opNonBoundary,
}

// runes is a node of op over the runes n matches, min to max of them.
func (b *builder) runes(n *syntax.RegexNode, op nop, lo, hi int, next *nnode) (*nnode, bool) {
	var t runeTest
	switch n.T {
	case syntax.NtOne, syntax.NtOneloop, syntax.NtOnelazy, syntax.NtOneloopatomic:
		t = runeTest{ch: n.Ch}
	case syntax.NtNotone, syntax.NtNotoneloop, syntax.NtNotonelazy, syntax.NtNotoneloopatomic:
		t = runeTest{ch: n.Ch, notOne: true}
	default:
		if n.Set == nil {
			return nil, false
		}
		t = runeTest{set: n.Set}
	}
	if lo < 0 || hi < lo {
		return nil, false
	}
	return &nnode{op: op, class: newRuneClass([]runeTest{t}), min: lo, max: hi, next: next}, true
}

// capture is a capturing group; a balancing group (N >= 0) is not matched here.
func (b *builder) capture(n *syntax.RegexNode, next *nnode) (*nnode, bool) {
	s, ok := b.slot(n.M)
	if !ok || n.N != -1 || len(n.Children) != 1 || s == 0 {
		return nil, false
	}
	body, ok := b.build(n.Children[0], &nnode{op: opClose, slot: s, next: next})
	if !ok {
		return nil, false
	}
	return &nnode{op: opOpen, slot: s, next: body}, true
}

// committed is an atomic group or a lookahead: its body ends at a mark.
func (b *builder) committed(n *syntax.RegexNode, next *nnode) (*nnode, bool) {
	if len(n.Children) != 1 {
		return nil, false
	}
	mark := b.marks
	b.marks++
	body, ok := b.build(n.Children[0], &nnode{op: opMark, slot: mark})
	if !ok {
		return nil, false
	}
	op := map[syntax.NodeType]nop{syntax.NtAtomic: opCommit, syntax.NtPosLook: opAhead, syntax.NtNegLook: opNotAhead}[n.T]
	return &nnode{op: op, alts: []*nnode{body}, slot: mark, next: next}, true
}

// loop is a loop of one or more runes: regexp2's Branchmark and
// Lazybranchmark, which its writer uses for loops of no bound and a
// minimum of 0 or 1 (others count, and are left to regexp2).
func (b *builder) loop(n *syntax.RegexNode, next *nnode) (*nnode, bool) {
	if len(n.Children) == 1 && n.M == 0 && n.N == 1 {
		return b.optional(n, next)
	}
	if len(n.Children) != 1 || n.M > 1 || n.N != math.MaxInt32 {
		return nil, false
	}
	op := opGreedy
	if n.T == syntax.NtLazyloop {
		op = opLazyLoop
	}
	l := &nnode{op: op, min: n.M, slot: b.marks, next: next}
	b.marks++
	body, ok := b.build(n.Children[0], &nnode{op: opLoopEnd, loop: l})
	if !ok {
		return nil, false
	}
	l.alts = []*nnode{body}
	return l, true
}

// optional is a loop of zero or one iteration, X? or X??: the body then
// what follows, else what follows alone (lazy: the other way round), as
// regexp2's Branchcount and Lazybranchcount run it with a bound of one
// (an empty iteration goes straight on, as the bound does).
func (b *builder) optional(n *syntax.RegexNode, next *nnode) (*nnode, bool) {
	body, ok := b.build(n.Children[0], next)
	if !ok {
		return nil, false
	}
	if n.T == syntax.NtLazyloop {
		return &nnode{op: opAlt, alts: []*nnode{next, body}, next: next}, true
	}
	return &nnode{op: opAlt, alts: []*nnode{body, next}, next: next}, true
}

// lookbehind is a lookbehind whose body is a fixed run of runes and
// literals (right to left, its concatenations list their parts from the
// right).
func (b *builder) lookbehind(n *syntax.RegexNode, next *nnode) (*nnode, bool) {
	if len(n.Children) != 1 || n.Options&(badOptions&^syntax.RightToLeft) != 0 {
		return nil, false
	}
	var runes []runeClass
	var walk func(c *syntax.RegexNode) bool
	walk = func(c *syntax.RegexNode) bool {
		if c.Options&(badOptions&^syntax.RightToLeft) != 0 {
			return false
		}
		switch c.T {
		case syntax.NtConcatenate:
			for i := len(c.Children) - 1; i >= 0; i-- {
				if !walk(c.Children[i]) {
					return false
				}
			}
			return true
		case syntax.NtMulti:
			for _, r := range c.Str {
				runes = append(runes, newRuneClass([]runeTest{{ch: r}}))
			}
			return true
		case syntax.NtOne, syntax.NtNotone, syntax.NtSet:
			t, ok := newRuneTest(c)
			runes = append(runes, newRuneClass([]runeTest{t}))
			return ok
		}
		return false
	}
	if !walk(n.Children[0]) {
		return nil, false
	}
	op := opBehind
	if n.T == syntax.NtNegLook {
		op = opNotBehind
	}
	return &nnode{op: op, behind: runes, next: next}, true
}

func newRuneTest(n *syntax.RegexNode) (runeTest, bool) {
	switch n.T {
	case syntax.NtOne:
		return runeTest{ch: n.Ch}, true
	case syntax.NtNotone:
		return runeTest{ch: n.Ch, notOne: true}, true
	}
	return runeTest{set: n.Set}, n.Set != nil
}

// firstRunes is what a match of the rule can start with: the ASCII runes,
// whether any other rune may start one, and ok false when the rule can
// match the empty string (or the walk is too long), when it must be tried
// at every rune. It is a superset: a lookaround is taken for nothing.
func (nat *native) firstRunes() (ascii [2]uint64, nonASCII, ok bool) {
	f := firstWalk{onPath: map[*nnode]bool{}}
	nullable := f.first(nat.start)
	if nullable || f.steps > maxFirstSteps {
		return ascii, false, false
	}
	return f.ascii, f.nonASCII, true
}

const maxFirstSteps = 10000

// firstWalk gathers the runes the nodes from one on can start with.
type firstWalk struct {
	ascii    [2]uint64
	nonASCII bool
	onPath   map[*nnode]bool // nodes being walked: a loop back to one adds nothing new
	steps    int
}

// first adds the runes a match from n can start with, and reports whether
// it can end (reach the end of the rule, or of a committed group's body)
// without taking any.
func (f *firstWalk) first(n *nnode) bool {
	if f.onPath[n] {
		return false
	}
	if f.steps++; f.steps > maxFirstSteps {
		return true
	}
	f.onPath[n] = true
	defer delete(f.onPath, n)
	switch n.op {
	case opAccept, opMark:
		return true
	case opLit:
		if len(n.lit) == 0 {
			return f.first(n.next)
		}
		f.add(newRuneClass([]runeTest{{ch: n.lit[0]}}))
		return false
	case opRune, opLoop, opLazy, opAtomic:
		f.add(n.class)
		return n.min == 0 && f.first(n.next)
	case opAlt:
		nullable := false
		for _, a := range n.alts {
			nullable = f.first(a) || nullable
		}
		return nullable
	case opCommit:
		return f.first(n.alts[0]) && f.first(n.next) // the body ends at a mark
	case opGreedy, opLazyLoop:
		// The body ends at opLoopEnd, which goes on to what follows the loop.
		nullable := f.first(n.alts[0])
		if n.min == 0 {
			nullable = f.first(n.next) || nullable
		}
		return nullable
	case opLoopEnd:
		return f.first(n.loop.next)
	case opRef:
		return true // what a group took: anything, or nothing
	}
	return f.first(n.next) // zero-width: captures, anchors, lookarounds
}

// add adds a class's runes.
func (f *firstWalk) add(c runeClass) {
	f.ascii[0] |= c.ascii[0]
	f.ascii[1] |= c.ascii[1]
	for _, t := range c.tests {
		if t.set != nil || t.notOne || t.ch >= 128 {
			f.nonASCII = true
		}
	}
}

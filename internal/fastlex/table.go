package fastlex

import (
	"fmt"
	"math"

	"github.com/alecthomas/chroma/v2"
	"github.com/dlclark/regexp2/v2/syntax"
)

// table is what the engine knows of one chroma.RegexLexer: its compiled
// rules (chroma's own), and for each state which rules are worth trying
// at a rune.
type table struct {
	e        *Engine
	lexer    *chroma.RegexLexer
	rules    chroma.CompiledRules
	registry *chroma.LexerRegistry
	states   map[string]*stateTable
	infos    map[*chroma.CompiledRule]*ruleInfo // every rule's, once: states share rules (Include)
}

// stateTable holds a state's rules in chroma's order, and for each ASCII
// rune the indexes of those that can match at it, in the same order.
type stateTable struct {
	rules []*chroma.CompiledRule // as in the lexer's map: a state whose slice differs is not this one
	info  []*ruleInfo            // info[i] is about rules[i]
	// ascii[at[c]:at[c+1]] are the rules to try where the rune is c < 128.
	// Past ASCII, each rule's set is asked (rare in code).
	at    [129]uint32
	ascii []uint16
}

// ruleInfo is what the engine needs about one compiled rule.
type ruleInfo struct {
	rule *chroma.CompiledRule
	// The runes a match can start with: regexp2's set (first), else for a
	// native rule its own (firstASCII, firstNonASCII, when hasFirst); with
	// neither, the rule is tried at every rune.
	first         *syntax.CharSet
	firstASCII    [2]uint64
	firstNonASCII bool
	hasFirst      bool
	pre           prefilter // more that a match needs, from regexp2's analysis
	nat           *native   // when not nil, the engine matches the rule itself (native.go)
	slots         []int     // the group number of each capture slot, in the order chroma lists groups
	names         []string  // each slot's name, for NamedGroups
	known         bool      // the emitter and mutator are chroma's own, and read no more than the groups they are given
	emit          *plan     // how to emit the rule's groups; nil when it has no emitter
}

// newTable builds rl's tables: an error when rl cannot be driven exactly.
func newTable(e *Engine, rl *chroma.RegexLexer) (*table, error) {
	in, err := readInternals(rl)
	if err != nil {
		return nil, err
	}
	if in.trace {
		return nil, fmt.Errorf("%s: tracing is on", rl.Config().Name)
	}
	t := &table{e: e, lexer: rl, rules: in.rules, registry: in.registry,
		states: map[string]*stateTable{}, infos: map[*chroma.CompiledRule]*ruleInfo{}}
	for name, rules := range in.rules {
		if len(rules) > math.MaxUint16 {
			return nil, fmt.Errorf("%s: state %s has %d rules", rl.Config().Name, name, len(rules))
		}
		st := &stateTable{rules: rules, info: make([]*ruleInfo, len(rules))}
		for i, r := range rules {
			if t.infos[r] == nil {
				t.infos[r] = newRuleInfo(r, true)
			}
			st.info[i] = t.infos[r]
		}
		st.index()
		t.states[name] = st
	}
	return t, nil
}

// index fills the ASCII table from the rules' first-rune sets.
func (st *stateTable) index() {
	for c := range rune(128) {
		st.at[c] = uint32(len(st.ascii))
		for i, ri := range st.info {
			if ri.mayStart(c) {
				st.ascii = append(st.ascii, uint16(i))
			}
		}
	}
	st.at[128] = uint32(len(st.ascii))
}

// newRuleInfo studies r; its first-rune set only when withFirst (a rule
// met while lexing, not in the tables, is tried everywhere).
func newRuleInfo(r *chroma.CompiledRule, withFirst bool) *ruleInfo {
	ri := &ruleInfo{
		rule:  r,
		slots: r.Regexp.GetGroupNumbers(),
		names: r.Regexp.GetGroupNames(),
		known: knownMutator(r.Mutator),
	}
	// One parse for both the native rule and the first-rune set (the
	// native rule is built first: regexp2's writer changes the tree's
	// capture map).
	expr := r.Regexp.String()
	tree, err := syntax.Parse(expr, syntax.ParseOptions{})
	if err == nil {
		if nat := newNative(tree); nat != nil && nat.slots == len(ri.slots) {
			ri.nat = nat
		}
		if withFirst && ri.nat != nil {
			ri.firstASCII, ri.firstNonASCII, ri.hasFirst = ri.nat.firstRunes()
		} else if withFirst {
			ri.first = firstRunes(tree) // regexp2's writer: more costly
		}
	}
	if withFirst && ri.nat == nil {
		ri.pre = newPrefilter(expr) // the native matcher fails as fast
	}
	if r.Type != nil {
		ri.emit = newPlan(r.Type)
		ri.known = ri.known && ri.emit.known()
	}
	return ri
}

// mayStart reports whether a match of the rule can start with c.
func (ri *ruleInfo) mayStart(c rune) bool {
	switch {
	case ri.hasFirst && c < 128:
		return ri.firstASCII[c/64]&(1<<(c%64)) != 0
	case ri.hasFirst:
		return ri.firstNonASCII
	case ri.first != nil:
		return ri.first.Contains(c)
	}
	return true
}

// firstRunes is the set of runes a match of the parsed expression can
// start with, as regexp2 computes it for its own searches (Code.FcPrefix,
// from the same parse regexp2.Compile makes with no options, as chroma
// compiles); nil when it can match the empty string or the set is not
// known.
func firstRunes(tree *syntax.RegexTree) *syntax.CharSet {
	code, err := syntax.Write(tree)
	if err != nil || code.FcPrefix == nil || code.RightToLeft {
		return nil
	}
	code.PrepareCharSetASCIIBitmaps()
	return &code.FcPrefix.PrefixSet
}

// knownMutator reports whether m is nil or one of chroma's mutators that
// read only the stack and the state (Push, Pop, and lists of them).
func knownMutator(m chroma.Mutator) bool {
	if m == nil {
		return true
	}
	sm, ok := m.(chroma.SerialisableMutator)
	if !ok {
		return false
	}
	switch sm.MutatorKind() {
	case "push", "pop":
		return true
	case "mutators":
		list, ok := exportedField[[]chroma.Mutator](m, "Mutators")
		if !ok {
			return false
		}
		for _, c := range list {
			if !knownMutator(c) {
				return false
			}
		}
		return true
	}
	return false
}

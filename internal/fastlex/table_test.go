package fastlex

import (
	"sort"
	"testing"
)

// tableRules are the rules of the session lexers, each expression once,
// in a fixed order, with what the engine knows of them.
func tableRules(t testing.TB) []*ruleInfo {
	seen := map[string]bool{}
	var out []*ruleInfo
	e := New()
	for _, name := range sessionLexers {
		var tab *table
		switch l := e.Lexer(lexer(t, name)).(type) {
		case *Lexer:
			tab = l.t
		case *frontMatterLexer:
			tab = l.inner
		default:
			t.Fatalf("%s is not driven", name)
		}
		var states []string
		for s := range tab.states {
			states = append(states, s)
		}
		sort.Strings(states)
		for _, s := range states {
			for _, ri := range tab.states[s].info {
				if expr := ri.rule.Regexp.String(); !seen[expr] {
					seen[expr] = true
					out = append(out, ri)
				}
			}
		}
	}
	return out
}

// sameStarts fails where regexp2 matches ri's rule at a position of text
// that the engine's tables (first runes, prefilter) rule out.
func sameStarts(t testing.TB, ri *ruleInfo, text string) {
	t.Helper()
	re := ri.rule.Regexp
	runes := []rune(text)
	for pos := range len(runes) + 1 {
		m, err := re.FindRunesMatchStartingAt(runes, pos)
		if err != nil || m == nil {
			continue // a timeout is no match, for chroma as for the engine
		}
		if m.RuneIndex != pos {
			t.Fatalf("%s on %q at %d: a match at %d", re, text, pos, m.RuneIndex)
		}
		if m.RuneLength == 0 && ri.first != nil || pos < len(runes) && !ri.mayStart(runes[pos]) {
			t.Fatalf("%s on %q at %d: matches %q, but its first runes say it cannot", re, text, pos, m.String())
		}
		if !ri.pre.ok(runes, pos) {
			t.Fatalf("%s on %q at %d: matches %q, but its prefilter says it cannot", re, text, pos, m.String())
		}
	}
}

// TestTables: on the corner texts and seed snippets, every rule of the
// session lexers matches only where the tables let the engine try it.
func TestTables(t *testing.T) {
	rules := tableRules(t)
	withFirst := 0
	for _, ri := range rules {
		if ri.first != nil {
			withFirst++
		}
		for _, text := range append(cornerTexts, seedSnippets...) {
			if len(text) < 2<<10 { // every position: regexp2 is slow on longer text
				sameStarts(t, ri, text)
			}
		}
	}
	t.Logf("%d distinct rules, %d with a first-rune set", len(rules), withFirst)
}

// FuzzTables holds the tables of every rule of the session lexers to
// regexp2 at every position of any text: where the rule matches, its
// first runes and prefilter let it be tried.
func FuzzTables(f *testing.F) {
	for i, text := range append(cornerTexts, seedSnippets...) {
		if len(text) < 2<<10 {
			f.Add(uint16(i*37), text)
		}
	}
	rules := tableRules(f)
	f.Fuzz(func(t *testing.T, which uint16, text string) {
		if len(text) > 1<<10 {
			return
		}
		sameStarts(t, rules[int(which)%len(rules)], text)
	})
}

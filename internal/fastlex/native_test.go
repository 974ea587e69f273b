package fastlex

import (
	"sort"
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/dlclark/regexp2/v2"
	"github.com/dlclark/regexp2/v2/syntax"
)

// nativeRules are the compiled expressions of the session lexers' rules
// that the engine matches itself, each once, in a fixed order.
func nativeRules(t testing.TB) (exprs []*regexp2.Regexp, total int) {
	seen := map[string]bool{}
	e := New()
	for _, name := range sessionLexers {
		var rl *chroma.RegexLexer
		switch l := e.Lexer(lexer(t, name)).(type) {
		case *Lexer:
			rl = l.t.lexer
		case *frontMatterLexer:
			rl = l.inner.lexer
		default:
			t.Fatalf("%s is not driven", name)
		}
		in, err := readInternals(rl)
		if err != nil {
			t.Fatal(err)
		}
		var states []string
		for s := range in.rules {
			states = append(states, s)
		}
		sort.Strings(states)
		for _, s := range states {
			for _, r := range in.rules[s] {
				expr := r.Regexp.String()
				if seen[expr] {
					continue
				}
				seen[expr] = true
				total++
				if parseNative(t, expr) != nil {
					exprs = append(exprs, r.Regexp)
				}
			}
		}
	}
	return exprs, total
}

// sameMatches fails where the engine's match of re at a position of text
// differs from regexp2's: whether it matches, and each group's span.
func sameMatches(t testing.TB, re *regexp2.Regexp, text string) {
	t.Helper()
	nat := parseNative(t, re.String())
	ascii, nonASCII, hasFirst := nat.firstRunes()
	ri := ruleInfo{firstASCII: ascii, firstNonASCII: nonASCII, hasFirst: hasFirst}
	runes := []rune(text)
	var m matcher
	for pos := range len(runes) + 1 {
		want, err := re.FindRunesMatchStartingAt(runes, pos)
		if err != nil {
			continue // a timeout: chroma takes it for no match, and so would the engine
		}
		got, known := m.match(nat, runes, pos)
		if !known {
			continue // regexp2 decides
		}
		if got != (want != nil) {
			t.Fatalf("%s on %q at %d: match %v, regexp2's %v", re, text, pos, got, want != nil)
		}
		if !got {
			continue
		}
		if want.RuneLength == 0 && hasFirst || want.RuneLength > 0 && !ri.mayStart(runes[pos]) {
			t.Fatalf("%s on %q at %d: matches %q, but its first runes say it cannot", re, text, pos, want.String())
		}
		for s, g := range want.Groups() {
			from, to := -1, -1
			if len(g.Captures) > 0 {
				from, to = g.RuneIndex, g.RuneIndex+g.RuneLength
			}
			if m.caps[2*s] != from || (from >= 0 && m.caps[2*s+1] != to) {
				t.Fatalf("%s on %q at %d: group %d at %d-%d, regexp2's %d-%d", re, text, pos, s, m.caps[2*s], m.caps[2*s+1], from, to)
			}
		}
	}
}

// Most rules of the session lexers are matched natively; each matches as
// regexp2 does on the corner texts and seed snippets.
func TestNative(t *testing.T) {
	exprs, total := nativeRules(t)
	t.Logf("%d of %d distinct rules matched natively", len(exprs), total)
	if len(exprs) < total/2 {
		t.Errorf("only %d of %d rules matched natively", len(exprs), total)
	}
	for _, re := range exprs {
		for _, text := range append(cornerTexts, seedSnippets...) {
			if len(text) < 2<<10 { // every position: regexp2 is slow on longer text
				sameMatches(t, re, text)
			}
		}
	}
}

// FuzzNative holds every natively matched rule of the session lexers to
// regexp2 at every position of any text.
func FuzzNative(f *testing.F) {
	for i, text := range append(cornerTexts, seedSnippets...) {
		if len(text) < 2<<10 {
			f.Add(uint16(i*37), text)
		}
	}
	exprs, _ := nativeRules(f)
	f.Fuzz(func(t *testing.T, which uint16, text string) {
		if len(text) > 1<<10 {
			return
		}
		sameMatches(t, exprs[int(which)%len(exprs)], text)
	})
}

func parseNative(t testing.TB, expr string) *native {
	tree, err := syntax.Parse(expr, syntax.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return newNative(tree)
}

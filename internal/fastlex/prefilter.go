package fastlex

import (
	"strings"

	"github.com/dlclark/regexp2/v2/syntax"
)

// A prefilter is what regexp2's analysis of a rule's expression (the
// FindOptimizations it computes to find where an unanchored search may
// start) says any match starting at a position needs: so many runes left,
// one of a few literal prefixes, a rune of a set at a fixed distance. A
// match of chroma's `\G(?flags)(?:pattern)` at a position is a match of
// `(?flags)(?:pattern)` starting there, so what regexp2 would rule out
// as a start for the latter cannot match the former either.
type prefilter struct {
	min      int      // runes a match needs
	prefixes [][]rune // when not nil, a match starts with one of these
	sets     []syntax.FixedDistanceSet
	at       int    // the distance of lit (or of char) from the start
	lit      []rune // when not nil, the runes at distance at
	char     rune   // when hasChar, the rune at distance at
	hasChar  bool
}

// newPrefilter analyses chroma's compiled expression expr; the zero
// prefilter (no condition) when it is not in chroma's form or regexp2
// finds nothing simple.
func newPrefilter(expr string) prefilter {
	unanchored, ok := strings.CutPrefix(expr, `\G`)
	if !ok {
		return prefilter{}
	}
	tree, err := syntax.Parse(unanchored, syntax.ParseOptions{})
	if err != nil {
		return prefilter{}
	}
	code, err := syntax.Write(tree)
	if err != nil || code.RightToLeft || code.FindOptimizations == nil {
		return prefilter{}
	}
	code.PrepareCharSetASCIIBitmaps()
	o := code.FindOptimizations
	p := prefilter{min: o.MinRequiredLength}
	switch o.FindMode {
	case syntax.LeadingString_LeftToRight:
		p.prefixes = [][]rune{o.LeadingPrefixRunes}
	case syntax.LeadingStrings_LeftToRight:
		p.prefixes = o.LeadingPrefixesRunes
	case syntax.LeadingSet_LeftToRight, syntax.FixedDistanceSets_LeftToRight:
		p.sets = o.FixedDistanceSets
	case syntax.FixedDistanceChar_LeftToRight:
		p.char, p.at, p.hasChar = o.FixedDistanceLiteral.C, o.FixedDistanceLiteral.Distance, true
	case syntax.FixedDistanceString_LeftToRight:
		p.lit, p.at = o.FixedDistanceLiteral.Runes, o.FixedDistanceLiteral.Distance
	}
	return p
}

// ok reports whether a match may start at text[pos:].
func (p *prefilter) ok(text []rune, pos int) bool {
	rest := text[pos:]
	if len(rest) < p.min {
		return false
	}
	if p.hasChar && (p.at >= len(rest) || rest[p.at] != p.char) {
		return false
	}
	if p.lit != nil && (p.at > len(rest) || !hasPrefix(rest[p.at:], p.lit)) {
		return false
	}
	for i := range p.sets {
		s := &p.sets[i]
		if s.Distance >= len(rest) || !s.Set.Contains(rest[s.Distance]) {
			return false
		}
	}
	if p.prefixes == nil {
		return true
	}
	for _, pre := range p.prefixes {
		if hasPrefix(rest, pre) {
			return true
		}
	}
	return false
}

// A gitleaks rule as this package runs it (vendorRule), and what is read
// from its expression's syntax tree at its first hit: the literals it
// starts with, its longest match, a literal every match holds, gitleaks'
// keyword template; its expressions, compiled on first use.

package redact

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
)

// vendorRule is one gitleaks rule as this package runs it.
type vendorRule struct {
	id          string
	src         string // the expression
	keywords    []string
	secretGroup int
	entropy     float64
	allow       []*allowlist // the rule's
	global      []*allowlist
	memo        int // index of its window memo in detector.vmemo

	// Set by analyse, at the first keyword hit.
	once   sync.Once
	broken bool
	prio   int8

	// anchored: every match starts with one of lits (after an optional
	// \b, boundary), and every keyword agrees with a lit, so a match is
	// looked for only at a keyword hit and only as wide as width.
	anchored bool
	lits     []litPrefix
	boundary bool
	// reA: the expression anchored at its start (\A), for anchored rules
	// and the template's, so that a hit where there is no match costs no
	// search through the rest of the window or text ("-----BEGIN
	// CERTIFICATE" for private-key; in the template's, 100 µs a hit).
	// re: as it is, for the others. Each is compiled at the rule's first
	// hit that gets that far: 101 of them cost 17 ms, and most sessions
	// never name most vendors.
	onceA  sync.Once
	reA    *regexp.Regexp
	onceRe sync.Once
	re     *regexp.Regexp
	// width: the longest match, in bytes; -1 when unbounded.
	width int
	// need: a literal (lower case) every match contains, looked for in a
	// window before the expression runs (lob-api-key: "lob", for its
	// keywords test_ and live_).
	need string
	// semiGeneric: gitleaks' "identifier containing the keyword, then a
	// separator, then the value" template. A hit of one of groupKW (the
	// keywords in the template's name part) not followed by a separator
	// within the identifier cannot be part of a match, and a match starts
	// at most 50 identifier characters before it. A hit of another keyword
	// followed by no separator is in the value (lob-api-key's test_ and
	// live_), and needInName says need is in the name part, which is then
	// shortly before it.
	semiGeneric bool
	groupKW     []string
	needInName  bool
}

type litPrefix struct {
	s    string
	fold bool // (?i)
}

// The parts of gitleaks' generated keyword rules between the keyword and
// the value (utils.GenerateSemiGenericRegex; some rules close a group
// between them).
const (
	semiGenericName = `(?:[ \t\w.-]{0,20})[\s'"]{0,3}`
	semiGenericSep  = `(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)`
)

// semiGenericAt returns where the template's separator part starts in
// src, or -1.
func semiGenericAt(src string) int {
	i := strings.Index(src, semiGenericName)
	if i < 0 {
		return -1
	}
	j := strings.Index(src[i:], semiGenericSep)
	if j < 0 || j > len(semiGenericName)+1 {
		return -1
	}
	return i
}

// analyse reads the expression's shape, at the rule's first keyword hit:
// whether it is anchored at its keywords, its longest match, a literal
// every match holds, gitleaks' keyword template. An expression that does
// not parse (gitleaks compiles them all, so none should) disables the rule.
func (vr *vendorRule) analyse() {
	vr.prio = prioVendor
	p, err := syntax.Parse(vr.src, syntax.Perl)
	if err != nil {
		vr.broken = true
		return
	}
	vr.width = maxWidth(p)
	if vr.secretGroup > p.MaxCap() { // (gitleaks refuses it; TestGitleaksDecoding checks the data)
		vr.secretGroup = 0
	}
	if lits, boundary, ok := leadLits(p); ok && keywordsAgree(vr.keywords, lits) {
		vr.anchored, vr.lits, vr.boundary = true, lits, boundary
	}
	for _, l := range mustLits(p) {
		if len(l) >= 3 && len(l) > len(vr.need) {
			vr.need = l
		}
	}
	// The template alone, not one branch of several (atlassian: the
	// template or ATATT3 and 186 characters).
	if i := semiGenericAt(vr.src); i >= 0 && p.Op != syntax.OpAlternate {
		vr.semiGeneric = true
		vr.prio = prioContext
		name := strings.ToLower(vr.src[:i])
		for _, kw := range vr.keywords {
			if strings.Contains(name, kw) {
				vr.groupKW = append(vr.groupKW, kw)
			}
		}
		vr.needInName = vr.need != "" && strings.Contains(name, vr.need)
	}
}

// expr returns the compiled expression (compiled at its first use).
func (vr *vendorRule) expr() *regexp.Regexp {
	vr.onceRe.Do(func() {
		// Cannot fail: analyse parsed it.
		vr.re = regexp.MustCompile(vr.src)
	})
	return vr.re
}

func (vr *vendorRule) anchoredRe() *regexp.Regexp {
	vr.onceA.Do(func() {
		// Cannot fail: analyse parsed the expression, and \A(?:...)
		// around it is valid.
		vr.reA = regexp.MustCompile(`\A(?:` + vr.src + `)`)
	})
	return vr.reA
}

// mustLits returns literals (lower case) that every match of re contains.
func mustLits(re *syntax.Regexp) []string {
	switch re.Op {
	case syntax.OpLiteral:
		return []string{strings.ToLower(string(re.Rune))}
	case syntax.OpCapture, syntax.OpPlus:
		return mustLits(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min > 0 {
			return mustLits(re.Sub[0])
		}
	case syntax.OpConcat:
		var l []string
		for _, sub := range re.Sub {
			l = append(l, mustLits(sub)...)
		}
		return l
	}
	return nil
}

// maxWidth is the longest text re can match, in bytes (-1: unbounded).
func maxWidth(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			return 4 * len(re.Rune) // k also matches the Kelvin sign, 3 bytes
		}
		n := 0
		for _, r := range re.Rune {
			n += len(string(r))
		}
		return n
	case syntax.OpCharClass, syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		return 4
	case syntax.OpCapture, syntax.OpQuest:
		return maxWidth(re.Sub[0])
	case syntax.OpConcat, syntax.OpAlternate:
		t := 0
		for _, s := range re.Sub {
			w := maxWidth(s)
			if w < 0 {
				return -1
			}
			if re.Op == syntax.OpConcat {
				t += w
			} else {
				t = max(t, w)
			}
		}
		return t
	case syntax.OpStar, syntax.OpPlus:
		return -1
	case syntax.OpRepeat:
		w := maxWidth(re.Sub[0])
		if re.Max < 0 || w < 0 {
			return -1
		}
		return w * re.Max
	}
	return 0 // empty-width assertions, empty match
}

// leadLits returns the literals that every match of re starts with, and
// whether a \b comes before them (in every branch).
func leadLits(re *syntax.Regexp) (lits []litPrefix, boundary, ok bool) {
	switch re.Op {
	case syntax.OpLiteral:
		return []litPrefix{{string(re.Rune), re.Flags&syntax.FoldCase != 0}}, false, true
	case syntax.OpCapture:
		return leadLits(re.Sub[0])
	case syntax.OpConcat:
		for _, s := range re.Sub {
			switch s.Op {
			case syntax.OpWordBoundary:
				boundary = true
				continue
			case syntax.OpBeginText, syntax.OpBeginLine, syntax.OpEmptyMatch:
				continue
			}
			l, b, ok := leadLits(s)
			return l, boundary || b, ok
		}
		return nil, false, false
	case syntax.OpAlternate:
		allB := true
		for _, s := range re.Sub {
			l, b, ok := leadLits(s)
			if !ok {
				return nil, false, false
			}
			lits = append(lits, l...)
			allB = allB && b
		}
		return lits, allB, true
	}
	return nil, false, false
}

// keywordsAgree: every keyword is a prefix of some literal or has one as a
// prefix (ignoring case), so each match starts where a keyword does.
func keywordsAgree(kws []string, lits []litPrefix) bool {
	for _, kw := range kws {
		ok := false
		for _, l := range lits {
			a, b := strings.ToLower(kw), strings.ToLower(l.s)
			if strings.HasPrefix(a, b) || strings.HasPrefix(b, a) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

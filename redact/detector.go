// The detector: the state of one scan of one string (its candidates, the
// memoised runs of character sets, the spans gitleaks' allowlists
// accepted), the types of our rules and assignment rules, the candidates'
// priorities, and the word boundaries every matcher checks.

package redact

import (
	"slices"
	"strings"
)

// Priorities: when candidate spans overlap, the lower number wins; between
// equal priorities, the earlier and then the longer span wins.
const (
	prioBlock    = 0 // private key blocks: contain everything inside them
	prioSpecific = 1 // a token format with a vendor prefix, from our table
	prioVendor   = 2 // the same from gitleaks' rules (ours keep their kind names)
	prioJWT      = 3
	prioContext  = 4 // a value recognised by its vendor keyword (aws, twilio, gitleaks' keyword rules, ...)
	prioURL      = 5
	prioHeader   = 6 // Authorization headers, command-line passwords, Kubernetes and Docker config
	prioGeneric  = 7
)

// cand is one detected secret: a span of the string being scanned.
type cand struct {
	start, end int
	kind       string
	prio       int8
	vendor     bool // found by a gitleaks rule
}

// rule ties keywords (found case-insensitively by the prefilter) to a
// matcher that is called with the keyword's start position.
type rule struct {
	keywords []string
	match    func(d *detector, at, kwLen int)
}

// assignRule recognises `<identifier containing keyword> <sep> <value>`.
// It is also applied to JSON members whose key contains the keyword.
type assignRule struct {
	kind       string
	keywords   []string
	allowSpace bool // value may follow the identifier after blanks only (CLI style)
	prio       int8
	check      func(value, ident string) bool
	// allow: gitleaks' allowlists for the same keywords (for the generic
	// rule, those of its generic-api-key rule: public_key, foreignKey,
	// credentialsId, csrf-token, ... and its stop words), set by New.
	allow []*allowlist
}

type runMemo struct {
	gen      uint32
	from, to int
}

type detector struct {
	r       *Redactor
	s       string
	cands   []cand
	gen     uint32 // memo entries of other generations are stale
	memo    [nSets]runMemo
	vmemo   []runMemo // per vendor rule: the window last searched
	win     []byte    // chatText's copy of a window
	ctxDone uint64
	// allowed: spans a gitleaks rule matched and its own allowlist
	// accepted (its known public Google API keys, ...): our rules'
	// candidates for exactly these spans are dropped too.
	allowed [][2]int
}

func (d *detector) dropAllowed() {
	kept := d.cands[:0]
	for _, c := range d.cands {
		if c.vendor || !slices.Contains(d.allowed, [2]int{c.start, c.end}) {
			kept = append(kept, c)
		}
	}
	d.cands = kept
}

func (d *detector) vendorMemo(vr *vendorRule) *runMemo { return &d.vmemo[vr.memo] }

func (d *detector) reset(s string) {
	d.s = s
	d.cands = d.cands[:0]
	d.allowed = d.allowed[:0]
	d.gen++
	if d.gen == 0 { // wrapped: clear for real
		d.memo = [nSets]runMemo{}
		clear(d.vmemo)
		d.gen = 1
	}
	d.ctxDone = 0
}

// add records a candidate, unless it is a placeholder or a made-up value
// (private key blocks and URL passwords have checks of their own).
func (d *detector) add(start, end int, kind string, prio int8) {
	if prio != prioBlock && prio != prioURL && (placeholder(d.s[start:end]) || sequential(d.s[start:end])) {
		return
	}
	d.cands = append(d.cands, cand{start: start, end: end, kind: kind, prio: prio})
}

// run returns the end of the run of characters of set id starting at from,
// looking at no more than limit+1 characters (so end-from > limit means
// "longer than limit"). Runs are memoised, so many keyword hits inside one
// long run cost linear time overall.
func (d *detector) run(id, from, limit int) int {
	m := &d.memo[id]
	if m.gen == d.gen && m.from <= from && from < m.to {
		return min(m.to, from+limit+1)
	}
	s, cs := d.s, sets[id]
	j, stop := from, min(len(s), from+limit+1)
	for j < stop && cs[s[j]] {
		j++
	}
	if j < stop || j == len(s) { // natural end of the run
		m.gen, m.from, m.to = d.gen, from, j
	}
	return j
}

// leftOK: the character before at does not continue a word. A letter right
// after a backslash counts as a boundary (JSON escapes such as \n seen in
// raw text).
func leftOK(s string, at int) bool {
	if at == 0 || !isAlnum(s[at-1]) {
		return true
	}
	return at >= 2 && s[at-2] == '\\' && strings.IndexByte("nrtbf", s[at-1]) >= 0
}

func rightOK(s string, end int) bool { return end >= len(s) || !isAlnum(s[end]) }

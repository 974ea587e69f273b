// Running a gitleaks rule at a keyword hit, in one of three ways: anchored
// at the keyword, from the start of the name of gitleaks' keyword
// template, or over a window as wide as the longest match; the second try
// with sentence punctuation blanked (chatText); and the check of a match
// as gitleaks does it (found).

package redact

import (
	"slices"
	"strings"
)

func (vr *vendorRule) match(d *detector, at, kwLen int) {
	vr.once.Do(vr.analyse)
	if vr.broken {
		return
	}
	if vr.anchored {
		vr.matchAnchored(d, at)
		return
	}
	if vr.semiGeneric && vr.matchTemplate(d, at, kwLen) {
		return
	}
	s := d.s
	a, b := 0, len(s)
	if vr.width >= 0 {
		a, b = max(0, at-vr.width), min(len(s), at+kwLen+vr.width)
	}
	// Windows of hits close together overlap: skip a hit whose window
	// was searched already.
	memo := d.vendorMemo(vr)
	if memo.gen == d.gen && memo.from <= a && b <= memo.to {
		return
	}
	memo.gen, memo.from, memo.to = d.gen, a, b
	if vr.need != "" && !containsFold(s[a:b], vr.need) {
		return
	}
	re := vr.expr()
	ms := re.FindAllStringSubmatchIndex(s[a:b], -1)
	if ms == nil && !vr.semiGeneric { // (its separators include , and >)
		if t, ok := d.chatText(a, b); ok {
			ms = re.FindAllStringSubmatchIndex(t, -1)
		}
	}
	for _, m := range ms {
		// A match that touches a cut edge of the window may be an
		// artefact of the cut (\b, $, a longer run); one that contains
		// this hit cannot touch it.
		if m[0] == 0 && a > 0 || m[1] == b-a && b < len(s) {
			continue
		}
		vr.found(d, a, m)
	}
}

// matchTemplate runs a rule of gitleaks' keyword template at a hit, and
// reports whether it could (false: a keyword of the value, with no literal
// of the name part to look back for).
func (vr *vendorRule) matchTemplate(d *detector, at, kwLen int) bool {
	s := d.s
	name := at // the keyword of the name part
	switch {
	case separatorFollows(s, at+kwLen):
	case slices.Contains(vr.groupKW, lowerASCII(s[at:at+kwLen])):
		return true // a keyword of the name, and no separator after it
	case vr.needInName:
		// A keyword of the value: the name is at most 128 bytes before it
		// (50 + 20 + 3 + 4 + 5, and quotes).
		lo := max(0, at-128)
		if name = lastIndexFold(s[lo:at], vr.need); name < 0 {
			return true
		}
		name += lo
	default:
		return false
	}
	// A match starts in the identifier, at most 50 characters before the
	// keyword (its [\w.-]{0,50}?): the first such place, since gitleaks'
	// match is the leftmost.
	a := name
	for a > 0 && name-a < 50 && (sets[setWord][s[a-1]] || s[a-1] == '.' || s[a-1] == '-') {
		a--
	}
	b := len(s)
	if vr.width >= 0 {
		b = min(b, a+vr.width+1)
	}
	if m := vr.anchoredRe().FindStringSubmatchIndex(s[a:b]); m != nil {
		vr.found(d, a, m)
	}
	return true
}

func (vr *vendorRule) matchAnchored(d *detector, at int) {
	s := d.s
	ok := false
	for _, l := range vr.lits {
		if len(s)-at >= len(l.s) && (s[at:at+len(l.s)] == l.s || l.fold && strings.EqualFold(s[at:at+len(l.s)], l.s)) {
			ok = true
			break
		}
	}
	if !ok || vr.boundary && !leftOK(s, at) {
		return
	}
	// A match is at most width long: the window ends one byte later, so
	// that no $ or \b holds at its cut.
	re, end := vr.anchoredRe(), len(s)
	if vr.width >= 0 {
		end = min(end, at+vr.width+1)
	}
	m := re.FindStringSubmatchIndex(s[at:end])
	if m == nil {
		if t, ok := d.chatText(at, min(end, at+maxChatToken)); ok {
			m = re.FindStringSubmatchIndex(t)
		}
	}
	if m == nil || m[0] != 0 {
		return
	}
	vr.found(d, at, m)
}

// maxChatToken bounds the copy chatText makes for an expression without a
// longest match: a token followed by a full stop is shorter than this.
const maxChatToken = 4096

// lastIndexFold: the last place of a lower-case needle in s, ignoring
// ASCII case, or -1.
func lastIndexFold(s, lowerNeedle string) int {
	for i := len(s) - len(lowerNeedle); i >= 0; i-- {
		j := 0
		for j < len(lowerNeedle) && lowerByte(s[i+j]) == lowerNeedle[j] {
			j++
		}
		if j == len(lowerNeedle) {
			return i
		}
	}
	return -1
}

func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			return strings.ToLower(s)
		}
	}
	return s
}

// chatText returns a copy of s[a:b] with the punctuation that ends a
// sentence or a clause (a run of . , ! ? ) ] } followed by a blank or the
// end of the text) turned into blanks, or ok=false when there is none.
// gitleaks' expressions end most tokens at a blank, a quote or a
// semicolon, as in code; in a chat a token is as often followed by a full
// stop ("my token is dapi0123...abcd.") or a bracket. It is a second try,
// where the text as it is gave no match (a JWT may end with its dot).
// Offsets are kept, so matches in the copy are spans of s.
func (d *detector) chatText(a, b int) (string, bool) {
	s := d.s
	if strings.IndexAny(s[a:b], ".,!?)]}") < 0 {
		return "", false
	}
	d.win = append(d.win[:0], s[a:b]...)
	changed := false
	for i := a; i < b; i++ {
		if !sentencePunct(s[i]) {
			continue
		}
		j := i
		for j < len(s) && sentencePunct(s[j]) {
			j++
		}
		if j == len(s) || isSpace(s[j]) {
			for k := i; k < min(j, b); k++ {
				d.win[k-a] = ' '
				changed = true
			}
		}
		i = j
	}
	return bytesToString(d.win), changed
}

func sentencePunct(c byte) bool {
	switch c {
	case '.', ',', '!', '?', ')', ']', '}':
		return true
	}
	return false
}

// found checks one match (offsets relative to base) as gitleaks does: the
// secret is the rule's group (or the first non-empty one), its entropy
// must exceed the rule's, and no allowlist may accept it.
func (vr *vendorRule) found(d *detector, base int, m []int) {
	s := d.s
	ms, me := base+m[0], base+m[1]
	for me > ms && s[me-1] == '\n' {
		me--
	}
	ss, se, grouped := ms, me, false
	switch {
	case vr.secretGroup > 0 && 2*vr.secretGroup+1 < len(m):
		if m[2*vr.secretGroup] < 0 {
			return
		}
		ss, se, grouped = base+m[2*vr.secretGroup], base+m[2*vr.secretGroup+1], true
	case vr.secretGroup == 0:
		for g := 1; 2*g+1 < len(m); g++ {
			if m[2*g] >= 0 && m[2*g+1] > m[2*g] {
				ss, se, grouped = base+m[2*g], base+m[2*g+1], true
				break
			}
		}
	}
	if !grouped {
		// The whole match is the secret: without the character that
		// ended it (sentry-org-token's (?:[^a-zA-Z0-9+/]|\z)).
		for se > ss && strings.IndexByte(" \t\r\n'\"`;,.)]}>", s[se-1]) >= 0 {
			se--
		}
	}
	if se <= ss {
		return
	}
	secret := s[ss:se]
	if vr.entropy > 0 && entropy(secret) <= vr.entropy {
		return
	}
	match, line := s[ms:me], lineAround(s, ms, me)
	if allowlisted(vr.allow, secret, match, line) {
		d.allowed = append(d.allowed, [2]int{ss, se})
		return
	}
	if allowlisted(vr.global, secret, match, line) || placeholder(secret) || sequential(secret) {
		return
	}
	d.cands = append(d.cands, cand{start: ss, end: se, kind: vr.id, prio: vr.prio, vendor: true})
}

// separatorFollows: after a keyword at p, gitleaks' template allows up to
// 20 identifier characters or blanks, up to 3 blanks or quotes, then one
// of = > : | ? , (the first characters of its separators).
func separatorFollows(s string, p int) bool {
	q := p
	for q < len(s) && q-p < 20 && (sets[setIdent][s[q]] || s[q] == ' ' || s[q] == '\t') {
		q++
	}
	r := q
	for r < len(s) && r-q < 3 && (isSpace(s[r]) || s[r] == '\'' || s[r] == '"') {
		r++
	}
	return r < len(s) && strings.IndexByte("=>:|?,", s[r]) >= 0
}

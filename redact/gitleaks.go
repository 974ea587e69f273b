package redact

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"sync"

	"github.com/pelletier/go-toml/v2"
	"github.com/zricethezav/gitleaks/v8/config"
)

// The vendor formats come from gitleaks' default rule set (its config
// package, the rules and keywords gitleaks itself ships), read once by New.
// Its regular expressions are not run over the text: each runs only at a
// hit of one of its keywords, found by the same automaton as our own
// rules, and only over a window around the hit that is as wide as the
// longest match the expression allows. See doc.go for the measurements.

// gitleaksOwn maps the gitleaks rules this package does not run to the
// kind of the matcher of its own that does their work, and says why.
var gitleaksOwn = map[string]string{
	// Its keywords (key, token, api, auth, access, ...) are in every other
	// line of code, and the expression starts with an unanchored
	// [\w.-]{0,50}?: run over the lines of a 47 MB session with those
	// keywords, 9.8 s of the 11.7 s all gitleaks' expressions took.
	// assignRule parses the same forms anchored at the keyword, and
	// gitleaks' allowlists for this rule apply to what it finds.
	"generic-api-key": "generic-secret",
	// Keyword "secret" again, and an expression of 300 characters of
	// (?s:.) around it; kubernetesSecret reads the document instead.
	"kubernetes-secret-yaml": "kubernetes-secret",
	// Keyword "curl", then .* over up to six lines for each -u or -H;
	// curlCommand parses the command's arguments once.
	"curl-auth-user":   "curl-auth-user",
	"curl-auth-header": "curl-auth-header",
	// Its allowlist, s\.[A-Za-z]{24} meant for legacy s. tokens, is not
	// anchored: it also drops every hvs.CAESI... token whose next 20
	// characters are letters. buildRules has hvs. and hvb. rules,
	// legacyVault the s. ones.
	"vault-service-token": "vault-service-token",
	"vault-batch-token":   "vault-batch-token",
}

// vendorRule is one gitleaks rule as this package runs it.
type vendorRule struct {
	id          string
	src         string // the expression
	keywords    []string
	secretGroup int
	entropy     float64
	allow       []*config.Allowlist // the rule's
	global      []*config.Allowlist
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

// decodeGitleaks decodes gitleaks' default configuration. gitleaks does it
// with viper; go-toml, which viper itself uses, gives the same
// configuration (TestGitleaksDecoding) without viper's reflection-based
// mapping: 1.4 ms against 7.3.
func decodeGitleaks() (config.ViperConfig, error) {
	var vc config.ViperConfig
	if err := toml.Unmarshal([]byte(config.DefaultConfig), &vc); err != nil {
		return vc, fmt.Errorf("gitleaks rules: %w", err)
	}
	return vc, nil
}

// loadGitleaks decodes gitleaks' default configuration and has gitleaks
// read it (Translate: keywords, entropies, allowlists), with what this
// package does not use left out: the rules of gitleaksOwn (except the
// generic one, whose allowlists apply to ours) and the generic rule's
// 1,446 stop words (see allowlisted), whose trie was 8 MB of allocation
// and 3 ms. Translate would also compile the 222 expressions, 11 ms: it is
// given the rules without them (and a path, "." that it compiles in no
// time, for a rule must have one or the other), and each is compiled at
// its rule's first keyword hit instead (vendorRule.expr). It returns the
// expressions by rule id.
func loadGitleaks() (config.Config, map[string]string, error) {
	vc, err := decodeGitleaks()
	if err != nil {
		return config.Config{}, nil, err
	}
	exprs := map[string]string{}
	rules := vc.Rules[:0]
	for _, r := range vc.Rules {
		if _, own := gitleaksOwn[r.ID]; own && r.ID != "generic-api-key" {
			continue
		}
		if r.ID == "generic-api-key" {
			for _, a := range r.Allowlists {
				if len(a.Regexes) > 0 {
					a.StopWords = nil
				}
			}
		}
		if r.Regex != "" {
			exprs[r.ID] = r.Regex
			r.Regex, r.Path = "", "."
		}
		rules = append(rules, r)
	}
	vc.Rules = rules
	cfg, err := vc.Translate()
	if err != nil {
		return config.Config{}, nil, fmt.Errorf("gitleaks rules: %w", err)
	}
	return cfg, exprs, nil
}

// vendorRules turns the configuration into rules for the automaton. Rules
// with only a path (file names) have nothing to match in a session; rules
// with a path and an expression are run on all text, since sessions have
// no file names to test.
func vendorRules(cfg config.Config, exprs map[string]string) []rule {
	var rules []rule
	for _, id := range cfg.OrderedRules {
		gr, ok := cfg.Rules[id]
		src, hasExpr := exprs[id]
		if !ok || !hasExpr || gr.SkipReport || len(gr.Keywords) == 0 {
			continue
		}
		if _, own := gitleaksOwn[id]; own {
			continue
		}
		vr := &vendorRule{
			id:          id,
			src:         src,
			keywords:    gr.Keywords,
			secretGroup: gr.SecretGroup,
			entropy:     gr.Entropy,
			allow:       gr.Allowlists,
			global:      cfg.Allowlists,
			memo:        len(rules),
		}
		kws := make([]string, len(gr.Keywords))
		copy(kws, gr.Keywords)
		rules = append(rules, rule{keywords: kws, match: vr.match})
	}
	return rules
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
	if vr.secretGroup > p.MaxCap() { // (Translate checks it against the expression)
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

func (vr *vendorRule) anchoredRe() *regexp.Regexp {
	vr.onceA.Do(func() {
		// Cannot fail: analyse parsed the expression, and \A(?:...)
		// around it is valid.
		vr.reA = regexp.MustCompile(`\A(?:` + vr.src + `)`)
	})
	return vr.reA
}

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
	if allowlisted(vr.allow, secret, match, line, true) {
		d.allowed = append(d.allowed, [2]int{ss, se})
		return
	}
	if allowlisted(vr.global, secret, match, line, true) || placeholder(secret) || sequential(secret) {
		return
	}
	d.cands = append(d.cands, cand{start: ss, end: se, kind: vr.id, prio: vr.prio, vendor: true})
}

// allowlisted applies gitleaks allowlists to a finding. Paths and commits
// do not exist here: an allowlist that needs them ("AND") never matches,
// and in one that needs any of its checks they are ignored. Without
// stopWords, stop words are not checked: gitleaks' generic rule has 1,446
// (about, admin, flow, ...), found anywhere in a value, and 1 in 120
// random 32-character tokens contains one, as do many passwords.
func allowlisted(als []*config.Allowlist, secret, match, line string, stopWords bool) bool {
	for _, a := range als {
		target := secret
		switch a.RegexTarget {
		case "match":
			target = match
		case "line":
			target = line
		}
		re := len(a.Regexes) > 0 && a.RegexAllowed(target)
		sw := stopWords && len(a.StopWords) > 0
		if sw {
			sw, _ = a.ContainsStopWord(secret)
		}
		if a.MatchCondition == config.AllowlistMatchAnd {
			if len(a.Paths) > 0 || len(a.Commits) > 0 || len(a.Regexes) == 0 && len(a.StopWords) == 0 {
				continue
			}
			if (len(a.Regexes) == 0 || re) && (len(a.StopWords) == 0 || sw || !stopWords) && (re || sw) {
				return true
			}
			continue
		}
		if re || sw {
			return true
		}
	}
	return false
}

// lineAround returns the lines of s that hold [a, b).
func lineAround(s string, a, b int) string {
	ls := strings.LastIndexByte(s[:a], '\n') + 1
	le := strings.IndexByte(s[b:], '\n')
	if le < 0 {
		return s[ls:]
	}
	return s[ls : b+le]
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

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

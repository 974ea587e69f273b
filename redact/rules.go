package redact

import (
	"encoding/base64"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/zricethezav/gitleaks/v8/config"
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
	allow []*config.Allowlist
}

// --- character sets ---------------------------------------------------------

type charset [256]bool

func mkset(spec string) *charset {
	var cs charset
	for i := 0; i < len(spec); i++ {
		if i+2 < len(spec) && spec[i+1] == '-' {
			for c := int(spec[i]); c <= int(spec[i+2]); c++ {
				cs[c] = true
			}
			i += 2
			continue
		}
		cs[spec[i]] = true
	}
	return &cs
}

const (
	setAlnum      = iota
	setWord       // A-Za-z0-9_
	setB64URL     // A-Za-z0-9_-
	setB64        // A-Za-z0-9+/
	setHex        // 0-9a-fA-F
	setHexLower   // 0-9a-f
	setUpperDigit // A-Z0-9
	setAlnumDash  // A-Za-z0-9-
	setBearer     // RFC 6750 b64token
	setHeaderValue
	setValue   // generic assignment value characters
	setIdent   // identifier tail characters
	setWebhook // webhook path characters
	setBech32Upper
	setScheme
	nSets
)

var sets = [nSets]*charset{
	setAlnum:       mkset("A-Za-z0-9"),
	setWord:        mkset("A-Za-z0-9_"),
	setB64URL:      mkset("A-Za-z0-9_-"),
	setB64:         mkset("A-Za-z0-9+/"),
	setHex:         mkset("0-9a-fA-F"),
	setHexLower:    mkset("0-9a-f"),
	setUpperDigit:  mkset("A-Z0-9"),
	setAlnumDash:   mkset("A-Za-z0-9-"),
	setBearer:      mkset("A-Za-z0-9._~+/=-"),
	setHeaderValue: mkset("A-Za-z0-9._~+/=@-"),
	setValue:       valueSet(),
	setIdent:       mkset("A-Za-z0-9_.-"),
	setWebhook:     mkset("A-Za-z0-9_/+-"),
	setBech32Upper: mkset("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"),
	setScheme:      mkset("A-Za-z0-9+.-"),
}

// valueSet: printable ASCII except blanks, quotes and the punctuation that
// ends a value in code, URLs and shells.
func valueSet() *charset {
	var cs charset
	for c := 0x21; c < 0x7f; c++ {
		cs[c] = true
	}
	for _, c := range []byte("\"'`,;()<>[]{}\\&|") {
		cs[c] = false
	}
	return &cs
}

func isAlnum(b byte) bool { return sets[setAlnum][b] }

// --- per-string detection state ----------------------------------------------

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

// sequential: made-up values, with 8 digits in order (12345678-ABCD-...,
// dapi1234567890...) or 6 letters in order, one past f
// (klmnopqrstuvwx). In random base62 either comes once in a billion
// tokens; hex and digits are held to the longer run, since 6 digits in
// order come once in 10^5 positions.
func sequential(v string) bool {
	run, pastF := 1, false
	for i := 1; i < len(v); i++ {
		a, b := v[i-1], v[i]
		if b != a+1 || !isAlnum(a) || !isAlnum(b) {
			run, pastF = 1, false
			continue
		}
		run++
		pastF = pastF || lowerByte(b) > 'f' && isLetter(b)
		if run >= 8 || run >= 6 && pastF {
			return true
		}
	}
	return false
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

// --- value checks --------------------------------------------------------------

func entropy(s string) float64 {
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	n := float64(len(s))
	h := 0.0
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}

func classes(s string) (lower, upper, digit bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z':
			lower = true
		case 'A' <= c && c <= 'Z':
			upper = true
		case '0' <= c && c <= '9':
			digit = true
		}
	}
	return
}

func allIn(s string, id int) bool {
	cs := sets[id]
	for i := 0; i < len(s); i++ {
		if !cs[s[i]] {
			return false
		}
	}
	return true
}

var (
	reUUID       = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
	reDotted     = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)+$`)
	reConstName  = regexp.MustCompile(`^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$`)
	reFileSuffix = regexp.MustCompile(`\.[A-Za-z]{1,5}$`)
	reDiscord    = regexp.MustCompile(`[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6,7}\.[A-Za-z0-9_-]{27,40}`)
)

// dottedIdent: a chain of identifiers (os.environ.get, config.apiKey2),
// unless every part is a run of 8 or more characters with digits, as in
// tokens made of dot-separated random parts.
func dottedIdent(v string) bool {
	if !reDotted.MatchString(v) {
		return false
	}
	for part := range strings.SplitSeq(v, ".") {
		if len(part) < 8 || !strings.ContainsAny(part, "0123456789") {
			return true
		}
	}
	return false
}

func isUUID(s string) bool { return len(s) == 36 && reUUID.MatchString(s) }

// weakIdent: the identifier only says "key" or "auth" (cacheKey, sort_key,
// keyId, user_auth), not what kind of key; such values must look like
// random tokens to count.
func weakIdent(ident string) bool {
	if !containsFold(ident, "key") && !containsFold(ident, "auth") {
		return false
	}
	for _, w := range strongWords {
		if containsFold(ident, w) {
			return false
		}
	}
	return true
}

var strongWords = []string{"token", "secret", "pass", "pwd", "credential", "creds", "api", "private", "access", "client",
	"signing", "master", "encryption", "license"}

// genericValue decides whether v, assigned to an identifier containing a
// secret-ish word, is a secret: long, mixed, high-entropy, and not one of
// the things code usually assigns (identifiers, paths, placeholders, ids).
func genericValue(v, ident string) bool {
	if len(v) < 16 || len(v) > 1024 || !allIn(v, setValue) {
		return false
	}
	if strings.IndexByte("$%{<*/~.#@?!+:=", v[0]) >= 0 || strings.HasPrefix(v, "--") {
		return false
	}
	lower, upper, digit := classes(v)
	if !digit || !(lower || upper) {
		return false
	}
	// Hex carries at most 4 bits a character: hold it to a lower bar.
	// (Above 3.5 bits, as gitleaks' generic rule: a 16-character value
	// needs 12 distinct characters.)
	if h := entropy(v); h <= 3.5 && (h <= 3 || !allIn(v, setHex)) {
		return false
	}
	// A colon: user:password pairs, URLs, times, ids of other formats
	// (gitleaks' generic rule has none in its value either).
	if strings.IndexByte(v, ':') >= 0 || dottedIdent(v) || reConstName.MatchString(v) {
		return false
	}
	if strings.IndexByte(v, '/') >= 0 && (strings.Count(v, "/") >= 3 || reFileSuffix.MatchString(v)) {
		return false
	}
	lv := strings.ToLower(v)
	for _, p := range []string{"xxxx", "****", "example", "your_", "your-", "placeholder", "changeme", "redacted"} {
		if strings.Contains(lv, p) {
			return false
		}
	}
	if weakIdent(ident) {
		if !allIn(v, setBearer) || allIn(v, setHex) || isUUID(v) || !(lower && upper) {
			return false
		}
	}
	return true
}

func exactSet(v string, id, n int) bool { return len(v) == n && allIn(v, id) }

// --- matchers --------------------------------------------------------------------

// prefixRule: a literal, case-sensitive prefix followed by min..max
// characters of a set, on word boundaries.
func prefixRule(kind string, prio int8, set, minLen, maxLen int, check func(body string) bool, prefixes ...string) rule {
	return rule{keywords: prefixes, match: func(d *detector, at, kwLen int) {
		s := d.s
		ok := false
		for _, p := range prefixes {
			if strings.HasPrefix(s[at:], p) {
				ok = true
				break
			}
		}
		if !ok || !leftOK(s, at) {
			return
		}
		b := at + kwLen
		end := d.run(set, b, maxLen)
		if n := end - b; n < minLen || n > maxLen || !rightOK(s, end) {
			return
		}
		if check != nil && !check(s[b:end]) {
			return
		}
		d.add(at, end, kind, prio)
	}}
}

// slackBody: Slack tokens end in a part of 16 or more random characters
// (xoxb-<team>-<bot>-<24>, xoxp-...-<32 hex>, xoxe.xoxp-1-<160>), unlike
// the short or spelled-out values of examples (xoxb-12345-abcd234,
// xoxe.xoxp-1-RANDOMSTRINGHERE).
func slackBody(body string) bool {
	last := body[strings.LastIndexByte(body, '-')+1:]
	if len(last) < 16 || !hasDigitLetter(last) {
		return false
	}
	// The numeric parts are team, user and bot ids (9 digits or more),
	// except a one-digit version (xapp-1-, xoxe.xoxp-1-).
	for part := range strings.SplitSeq(body, "-") {
		if len(part) > 1 && len(part) < 8 && strings.Trim(part, "0123456789") == "" {
			return false
		}
	}
	return true
}

func mixedCase(s string) bool {
	l, u, _ := classes(s)
	return l && u
}

func hasDigitLetter(s string) bool {
	l, u, dg := classes(s)
	return dg && (l || u)
}

// skKey: sk-… keys (OpenAI, Anthropic, OpenRouter and the many vendors that
// copied the shape).
func skKey(d *detector, at, kwLen int) {
	s := d.s
	if !strings.HasPrefix(s[at:], "sk-") || !leftOK(s, at) {
		return
	}
	b := at + 3
	end := d.run(setB64URL, b, 400)
	if end-b > 400 || !rightOK(s, end) {
		return
	}
	body := s[b:end]
	switch {
	case strings.HasPrefix(body, "ant-"):
		// sk-ant-api03-, -admin01-, -oat01-, ...: 93 characters and AA
		// for API and admin keys (documentation examples are shorter or
		// end otherwise).
		typ, rest, ok := strings.Cut(body[4:], "-")
		if !ok || len(rest) < 80 || !hasDigitLetter(rest) {
			return
		}
		if (typ == "api03" || typ == "admin01") && !strings.HasSuffix(rest, "AA") {
			return
		}
		d.add(at, end, "anthropic-key", prioSpecific)
	case strings.HasPrefix(body, "or-"):
		if len(body) >= 32 && hasDigitLetter(body) {
			d.add(at, end, "openrouter-key", prioSpecific)
		}
	case strings.HasPrefix(body, "proj-"), strings.HasPrefix(body, "svcacct-"), strings.HasPrefix(body, "admin-"),
		strings.Contains(body, "T3BlbkFJ"):
		if len(body) >= 20 && hasDigitLetter(body) {
			d.add(at, end, "openai-key", prioSpecific)
		}
	default:
		if len(body) >= 32 && hasDigitLetter(body) && entropy(body) >= 3 {
			if len(body) == 48 && allIn(body, setAlnum) {
				d.add(at, end, "openai-key", prioSpecific)
			} else {
				d.add(at, end, "sk-api-key", prioSpecific)
			}
		}
	}
}

// jwt: header.payload.signature, both JSON parts base64url of an object.
func jwt(d *detector, at, kwLen int) {
	s := d.s
	if !strings.HasPrefix(s[at:], "eyJ") || !leftOK(s, at) {
		return
	}
	e1 := d.run(setB64URL, at, 8192)
	if e1-at < 10 || e1-at > 8192 || e1 >= len(s) || s[e1] != '.' || !strings.HasPrefix(s[e1+1:], "eyJ") {
		return
	}
	e2 := d.run(setB64URL, e1+1, 1<<16)
	if e2-(e1+1) < 10 || e2-(e1+1) > 1<<16 {
		return
	}
	end := e2
	if e2 < len(s) && s[e2] == '.' {
		end = d.run(setB64URL, e2+1, 8192)
		if end-(e2+1) > 8192 {
			return
		}
	}
	if !rightOK(s, end) {
		return
	}
	d.add(at, end, "jwt", prioJWT)
}

// privateKey: a PEM (or PGP) private key block, BEGIN to END; without an
// END line (truncated output), the header, armor headers and body lines.
func privateKey(d *detector, at, kwLen int) {
	s := d.s
	if !strings.HasPrefix(s[at:], "-----BEGIN ") {
		return
	}
	hdrEnd := strings.Index(s[at+11:min(len(s), at+11+80)], "-----")
	if hdrEnd < 0 {
		return
	}
	label := s[at+11 : at+11+hdrEnd]
	if !strings.Contains(label, "PRIVATE KEY") {
		return
	}
	bodyStart := at + 11 + hdrEnd + 5
	window := s[bodyStart:min(len(s), bodyStart+1<<17)]
	if e := strings.Index(window, "-----END "); e >= 0 {
		rest := window[e+9:]
		if c := strings.Index(rest[:min(len(rest), 80)], "-----"); c >= 0 {
			// A key has a body; "-----BEGIN PRIVATE KEY-----\nanything\n-----END..."
			// in documentation does not.
			if b64Count(window[:e]) >= minKeyBody {
				d.add(at, bodyStart+e+9+c+5, "private-key", prioBlock)
			}
			return
		}
	}
	// No END: take the armor headers and base64 lines that follow.
	p := bodyStart
	for p < len(s) {
		q := p
		switch { // a line break: real, or a JSON escape in raw text
		case strings.HasPrefix(s[q:], "\r\n"):
			q += 2
		case s[q] == '\n':
			q++
		case strings.HasPrefix(s[q:], `\r\n`):
			q += 4
		case strings.HasPrefix(s[q:], `\n`):
			q += 2
		default:
			q = -1
		}
		if q < 0 {
			break
		}
		e := d.run(setB64, q, 1<<17)
		for e < len(s) && s[e] == '=' {
			e++
		}
		if e == q { // armor header "Name: value"?
			n := d.run(setAlnumDash, q, 64)
			if n > q && n+1 < len(s) && s[n] == ':' && s[n+1] == ' ' {
				e = n + 2
				for e < len(s) && s[e] != '\n' && s[e] != '\\' && s[e] != '\r' {
					e++
				}
			} else {
				break
			}
		}
		p = e
	}
	if b64Count(s[bodyStart:p]) >= minKeyBody {
		d.add(at, p, "private-key", prioBlock)
	}
}

// minKeyBody: base64 characters a private key block must hold at least
// (the shortest keys, Ed25519 in PKCS#8, have 64).
const minKeyBody = 32

func b64Count(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if sets[setB64][s[i]] {
			n++
		}
	}
	return n
}

var dbSchemes = map[string]bool{
	"postgres": true, "postgresql": true, "mysql": true, "mariadb": true, "mongodb": true, "mongodb+srv": true,
	"redis": true, "rediss": true, "amqp": true, "amqps": true, "mssql": true, "sqlserver": true,
	"cockroachdb": true, "clickhouse": true, "couchdb": true, "neo4j": true, "neo4j+s": true, "memcached": true,
}

// urlCredentials: scheme://user:password@host. Only the password is
// replaced, so the reader still sees which account and host were used.
func urlCredentials(d *detector, at, kwLen int) {
	s := d.s
	ss := at
	for ss > 0 && sets[setScheme][s[ss-1]] && at-ss < 32 {
		ss--
	}
	for ss < at && !isLetter(s[ss]) { // a scheme starts with a letter
		ss++
	}
	if ss == at {
		return
	}
	u := at + 3
	lastAt := -1
	j := u
	for ; j < len(s) && j-u < 512; j++ {
		c := s[j]
		if c == '/' || c == '?' || c == '#' || c <= ' ' || c == '"' || c == '\'' || c == '`' || c == '<' || c == '>' || c == '\\' {
			break
		}
		if c == '@' {
			lastAt = j
		}
	}
	if lastAt < 0 || lastAt+1 >= len(s) || !(isAlnum(s[lastAt+1]) || s[lastAt+1] == '[') {
		return
	}
	colon := strings.IndexByte(s[u:lastAt], ':')
	if colon < 0 {
		return
	}
	ps, pe := u+colon+1, lastAt
	pass := s[ps:pe]
	if pass == "" || strings.IndexByte("${%*<", pass[0]) >= 0 || strings.Trim(pass, "*x") == "" {
		return
	}
	kind := "url-credentials"
	if dbSchemes[strings.ToLower(s[ss:at])] {
		kind = "database-url"
	}
	d.add(ps, pe, kind, prioURL)
}

func isLetter(c byte) bool {
	c |= 0x20
	return 'a' <= c && c <= 'z'
}

// webhookPath: after a webhook host, the path segment that is the secret.
func webhookPath(kind string, hosts ...string) rule {
	return rule{keywords: hosts, match: func(d *detector, at, kwLen int) {
		s := d.s
		b := at + kwLen
		if s[at:b] != strings.ToLower(s[at:b]) {
			return
		}
		end := d.run(setWebhook, b, 512)
		if end-b < 20 || end-b > 512 {
			return
		}
		d.add(b, end, kind, prioSpecific)
	}}
}

// bearer: "Bearer <token>" (an Authorization header or its value).
func bearer(d *detector, at, kwLen int) {
	s := d.s
	if !leftOK(s, at) {
		return
	}
	p := at + kwLen
	q := p
	for q < len(s) && (s[q] == ' ' || s[q] == '\t') {
		q++
	}
	if q == p {
		return
	}
	end := d.run(setBearer, q, 8192)
	v := s[q:end]
	if len(v) < 16 || len(v) > 8192 || !rightOK(s, end) {
		return
	}
	l, u, dg := classes(v)
	if !(dg || (l && u)) || entropy(v) < 3 {
		return
	}
	d.add(q, end, "bearer-token", prioHeader)
}

// basicAuth: Authorization: Basic base64(user:password).
func basicAuth(d *detector, at, kwLen int) {
	s := d.s
	p := at + kwLen
	skip := func(set string) {
		for p < len(s) && strings.IndexByte(set, s[p]) >= 0 {
			p++
		}
	}
	skip(`"'\ `)
	if p >= len(s) || (s[p] != ':' && s[p] != '=') {
		return
	}
	p++
	skip(`"'\ `)
	if !strings.HasPrefix(strings.ToLower(s[p:min(len(s), p+6)]), "basic ") {
		return
	}
	p += 6
	skip(" \t")
	end := d.run(setB64, p, 4096)
	for end < len(s) && s[end] == '=' && end-p < 4100 {
		end++
	}
	v := s[p:end]
	if len(v) < 8 || len(v) > 4100 {
		return
	}
	raw, err := base64.StdEncoding.DecodeString(v)
	if err != nil {
		raw, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(v, "="))
	}
	if err != nil || strings.IndexByte(string(raw), ':') < 0 {
		return
	}
	d.add(p, end, "basic-auth", prioHeader)
}

// telegram: <bot id>:AA<35 chars>.
func telegram(d *detector, at, kwLen int) {
	s := d.s
	if !strings.HasPrefix(s[at:], ":AA") {
		return
	}
	st := at
	for st > 0 && '0' <= s[st-1] && s[st-1] <= '9' && at-st <= 12 {
		st--
	}
	if n := at - st; n < 8 || n > 12 || !(leftOK(s, st) || strings.HasSuffix(s[:st], "/bot")) {
		return
	}
	end := d.run(setB64URL, at+1, 64)
	if n := end - (at + 1); n < 32 || n > 40 || !rightOK(s, end) {
		return
	}
	d.add(st, end, "telegram-bot-token", prioSpecific)
}

// sendgrid: SG.<22>.<43>.
func sendgrid(d *detector, at, kwLen int) {
	s := d.s
	if !strings.HasPrefix(s[at:], "SG.") || !leftOK(s, at) {
		return
	}
	e1 := d.run(setB64URL, at+3, 64)
	if n := e1 - (at + 3); n < 16 || n > 64 || e1 >= len(s) || s[e1] != '.' {
		return
	}
	e2 := d.run(setB64URL, e1+1, 96)
	if n := e2 - (e1 + 1); n < 30 || n > 96 || !rightOK(s, e2) {
		return
	}
	d.add(at, e2, "sendgrid-key", prioSpecific)
}

// azureKey: AccountKey=<base64> and SharedAccessKey=<base64> in connection strings.
func azureKey(kind string) func(d *detector, at, kwLen int) {
	return func(d *detector, at, kwLen int) {
		s := d.s
		p := at + kwLen
		for p < len(s) && s[p] == ' ' {
			p++
		}
		if p >= len(s) || s[p] != '=' {
			return
		}
		p++
		for p < len(s) && s[p] == ' ' {
			p++
		}
		end := d.run(setB64, p, 200)
		for end < len(s) && s[end] == '=' && end-p < 204 {
			end++
		}
		if n := end - p; n < 40 || n > 204 {
			return
		}
		d.add(p, end, kind, prioSpecific)
	}
}

// contextRegex: when keyword appears anywhere in the string, look for re in
// the whole string (for token shapes that have no prefix of their own).
func contextRegex(bit uint, kind string, re *regexp.Regexp, keywords ...string) rule {
	return rule{keywords: keywords, match: func(d *detector, at, kwLen int) {
		if d.ctxDone&(1<<bit) != 0 {
			return
		}
		d.ctxDone |= 1 << bit
		for _, m := range re.FindAllStringIndex(d.s, -1) {
			if leftOK(d.s, m[0]) && rightOK(d.s, m[1]) {
				d.add(m[0], m[1], kind, prioContext)
			}
		}
	}}
}

// --- assignments ----------------------------------------------------------------

// assignSeps are the separators between a name and its value, longest
// first: shells, .env and YAML (= :), Go and Make (:= ::= :::= ?=), PHP
// (.= =>), Ruby and Perl (=>), JavaScript (||, a default value).
var assignSeps = []string{":::=", "::=", ":=", "=>", "==", "?=", ".=", "||", "=", ":"}

// parseAssign parses an assignment around a keyword at [at, at+kwLen):
// the identifier that contains it, an optional closing quote, an optional
// type (Go's `var name string = v`), a separator and an optional opening
// quote. Two more forms count: a quoted name then a comma
// (System.setProperty("NAME", "v"), getenv("NAME", "v")), and an XML
// element (<name>v</name>, the value possibly on its own line). It
// returns the identifier's start and the value's span.
func (d *detector) parseAssign(at, kwLen int, allowSpace bool) (is, vs, ve int, ok bool) {
	s := d.s
	is = at
	for is > 0 && at-is < 32 && sets[setIdent][s[is-1]] {
		is--
	}
	p := at + kwLen
	q := p
	for q < len(s) && q-p < 32 && sets[setIdent][s[q]] {
		q++
	}
	quoted := false
	if q+1 < len(s) && s[q] == '\\' && (s[q+1] == '"' || s[q+1] == '\'') {
		q += 2
		quoted = true
	} else if q < len(s) && (s[q] == '"' || s[q] == '\'' || s[q] == '`') {
		q++
		quoted = true
	}
	b := q
	for q < len(s) && q-b < 4 && (s[q] == ' ' || s[q] == '\t') {
		q++
	}
	blanks := q > b
	if blanks && !quoted && q < len(s) && isLetter(s[q]) {
		// Words between the name and "=" or ":", as gitleaks allows (20
		// characters): a type (var apiToken string = "..."), or prose
		// (the secret is: ...).
		t := q
		for t < len(s) && t-q < 20 && (sets[setIdent][s[t]] || s[t] == ' ' || s[t] == '\t' || s[t] == '[' || s[t] == ']' || s[t] == '*') {
			t++
		}
		if t < len(s) && (s[t] == '=' && !strings.HasPrefix(s[t:], "==") && !strings.HasPrefix(s[t:], "=>") ||
			s[t] == ':' && !strings.HasPrefix(s[t:], "::")) {
			q = t
		}
	}
	needQuote, multiline := false, false
	sep := ""
	for _, sp := range assignSeps {
		if strings.HasPrefix(s[q:], sp) {
			sep = sp
			break
		}
	}
	switch {
	case sep == "||":
		needQuote = true
	case sep != "":
	case q < len(s) && s[q] == ',' && quoted:
		sep, needQuote = ",", true
	case q < len(s) && s[q] == '>' && !quoted && is > 0 && s[is-1] == '<':
		sep, multiline = ">", true
	case allowSpace && blanks:
	default:
		return 0, 0, 0, false
	}
	q += len(sep)
	r := q
	for q < len(s) && q-r < 12 && (s[q] == ' ' || s[q] == '\t' || multiline && isSpace(s[q])) {
		q++
	}
	opened := false
	if q+1 < len(s) && s[q] == '\\' && (s[q+1] == '"' || s[q+1] == '\'') {
		q += 2
		opened = true
	} else if q < len(s) && (s[q] == '"' || s[q] == '\'' || s[q] == '`') {
		q++
		opened = true
	}
	if q >= len(s) || s[q] == ':' || s[q] == '=' || needQuote && !opened {
		return 0, 0, 0, false
	}
	end := d.run(setValue, q, 1024)
	if end-q > 1024 || end == q {
		return 0, 0, 0, false
	}
	if end < len(s) && s[end] == '(' { // a call, not a value
		return 0, 0, 0, false
	}
	if strings.HasSuffix(s[q:end], "..") || strings.HasPrefix(s[end:], "…") {
		return 0, 0, 0, false // shown cut short (ops_eyJzaWduSW5B...)
	}
	for end > q && s[end-1] == '.' { // end of a sentence
		end--
	}
	return is, q, end, true
}

func (d *detector) assign(ar *assignRule, at, kwLen int) {
	s := d.s
	is, vs, ve, ok := d.parseAssign(at, kwLen, ar.allowSpace)
	if !ok {
		return
	}
	// The identifier ends where the separator's blanks or quotes begin.
	ie := at + kwLen
	for ie < len(s) && ie-at < 64 && sets[setIdent][s[ie]] {
		ie++
	}
	v := s[vs:ve]
	if !ar.check(v, s[is:ie]) {
		return
	}
	if len(ar.allow) > 0 && allowlisted(ar.allow, v, s[is:min(len(s), ve+1)], lineAround(s, vs, ve), false) {
		return
	}
	d.add(vs, ve, ar.kind, ar.prio)
}

// keyValue: a JSON member whose key names a secret; the whole string value
// is the candidate. The key is matched with a small automaton of the
// assignment keywords.
func (d *detector) keyValue(key string) {
	var mask uint64
	d.r.keyAC.scan(key, func(kw int32, _ int) { mask |= 1 << d.r.keyRule[kw] })
	for i := range d.r.assigns {
		if mask&(1<<i) == 0 {
			continue
		}
		ar := &d.r.assigns[i]
		if !ar.check(d.s, key) {
			continue
		}
		if len(ar.allow) > 0 && allowlisted(ar.allow, d.s, key+`": "`+d.s, d.s, false) {
			continue
		}
		d.add(0, len(d.s), ar.kind, ar.prio)
	}
}

// placeholder: a value written in place of a secret, in documentation,
// templates and examples: AWS's documented AKIAIOSFODNN7EXAMPLE,
// glpat-XXXXXXXXXXXXXXXXXXXX, your_api_key_here, <token>, ${TOKEN},
// {{ .Values.password }}, a long run of one character.
func placeholder(v string) bool {
	for _, p := range placeholderWords {
		if containsFold(v, p) {
			return true
		}
	}
	// One character repeated over a third of the value (and at least 8
	// times): AKIAXXXXXXXXXXXXXXXX, sk_live_000000000000. Random tokens
	// have none; base64 of binary data may have short runs of A.
	run, best := 1, 1
	for i := 1; i < len(v); i++ {
		if v[i] == v[i-1] {
			run++
			best = max(best, run)
		} else {
			run = 1
		}
	}
	return best >= 8 && best*3 >= len(v)
}

var placeholderWords = []string{"example", "xxxx", "****", "your_", "your-", "yourapikey", "yourtoken",
	"placeholder", "changeme", "change_me", "replace_me", "replaceme", "redacted", "${", "{{", "<", ">"}

// containsFold: ASCII case-insensitive strings.Contains for a lower-case
// needle.
func containsFold(s, lowerNeedle string) bool {
	n := len(lowerNeedle)
	if n == 0 {
		return true
	}
	c0 := lowerNeedle[0]
	for i := 0; i+n <= len(s); i++ {
		if lowerByte(s[i]) != c0 {
			continue
		}
		j := 1
		for j < n && lowerByte(s[i+j]) == lowerNeedle[j] {
			j++
		}
		if j == n {
			return true
		}
	}
	return false
}

// --- the rule table ---------------------------------------------------------------

func buildRules() ([]rule, []assignRule) {
	fixed := func(n int) (int, int) { return n, n }
	rules := []rule{}
	pr := func(kind string, set, minLen, maxLen int, check func(string) bool, prefixes ...string) {
		rules = append(rules, prefixRule(kind, prioSpecific, set, minLen, maxLen, check, prefixes...))
	}
	// AWS access key ids.
	mn, mx := fixed(16)
	pr("aws-access-key", setUpperDigit, mn, mx, nil, "AKIA", "ASIA", "ABIA", "ACCA")
	// GitHub.
	pr("github-pat", setAlnum, 30, 255, hasDigitLetter, "ghp_")
	pr("github-pat", setWord, 40, 255, hasDigitLetter, "github_pat_")
	pr("github-oauth", setAlnum, 30, 255, hasDigitLetter, "gho_")
	pr("github-app-token", setAlnum, 30, 255, hasDigitLetter, "ghu_", "ghs_")
	pr("github-refresh-token", setAlnum, 30, 255, hasDigitLetter, "ghr_")
	// GitLab.
	pr("gitlab-pat", setB64URL, 20, 255, nil, "glpat-")
	pr("gitlab-token", setB64URL, 20, 255, nil, "glptt-", "glrt-", "gldt-", "glcbt-", "gloas-", "glsoat-")
	// Slack.
	pr("slack-token", setAlnumDash, 10, 255, slackBody, "xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxs-", "xoxe-", "xoxe.xoxp-", "xoxe.xoxb-")
	pr("slack-app-token", setAlnumDash, 20, 255, slackBody, "xapp-")
	rules = append(rules, webhookPath("slack-webhook", "hooks.slack.com/"))
	rules = append(rules, webhookPath("discord-webhook", "discord.com/api/webhooks/", "discordapp.com/api/webhooks/"))
	// Stripe.
	pr("stripe-key", setAlnum, 20, 255, nil, "sk_live_", "rk_live_", "sk_test_", "rk_test_")
	pr("stripe-webhook-secret", setAlnum, 24, 255, nil, "whsec_")
	// sk-… (OpenAI, Anthropic, OpenRouter, others).
	rules = append(rules, rule{keywords: []string{"sk-"}, match: skKey})
	// Google.
	mn, mx = fixed(35)
	pr("google-api-key", setB64URL, mn, mx, nil, "AIza")
	pr("google-oauth-secret", setB64URL, 24, 64, nil, "GOCSPX-")
	pr("google-oauth-token", setB64URL, 30, 2048, hasDigitLetter, "ya29.")
	// Azure.
	rules = append(rules, rule{keywords: []string{"accountkey"}, match: azureKey("azure-storage-key")})
	rules = append(rules, rule{keywords: []string{"sharedaccesskey"}, match: azureKey("azure-shared-access-key")})
	// Generic structured secrets.
	rules = append(rules, rule{keywords: []string{"eyJ"}, match: jwt})
	rules = append(rules, rule{keywords: []string{"-----BEGIN "}, match: privateKey})
	rules = append(rules, rule{keywords: []string{"://"}, match: urlCredentials})
	// Package registries.
	pr("npm-token", setAlnum, 36, 36, nil, "npm_")
	pr("pypi-token", setB64URL, 50, 1024, nil, "pypi-AgE")
	// Twilio (API key SID, account SID).
	mn, mx = fixed(32)
	pr("twilio-api-key", setHex, mn, mx, nil, "SK")
	pr("twilio-account-sid", setHex, mn, mx, nil, "AC")
	// SendGrid, Mailgun.
	rules = append(rules, rule{keywords: []string{"SG."}, match: sendgrid})
	pr("mailgun-key", setHexLower, 32, 32, nil, "key-")
	// Telegram, Discord.
	rules = append(rules, rule{keywords: []string{":AA"}, match: telegram})
	rules = append(rules, contextRegex(0, "discord-bot-token", reDiscord, "discord"))
	// Heroku, DigitalOcean, Hugging Face, Shopify, Square.
	pr("heroku-key", setB64URL, 40, 255, nil, "HRKU-")
	mn, mx = fixed(64)
	pr("digitalocean-token", setHexLower, mn, mx, nil, "dop_v1_", "doo_v1_", "dor_v1_")
	mn, mx = fixed(34)
	pr("huggingface-token", setAlnum, mn, mx, mixedCase, "hf_")
	pr("shopify-token", setHex, 32, 32, nil, "shpat_", "shpca_", "shppa_", "shpss_")
	pr("square-token", setB64URL, 60, 60, hasDigitLetter, "EAAA")
	pr("square-token", setB64URL, 22, 22, nil, "sq0atp-")
	pr("square-token", setB64URL, 43, 43, nil, "sq0csp-")
	// AI providers with their own prefixes.
	pr("groq-key", setAlnum, 48, 64, hasDigitLetter, "gsk_")
	pr("xai-key", setAlnum, 70, 100, hasDigitLetter, "xai-")
	// age.
	pr("age-secret-key", setBech32Upper, 58, 58, nil, "AGE-SECRET-KEY-1")
	// HashiCorp Vault (in place of gitleaks' rules: see gitleaksOwn):
	// hvs. and hvb. tokens; legacyVault the s. ones.
	highEntropy := func(b string) bool { return hasDigitLetter(b) && entropy(b) >= 3.5 }
	pr("vault-service-token", setB64URL, 24, 512, highEntropy, "hvs.")
	pr("vault-batch-token", setB64URL, 24, 512, highEntropy, "hvb.")

	// Headers.
	rules = append(rules, rule{keywords: []string{"bearer"}, match: bearer})
	rules = append(rules, rule{keywords: []string{"authorization"}, match: basicAuth})
	// Command lines, Kubernetes Secrets, legacy Vault tokens.
	rules = append(rules, rule{keywords: []string{"curl"}, match: curlCommand})
	rules = append(rules, rule{keywords: []string{"mysql", "mariadb", "login", "sshpass", "redis-cli"}, match: cliPassword})
	rules = append(rules, rule{keywords: []string{"kind"}, match: kubernetesSecret})
	rules = append(rules, rule{keywords: []string{"token"}, match: legacyVault})

	mixedB64 := func(n int) func(v, ident string) bool {
		return func(v, _ string) bool {
			l, u, _ := classes(v)
			return len(v) == n && allIn(v, setB64) && l && u
		}
	}
	hexN := func(ns ...int) func(v, ident string) bool {
		return func(v, _ string) bool {
			for _, n := range ns {
				if exactSet(v, setHex, n) {
					l, _, dg := classes(v)
					return l && dg
				}
			}
			return false
		}
	}
	assigns := []assignRule{
		{kind: "aws-secret-key", keywords: []string{"aws", "secretaccesskey", "secret_access_key", "secret-access-key"},
			allowSpace: true, prio: prioContext, check: mixedB64(40)},
		{kind: "datadog-api-key", keywords: []string{"datadog", "dd_api_key", "dd_app_key", "dd-api-key", "dd-application-key", "dd_application_key"},
			allowSpace: true, prio: prioContext, check: hexN(32, 40)},
		{kind: "twilio-auth-token", keywords: []string{"twilio"}, allowSpace: true, prio: prioContext, check: hexN(32)},
		{kind: "heroku-key", keywords: []string{"heroku"}, allowSpace: true, prio: prioContext,
			check: func(v, _ string) bool { return isUUID(v) }},
		{kind: "mailgun-key", keywords: []string{"mailgun"}, allowSpace: true, prio: prioContext,
			check: func(v, _ string) bool { return reMailgun.MatchString(v) }},
		{kind: "discord-bot-token", keywords: []string{"discord"}, allowSpace: true, prio: prioContext,
			check: func(v, _ string) bool { return reDiscordFull.MatchString(v) }},
		{kind: "cli-password", keywords: []string{"pgpassword", "mysql_pwd", "sshpass", "rediscli_auth", "--password"},
			prio: prioHeader, check: envPassword},
		{kind: "docker-config-auth", keywords: []string{"auth", "identitytoken", "registrytoken"},
			prio: prioHeader, check: dockerAuth},
		{kind: "generic-secret", keywords: []string{"key", "token", "secret", "password", "passwd", "pwd", "credential", "creds", "auth"},
			prio: prioGeneric, check: genericValue},
	}
	for i := range assigns {
		ar := &assigns[i]
		rules = append(rules, rule{keywords: ar.keywords, match: func(d *detector, at, kwLen int) { d.assign(ar, at, kwLen) }})
	}
	return rules, assigns
}

var (
	reDiscordFull = regexp.MustCompile(`^` + reDiscord.String() + `$`)
	reMailgun     = regexp.MustCompile(`^[0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8}$`)
)

// --- command lines ------------------------------------------------------------------

// nextWord returns the span of the shell word at or after p, skipping
// blanks and line continuations (a backslash, caret or backtick before the
// line break); ok is false where the command ends (a line break, ; | &, a
// redirection or a comment). Quotes are part of the word's span.
func nextWord(s string, p int) (ws, we int, ok bool) {
	for p < len(s) {
		switch c := s[p]; {
		case c == ' ' || c == '\t':
			p++
			continue
		case c == '\\' || c == '^' || c == '`':
			q := p + 1
			for q < len(s) && (s[q] == ' ' || s[q] == '\t' || s[q] == '\r') {
				q++
			}
			if q < len(s) && s[q] == '\n' {
				p = q + 1
				continue
			}
		}
		break
	}
	if p >= len(s) || strings.IndexByte("\n\r;|&#<>", s[p]) >= 0 {
		return 0, 0, false
	}
	ws = p
	var quote byte
	for ; p < len(s) && p-ws < 2048; p++ {
		c := s[p]
		if quote != 0 {
			if c == '\\' && quote == '"' {
				p++
			} else if c == quote {
				quote = 0
			}
			continue
		}
		switch c {
		case '"', '\'':
			quote = c
		case ' ', '\t', '\n', '\r', ';', '|', '&', '<', '>':
			return ws, p, true
		case '\\':
			if p+1 < len(s) && (s[p+1] == '\n' || s[p+1] == '\r') {
				return ws, p, true
			}
			p++
		}
	}
	return ws, min(p, len(s)), true
}

// trimQuotes narrows [a, b) past the quotes around a value.
func trimQuotes(s string, a, b int) (int, int) {
	for a < b && (s[a] == '"' || s[a] == '\'' || s[a] == '`') {
		a++
	}
	for b > a && (s[b-1] == '"' || s[b-1] == '\'' || s[b-1] == '`') {
		b--
	}
	return a, b
}

// cliValue: a password given on a command line, unless it is a variable,
// a command substitution, a template or a placeholder.
func cliValue(v string) bool {
	if len(v) < 4 || len(v) > 512 || strings.IndexByte("$%[<*", v[0]) >= 0 || placeholder(v) {
		return false
	}
	for i := 0; i < len(v); i++ {
		if v[i] <= ' ' || v[i] == 0x7f {
			return false
		}
	}
	if strings.Trim(v, v[:1]) == "" { // xxx, yyy, ...
		return false
	}
	switch strings.ToLower(v) {
	case "password", "passwd", "pass", "pwd", "secret", "token", "test", "user", "username", "apikey", "api_key", "none", "null":
		return false
	}
	return true
}

// curlCommand: curl's -u/--user user:password (or an API key as the user
// name with no password, as Stripe and Mailgun document it), and its
// -H/--header lines that carry a key or token (X-Api-Key, Api-Token,
// Authorization without Bearer or Basic, which have rules of their own).
func curlCommand(d *detector, at, kwLen int) {
	s := d.s
	p := at + kwLen
	if !leftOK(s, at) || p < len(s) && sets[setWord][s[p]] {
		return
	}
	for n := 0; n < 64; n++ {
		ws, we, ok := nextWord(s, p)
		if !ok {
			return
		}
		p = we
		w := s[ws:we]
		var vs, ve int
		switch {
		case w == "-u" || w == "--user" || w == "-H" || w == "--header":
			a, b, ok := nextWord(s, we)
			if !ok {
				return
			}
			p, vs, ve = b, a, b
		case strings.HasPrefix(w, "--user="), strings.HasPrefix(w, "--header="):
			vs, ve = ws+strings.IndexByte(w, '=')+1, we
		case len(w) > 2 && (w[:2] == "-u" || w[:2] == "-H") && w[2] != '-':
			vs, ve = ws+2, we
		default:
			continue
		}
		if w[1] == 'u' || strings.HasPrefix(w, "--user") {
			curlUser(d, vs, ve)
		} else {
			curlHeader(d, vs, ve)
		}
	}
}

func curlUser(d *detector, a, b int) {
	s := d.s
	c := strings.IndexByte(s[a:b], ':')
	if c < 0 {
		return // no password: curl asks for it
	}
	us, ue := trimQuotes(s, a, a+c)
	ps, pe := trimQuotes(s, a+c+1, b)
	switch {
	case pe > ps:
		if cliValue(s[ps:pe]) && !(ue > us && cliSameWord(s[us:ue], s[ps:pe])) {
			d.add(ps, pe, "curl-auth-user", prioHeader)
		}
	case ue-us >= 8 && hasDigitLetter(s[us:ue]) && cliValue(s[us:ue]):
		d.add(us, ue, "curl-auth-user", prioHeader)
	}
}

// cliSameWord: user and password alike (test:test, xxx:yyy, admin:admin).
func cliSameWord(u, p string) bool {
	return strings.EqualFold(u, p) || len(u) == len(p) && strings.Trim(u, u[:1]) == "" && strings.Trim(p, p[:1]) == ""
}

var reCredHeader = regexp.MustCompile(`(?i)^(?:authorization|(?:x-)?(?:[a-z]+-)?(?:api-?)?(?:key|token)|private-token)$`)

func curlHeader(d *detector, a, b int) {
	s := d.s
	a, b = trimQuotes(s, a, b)
	c := strings.IndexByte(s[a:b], ':')
	if c <= 0 || !reCredHeader.MatchString(strings.TrimSpace(s[a:a+c])) {
		return
	}
	vs := a + c + 1
	for vs < b && (s[vs] == ' ' || s[vs] == '\t') {
		vs++
	}
	if strings.EqualFold(strings.TrimSpace(s[a:a+c]), "authorization") {
		sp := strings.IndexByte(s[vs:b], ' ')
		if sp > 0 {
			switch strings.ToLower(s[vs : vs+sp]) {
			case "bearer", "basic":
				return // their own rules
			}
			vs += sp + 1
			for vs < b && s[vs] == ' ' {
				vs++
			}
		}
	}
	ve := d.run(setHeaderValue, vs, 4096)
	if ve != b || ve-vs < 8 || !cliValue(s[vs:ve]) {
		return
	}
	if _, _, dg := classes(s[vs:ve]); !dg {
		return
	}
	d.add(vs, ve, "curl-auth-header", prioHeader)
}

// cliPassword: passwords on the command lines of database clients and
// registry logins: mysql -pSECRET and --password=SECRET (mysql, mysqldump,
// mariadb, ...; "-p SECRET" is not one: mysql asks, and SECRET is the
// database), docker/podman/nerdctl/buildah/skopeo/helm registry login -p
// or --password, sshpass -p, redis-cli -a.
func cliPassword(d *detector, at, kwLen int) {
	s := d.s
	if !leftOK(s, at) {
		return
	}
	p := at + kwLen
	for p < len(s) && sets[setWord][s[p]] && p-at < 24 { // mysqldump, redis-cli
		p++
	}
	if p < len(s) && s[p] == '-' { // redis-cli
		p++
		for p < len(s) && sets[setWord][s[p]] && p-at < 24 {
			p++
		}
	}
	cmd := strings.ToLower(s[at:p])
	var short string  // the short option that takes the password
	attached := false // only as -pSECRET
	switch {
	case strings.HasPrefix(cmd, "mysql"), strings.HasPrefix(cmd, "mariadb"):
		short, attached = "-p", true
	case cmd == "login":
		prev := strings.ToLower(prevWord(s, at))
		switch prev {
		case "docker", "podman", "nerdctl", "buildah", "skopeo", "registry", "oras":
			short = "-p"
		default:
			return
		}
	case cmd == "sshpass":
		short = "-p"
	case cmd == "redis-cli":
		short = "-a"
	default:
		return
	}
	for n := 0; n < 64; n++ {
		ws, we, ok := nextWord(s, p)
		if !ok {
			return
		}
		p = we
		w := s[ws:we]
		vs, ve := -1, -1
		switch {
		case strings.HasPrefix(w, "--password="):
			vs, ve = ws+11, we
		case w == "--password" && !attached, w == short && !attached:
			a, b, ok := nextWord(s, we)
			if !ok {
				return
			}
			p, vs, ve = b, a, b
		case len(w) > 2 && w[:2] == short && w[2] != '-':
			vs, ve = ws+2, we
			if w[2] == '=' {
				vs++
			}
		}
		if vs < 0 {
			continue
		}
		vs, ve = trimQuotes(s, vs, ve)
		if ve > vs && cliValue(s[vs:ve]) {
			d.add(vs, ve, "cli-password", prioHeader)
		}
	}
}

// prevWord returns the word before the blanks before at.
func prevWord(s string, at int) string {
	e := at
	for e > 0 && (s[e-1] == ' ' || s[e-1] == '\t') {
		e--
	}
	b := e
	for b > 0 && sets[setIdent][s[b-1]] {
		b--
	}
	return s[b:e]
}

// envPassword: PGPASSWORD=..., MYSQL_PWD=..., SSHPASS=..., REDISCLI_AUTH=...
// and --password=... on any command line: names that only ever hold a
// password, so the value counts however short and plain it is.
func envPassword(v, _ string) bool { return cliValue(v) }

// --- Kubernetes and Docker configuration ----------------------------------------------

// kubernetesSecret: the values under data: (base64) and stringData: of a
// Kubernetes Secret, in YAML (kind: Secret before or after the data, in
// the same document) or JSON ("kind": "Secret"). In text whose line
// breaks are JSON escapes (a line that is not valid JSON), the manifest is
// read from an unescaped copy.
func kubernetesSecret(d *detector, at, kwLen int) {
	s := d.s
	if !leftOK(s, at) {
		return
	}
	p := at + kwLen
	isJSON := p < len(s) && s[p] == '"'
	if isJSON {
		p++
	}
	for p < len(s) && (s[p] == ' ' || s[p] == '\t' || s[p] == '\\' && isJSON) {
		p++
	}
	if p >= len(s) || s[p] != ':' {
		return
	}
	p++
	for p < len(s) && (s[p] == ' ' || s[p] == '\t' || s[p] == '"' || s[p] == '\'' || s[p] == '\\') {
		p++
	}
	if len(s)-p < 6 || !strings.EqualFold(s[p:p+6], "secret") || p+6 < len(s) && sets[setWord][s[p+6]] {
		return
	}
	near := s[max(0, at-4096):min(len(s), at+4096)]
	if strings.IndexByte(near, '\n') < 0 && strings.Contains(near, `\n`) {
		a, b := max(0, at-1<<16), min(len(s), at+1<<16)
		text, rawOf := unescapeMap(s[a:b])
		k := sort.Search(len(rawOf), func(i int) bool { return int(rawOf[i]) >= at-a })
		k8sDocument(d, k8sText{text: text, base: a, rawOf: rawOf}, k, isJSON)
		return
	}
	k8sDocument(d, k8sText{text: s}, at, isJSON)
}

// k8sText is the text a manifest is read in: d.s, or an unescaped copy of
// s[base:] with rawOf mapping each of its bytes to an offset from base.
type k8sText struct {
	text  string
	base  int
	rawOf []int32
}

// span maps a span of the text to one of d.s.
func (t k8sText) span(a, b int) (int, int) {
	if t.rawOf == nil {
		return a, b
	}
	return t.base + int(t.rawOf[a]), t.base + int(t.rawOf[b-1]) + 1
}

func k8sDocument(d *detector, t k8sText, at int, isJSON bool) {
	s := t.text
	// The document: between YAML "---" lines.
	ds := strings.LastIndex(s[:at], "\n---")
	ds++
	de := len(s)
	if k := strings.Index(s[at:], "\n---"); k >= 0 {
		de = at + k
	}
	doc := s[:de]
	for _, block := range []string{"data", "stringData"} {
		for from := ds; ; {
			k := strings.Index(doc[from:], block)
			if k < 0 {
				break
			}
			k += from
			from = k + len(block)
			if k > 0 && sets[setWord][doc[k-1]] || from < len(doc) && sets[setWord][doc[from]] {
				continue
			}
			if isJSON || k > 0 && doc[k-1] == '"' {
				k8sJSONData(d, t, doc, from, block == "data")
			} else {
				k8sYAMLData(d, t, doc, k, from, block == "data")
			}
		}
	}
}

// unescapeMap decodes the JSON escapes \n \t \r \" \\ \/ of raw (others are
// kept as they are), with the offset in raw of each byte of the result and
// len(raw) at the end.
func unescapeMap(raw string) (string, []int32) {
	out := make([]byte, 0, len(raw))
	rawOf := make([]int32, 0, len(raw)+1)
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c == '\\' && i+1 < len(raw) {
			switch raw[i+1] {
			case 'n':
				c = '\n'
			case 't':
				c = '\t'
			case 'r':
				c = '\r'
			case '"', '\\', '/':
				c = raw[i+1]
			}
			if c != '\\' || raw[i+1] == '\\' {
				out = append(out, c)
				rawOf = append(rawOf, int32(i))
				i++
				continue
			}
		}
		out = append(out, c)
		rawOf = append(rawOf, int32(i))
	}
	rawOf = append(rawOf, int32(len(raw)))
	return string(out), rawOf
}

// lineIndent returns the start of the line holding k and the width of
// its indentation: blanks, and the +, - and line number that an edit's
// diff puts before each line ("+ 13     password: ...").
func lineIndent(doc string, k int) (ls, indent int) {
	ls = strings.LastIndexByte(doc[:k], '\n') + 1
	i := ls
	for i < len(doc) && indentByte(doc[i]) {
		i++
	}
	return ls, i - ls
}

func indentByte(c byte) bool {
	return c == ' ' || c == '\t' || c == '+' || c == '-' || '0' <= c && c <= '9'
}

func k8sYAMLData(d *detector, t k8sText, doc string, k, from int, b64 bool) {
	ls, ind := lineIndent(doc, k)
	if ls+ind != k || !strings.HasPrefix(doc[from:], ":") {
		return // not a key at the start of its line
	}
	p := from + 1
	for p < len(doc) && (doc[p] == ' ' || doc[p] == '\t') {
		p++
	}
	if p < len(doc) && doc[p] != '\n' && doc[p] != '\r' && doc[p] != '#' {
		return // data: on one line ({} or a scalar)
	}
	// The member lines: indented more than "data:".
	line := strings.IndexByte(doc[p:], '\n')
	if line < 0 {
		return
	}
	p += line + 1
	for p < len(doc) {
		e := strings.IndexByte(doc[p:], '\n')
		if e < 0 {
			e = len(doc)
		} else {
			e += p
		}
		_, li := lineIndent(doc, p)
		text := strings.TrimSpace(doc[p:e])
		if text == "" || text[0] == '#' {
			p = e + 1
			continue
		}
		if li <= ind {
			return
		}
		c := strings.Index(doc[p:e], ":")
		if c < 0 {
			p = e + 1
			continue
		}
		vs := p + c + 1
		for vs < e && (doc[vs] == ' ' || doc[vs] == '\t') {
			vs++
		}
		ve := e
		for ve > vs && (doc[ve-1] == ' ' || doc[ve-1] == '\t' || doc[ve-1] == '\r') {
			ve--
		}
		if b64 { // base64 has no blanks: what follows is not the value
			if sp := strings.IndexAny(doc[vs:ve], " \t"); sp >= 0 {
				ve = vs + sp
			}
		}
		next := e + 1
		if v := doc[vs:ve]; v == "|" || v == ">" || strings.HasPrefix(v, "|-") || strings.HasPrefix(v, ">-") ||
			strings.HasPrefix(v, "|+") || strings.HasPrefix(v, ">+") || v == "" {
			// A block value: the lines indented more than its key.
			vs, ve = -1, -1
			q := next
			for q < len(doc) {
				qe := strings.IndexByte(doc[q:], '\n')
				if qe < 0 {
					qe = len(doc)
				} else {
					qe += q
				}
				_, qi := lineIndent(doc, q)
				if strings.TrimSpace(doc[q:qe]) != "" && qi <= li {
					break
				}
				if t := strings.TrimSpace(doc[q:qe]); t != "" {
					if vs < 0 {
						vs = q + strings.Index(doc[q:qe], t)
					}
					ve = q + strings.Index(doc[q:qe], t) + len(t)
				}
				q = qe + 1
			}
			next = q
			if vs < 0 {
				p = next
				continue
			}
		}
		k8sValue(d, t, doc, vs, ve, b64)
		p = next
	}
}

func k8sJSONData(d *detector, t k8sText, doc string, from int, b64 bool) {
	p := from
	for p < len(doc) && strings.IndexByte("\" \t\r\n:", doc[p]) >= 0 {
		p++
	}
	if p >= len(doc) || doc[p] != '{' {
		return
	}
	end := strings.IndexByte(doc[p:], '}')
	if end < 0 {
		return
	}
	obj := doc[p : p+end]
	for i := 0; i < len(obj); {
		c := strings.Index(obj[i:], `":`)
		if c < 0 {
			return
		}
		q := i + c + 2
		for q < len(obj) && (obj[q] == ' ' || obj[q] == '\t' || obj[q] == '\n' || obj[q] == '\r') {
			q++
		}
		if q >= len(obj) || obj[q] != '"' {
			i = q
			continue
		}
		e := strings.IndexByte(obj[q+1:], '"')
		if e < 0 {
			return
		}
		k8sValue(d, t, doc, p+q+1, p+q+1+e, b64)
		i = q + 1 + e + 1
	}
}

// k8sValue: a Secret's value, unless empty or a template; under data: it
// must be base64 of at least 8 bytes (shorter ones are test values such as
// "bar").
func k8sValue(d *detector, t k8sText, doc string, vs, ve int, b64 bool) {
	for ve > vs && doc[ve-1] == ',' { // a YAML line inside a JSON string or list
		ve--
	}
	vs, ve = trimQuotes(doc, vs, ve)
	v := doc[vs:ve]
	if v == "" || strings.HasPrefix(v, "{{") || strings.HasPrefix(v, "${") || placeholder(v) {
		return
	}
	if b64 {
		n := 0
		for i := 0; i < len(v); i++ {
			switch c := v[i]; {
			case sets[setB64][c]:
				n++
			case c == '=' || isSpace(c):
			default:
				return
			}
		}
		if n < 10 {
			return
		}
	} else if len(v) < 4 {
		return
	}
	a, b := t.span(vs, ve)
	d.add(a, b, "kubernetes-secret", prioHeader)
}

// dockerAuth: the "auth" of a Docker (or Podman, Kubernetes
// .dockerconfigjson) registry login, base64 of user:password, and the
// identity and registry tokens beside it.
func dockerAuth(v, ident string) bool {
	id := strings.Trim(ident, `"'\`)
	switch {
	case strings.EqualFold(id, "auth"):
		raw, err := base64.StdEncoding.DecodeString(v)
		if err != nil || len(raw) < 3 {
			return false
		}
		c := strings.IndexByte(string(raw), ':')
		return c > 0 && c < len(raw)-1
	case strings.EqualFold(id, "identitytoken"), strings.EqualFold(id, "registrytoken"):
		return len(v) >= 16 && !placeholder(v)
	}
	return false
}

// dots finds Discord bot tokens with no "discord" near them: base64 of
// the bot's id, a dot, 6 or 7 characters, a dot, the HMAC. The only fixed
// character is the dot, 15,000 a megabyte of sessions; as keywords of the
// automaton they cost 25% of the time on a session of real transcripts
// (each hit leaves its four interleaved walks), a pass of IndexByte with
// one test per dot 4%.
func (d *detector) dots() {
	s := d.s
	if len(s) < 58 { // 23 + 1 + 6 + 1 + 27
		return
	}
	prev := -1
	for i := 0; ; {
		k := strings.IndexByte(s[i:], '.')
		if k < 0 {
			return
		}
		at := i + k
		if at-prev == 7 || at-prev == 8 {
			discordBare(d, prev)
		}
		prev, i = at, at+1
	}
}

// legacyVault: a Vault token of before Vault 1.10 (s. and 24 letters and
// digits) shortly after "token" on its line (VAULT_TOKEN=, X-Vault-Token:,
// the table vault login prints). Without that, s.<24 characters> is as
// often a method of a receiver named s (s.ReadUint16LengthPrefixed).
func legacyVault(d *detector, at, kwLen int) {
	s := d.s
	p := at + kwLen
	lim := min(len(s), p+48)
	if k := strings.IndexByte(s[p:lim], '\n'); k >= 0 {
		lim = p + k
	}
	for p < lim {
		k := strings.Index(s[p:lim], "s.")
		if k < 0 {
			return
		}
		st := p + k
		p = st + 2
		end := st + 2 + 24
		if end > len(s) || !leftOK(s, st) || !allIn(s[st+2:end], setAlnum) || !rightOK(s, end) ||
			end < len(s) && (s[end] == '(' || s[end] == '.') {
			continue
		}
		if b := s[st+2 : end]; hasDigitLetter(b) && entropy(b) >= 3.5 {
			d.add(st, end, "vault-service-token", prioSpecific)
		}
	}
}

// discordBare: a Discord bot token with no "discord" near it
// (client.run('...'), a token pasted in a sentence). Its first part is
// the base64 of the bot's numeric id, which no other token has: the text
// is checked to decode to 17 to 20 digits.
func discordBare(d *detector, at int) {
	s := d.s
	if at < 23 || at+34 > len(s) || !sets[setB64URL][s[at-1]] || !sets[setB64URL][s[at+1]] {
		return
	}
	st := at
	for st > 0 && at-st <= 28 && sets[setB64URL][s[st-1]] {
		st--
	}
	if n := at - st; n < 23 || n > 28 || !leftOK(s, st) || s[st] < 'M' || s[st] > 'O' {
		return
	}
	m := at + 1
	for m < len(s) && m-at <= 8 && sets[setB64URL][s[m]] {
		m++
	}
	if n := m - at - 1; n < 6 || n > 7 || m >= len(s) || s[m] != '.' {
		return
	}
	end := d.run(setB64URL, m+1, 48)
	if n := end - m - 1; n < 27 || n > 40 || !rightOK(s, end) {
		return
	}
	id, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(s[st:at], "="))
	if err != nil || len(id) < 17 || len(id) > 20 {
		return
	}
	for _, c := range id {
		if c < '0' || c > '9' {
			return
		}
	}
	d.add(st, end, "discord-bot-token", prioSpecific)
}

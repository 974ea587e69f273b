package redact

import (
	"encoding/base64"
	"math"
	"regexp"
	"strings"
)

// Priorities: when candidate spans overlap, the lower number wins; between
// equal priorities, the earlier and then the longer span wins.
const (
	prioBlock    = 0 // private key blocks: contain everything inside them
	prioSpecific = 1 // a token format with a vendor prefix
	prioJWT      = 2
	prioContext  = 3 // a value recognised by its vendor keyword (aws, twilio, ...)
	prioURL      = 4
	prioHeader   = 5
	prioGeneric  = 6
)

// cand is one detected secret: a span of the string being scanned.
type cand struct {
	start, end int
	kind       string
	prio       int8
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
	setValue      // generic assignment value characters
	setIdent      // identifier tail characters
	setWebhook    // webhook path characters
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
	ctxDone uint64
}

func (d *detector) reset(s string) {
	d.s = s
	d.cands = d.cands[:0]
	d.gen++
	if d.gen == 0 { // wrapped: clear for real
		d.memo = [nSets]runMemo{}
		d.gen = 1
	}
	d.ctxDone = 0
}

func (d *detector) add(start, end int, kind string, prio int8) {
	d.cands = append(d.cands, cand{start, end, kind, prio})
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

func isUUID(s string) bool { return len(s) == 36 && reUUID.MatchString(s) }

// weakIdent: the identifier only says "key" (cacheKey, sort_key, keyId), not
// what kind of key; such values must look like random tokens to count.
func weakIdent(ident string) bool {
	l := strings.ToLower(ident)
	if !strings.Contains(l, "key") {
		return false
	}
	for _, w := range []string{"token", "secret", "pass", "pwd", "credential", "api", "auth", "private", "access", "client", "signing", "master", "encryption", "license"} {
		if strings.Contains(l, w) {
			return false
		}
	}
	return true
}

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
	if h := entropy(v); h < 3.5 && (h < 3 || !allIn(v, setHex)) {
		return false
	}
	if strings.Contains(v, "://") || reDotted.MatchString(v) || reConstName.MatchString(v) {
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
		if len(body) >= 32 && hasDigitLetter(body) {
			d.add(at, end, "anthropic-key", prioSpecific)
		}
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
			d.add(at, bodyStart+e+9+c+5, "private-key", prioBlock)
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
	d.add(at, p, "private-key", prioBlock)
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

// parseAssign parses, from p (just after a keyword inside an identifier),
// the rest of the identifier, an optional closing quote, a separator (= : :=
// => ==) and an optional opening quote; it returns the value's span and the
// end of the identifier.
func (d *detector) parseAssign(p int, allowSpace bool) (vs, ve, identEnd int, ok bool) {
	s := d.s
	q := p
	for q < len(s) && q-p < 32 && sets[setIdent][s[q]] {
		q++
	}
	identEnd = q
	if q < len(s) && s[q] == '\\' && q+1 < len(s) && (s[q+1] == '"' || s[q+1] == '\'') {
		q += 2
	} else if q < len(s) && (s[q] == '"' || s[q] == '\'' || s[q] == '`') {
		q++
	}
	b := q
	for q < len(s) && q-b < 4 && (s[q] == ' ' || s[q] == '\t') {
		q++
	}
	blanks := q > b
	switch {
	case strings.HasPrefix(s[q:], ":="), strings.HasPrefix(s[q:], "=>"), strings.HasPrefix(s[q:], "=="):
		q += 2
	case q < len(s) && (s[q] == '=' || s[q] == ':'):
		q++
	case allowSpace && blanks:
	default:
		return 0, 0, 0, false
	}
	for q < len(s) && q-b < 12 && (s[q] == ' ' || s[q] == '\t') {
		q++
	}
	if q < len(s) && s[q] == '\\' && q+1 < len(s) && (s[q+1] == '"' || s[q+1] == '\'') {
		q += 2
	} else if q < len(s) && (s[q] == '"' || s[q] == '\'' || s[q] == '`') {
		q++
	}
	if q >= len(s) || s[q] == ':' || s[q] == '=' {
		return 0, 0, 0, false
	}
	end := d.run(setValue, q, 1024)
	if end-q > 1024 || end == q {
		return 0, 0, 0, false
	}
	if end < len(s) && s[end] == '(' { // a call, not a value
		return 0, 0, 0, false
	}
	for end > q && s[end-1] == '.' { // end of a sentence
		end--
	}
	return q, end, identEnd, true
}

func (d *detector) assign(ar *assignRule, at, kwLen int) {
	s := d.s
	vs, ve, identEnd, ok := d.parseAssign(at+kwLen, ar.allowSpace)
	if !ok {
		return
	}
	is := at
	for is > 0 && at-is < 32 && sets[setIdent][s[is-1]] {
		is--
	}
	if ar.check(s[vs:ve], s[is:identEnd]) {
		d.add(vs, ve, ar.kind, ar.prio)
	}
}

// keyValue: a JSON member whose key names a secret; the whole string value
// is the candidate. The key is matched with a small automaton of the
// assignment keywords.
func (d *detector) keyValue(key string) {
	var mask uint64
	d.r.keyAC.scan(key, func(kw int32, _ int) { mask |= 1 << d.r.keyRule[kw] })
	for i := range d.r.assigns {
		if mask&(1<<i) != 0 {
			if ar := &d.r.assigns[i]; ar.check(d.s, key) {
				d.add(0, len(d.s), ar.kind, ar.prio)
			}
		}
	}
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
	pr("slack-token", setAlnumDash, 10, 255, hasDigitLetter, "xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxs-", "xoxe-", "xoxe.xoxp-")
	pr("slack-app-token", setAlnumDash, 20, 255, hasDigitLetter, "xapp-")
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
	pr("huggingface-token", setAlnum, 30, 64, mixedCase, "hf_")
	pr("shopify-token", setHex, 32, 32, nil, "shpat_", "shpca_", "shppa_", "shpss_")
	pr("square-token", setB64URL, 60, 60, hasDigitLetter, "EAAA")
	pr("square-token", setB64URL, 22, 22, nil, "sq0atp-")
	pr("square-token", setB64URL, 43, 43, nil, "sq0csp-")
	// AI providers with their own prefixes.
	pr("groq-key", setAlnum, 48, 64, hasDigitLetter, "gsk_")
	pr("xai-key", setAlnum, 70, 100, hasDigitLetter, "xai-")
	// age.
	pr("age-secret-key", setBech32Upper, 58, 58, nil, "AGE-SECRET-KEY-1")
	// Headers.
	rules = append(rules, rule{keywords: []string{"bearer"}, match: bearer})
	rules = append(rules, rule{keywords: []string{"authorization"}, match: basicAuth})

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
		{kind: "generic-secret", keywords: []string{"key", "token", "secret", "password", "passwd", "pwd", "credential"},
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

// Keyword and assignment rules: a value after a name that holds a
// keyword, in the forms code and configuration use (= : := => ||, Go's
// typed var, XML elements, setProperty("NAME", "v")), or a JSON member
// whose key holds one; and the generic rule's test of such a value.

package redact

import (
	"iter"
	"regexp"
	"strings"
)

var (
	reUUID       = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
	reDotted     = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)+$`)
	reConstName  = regexp.MustCompile(`^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$`)
	reFileSuffix = regexp.MustCompile(`\.[A-Za-z]{1,5}$`)
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
	if mixedCaseHex(v) || madeUpName(ident) {
		return false
	}
	if weakIdent(ident) {
		if !allIn(v, setBearer) || allIn(v, setHex) || isUUID(v) || !(lower && upper) {
			return false
		}
	}
	return true
}

// mixedCaseHex: hex digits in both cases (after an optional 0x). No
// generated secret is written so: hex keys come in one case, and a base62
// token of 16 characters or more holds a letter past f; an EIP-55 address
// (public) or a hand-edited value is.
func mixedCaseHex(v string) bool {
	h := strings.TrimPrefix(v, "0x")
	if !allIn(h, setHex) {
		return false
	}
	lower, upper, _ := classes(h)
	return lower && upper
}

// madeUpName: a name that says its value is not a real one, as tests
// and documentation name their stand-ins: fakeToken, dummy_secret,
// mockApiKey, bogusPassword, INVALID_KEY, nonMatchingToken.
func madeUpName(ident string) bool {
	prev := ""
	for w := range identWords(ident) {
		for _, m := range []string{"fake", "dummy", "mock", "mocked", "bogus", "invalid", "nonmatching"} {
			if strings.EqualFold(w, m) {
				return true
			}
		}
		if strings.EqualFold(prev, "non") && strings.EqualFold(w, "matching") {
			return true
		}
		prev = w
	}
	return false
}

// identWords yields the words of an identifier, split at anything not a
// letter or digit (_ - . $) and where a lower case letter or a digit is
// followed by an upper case one (camelCase).
func identWords(ident string) iter.Seq[string] {
	return func(yield func(string) bool) {
		start := 0
		for i := 0; i <= len(ident); i++ {
			end := i == len(ident) || !isAlnum(ident[i]) ||
				i > 0 && isUpper(ident[i]) && (isLower(ident[i-1]) || isDigit(ident[i-1]))
			if !end {
				continue
			}
			if i > start && !yield(ident[start:i]) {
				return
			}
			start = i
			if i < len(ident) && !isAlnum(ident[i]) {
				start = i + 1
			}
		}
	}
}

func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }
func isLower(c byte) bool { return 'a' <= c && c <= 'z' }
func isDigit(c byte) bool { return '0' <= c && c <= '9' }

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
	q, quoted := skipQuote(s, q)
	b := q
	for q < len(s) && q-b < 4 && (s[q] == ' ' || s[q] == '\t') {
		q++
	}
	blanks := q > b
	if blanks && !quoted && q < len(s) && isLetter(s[q]) {
		q = skipTypeWords(s, q)
	}
	sep, needQuote, multiline, ok := assignSep(s, q, is, quoted, blanks, allowSpace)
	if !ok {
		return 0, 0, 0, false
	}
	vs, ve, ok = d.assignValue(q+len(sep), multiline, needQuote)
	if !ok {
		return 0, 0, 0, false
	}
	return is, vs, ve, true
}

// skipQuote steps over a quote at q (" ' `, or \" \' in JSON-escaped
// text), and says whether there was one.
func skipQuote(s string, q int) (int, bool) {
	if q+1 < len(s) && s[q] == '\\' && (s[q+1] == '"' || s[q+1] == '\'') {
		return q + 2, true
	}
	if q < len(s) && (s[q] == '"' || s[q] == '\'' || s[q] == '`') {
		return q + 1, true
	}
	return q, false
}

// skipTypeWords: words between the name and "=" or ":", as gitleaks
// allows (20 characters): a type (var apiToken string = "..."), or prose
// (the secret is: ...). It returns where the separator starts, or q if
// none follows them.
func skipTypeWords(s string, q int) int {
	t := q
	for t < len(s) && t-q < 20 && (sets[setIdent][s[t]] || s[t] == ' ' || s[t] == '\t' || s[t] == '[' || s[t] == ']' || s[t] == '*') {
		t++
	}
	if t < len(s) && (s[t] == '=' && !strings.HasPrefix(s[t:], "==") && !strings.HasPrefix(s[t:], "=>") ||
		s[t] == ':' && !strings.HasPrefix(s[t:], "::")) {
		return t
	}
	return q
}

// assignSep reads the separator at q: one of assignSeps, a comma after a
// quoted name, the > of an XML element whose name starts at is, or (with
// allowSpace) blanks alone. needQuote: the value must be quoted (after ||
// or a comma); multiline: it may start on the next line.
func assignSep(s string, q, is int, quoted, blanks, allowSpace bool) (sep string, needQuote, multiline, ok bool) {
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
		return "", false, false, false
	}
	return sep, needQuote, multiline, true
}

// assignValue reads the value after the separator, from q: blanks (and
// line breaks, if multiline), an optional opening quote, then a run of
// value characters that is not a call nor shown cut short, without the
// full stops that end a sentence.
func (d *detector) assignValue(q int, multiline, needQuote bool) (vs, ve int, ok bool) {
	s := d.s
	r := q
	for q < len(s) && q-r < 12 && (s[q] == ' ' || s[q] == '\t' || multiline && isSpace(s[q])) {
		q++
	}
	q, opened := skipQuote(s, q)
	if q >= len(s) || s[q] == ':' || s[q] == '=' || needQuote && !opened {
		return 0, 0, false
	}
	end := d.run(setValue, q, 1024)
	if end-q > 1024 || end == q {
		return 0, 0, false
	}
	if end < len(s) && s[end] == '(' { // a call, not a value
		return 0, 0, false
	}
	if strings.HasSuffix(s[q:end], "..") || strings.HasPrefix(s[end:], "…") {
		return 0, 0, false // shown cut short (ops_eyJzaWduSW5B...)
	}
	for end > q && s[end-1] == '.' { // end of a sentence
		end--
	}
	return q, end, true
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
	if len(ar.allow) > 0 && allowlisted(ar.allow, v, s[is:min(len(s), ve+1)], lineAround(s, vs, ve)) {
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
		if len(ar.allow) > 0 && allowlisted(ar.allow, d.s, key+`": "`+d.s, d.s) {
			continue
		}
		d.add(0, len(d.s), ar.kind, ar.prio)
	}
}

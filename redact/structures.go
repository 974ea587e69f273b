// Structured secrets: JWTs, PEM and PGP private key blocks, URLs with
// a password, and Authorization headers (Bearer, Basic).

package redact

import (
	"bytes"
	"encoding/base64"
	"strings"
	"unicode/utf8"
)

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

// basicAuth: "Basic <base64 of user:password>", the credential of HTTP
// Basic authentication, wherever it is written: an Authorization (or
// Proxy-Authorization) header with or without a blank after its colon, a
// curl -H, a JSON member, a sentence ("Auth: Basic ...", "send
// authorization basic ..."). It is anchored at "Basic", not at the header's
// name, which writers shorten, run together with the value or leave out;
// the value says by itself that it is a credential: it decodes to text
// holding a colon. Words after "Basic" in prose (auth, realm="x",
// Authentication) are too short or decode to binary.
func basicAuth(d *detector, at, kwLen int) {
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
	end := d.run(setB64, q, 4096)
	for end < len(s) && s[end] == '=' && end-q < 4100 {
		end++
	}
	v := s[q:end]
	if len(v) < 8 || len(v) > 4100 || !rightOK(s, end) || !basicCredential(v, authBefore(s, at)) {
		return
	}
	d.add(q, end, "basic-auth", prioHeader)
}

// authBefore: "auth" (Authorization, Auth, X-Auth) just before at on its
// line, as a header names the scheme it carries.
func authBefore(s string, at int) bool {
	b := max(0, at-48)
	if nl := strings.LastIndexByte(s[b:at], '\n'); nl >= 0 {
		b += nl + 1
	}
	return containsFold(s[b:at], "auth")
}

// basicCredential: v is base64 (padded or not) of "user:password". After
// an Authorization header's name any such value is one (people edit a byte
// of the ones they publish, which then decodes to binary); without it, the
// decoded text must be printable and the user a name (letters, digits,
// . _ @ + -): one word in thousands decodes to printable text with a colon
// (fixedTotal is "~,^u:-j"), and far fewer to a name before it.
func basicCredential(v string, header bool) bool {
	raw, err := base64.StdEncoding.DecodeString(v)
	if err != nil {
		raw, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(v, "="))
	}
	if err != nil || bytes.IndexByte(raw, ':') < 0 {
		return false
	}
	if header {
		return true
	}
	user := raw[:bytes.IndexByte(raw, ':')]
	if len(user) == 0 || !allIn(string(user), setUser) || !utf8.Valid(raw) {
		return false
	}
	for _, c := range raw {
		if c < ' ' || c == 0x7f {
			return false
		}
	}
	return true
}

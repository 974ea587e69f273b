// Command-line passwords: shell words, curl's -u and -H, the password
// options of database clients and registry logins, and the environment
// variables that hold one.

package redact

import (
	"regexp"
	"strings"
)

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

// Where an option's value is, besides an offset in the option's word.
const (
	valueNone     = -1 // not an option that takes a value
	valueNextWord = 0  // the next word
)

// optionValues walks the words of a command from p, at most 64 and up to
// where the command ends, and calls found with the span of each option's
// value. valueAt says where word w holds one: at an offset in w
// (--user=u:p, -pSECRET), in the next word, or nowhere.
func optionValues(s string, p int, valueAt func(w string) int, found func(w string, vs, ve int)) {
	for n := 0; n < 64; n++ {
		ws, we, ok := nextWord(s, p)
		if !ok {
			return
		}
		p = we
		w := s[ws:we]
		var vs, ve int
		switch k := valueAt(w); k {
		case valueNone:
			continue
		case valueNextWord:
			a, b, ok := nextWord(s, we)
			if !ok {
				return
			}
			p, vs, ve = b, a, b
		default:
			vs, ve = ws+k, we
		}
		found(w, vs, ve)
	}
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
	optionValues(s, p, curlOption, func(w string, vs, ve int) {
		if w[1] == 'u' || strings.HasPrefix(w, "--user") {
			curlUser(d, vs, ve)
		} else {
			curlHeader(d, vs, ve)
		}
	})
}

// curlOption: where the value of curl's -u/--user and -H/--header is (see
// optionValues).
func curlOption(w string) int {
	switch {
	case w == "-u" || w == "--user" || w == "-H" || w == "--header":
		return valueNextWord
	case strings.HasPrefix(w, "--user="), strings.HasPrefix(w, "--header="):
		return strings.IndexByte(w, '=') + 1
	case len(w) > 2 && (w[:2] == "-u" || w[:2] == "-H") && w[2] != '-':
		return 2
	}
	return valueNone
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
	short, attached, ok := passwordOption(s, at, strings.ToLower(s[at:p]))
	if !ok {
		return
	}
	optionValues(s, p, func(w string) int {
		switch {
		case strings.HasPrefix(w, "--password="):
			return 11
		case w == "--password" && !attached, w == short && !attached:
			return valueNextWord
		case len(w) > 2 && w[:2] == short && w[2] != '-':
			if w[2] == '=' {
				return 3
			}
			return 2
		}
		return valueNone
	}, func(_ string, vs, ve int) {
		vs, ve = trimQuotes(s, vs, ve)
		if ve > vs && cliValue(s[vs:ve]) {
			d.add(vs, ve, "cli-password", prioHeader)
		}
	})
}

// passwordOption: the short option that takes the password on the
// command line of cmd (the command at at), and whether it takes it only
// attached (-pSECRET); ok is false for other commands, and for a login
// not of a registry client.
func passwordOption(s string, at int, cmd string) (short string, attached, ok bool) {
	switch {
	case strings.HasPrefix(cmd, "mysql"), strings.HasPrefix(cmd, "mariadb"):
		return "-p", true, true
	case cmd == "login":
		prev := strings.ToLower(prevWord(s, at))
		switch prev {
		case "docker", "podman", "nerdctl", "buildah", "skopeo", "registry", "oras":
			return "-p", false, true
		}
	case cmd == "sshpass":
		return "-p", false, true
	case cmd == "redis-cli":
		return "-a", false, true
	}
	return "", false, false
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

// Vendor token shapes of our own table: literal prefixes (prefixRule),
// sk- keys, webhook paths, Telegram, SendGrid, Azure connection-string
// keys, Discord bot tokens (near "discord" or bare), Vault tokens.

package redact

import (
	"encoding/base64"
	"regexp"
	"strings"
)

// Shapes known by an expression: Discord bot tokens (near "discord", or
// the whole value of an assignment) and Mailgun keys (of one).
var (
	reDiscord     = regexp.MustCompile(`[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6,7}\.[A-Za-z0-9_-]{27,40}`)
	reDiscordFull = regexp.MustCompile(`^` + reDiscord.String() + `$`)
	reMailgun     = regexp.MustCompile(`^[0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8}$`)
)

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
// digits, and in a namespace other than the root, a dot and the
// namespace's 5-character id) shortly after "token" or "vault" on its
// line (VAULT_TOKEN=, X-Vault-Token:, the table vault login prints, vault
// login s.…). Without that, s.<24 characters> is as often a method of a
// receiver named s (s.ReadUint16LengthPrefixed).
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
		if end > len(s) || !leftOK(s, st) || !allIn(s[st+2:end], setAlnum) || !rightOK(s, end) {
			continue
		}
		if ns := end + 6; ns <= len(s) && s[end] == '.' && allIn(s[end+1:ns], setAlnum) && rightOK(s, ns) &&
			(ns == len(s) || s[ns] != '(' && s[ns] != '.') {
			end = ns // s.<24>.<namespace id>
		} else if end < len(s) && (s[end] == '(' || s[end] == '.') {
			continue
		}
		if b := s[st+2 : st+26]; hasDigitLetter(b) && entropy(b) >= 3.5 {
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

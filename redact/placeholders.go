// Not secrets: placeholders (values written in place of a secret),
// made-up sequential values, and gitleaks' allowlists as applied here.

package redact

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
	return best >= 8 && best*3 >= len(v) || repeatedGroup(v)
}

// repeatedGroup: one group of 3 or more letters or digits, three times in
// a row between separators, as templates fill the parts of a format:
// 12345678-ABCD-ABCD-ABCD-..., xoxp-1234-1234-1234-..., XXXXX-XXXXX-XXXXX.
// The parts of a real token (a team id, a user id, random blocks) differ.
func repeatedGroup(v string) bool {
	var prev string
	n := 0
	for i := 0; i < len(v); {
		if !isAlnum(v[i]) {
			i++
			continue
		}
		j := i
		for j < len(v) && isAlnum(v[j]) {
			j++
		}
		if g := v[i:j]; len(g) >= 3 && g == prev {
			n++
			if n == 3 {
				return true
			}
		} else {
			prev, n = g, 1
		}
		i = j
	}
	return false
}

var placeholderWords = []string{"example", "xxxx", "****", "your_", "your-", "yourapikey", "yourtoken",
	"placeholder", "changeme", "change_me", "replace_me", "replaceme", "redacted", "${", "{{", "<", ">"}

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

// allowlisted applies gitleaks allowlists to a finding. Paths and commits
// do not exist here: an allowlist that needs them ("AND") never matches,
// and in one that needs any of its checks they are ignored. Stop words
// are checked as gitleaks does, anywhere in the value; the generic rule's
// 1,446 (about, admin, flow, ...) are not loaded but its known values (see
// knownValues): 1 in 120 random 32-character tokens contains one of the
// words, as do many passwords.
func allowlisted(als []*allowlist, secret, match, line string) bool {
	for _, a := range als {
		target := secret
		switch a.regexTarget {
		case "match":
			target = match
		case "line":
			target = line
		}
		re := a.regexAllowed(target)
		sw := a.containsStopword(secret)
		if a.condition == allowAnd {
			if len(a.paths) > 0 || len(a.commits) > 0 || len(a.regexes) == 0 && len(a.stopwords) == 0 {
				continue
			}
			if (len(a.regexes) == 0 || re) && (len(a.stopwords) == 0 || sw) && (re || sw) {
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

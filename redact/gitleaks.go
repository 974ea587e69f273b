// gitleaks' default rules: its configuration decoded and read, the rules
// this package replaces with its own (gitleaksOwn), and the rules for the
// automaton made from the rest.
//
// The vendor formats come from gitleaks' default rule set (the rules and
// keywords gitleaks itself ships, as data in gitleaks_gen.go), read once
// by New.
// Its regular expressions are not run over the text: each runs only at a
// hit of one of its keywords, found by the same automaton as our own
// rules, and only over a window around the hit that is as wide as the
// longest match the expression allows. See doc.go for the measurements.

package redact

import (
	"fmt"
	"strings"
)

// The rules, as data: gitleaks' config/gitleaks.toml at the version named
// here, fetched through the module proxy (checked against the checksum
// database) and written into gitleaks_gen.go. To move to another version,
// change it here and add -golden testdata/gitleaks-translated.txt (it runs
// gitleaks' own reading of the file, for TestGitleaksDecoding).
//
//go:generate go run ./internal/gengitleaks -version v8.30.1

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
	// characters are letters. tokenRules has hvs. and hvb. rules,
	// legacyVault the s. ones.
	"vault-service-token": "vault-service-token",
	"vault-batch-token":   "vault-batch-token",
}

// loadGitleaks reads gitleaks' default rules (gitleaks_gen.go, written
// by go generate from gitleaks' own file at a pinned version) as gitleaks
// does (translateGitleaks), with what this package does not use left out:
// the rules of gitleaksOwn (except the generic one, whose allowlists apply
// to ours) and the generic rule's 1,446 stop words but its known values
// (see allowlisted, knownValues). The expressions are not compiled here:
// all 222 took 11 ms; each is compiled at its rule's first keyword hit
// (vendorRule.expr).
func loadGitleaks() (gitleaksConfig, error) {
	cfg, err := translateGitleaks(&gitleaksDefault)
	if err != nil {
		return cfg, fmt.Errorf("gitleaks rules: %w", err)
	}
	rules := cfg.rules[:0]
	for _, r := range cfg.rules {
		if _, own := gitleaksOwn[r.id]; own && r.id != "generic-api-key" {
			continue
		}
		if r.id == "generic-api-key" {
			for _, a := range r.allowlists {
				if len(a.regexes) > 0 {
					a.stopwords = knownValues(a.stopwords)
				}
			}
		}
		rules = append(rules, r)
	}
	cfg.rules = rules
	return cfg, nil
}

// knownValues keeps the stop words that are whole values, not words: a
// known public value gitleaks lists by itself (yarn's bundled Algolia
// search key, 6fe4476e...), 16 characters or more with a digit. The words
// (about, admin, flow, ...) are left out: see allowlisted.
func knownValues(words []string) []string {
	var kept []string
	for _, w := range words {
		if len(w) >= 16 && strings.ContainsAny(w, "0123456789") {
			kept = append(kept, w)
		}
	}
	return kept
}

// vendorRules turns the configuration into rules for the automaton. Rules
// with only a path (file names) have nothing to match in a session; rules
// with a path and an expression are run on all text, since sessions have
// no file names to test.
func vendorRules(cfg gitleaksConfig) []rule {
	var rules []rule
	for i := range cfg.rules {
		gr := &cfg.rules[i]
		if gr.regex == "" || gr.skipReport || len(gr.keywords) == 0 {
			continue
		}
		if _, own := gitleaksOwn[gr.id]; own {
			continue
		}
		vr := &vendorRule{
			id:          gr.id,
			src:         gr.regex,
			keywords:    gr.keywords,
			secretGroup: gr.secretGroup,
			entropy:     gr.entropy,
			allow:       gr.allowlists,
			global:      cfg.allowlists,
			memo:        len(rules),
		}
		kws := make([]string, len(gr.keywords))
		copy(kws, gr.keywords)
		rules = append(rules, rule{keywords: kws, match: vr.match})
	}
	return rules
}

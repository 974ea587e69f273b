// gitleaks' default rules: its configuration decoded and read, the rules
// this package replaces with its own (gitleaksOwn), and the rules for the
// automaton made from the rest.
//
// The vendor formats come from gitleaks' default rule set (its config
// package, the rules and keywords gitleaks itself ships), read once by New.
// Its regular expressions are not run over the text: each runs only at a
// hit of one of its keywords, found by the same automaton as our own
// rules, and only over a window around the hit that is as wide as the
// longest match the expression allows. See doc.go for the measurements.

package redact

import (
	"fmt"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/zricethezav/gitleaks/v8/config"
)

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
// 1,446 stop words but its known values (see allowlisted, knownValues),
// whose trie was 8 MB of allocation and 3 ms. Translate would also compile the 222 expressions, 11 ms: it is
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
					a.StopWords = knownValues(a.StopWords)
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

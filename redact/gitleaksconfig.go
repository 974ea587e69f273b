// gitleaks' configuration in this package's own types: the rules and
// allowlists as its TOML states them (glSpec, the form gitleaks_gen.go
// holds them in) and as gitleaks' config.Translate reads them
// (gitleaksConfig, by translateGitleaks), with the same checks and the same
// meaning. gitleaks itself is not imported: its config package links viper
// and its dependencies into the binary, for a table of rules.
//
// Not read, because the default configuration does not use them and the
// generator rejects a file that does: [extend] (another configuration to
// merge), [[rules.required]] (composite rules), and the fields nothing here
// needs (a rule's description and tags, the file's title and minVersion).

package redact

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// glSpec is a gitleaks configuration as its TOML states it.
type glSpec struct {
	allowlist  *glAllowSpec // [allowlist], the older form of [[allowlists]]
	allowlists []glAllowSpec
	rules      []glRuleSpec
}

type glRuleSpec struct {
	id          string
	regex       string
	path        string
	secretGroup int
	entropy     float64
	keywords    []string
	skipReport  bool
	allowlist   *glAllowSpec // [rules.allowlist], the older form of [[rules.allowlists]]
	allowlists  []glAllowSpec
}

type glAllowSpec struct {
	description string
	condition   string // "", "OR", "||", "AND", "&&", any case
	regexTarget string // "", "secret", "match", "line"
	regexes     []string
	paths       []string
	commits     []string
	stopwords   []string
	targetRules []string // a global allowlist's: it applies to these rules only
}

// gitleaksConfig is a configuration as gitleaks' Translate makes it.
type gitleaksConfig struct {
	rules      []gitleaksRule // in the file's order
	allowlists []*allowlist   // global: they apply to every rule
}

// gitleaksRule is one rule. Its expression stays a source: vendorRule
// compiles it at the rule's first keyword hit. Its path is never compiled:
// a session has no file names to test it against (TestGitleaksDecoding
// compiles both).
type gitleaksRule struct {
	id          string
	regex       string
	path        string
	keywords    []string // lower case, as gitleaks matches them
	entropy     float64
	secretGroup int
	skipReport  bool
	allowlists  []*allowlist // its own, then the global ones that target it
}

type allowCondition int

const (
	allowOr  allowCondition = iota // any one of its checks
	allowAnd                       // all of its checks
)

func (c allowCondition) String() string { return [...]string{"OR", "AND"}[c] }

// allowlist is a set of checks that drop a finding (see allowlisted).
type allowlist struct {
	description string
	condition   allowCondition
	regexTarget string // "" (the secret), "match" or "line"
	regexes     []string
	re          *regexp.Regexp // regexes as one alternation, as gitleaks joins them
	stopwords   []string       // lower case, each once, sorted
	paths       []string
	commits     []string // lower case, each once, sorted
}

// regexAllowed: one of the expressions matches s (gitleaks'
// RegexAllowed).
func (a *allowlist) regexAllowed(s string) bool {
	return a.re != nil && s != "" && a.re.MatchString(s)
}

// containsStopword: s contains one of the stop words, ignoring case
// (gitleaks' ContainsStopWord). gitleaks builds an Aho-Corasick trie of
// them; the lists run here hold a few words each (see knownValues).
func (a *allowlist) containsStopword(s string) bool {
	if s == "" || len(a.stopwords) == 0 {
		return false
	}
	s = strings.ToLower(s)
	for _, w := range a.stopwords {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// translateGitleaks reads a configuration as gitleaks' Translate does:
// keywords in lower case, each allowlist checked and its expressions
// joined, the older single-allowlist forms taken as one more allowlist
// (and refused alongside the newer), global allowlists with target rules
// given to those rules, after their own.
func translateGitleaks(spec *glSpec) (gitleaksConfig, error) {
	var cfg gitleaksConfig
	index := map[string]int{}
	for i := range spec.rules {
		r, err := translateRule(&spec.rules[i])
		if err != nil {
			return cfg, err
		}
		if _, dup := index[r.id]; dup {
			// gitleaks keeps the last of them, twice in its order.
			return cfg, fmt.Errorf("rule %s: defined twice", r.id)
		}
		index[r.id] = len(cfg.rules)
		cfg.rules = append(cfg.rules, r)
	}
	specs := spec.allowlists
	if spec.allowlist != nil {
		if len(specs) > 0 {
			return cfg, errors.New("[allowlist] is deprecated, it cannot be used alongside [[allowlists]]")
		}
		specs = []glAllowSpec{*spec.allowlist}
	}
	for i := range specs {
		a, err := translateAllowlist(&specs[i])
		if err != nil {
			return cfg, fmt.Errorf("[[allowlists]] %w", err)
		}
		if len(specs[i].targetRules) == 0 {
			cfg.allowlists = append(cfg.allowlists, a)
			continue
		}
		for _, id := range specs[i].targetRules {
			j, ok := index[id]
			if !ok {
				return cfg, fmt.Errorf("[[allowlists]] target rule ID '%s' does not exist", id)
			}
			cfg.rules[j].allowlists = append(cfg.rules[j].allowlists, a)
		}
	}
	return cfg, nil
}

// translateRule reads one rule (gitleaks' Translate, and Rule.Validate
// but for the secret group: vendorRule.analyse checks it against the
// expression, which it parses anyway).
func translateRule(s *glRuleSpec) (gitleaksRule, error) {
	r := gitleaksRule{
		id:          s.id,
		regex:       s.regex,
		path:        s.path,
		entropy:     s.entropy,
		secretGroup: s.secretGroup,
		skipReport:  s.skipReport,
		keywords:    make([]string, len(s.keywords)),
	}
	if strings.TrimSpace(r.id) == "" {
		return r, fmt.Errorf("rule |id| is missing or empty (regex %q)", s.regex)
	}
	if r.regex == "" && r.path == "" {
		return r, errors.New(r.id + ": both |regex| and |path| are empty, this rule will have no effect")
	}
	for i, kw := range s.keywords {
		r.keywords[i] = strings.ToLower(kw)
	}
	specs := s.allowlists
	if s.allowlist != nil {
		if len(specs) > 0 {
			return r, fmt.Errorf("%s: [rules.allowlist] is deprecated, it cannot be used alongside [[rules.allowlist]]", r.id)
		}
		specs = []glAllowSpec{*s.allowlist}
	}
	for i := range specs {
		a, err := translateAllowlist(&specs[i])
		if err != nil {
			return r, fmt.Errorf("%s: [[rules.allowlists]] %w", r.id, err)
		}
		r.allowlists = append(r.allowlists, a)
	}
	return r, nil
}

// translateAllowlist reads one allowlist (gitleaks' parseAllowlist and
// Allowlist.Validate). Its paths are not compiled (see gitleaksRule).
func translateAllowlist(s *glAllowSpec) (*allowlist, error) {
	a := &allowlist{description: s.description, regexes: s.regexes, paths: s.paths}
	switch strings.ToUpper(s.condition) {
	case "AND", "&&":
		a.condition = allowAnd
	case "", "OR", "||":
		a.condition = allowOr
	default:
		return nil, fmt.Errorf("unknown allowlist |condition| '%s' (expected 'and', 'or')", s.condition)
	}
	switch s.regexTarget {
	case "", "secret":
	case "match", "line":
		a.regexTarget = s.regexTarget
	default:
		return nil, fmt.Errorf("unknown allowlist |regexTarget| '%s' (expected 'match', 'line')", s.regexTarget)
	}
	if len(s.commits) == 0 && len(s.paths) == 0 && len(s.regexes) == 0 && len(s.stopwords) == 0 {
		return nil, errors.New("must contain at least one check for: commits, paths, regexes, or stopwords")
	}
	if len(s.regexes) > 0 {
		// One alternation, as gitleaks matches them: a flag such as (?i)
		// at the top of one expression then holds for those after it.
		re, err := regexp.Compile("(?:" + strings.Join(s.regexes, "|") + ")")
		if err != nil {
			return nil, err
		}
		a.re = re
	}
	a.commits = lowerSet(s.commits, strings.TrimSpace)
	a.stopwords = lowerSet(s.stopwords, nil)
	return a, nil
}

// lowerSet returns words in lower case (after trim, if given), each once,
// sorted (gitleaks keeps them in a map's order).
func lowerSet(words []string, trim func(string) string) []string {
	if len(words) == 0 {
		return nil
	}
	set := make([]string, len(words))
	for i, w := range words {
		if trim != nil {
			w = trim(w)
		}
		set[i] = strings.ToLower(w)
	}
	slices.Sort(set)
	return slices.Compact(set)
}

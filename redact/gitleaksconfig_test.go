// Tests of gitleaks' configuration as read here: held to gitleaks' own
// reading of it (a golden file), to the file it was made from, and to
// Translate's rules for the forms the default configuration does not use.

package redact

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestGitleaksDecoding holds translateGitleaks, on the generated data, to
// gitleaks' own reading of the same file: testdata/gitleaks-translated.txt,
// written by gengitleaks -golden with gitleaks' viper decoding and
// config.Translate, rule by rule and allowlist by allowlist. A golden file,
// not gitleaks called from this test: a test import would keep gitleaks
// (and viper) in go.mod, and the file is reviewed once per version.
func TestGitleaksDecoding(t *testing.T) {
	golden, err := os.ReadFile(filepath.Join("testdata", "gitleaks-translated.txt"))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := translateGitleaks(&gitleaksDefault)
	if err != nil {
		t.Fatal(err)
	}
	got := describeGitleaks(cfg)
	if want := string(golden); got != want {
		gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("line %d differs from gitleaks' reading:\n got %s\nwant %s", i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("%d lines, gitleaks' reading has %d", len(gl), len(wl))
	}
	if len(cfg.rules) < 200 {
		t.Errorf("%d gitleaks rules", len(cfg.rules))
	}
	// What Translate also checks and this package leaves to its first
	// use: every expression and path compiles, secret groups exist.
	for _, r := range cfg.rules {
		for _, src := range append([]string{r.regex, r.path}, allowlistSources(r.allowlists)...) {
			if _, err := regexp.Compile(src); err != nil {
				t.Errorf("%s: %v", r.id, err)
			}
		}
		if re, err := regexp.Compile(r.regex); err == nil && r.secretGroup > re.NumSubexp() {
			t.Errorf("%s: secret group %d of %d", r.id, r.secretGroup, re.NumSubexp())
		}
	}
	for _, src := range allowlistSources(cfg.allowlists) {
		if _, err := regexp.Compile(src); err != nil {
			t.Errorf("global allowlist: %v", err)
		}
	}
}

func allowlistSources(als []*allowlist) []string {
	var srcs []string
	for _, a := range als {
		srcs = append(append(srcs, a.regexes...), a.paths...)
	}
	return srcs
}

// describeGitleaks writes a configuration as gengitleaks' translate.go.txt
// writes gitleaks' own: the two must stay the same format.
func describeGitleaks(cfg gitleaksConfig) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "# %s of %s@%s (SHA-256 %s)\n", gitleaksSource, gitleaksModule, gitleaksVersion, gitleaksSHA256)
	sb.WriteString("# as gitleaks reads it (viper, config.Translate); written by gengitleaks -golden. DO NOT EDIT.\n")
	for _, r := range cfg.rules {
		fmt.Fprintf(&sb, "rule %s\n", r.id)
		if r.regex != "" {
			fmt.Fprintf(&sb, "  regex %s\n", r.regex)
		}
		if r.path != "" {
			fmt.Fprintf(&sb, "  path %s\n", r.path)
		}
		fmt.Fprintf(&sb, "  secretGroup %d\n  entropy %s\n  skipReport %t\n",
			r.secretGroup, strconv.FormatFloat(r.entropy, 'g', -1, 64), r.skipReport)
		if len(r.keywords) > 0 {
			fmt.Fprintf(&sb, "  keywords %s\n", strings.Join(r.keywords, " "))
		}
		for _, a := range r.allowlists {
			describeAllowlist(&sb, "  ", a)
		}
	}
	sb.WriteString("global\n")
	for _, a := range cfg.allowlists {
		describeAllowlist(&sb, "  ", a)
	}
	return sb.String()
}

func describeAllowlist(sb *strings.Builder, indent string, a *allowlist) {
	fmt.Fprintf(sb, "%sallowlist %q\n", indent, a.description)
	fmt.Fprintf(sb, "%s  condition %s\n%s  regexTarget %q\n", indent, a.condition, indent, a.regexTarget)
	for _, l := range []struct {
		name  string
		items []string
	}{{"regex", a.regexes}, {"path", a.paths}, {"commit", a.commits}, {"stopword", a.stopwords}} {
		for _, s := range l.items {
			fmt.Fprintf(sb, "%s  %s %s\n", indent, l.name, s)
		}
	}
}

// TestGitleaksSource: the generated data's hash is that of gitleaks' file
// at the version it names, when the module is in the module cache (it is
// not needed to build or test; go generate fetches it).
func TestGitleaksSource(t *testing.T) {
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Skip("no go command:", err)
	}
	path := filepath.Join(strings.TrimSpace(string(out)), "github.com", "zricethezav", "gitleaks", "v8@"+gitleaksVersion, filepath.FromSlash(gitleaksSource))
	data, err := os.ReadFile(path)
	if err != nil {
		t.Skip("gitleaks not in the module cache:", err)
	}
	if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != gitleaksSHA256 {
		t.Errorf("%s has SHA-256 %x, gitleaks_gen.go says %s: run go generate", path, sum, gitleaksSHA256)
	}
}

// TestTranslateGitleaks: the forms and errors of Translate the default
// configuration does not show (the older single allowlists, targeted
// global allowlists, conditions, targets, commits), read as gitleaks reads
// them.
func TestTranslateGitleaks(t *testing.T) {
	rule := func(id string, als ...glAllowSpec) glRuleSpec {
		return glRuleSpec{id: id, regex: `x`, keywords: []string{"X", "y"}, allowlists: als}
	}
	re := []string{`^a`}
	for _, c := range []struct {
		name string
		spec glSpec
		want string // the rules' and global allowlists' description, or the error
	}{
		{"older rule form", glSpec{rules: []glRuleSpec{{id: "r", regex: "x", allowlist: &glAllowSpec{regexes: re, condition: "and"}}}},
			`rule r|  regex x|  secretGroup 0|  entropy 0|  skipReport false|  allowlist ""|    condition AND|    regexTarget ""|    regex ^a|global`},
		{"both rule forms", glSpec{rules: []glRuleSpec{{id: "r", regex: "x", allowlist: &glAllowSpec{regexes: re}, allowlists: []glAllowSpec{{regexes: re}}}}},
			`r: [rules.allowlist] is deprecated, it cannot be used alongside [[rules.allowlist]]`},
		{"older global form", glSpec{allowlist: &glAllowSpec{stopwords: []string{"B", "a", "b"}, condition: "||"}},
			`global|  allowlist ""|    condition OR|    regexTarget ""|    stopword a|    stopword b`},
		{"both global forms", glSpec{allowlist: &glAllowSpec{regexes: re}, allowlists: []glAllowSpec{{regexes: re}}},
			`[allowlist] is deprecated, it cannot be used alongside [[allowlists]]`},
		{"targeted", glSpec{rules: []glRuleSpec{rule("r", glAllowSpec{regexes: re}), rule("s")},
			allowlists: []glAllowSpec{{targetRules: []string{"r"}, regexTarget: "secret", commits: []string{" ABC", "abc"}}, {paths: re}}},
			`rule r|  regex x|  secretGroup 0|  entropy 0|  skipReport false|  keywords x y|  allowlist ""|    condition OR|    regexTarget ""|    regex ^a|  allowlist ""|    condition OR|    regexTarget ""|    commit abc|` +
				`rule s|  regex x|  secretGroup 0|  entropy 0|  skipReport false|  keywords x y|global|  allowlist ""|    condition OR|    regexTarget ""|    path ^a`},
		{"unknown target", glSpec{rules: []glRuleSpec{rule("r")}, allowlists: []glAllowSpec{{targetRules: []string{"q"}, regexes: re}}},
			`[[allowlists]] target rule ID 'q' does not exist`},
		{"condition", glSpec{rules: []glRuleSpec{rule("r", glAllowSpec{regexes: re, condition: "xor"})}},
			`r: [[rules.allowlists]] unknown allowlist |condition| 'xor' (expected 'and', 'or')`},
		{"target", glSpec{rules: []glRuleSpec{rule("r", glAllowSpec{regexes: re, regexTarget: "Line"})}},
			`r: [[rules.allowlists]] unknown allowlist |regexTarget| 'Line' (expected 'match', 'line')`},
		{"empty allowlist", glSpec{allowlists: []glAllowSpec{{description: "d"}}},
			`[[allowlists]] must contain at least one check for: commits, paths, regexes, or stopwords`},
		{"no expression", glSpec{rules: []glRuleSpec{{id: "r"}}}, `r: both |regex| and |path| are empty, this rule will have no effect`},
		{"no id", glSpec{rules: []glRuleSpec{{regex: "x"}}}, `rule |id| is missing or empty (regex "x")`},
		{"twice", glSpec{rules: []glRuleSpec{rule("r"), rule("r")}}, `rule r: defined twice`},
	} {
		cfg, err := translateGitleaks(&c.spec)
		got := ""
		if err != nil {
			got = err.Error()
		} else {
			lines := strings.Split(strings.TrimSuffix(describeGitleaks(cfg), "\n"), "\n")
			got = strings.Join(lines[2:], "|") // after the header
		}
		if got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
	// The data itself is not changed by reading it (each New reads it).
	spec := glSpec{rules: []glRuleSpec{rule("r")}}
	if _, err := translateGitleaks(&spec); err != nil || spec.rules[0].keywords[0] != "X" {
		t.Errorf("keywords of the data: %v, %v", spec.rules[0].keywords, err)
	}
}

// TestAllowlistChecks: an allowlist's expressions are one alternation, as
// gitleaks joins them, so a flag at the top of one holds for the next (the
// global allowlist's (?i)^true|false|null$ is followed by others); stop
// words are found anywhere in the secret, ignoring case; AND needs every
// check, and a path or commit check never passes here.
func TestAllowlistChecks(t *testing.T) {
	mk := func(s glAllowSpec) *allowlist {
		a, err := translateAllowlist(&s)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	flagged := mk(glAllowSpec{regexes: []string{`(?i)^true|false`, `^B$`}})
	words := mk(glAllowSpec{stopwords: []string{"Example"}})
	and := mk(glAllowSpec{condition: "AND", regexes: []string{`^tok`}, stopwords: []string{"xyz"}})
	andPath := mk(glAllowSpec{condition: "AND", regexes: []string{`^tok`}, paths: []string{`\.go$`}})
	line := mk(glAllowSpec{regexTarget: "line", regexes: []string{`^import`}})
	for _, c := range []struct {
		name                string
		a                   *allowlist
		secret, match, line string
		want                bool
	}{
		{"flag carried over", flagged, "b", "", "", true},
		{"flag carried over, upper", flagged, "B", "", "", true},
		{"no match", flagged, "c", "", "", false},
		{"empty secret", flagged, "", "", "", false},
		{"stop word, any case", words, "abcEXAMPLEdef", "", "", true},
		{"no stop word", words, "abcdef", "", "", false},
		{"and: both", and, "tokxyz", "", "", true},
		{"and: regex only", and, "tokabc", "", "", false},
		{"and: path", andPath, "tok", "", "", false},
		{"line target", line, "tok", "tok", "import tok", true},
		{"line target, secret ignored", line, "import", "import", "x = import", false},
	} {
		if got := allowlisted([]*allowlist{c.a}, c.secret, c.match, c.line); got != c.want {
			t.Errorf("%s: allowlisted = %v, want %v", c.name, got, c.want)
		}
	}
}

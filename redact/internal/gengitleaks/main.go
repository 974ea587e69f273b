// Command gengitleaks writes redact's gitleaks_gen.go: gitleaks' default
// rule set (config/gitleaks.toml of the gitleaks module, at the version
// given) as Go data in redact's own types (glSpec), with the version, the
// module's checksum and the file's SHA-256 in its header and in consts.
// redact reads the rules from it (translateGitleaks) instead of importing
// gitleaks' config package, which links viper and its dependencies into
// canopy. Run it with go generate in redact; to move to another gitleaks
// version, change -version in redact's go:generate line and run it with
// -golden.
//
// The TOML is decoded strictly: a field redact does not know ([extend],
// [[rules.required]], a new allowlist check) stops the generator rather
// than being dropped.
//
// With -golden FILE it also writes, by gitleaks' own code (viper and
// config.Translate, run from a module of its own: see golden.go), the
// rules and allowlists as gitleaks reads them; redact's
// TestGitleaksDecoding holds its own reading to that file.
//
// Usage: gengitleaks -version V [-o FILE | -o -] [-golden FILE]
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/pelletier/go-toml/v2"
)

const (
	module = "github.com/zricethezav/gitleaks/v8"
	source = "config/gitleaks.toml"
)

// source is what the generated file is made from.
type sourceFile struct {
	version string
	sum     string // the module's go.sum hash (h1:...)
	sha256  string // of the TOML
	data    []byte
}

func main() {
	version := flag.String("version", "", "gitleaks version, e.g. v8.30.1")
	out := flag.String("o", "gitleaks_gen.go", "the file to write, - for standard output")
	golden := flag.String("golden", "", "also write gitleaks' own translation of the rules to this file")
	flag.Parse()
	if *version == "" {
		fail(fmt.Errorf("-version is required"))
	}
	src, err := fetch(*version)
	if err != nil {
		fail(err)
	}
	spec, err := decode(src.data)
	if err != nil {
		fail(fmt.Errorf("%s@%s %s: %w", module, *version, source, err))
	}
	code, err := render(src, spec)
	if err != nil {
		fail(err)
	}
	if err := write(*out, code); err != nil {
		fail(err)
	}
	if *golden != "" {
		text, err := translateByGitleaks(src)
		if err != nil {
			fail(fmt.Errorf("golden: %w", err))
		}
		if err := write(*golden, text); err != nil {
			fail(err)
		}
	}
}

// fetch reads the TOML from the module cache, where the go command puts
// the module (from the module proxy, checked against the checksum
// database) at exactly that version.
func fetch(version string) (sourceFile, error) {
	cmd := exec.Command("go", "mod", "download", "-json", module+"@"+version)
	cmd.Stderr = os.Stderr
	js, err := cmd.Output()
	if err != nil {
		return sourceFile{}, fmt.Errorf("go mod download %s@%s: %w", module, version, err)
	}
	var m struct{ Dir, Sum, Version, Error string }
	if err := json.Unmarshal(js, &m); err != nil {
		return sourceFile{}, err
	}
	if m.Error != "" {
		return sourceFile{}, fmt.Errorf("go mod download: %s", m.Error)
	}
	if m.Version != version {
		return sourceFile{}, fmt.Errorf("go mod download gave %s, not %s", m.Version, version)
	}
	data, err := os.ReadFile(filepath.Join(m.Dir, filepath.FromSlash(source)))
	if err != nil {
		return sourceFile{}, err
	}
	h := sha256.Sum256(data)
	return sourceFile{version: version, sum: m.Sum, sha256: hex.EncodeToString(h[:]), data: data}, nil
}

// The TOML's shape: every field gitleaks' ViperConfig reads that the
// default configuration uses. The others are unknown fields: decode
// refuses them.
type tomlConfig struct {
	Title       string          `toml:"title"`
	Description string          `toml:"description"`
	MinVersion  string          `toml:"minVersion"`
	AllowList   *tomlAllowlist  `toml:"allowlist"`
	Allowlists  []tomlAllowlist `toml:"allowlists"`
	Rules       []tomlRule      `toml:"rules"`
}

type tomlRule struct {
	ID          string          `toml:"id"`
	Description string          `toml:"description"`
	Regex       string          `toml:"regex"`
	Path        string          `toml:"path"`
	SecretGroup int             `toml:"secretGroup"`
	Entropy     float64         `toml:"entropy"`
	Keywords    []string        `toml:"keywords"`
	Tags        []string        `toml:"tags"`
	SkipReport  bool            `toml:"skipReport"`
	AllowList   *tomlAllowlist  `toml:"allowlist"`
	Allowlists  []tomlAllowlist `toml:"allowlists"`
}

type tomlAllowlist struct {
	Description string   `toml:"description"`
	Condition   string   `toml:"condition"`
	RegexTarget string   `toml:"regexTarget"`
	Regexes     []string `toml:"regexes"`
	Paths       []string `toml:"paths"`
	Commits     []string `toml:"commits"`
	StopWords   []string `toml:"stopwords"`
	TargetRules []string `toml:"targetRules"` // global allowlists only
}

func decode(data []byte) (*tomlConfig, error) {
	var c tomlConfig
	d := toml.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	if err := d.Decode(&c); err != nil {
		return nil, err
	}
	if len(c.Rules) == 0 {
		return nil, fmt.Errorf("no rules")
	}
	return &c, nil
}

func write(path string, data []byte) error {
	if path == "-" {
		_, err := os.Stdout.Write(data)
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gengitleaks:", err)
	os.Exit(1)
}

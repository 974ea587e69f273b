package sessiongen

import (
	"fmt"
	"strconv"
	"strings"
)

// Shell scripts, JSON, Markdown and YAML files of the code content mode.

func synthShell(s *synth, path string) {
	s.ln("#!/usr/bin/env bash")
	s.ln("# " + s.sentence(path[strings.LastIndexByte(path, '/')+1:]))
	s.ln("set -euo pipefail")
	s.ln("")
	for range s.between(2, 5) {
		s.ln(`: "${` + strings.ToUpper(snakeCase(s.words())) + `:=` + s.pick(idQualifiers) + `}"`)
	}
	s.ln(`readonly ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"`)
	s.ln("")
	s.ln(`log() { printf '%s %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }`)
	s.ln(`die() { log "error: $*"; exit 1; }`)
	s.ln("")
	for !s.full() {
		s.shFunc()
	}
	s.open("main() {")
	s.open(`while [[ $# -gt 0 ]]; do`)
	s.open(`case "$1" in`)
	for _, f := range s.funcs {
		s.ln(strings.ReplaceAll(f, "_", "-") + ") shift; " + f + ` "$@" ;;`)
	}
	s.ln(`-h|--help) usage; exit 0 ;;`)
	s.ln(`*) die "unknown command: $1" ;;`)
	s.close("esac")
	s.close("done")
	s.close("}")
	s.ln("")
	s.ln(`main "$@"`)
}

func (s *synth) shFunc() {
	name := snakeCase(s.funcWords())
	s.funcs = append(s.funcs, name)
	s.open(name + "() {")
	s.ln(`local ` + s.snake() + `="${1:-` + s.pick(idNouns) + `}"`)
	for range s.between(3, 8) {
		s.shStmt(0)
	}
	s.close("}")
	s.ln("")
}

func (s *synth) shStmt(nest int) {
	v := s.snake()
	r := s.rng.IntN(9)
	if nest > 0 && r >= 3 && r <= 5 {
		r = 0
	}
	switch r {
	case 0:
		s.ln(`log "` + s.message() + `: ${` + v + `}"`)
	case 1:
		s.ln(v + `=$(curl -fsS -H "Authorization: Bearer ${API_TOKEN}" "${API_URL}/` + s.pick(idNouns) + `s?limit=` + s.number() + `" | jq -r '.items[] | .` + s.camel() + `')`)
	case 2:
		s.ln(`psql "$DATABASE_URL" -v ON_ERROR_STOP=1 -c "UPDATE ` + s.pick(idNouns) + `s SET status = '` + s.pick(idQualifiers) + `' WHERE id = '${` + v + `}'"`)
	case 3:
		s.open(`if [[ -z "${` + v + `:-}" ]]; then`)
		s.shStmt(nest + 1)
		s.ln(`die "` + s.message() + `"`)
		s.close("fi")
	case 4:
		s.open(`for f in "$ROOT"/` + s.pick([]string{"migrations", "testdata", "deploy", "scripts"}) + `/*.` + s.pick([]string{"sql", "json", "yaml", "sh"}) + `; do`)
		s.shStmt(nest + 1)
		s.shStmt(nest + 1)
		s.close("done")
	case 5:
		s.open(`case "${` + v + `}" in`)
		for _, q := range s.pickList(idQualifiers, s.between(2, 4)) {
			s.ln(q + `) ` + strings.ToUpper(s.snake()) + `=` + s.number() + ` ;;`)
		}
		s.ln(`*) die "unexpected ${` + v + `}" ;;`)
		s.close("esac")
	case 6:
		s.ln("# " + s.sentence(v))
	case 7:
		s.ln(`go ` + s.pick([]string{"test -race -count=1", "build -trimpath -o bin/", "vet", "run ./cmd/migrate"}) + ` ./... 2>&1 | tee "$ROOT/.cache/` + v + `.log"`)
	default:
		s.ln(`docker compose ` + s.pick([]string{"up -d", "exec -T db", "logs --tail=200", "restart"}) + ` ` + s.pick([]string{"db", "api", "worker"}))
	}
}

// --- JSON ----------------------------------------------------------------------

func synthJSON(s *synth, path string) {
	base := path[strings.LastIndexByte(path, '/')+1:]
	s.open("{")
	switch base {
	case "package.json":
		s.ln(`"name": "@ledgerline/web",`)
		s.ln(`"version": "1.` + strconv.Itoa(s.between(0, 12)) + `.` + strconv.Itoa(s.between(0, 9)) + `",`)
		s.ln(`"private": true,`)
		s.ln(`"type": "module",`)
		s.jsonObject("scripts", []string{"dev", "build", "test", "lint", "typecheck", "preview", "format", "e2e", "storybook", "coverage"}, func() string {
			return `"` + s.pick([]string{"vite", "vitest run", "tsc --noEmit", "eslint . --max-warnings 0", "prettier --write .", "playwright test"}) + `"`
		}, true)
		s.jsonDeps("dependencies", s.between(10, 20), true)
		s.jsonDeps("devDependencies", s.between(12, 25), false)
	case "tsconfig.json", ".eslintrc.json":
		s.jsonObject("compilerOptions", []string{"target", "module", "moduleResolution", "jsx", "strict", "noUncheckedIndexedAccess",
			"skipLibCheck", "esModuleInterop", "resolveJsonModule", "isolatedModules", "noEmit", "lib", "baseUrl", "types",
			"forceConsistentCasingInFileNames", "noFallthroughCasesInSwitch", "allowImportingTsExtensions", "sourceMap"}, func() string {
			return s.pick([]string{"true", "false", `"ES2022"`, `"bundler"`, `"react-jsx"`, `["DOM", "ES2022"]`, `"."`, `["vitest/globals"]`})
		}, true)
		s.ln(`"include": ["src", "vite.config.ts"],`)
		s.ln(`"exclude": ["node_modules", "dist"]`)
	default:
		for i := 0; i == 0 || !s.full(); i++ {
			if i > 0 {
				s.lines[len(s.lines)-1] += ","
			}
			s.jsonFixture(i)
		}
	}
	s.close("}")
}

// jsonObject writes "name": {key: value, ...} with the given keys.
func (s *synth) jsonObject(name string, keys []string, value func() string, comma bool) {
	s.open(`"` + name + `": {`)
	for i, k := range keys {
		sep := ","
		if i == len(keys)-1 {
			sep = ""
		}
		s.ln(`"` + k + `": ` + value() + sep)
	}
	if comma {
		s.close("},")
	} else {
		s.close("}")
	}
}

func (s *synth) jsonDeps(name string, n int, comma bool) {
	var keys []string
	for range n {
		name := s.pick(idNouns) + "-" + s.pick(idVerbs)
		if s.chance(0.4) {
			name = "@" + s.pick(idNouns) + "/" + s.pick(idVerbs)
		}
		keys = append(keys, name)
	}
	s.jsonObject(name, keys, func() string {
		return fmt.Sprintf(`"^%d.%d.%d"`, s.between(0, 19), s.between(0, 30), s.between(0, 12))
	}, comma)
}

// jsonFixture writes one "<noun>s": [...] member of records with nested
// objects and arrays, the way test fixtures and API captures look.
func (s *synth) jsonFixture(i int) {
	n := s.pick(idNouns)
	if i == 0 {
		n = s.noun
	}
	s.open(`"` + n + `s": [`)
	for k := range s.between(3, 12) {
		if k > 0 {
			s.lines[len(s.lines)-1] += ","
		}
		s.open("{")
		s.ln(fmt.Sprintf(`"id": "%s_%d",`, n[:3], s.between(1000, 99999)))
		s.ln(`"status": "` + s.pick(idQualifiers) + `",`)
		s.ln(`"` + s.camel() + `": ` + strconv.Itoa(s.between(-5, 99999)) + `,`)
		s.ln(fmt.Sprintf(`"createdAt": "2025-%02d-%02dT%02d:%02d:00Z",`, s.between(1, 12), s.between(1, 28), s.between(0, 23), s.between(0, 59)))
		s.open(`"` + s.pick(idNouns) + `": {`)
		s.ln(`"name": "` + s.message() + `",`)
		s.ln(`"enabled": ` + s.pick([]string{"true", "false"}) + `,`)
		s.ln(`"tags": ["` + s.pick(idQualifiers) + `", "` + s.pick(idQualifiers) + `"]`)
		s.close("},")
		s.open(`"lines": [`)
		for j := range s.between(1, 3) {
			if j > 0 {
				s.lines[len(s.lines)-1] += ","
			}
			s.ln(fmt.Sprintf(`{ "description": %q, "qty": %d, "amount": %d, "currency": "%s" }`,
				s.message(), s.between(1, 12), s.between(50, 250000), s.pick([]string{"EUR", "USD", "GBP", "JPY", "CHF"})))
		}
		s.close("],")
		s.ln(`"total": ` + strconv.Itoa(s.between(100, 999999)) + `,`)
		s.ln(`"note": null`)
		s.close("}")
	}
	s.close("]")
}

// --- Markdown --------------------------------------------------------------------

func synthMarkdown(s *synth, path string) {
	title := pascalCase([]string{s.noun}) + " " + s.pick([]string{"service", "architecture", "runbook", "API", "guide"})
	if strings.HasSuffix(path, "CHANGELOG.md") {
		s.mdChangelog()
		return
	}
	s.ln("# " + title)
	s.ln("")
	s.ln(s.prose())
	s.ln("")
	for !s.full() {
		s.ln("## " + pascalCase([]string{s.pick(idVerbs)}) + "ing " + s.pick(idQualifiers) + " " + s.pick(idNouns) + "s")
		s.ln("")
		for range s.between(1, 4) {
			switch s.rng.IntN(6) {
			case 0, 1:
				s.ln(s.prose())
			case 2:
				for range s.between(3, 7) {
					s.ln("- " + s.sentence("`"+s.camel()+"`"))
				}
			case 3:
				s.mdCode()
			case 4:
				s.mdTable()
			default:
				s.ln("### " + pascalCase([]string{s.pick(idNouns)}) + " " + s.pick(idNouns) + "s")
				s.ln("")
				for k := range s.between(2, 5) {
					s.ln(strconv.Itoa(k+1) + ". " + s.sentence("Run `make "+s.pick(idVerbs)+"`"))
				}
			}
			s.ln("")
		}
	}
}

func (s *synth) mdCode() {
	switch s.rng.IntN(4) {
	case 0:
		s.ln("```bash")
		for range s.between(2, 6) {
			s.ln(s.pick([]string{"go test ./...", "docker compose up -d db", "make migrate", "npm --prefix web run dev",
				"curl -s localhost:8080/api/" + s.pick(idNouns) + "s | jq .", "export LEDGER_" + strings.ToUpper(s.snake()) + "=" + s.number()}))
		}
	case 1:
		s.ln("```go")
		s.goStmt(1)
		s.goStmt(1)
	case 2:
		s.ln("```ts")
		s.tsStmt(1)
		s.tsStmt(1)
	default:
		s.ln("```json")
		s.ln(`{ "` + s.camel() + `": ` + s.number() + `, "status": "` + s.pick(idQualifiers) + `" }`)
	}
	s.ln("```")
}

func (s *synth) mdTable() {
	s.ln("| Name | Type | Default | Description |")
	s.ln("|------|------|---------|-------------|")
	for range s.between(3, 8) {
		s.ln("| `" + s.camel() + "` | `" + s.pick(goTypes) + "` | `" + s.number() + "` | " + s.sentence("It") + " |")
	}
}

func (s *synth) mdChangelog() {
	s.ln("# Changelog")
	s.ln("")
	for v := 40; !s.full() && v > 0; v-- {
		s.ln(fmt.Sprintf("## [1.%d.%d] - 2025-%02d-%02d", v/4, v%4, 1+v%12, 1+v%28))
		s.ln("")
		for _, kind := range s.pickList([]string{"Added", "Changed", "Fixed", "Removed"}, s.between(1, 3)) {
			s.ln("### " + kind)
			s.ln("")
			for range s.between(1, 5) {
				s.ln("- " + s.sentence("`"+camelCase(s.funcWords())+"`") + " (#" + strconv.Itoa(s.between(100, 2400)) + ")")
			}
			s.ln("")
		}
	}
}

// --- YAML ------------------------------------------------------------------------

func synthYAML(s *synth, path string) {
	s.ln("# " + s.sentence(path))
	if strings.Contains(path, "workflows/") {
		s.ln("name: " + s.pick(idVerbs))
		s.ln("on:")
		s.ln("  push:")
		s.ln("    branches: [main]")
		s.ln("  pull_request:")
		s.ln("jobs:")
		s.depth++
		for !s.full() {
			s.yamlJob()
		}
		return
	}
	s.ln("version: \"3.9\"")
	for !s.full() {
		s.open(s.snake() + ":")
		for range s.between(2, 4) {
			s.yamlMap(0)
		}
		s.depth--
	}
}

func (s *synth) yamlJob() {
	s.open(s.pick(idVerbs) + "-" + s.pick(idNouns) + ":")
	s.ln("runs-on: ubuntu-latest")
	s.ln("timeout-minutes: " + strconv.Itoa(s.between(5, 45)))
	s.open("steps:")
	s.ln("- uses: actions/checkout@v4")
	for range s.between(3, 8) {
		s.ln("- name: " + pascalCase([]string{s.pick(idVerbs)}) + " " + s.pick(idNouns) + "s")
		if s.chance(0.4) {
			s.ln("  uses: actions/" + s.pick([]string{"setup-go@v5", "setup-node@v4", "cache@v4", "upload-artifact@v4"}))
			s.ln("  with:")
			s.ln("    " + s.pick([]string{"go-version", "node-version", "path", "key"}) + ": " + s.pick([]string{`"1.26"`, "22", "~/.cache/go-build", "${{ runner.os }}-go-${{ hashFiles('**/go.sum') }}"}))
			continue
		}
		s.ln("  run: |")
		for range s.between(1, 4) {
			s.ln("    " + s.pick([]string{"go test -race ./...", "npm ci --prefix web", "npm --prefix web test -- --run",
				"golangci-lint run --timeout 5m", "docker build -t ledgerline:${{ github.sha }} .", "./scripts/ci/lint.sh"}))
		}
	}
	s.depth -= 2
}

// yamlMap writes a key with a nested map, a list or a scalar.
func (s *synth) yamlMap(nest int) {
	key := s.snake()
	switch r := s.rng.IntN(4); {
	case r == 0 && nest < 3:
		s.open(key + ":")
		for range s.between(2, 4) {
			s.yamlMap(nest + 1)
		}
		s.depth--
	case r == 1:
		s.open(key + ":")
		for range s.between(2, 5) {
			s.ln("- " + s.pick([]string{s.pick(idNouns), `"` + s.number() + `"`, "${" + strings.ToUpper(s.snake()) + "}"}))
		}
		s.depth--
	default:
		s.ln(key + ": " + s.pick([]string{s.number(), s.pick(idQualifiers), `"` + s.message() + `"`, "true", "false"}))
	}
}

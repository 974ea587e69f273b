package sessiongen

import (
	"math/rand/v2"
	"strconv"
	"strings"
)

// The code content mode's project: a repository of about 130 files (Go,
// TypeScript, Python, shell, JSON, Markdown, YAML) whose contents are
// synthesized on first use, from the seed and the path, and cached. Edits
// change a file in place (its version goes up), so a later read shows them.

// projectLayout lists the project's files by directory: a language, then
// the file names in that directory.
var projectLayout = []struct {
	dir, lang string
	names     []string
}{
	{"internal/api", "go", []string{"handler.go", "handler_test.go", "middleware.go", "middleware_test.go", "routes.go", "errors.go", "pagination.go", "pagination_test.go", "webhook.go", "webhook_test.go"}},
	{"internal/store", "go", []string{"postgres.go", "postgres_test.go", "cache.go", "cache_test.go", "migrations.go", "queries.go", "tx.go"}},
	{"internal/auth", "go", []string{"token.go", "token_test.go", "session.go", "password.go", "oauth.go"}},
	{"internal/billing", "go", []string{"invoice.go", "invoice_test.go", "tax.go", "tax_test.go", "currency.go", "discount.go", "refund.go", "refund_test.go"}},
	{"internal/config", "go", []string{"config.go", "config_test.go"}},
	{"internal/notify", "go", []string{"email.go", "slack.go", "queue.go", "queue_test.go"}},
	{"internal/ratelimit", "go", []string{"limiter.go", "limiter_test.go"}},
	{"internal/export", "go", []string{"csv.go", "pdf.go", "export_test.go"}},
	{"internal/audit", "go", []string{"log.go", "log_test.go"}},
	{"internal/metrics", "go", []string{"metrics.go"}},
	{"cmd/server", "go", []string{"main.go"}},
	{"cmd/migrate", "go", []string{"main.go"}},
	{"cmd/ledgerctl", "go", []string{"main.go", "commands.go"}},
	{"pkg/money", "go", []string{"money.go", "money_test.go"}},
	{"web/src/components", "ts", []string{"InvoiceTable.tsx", "InvoiceTable.test.tsx", "Pagination.tsx", "CustomerForm.tsx", "CustomerForm.test.tsx", "Dashboard.tsx", "Sidebar.tsx", "Modal.tsx", "DateRangePicker.tsx", "StatusBadge.tsx"}},
	{"web/src/hooks", "ts", []string{"usePagination.ts", "useInvoices.ts", "useDebounce.ts", "useAuth.ts"}},
	{"web/src/api", "ts", []string{"client.ts", "client.test.ts", "types.ts", "invoices.ts", "customers.ts"}},
	{"web/src/lib", "ts", []string{"format.ts", "format.test.ts", "money.ts", "dates.ts", "dates.test.ts", "validation.ts"}},
	{"web/src/store", "ts", []string{"session.ts", "filters.ts"}},
	{"web/src/pages", "ts", []string{"InvoicesPage.tsx", "SettingsPage.tsx", "LoginPage.tsx"}},
	{"web/src", "ts", []string{"App.tsx", "main.tsx"}},
	{"web", "ts", []string{"vite.config.ts"}},
	{"scripts", "python", []string{"backfill.py", "report.py", "reconcile.py", "seed_db.py", "test_backfill.py"}},
	{"scripts/lib", "python", []string{"db.py", "fx.py", "test_fx.py"}},
	{"tools/loadtest", "python", []string{"run.py", "scenarios.py", "test_scenarios.py"}},
	{"scripts", "bash", []string{"release.sh", "dev-db.sh", "gen-certs.sh"}},
	{"scripts/ci", "bash", []string{"lint.sh", "test.sh"}},
	{"deploy", "bash", []string{"rollout.sh"}},
	{"web", "json", []string{"package.json", "tsconfig.json", ".eslintrc.json"}},
	{"web/src/fixtures", "json", []string{"invoices.json", "customers.json"}},
	{"internal/api/testdata", "json", []string{"list_invoices.golden.json"}},
	{"internal/billing/testdata", "json", []string{"tax_rates.json"}},
	{"deploy/dashboards", "json", []string{"latency.json"}},
	{".", "markdown", []string{"README.md", "CHANGELOG.md", "CONTRIBUTING.md"}},
	{"docs", "markdown", []string{"architecture.md", "api.md", "runbook.md"}},
	{"docs/adr", "markdown", []string{"0003-cursor-pagination.md"}},
	{"web", "markdown", []string{"README.md"}},
	{".github/workflows", "yaml", []string{"ci.yml", "release.yml"}},
	{".", "yaml", []string{"docker-compose.yml", ".golangci.yml"}},
	{"deploy/k8s", "yaml", []string{"deployment.yaml", "configmap.yaml"}},
	{"api", "yaml", []string{"openapi.yaml"}},
}

// langWeight is how often a task is about a file of each language.
var langWeight = map[string]int{"go": 40, "ts": 30, "python": 10, "json": 6, "markdown": 6, "bash": 4, "yaml": 4}

// projFile is one file of the project.
type projFile struct {
	srcFile
	lines   []string // nil until first used
	funcs   []string // functions declared in it
	version int      // edits applied
	text    string   // lines joined, "" when stale
	read    bool     // read at least once in the session
}

type project struct {
	seed  uint64
	files []*projFile
	// weighted holds file indices, each repeated by its language's
	// weight over its file count, so that a uniform pick follows langWeight.
	weighted []int
}

func newProject(seed uint64) *project {
	p := &project{seed: seed}
	count := map[string]int{}
	for _, d := range projectLayout {
		for _, n := range d.names {
			path := n
			if d.dir != "." {
				path = d.dir + "/" + n
			}
			p.files = append(p.files, &projFile{srcFile: srcFile{path: path, lang: d.lang}})
			count[d.lang]++
		}
	}
	for i, f := range p.files {
		// Each file appears about 100*weight/count times.
		for range max(1, 100*langWeight[f.lang]/count[f.lang]) {
			p.weighted = append(p.weighted, i)
		}
	}
	return p
}

// file returns file i, synthesizing its content on first use.
func (p *project) file(i int) *projFile {
	f := p.files[i]
	if f.lines == nil {
		f.lines, f.funcs = synthesize(p.seed, f.path, f.lang)
	}
	return f
}

// targetLines is a file's length: most between 80 and 600 lines, some
// up to 1,000, a few up to 1,800 (the sizes of a real project's files).
func targetLines(seed uint64, path, lang string) int {
	r := rand.New(rand.NewPCG(seed^fnv64(path), 7))
	u := r.Float64()
	switch {
	case lang == "markdown" || lang == "bash" || lang == "yaml":
		return 60 + int(340*u*u)
	case r.IntN(100) < 3:
		return 1000 + r.IntN(800)
	case r.IntN(100) < 7:
		return 600 + r.IntN(400)
	}
	return 80 + int(520*u*u)
}

func synthesize(seed uint64, path, lang string) ([]string, []string) {
	unit := map[string]string{"go": "\t", "python": "    "}[lang]
	if unit == "" {
		unit = "  "
	}
	s := newSynth(seed, path, unit, targetLines(seed, path, lang))
	switch lang {
	case "go":
		synthGo(s, path)
	case "ts":
		synthTS(s, path)
	case "python":
		synthPython(s, path)
	case "bash":
		synthShell(s, path)
	case "json":
		synthJSON(s, path)
	case "markdown":
		synthMarkdown(s, path)
	default:
		synthYAML(s, path)
	}
	return s.lines, s.funcs
}

// content is the file's text, as a read shows it.
func (f *projFile) content() string {
	if f.text == "" {
		f.text = strings.Join(f.lines, "\n") + "\n"
	}
	return f.text
}

// fence is the info string of a fenced block of the file's language.
func (f *projFile) fence() string {
	switch {
	case strings.HasSuffix(f.path, ".tsx"):
		return "tsx"
	case f.lang == "bash":
		return "sh"
	}
	return fenceLang(f.lang)
}

// edit is one change to a file: lines [at, at+len(old)) became new.
type edit struct {
	file     *projFile
	at       int // 0-based
	old, new []string
}

// change picks a place in f and a change to make there: a line mutated,
// lines inserted or a line removed, with a few lines around it, the way
// an agent's edit carries enough context to be unique. It does not apply
// it.
func change(rng *rand.Rand, f *projFile) edit {
	n := len(f.lines)
	k := min(n, 3+rng.IntN(10))
	at := rng.IntN(n - k + 1)
	old := f.lines[at : at+k]
	repl := append([]string(nil), old...)
	i := rng.IntN(k)
	switch r := rng.IntN(10); {
	case r < 6 || k < 3:
		for range 1 + rng.IntN(3) {
			j := rng.IntN(k)
			repl[j] = mutateCode(rng, repl[j], f.lang)
		}
	case r < 9:
		indent := repl[i][:len(repl[i])-len(strings.TrimLeft(repl[i], " \t"))]
		add := []string{indent + insertCode(rng, f.lang)}
		if rng.IntN(3) == 0 {
			add = append(add, indent+insertCode(rng, f.lang))
		}
		repl = append(repl[:i+1], append(add, repl[i+1:]...)...)
	default:
		repl = append(repl[:i], repl[i+1:]...)
	}
	return edit{file: f, at: at, old: old, new: repl}
}

// apply makes the change in the file.
func (e edit) apply() {
	f := e.file
	lines := make([]string, 0, len(f.lines)-len(e.old)+len(e.new))
	lines = append(lines, f.lines[:e.at]...)
	lines = append(lines, e.new...)
	lines = append(lines, f.lines[e.at+len(e.old):]...)
	f.lines, f.text = lines, ""
	f.version++
}

// mutateCode changes one line as an edit would: a literal, a name, a
// condition, or a comment added.
func mutateCode(rng *rand.Rand, s, lang string) string {
	t := strings.TrimSpace(s)
	switch {
	case t == "":
		return s + commentFor(lang) + " " + idNouns[rng.IntN(len(idNouns))] + "s are " + idQualifiers[rng.IntN(len(idQualifiers))] + " here"
	case strings.ContainsAny(t, "0123456789") && rng.IntN(2) == 0:
		i := strings.IndexAny(s, "0123456789")
		return s[:i] + strconv.Itoa(rng.IntN(5000)) + s[i+1:]
	case strings.Contains(s, `"`) && rng.IntN(2) == 0:
		i := strings.IndexByte(s, '"')
		return s[:i+1] + idQualifiers[rng.IntN(len(idQualifiers))] + " " + s[i+1:]
	case rng.IntN(2) == 0:
		for _, n := range idNouns {
			if strings.Contains(s, n) {
				return strings.Replace(s, n, idNouns[rng.IntN(len(idNouns))], 1)
			}
		}
	}
	return s + " " + commentFor(lang) + " " + idVerbs[rng.IntN(len(idVerbs))] + " before " + idNouns[rng.IntN(len(idNouns))]
}

// insertCode is a line an edit adds.
func insertCode(rng *rand.Rand, lang string) string {
	n, q := idNouns[rng.IntN(len(idNouns))], idQualifiers[rng.IntN(len(idQualifiers))]
	switch lang {
	case "go":
		return "if " + n + " == nil { return nil, fmt.Errorf(\"" + q + " " + n + ": %w\", errNotFound) }"
	case "ts":
		return "if (!" + n + ") throw new Error(`" + q + " " + n + " missing: ${" + n + "Id}`);"
	case "python":
		return "if " + n + " is None: raise ValueError(f\"" + q + " " + n + " missing: {" + n + "_id}\")"
	case "bash":
		return `[[ -n "${` + strings.ToUpper(n) + `:-}" ]] || die "` + n + ` is ` + q + `"`
	case "json":
		return `"` + q + `": ` + strconv.Itoa(rng.IntN(1000)) + ","
	case "yaml":
		return q + "_" + n + ": " + strconv.Itoa(rng.IntN(1000))
	}
	return "- The " + n + " is " + q + " until the next run."
}

package sessiongen

// Building blocks for realistic-looking session content: a small fictional
// project ("ledgerline", a Go API with a TypeScript front end and Python
// scripts), with source snippets, prompts, shell commands and their output.

type srcFile struct {
	path string
	lang string // go, python, ts, bash, yaml, markdown
}

var projectFiles = []srcFile{
	{"internal/api/handler.go", "go"},
	{"internal/api/handler_test.go", "go"},
	{"internal/api/middleware.go", "go"},
	{"internal/api/routes.go", "go"},
	{"internal/store/postgres.go", "go"},
	{"internal/store/cache.go", "go"},
	{"internal/store/migrations.go", "go"},
	{"internal/auth/token.go", "go"},
	{"internal/auth/token_test.go", "go"},
	{"internal/billing/invoice.go", "go"},
	{"internal/billing/invoice_test.go", "go"},
	{"cmd/server/main.go", "go"},
	{"web/src/components/InvoiceTable.tsx", "ts"},
	{"web/src/components/Pagination.tsx", "ts"},
	{"web/src/api/client.ts", "ts"},
	{"web/src/hooks/usePagination.ts", "ts"},
	{"web/src/lib/format.ts", "ts"},
	{"web/src/lib/format.test.ts", "ts"},
	{"scripts/backfill.py", "python"},
	{"scripts/report.py", "python"},
	{"tools/loadtest/run.py", "python"},
	{"scripts/release.sh", "bash"},
	{"scripts/dev-db.sh", "bash"},
	{".github/workflows/ci.yml", "yaml"},
	{"docker-compose.yml", "yaml"},
	{"README.md", "markdown"},
}

var dirs = []string{".", "internal", "internal/api", "internal/store", "internal/auth", "internal/billing",
	"cmd/server", "web/src", "web/src/components", "scripts", "tools/loadtest"}

var funcNames = []string{"ListInvoices", "CreateInvoice", "parseCursor", "withTimeout", "Authenticate",
	"refreshToken", "applyMigrations", "formatAmount", "usePagination", "fetchPage", "backfill_invoices",
	"render_report", "NewServer", "rateLimit", "scanInvoice", "VerifySignature", "Close", "handleWebhook"}

var errorLines = []string{
	"panic: runtime error: invalid memory address or nil pointer dereference",
	"--- FAIL: TestListInvoices/cursor_past_end (0.00s)\n    handler_test.go:88: got 500, want 200",
	"pq: duplicate key value violates unique constraint \"invoices_number_key\"",
	"TypeError: Cannot read properties of undefined (reading 'items')",
	"context deadline exceeded (Client.Timeout exceeded while awaiting headers)",
	"KeyError: 'customer_id'",
	"error TS2322: Type 'string | undefined' is not assignable to type 'string'.",
	"http: superfluous response.WriteHeader call from ledgerline/internal/api.(*Server).ListInvoices (handler.go:61)",
	"WARNING: DATA RACE\nWrite at 0x00c0001a4018 by goroutine 23:\n  ledgerline/internal/store.(*Cache).Put()",
}

var userPrompts = []string{
	"The `{func}` endpoint returns a 500 when the cursor points past the last page. Can you find out why and fix it?",
	"Please add table-driven tests for `{func}` in `{file}`. Cover the empty case and the error paths.",
	"Refactor `{file}` so the database access goes through the `Store` interface instead of `*sql.DB` directly.",
	"CI is red on main. Here's the failure:",
	"Can you explain what `{func}` does and whether it's safe to call concurrently?",
	"Add a `--dry-run` flag to `scripts/backfill.py` that prints what would change without writing.",
	"The invoice table flickers when switching pages. Look at `{file}` and the pagination hook.",
	"Let's bump the request timeout to 15s and make it configurable via `LEDGER_TIMEOUT`.",
	"Run the test suite and fix whatever fails. Don't change test expectations unless they're clearly wrong.",
	"I think `{func}` leaks a goroutine when the client disconnects. Can you confirm?",
	"Write a short section for the README on how to run the service locally with docker compose.",
	"Rename `{func}` to something clearer and update all call sites.",
	"Why does `go vet` complain about `{file}`?",
	"Make `formatAmount` handle negative values and currencies with 0 or 3 decimal places.",
	"Looks good. Now commit this with a sensible message.",
	"Hmm, that broke the TypeScript build. Please fix:",
	"Add structured logging (slog) to the request middleware: method, path, status, duration.",
	"Can we cache the customer lookup in `{file}`? It's called on every request.",
	"continue",
	"Revert the last change, I'd rather keep the old behaviour and just document it.",
}

var requirementBullets = []string{
	"keep the public API unchanged",
	"no new dependencies",
	"add a regression test",
	"make sure `go test -race ./...` passes",
	"update the docs if behaviour changes",
	"keep the diff small",
	"handle the `nil` case explicitly",
	"log at debug level, not info",
	"it has to work with Postgres 14",
	"preserve the existing error messages, clients match on them",
}

var thinkingSentences = []string{
	"The user wants me to look at {func} in {file}.",
	"Let me first read the file to understand the current structure before changing anything.",
	"The cursor is decoded from base64 and then used as an offset, so an out-of-range value probably falls through to the query.",
	"If the query returns zero rows we still dereference rows[len(rows)-1], which would panic.",
	"I should check how the tests construct the server; they might use httptest with a fake store.",
	"There are two call sites, so renaming is cheap.",
	"Running the full suite takes a while; start with the package that changed.",
	"The error mentions a unique constraint, so the backfill must be inserting duplicates on retry.",
	"A simpler fix is to clamp the offset instead of erroring.",
	"I need to be careful not to change the JSON shape, the front end depends on it.",
	"The race is between Put and the eviction loop; both touch the map without holding the mutex.",
	"Maybe the timeout is set on the transport but the context overrides it.",
	"OK, the diff is minimal. Now run the tests again.",
	"The TypeScript error is because the optional chaining result can be undefined.",
	"I'll use a table-driven test with subtests so failures are easy to read.",
	"That grep shows the function is also used by the webhook handler, I need to update it too.",
}

var assistantIntros = []string{
	"I found the problem: `{func}` doesn't handle an empty result page, so it indexes past the end of the slice.",
	"Done. The tests pass now and `go vet` is clean.",
	"Here's what I changed in `{file}`:",
	"The failure comes from `{func}`: the context is cancelled before the query finishes.",
	"Good catch. `{func}` is not safe for concurrent use because the cache map is written without a lock.",
	"I added the tests. Two of them failed at first, which uncovered a real bug in the error path.",
	"The build is green again.",
	"Short answer: yes, there's a leak. The goroutine blocks on the channel send after the client goes away.",
	"I've refactored `{file}` to depend on the `Store` interface.",
	"Everything is committed on the current branch.",
}

var bulletPoints = []string{
	"return an empty page instead of a 500 when the cursor is past the end",
	"added `TestListInvoices/cursor_past_end` as a regression test",
	"moved the timeout into `Config.RequestTimeout` (default 15s)",
	"`LEDGER_TIMEOUT` overrides it; invalid values are rejected at startup",
	"the cache now holds `mu` for both reads and writes",
	"removed the unused `legacyCursor` helper",
	"the front end treats a missing `nextCursor` as the last page",
	"`formatAmount(-1250, \"EUR\")` now renders `-€12.50`",
	"updated the README with the new environment variable",
	"ran `go test -race ./...`: all packages pass",
	"`backfill.py --dry-run` prints one line per invoice it would touch",
	"no changes to the public API",
}

var closings = []string{
	"Let me know if you want me to also add a metric for this.",
	"Want me to open a PR?",
	"I didn't touch the migrations.",
	"The remaining warning is unrelated (it's in generated code).",
	"Next step could be to add a benchmark for the hot path.",
}

var codeGo = []string{
	`func (s *Server) ListInvoices(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.RequestTimeout)
	defer cancel()

	cursor, err := parseCursor(r.URL.Query().Get("cursor"))
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid cursor")
		return
	}
	page, err := s.store.ListInvoices(ctx, cursor, pageSize)
	if err != nil {
		s.log.Error("list invoices", "err", err)
		writeError(w, http.StatusInternalServerError, "internal error")
		return
	}
	writeJSON(w, http.StatusOK, page)
}`,
	`func parseCursor(raw string) (int64, error) {
	if raw == "" {
		return 0, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(raw)
	if err != nil {
		return 0, fmt.Errorf("decode cursor: %w", err)
	}
	n, err := strconv.ParseInt(string(b), 10, 64)
	if err != nil || n < 0 {
		return 0, errors.New("cursor out of range")
	}
	return n, nil
}`,
	`type Cache struct {
	mu    sync.Mutex
	items map[string]cacheItem
	ttl   time.Duration
}

func (c *Cache) Get(key string) (Customer, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	it, ok := c.items[key]
	if !ok || time.Now().After(it.expires) {
		return Customer{}, false
	}
	return it.value, true
}`,
	`func TestListInvoices(t *testing.T) {
	tests := []struct {
		name   string
		cursor string
		want   int
	}{
		{"first page", "", http.StatusOK},
		{"bad cursor", "%%%", http.StatusBadRequest},
		{"cursor past end", encodeCursor(10_000), http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newTestServer(t, fakeStore{invoices: sampleInvoices(25)})
			rec := httptest.NewRecorder()
			srv.ServeHTTP(rec, httptest.NewRequest("GET", "/invoices?cursor="+tt.cursor, nil))
			if rec.Code != tt.want {
				t.Fatalf("status = %d, want %d", rec.Code, tt.want)
			}
		})
	}
}`,
	`func Logging(log *slog.Logger) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			start := time.Now()
			sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
			next.ServeHTTP(sw, r)
			log.Info("request", "method", r.Method, "path", r.URL.Path,
				"status", sw.status, "duration", time.Since(start))
		})
	}
}`,
	`func main() {
	cfg, err := config.Load()
	if err != nil {
		log.Fatalf("config: %v", err)
	}
	db, err := store.Open(cfg.DatabaseURL)
	if err != nil {
		log.Fatalf("open db: %v", err)
	}
	defer db.Close()
	srv := api.NewServer(cfg, db, slog.Default())
	log.Printf("listening on %s", cfg.Addr)
	log.Fatal(http.ListenAndServe(cfg.Addr, srv))
}`,
	`if len(rows) == 0 {
		return Page{Items: []Invoice{}}, nil
	}
	last := rows[len(rows)-1]
	return Page{Items: rows, NextCursor: encodeCursor(last.ID)}, nil`,
}

var codePython = []string{
	`def backfill_invoices(conn, since: date, dry_run: bool = False) -> int:
    """Recompute totals for invoices created since ` + "`since`" + `."""
    changed = 0
    with conn.cursor() as cur:
        cur.execute("SELECT id, lines FROM invoices WHERE created_at >= %s", (since,))
        for invoice_id, lines in cur.fetchall():
            total = sum(line["amount"] * line["qty"] for line in lines)
            if dry_run:
                print(f"would update {invoice_id}: total={total}")
            else:
                cur.execute("UPDATE invoices SET total = %s WHERE id = %s", (total, invoice_id))
            changed += 1
    return changed`,
	`def main() -> None:
    parser = argparse.ArgumentParser(description="Backfill invoice totals")
    parser.add_argument("--since", type=date.fromisoformat, required=True)
    parser.add_argument("--dry-run", action="store_true")
    args = parser.parse_args()
    with psycopg.connect(os.environ["DATABASE_URL"]) as conn:
        n = backfill_invoices(conn, args.since, dry_run=args.dry_run)
    print(f"{n} invoices {'would be ' if args.dry_run else ''}updated")`,
	`def render_report(rows: list[dict]) -> str:
    by_customer = defaultdict(int)
    for row in rows:
        by_customer[row["customer_id"]] += row["total"]
    lines = ["| customer | total |", "|---|---:|"]
    for customer, total in sorted(by_customer.items(), key=lambda kv: -kv[1]):
        lines.append(f"| {customer} | {total / 100:.2f} |")
    return "\n".join(lines)`,
	`async def hammer(session, url, n):
    latencies = []
    for _ in range(n):
        start = time.perf_counter()
        async with session.get(url) as resp:
            await resp.read()
            assert resp.status == 200, resp.status
        latencies.append(time.perf_counter() - start)
    return latencies`,
}

var codeTS = []string{
	`export function usePagination<T>(fetchPage: (cursor?: string) => Promise<Page<T>>) {
  const [items, setItems] = useState<T[]>([]);
  const [cursor, setCursor] = useState<string | undefined>();
  const [loading, setLoading] = useState(false);

  const next = useCallback(async () => {
    setLoading(true);
    try {
      const page = await fetchPage(cursor);
      setItems(page.items);
      setCursor(page.nextCursor ?? undefined);
    } finally {
      setLoading(false);
    }
  }, [cursor, fetchPage]);

  return { items, loading, next, hasMore: cursor !== undefined };
}`,
	`export function formatAmount(cents: number, currency: string): string {
  const digits = CURRENCY_DIGITS[currency] ?? 2;
  const value = Math.abs(cents) / 10 ** digits;
  const formatted = new Intl.NumberFormat("en-US", {
    style: "currency",
    currency,
    minimumFractionDigits: digits,
  }).format(value);
  return cents < 0 ? "-" + formatted : formatted;
}`,
	`export async function listInvoices(cursor?: string): Promise<Page<Invoice>> {
  const url = new URL("/api/invoices", window.location.origin);
  if (cursor) url.searchParams.set("cursor", cursor);
  const res = await fetch(url, { headers: { Accept: "application/json" } });
  if (!res.ok) {
    throw new ApiError(res.status, await res.text());
  }
  return (await res.json()) as Page<Invoice>;
}`,
	`export function InvoiceTable({ invoices, loading }: Props) {
  if (loading && invoices.length === 0) return <Spinner />;
  return (
    <table className="invoices">
      <thead>
        <tr><th>Number</th><th>Customer</th><th>Total</th></tr>
      </thead>
      <tbody>
        {invoices.map((inv) => (
          <tr key={inv.id}>
            <td>{inv.number}</td>
            <td>{inv.customerName}</td>
            <td>{formatAmount(inv.total, inv.currency)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}`,
}

var codeBash = []string{
	`#!/usr/bin/env bash
set -euo pipefail

docker compose up -d db
until pg_isready -h localhost -p 5432 >/dev/null 2>&1; do
  sleep 0.5
done
go run ./cmd/server -migrate`,
	`version=$(git describe --tags --abbrev=0)
next=$(echo "$version" | awk -F. '{printf "%s.%s.%d", $1, $2, $3+1}')
git tag -a "$next" -m "release $next"
git push origin "$next"`,
	`go test -race -count=1 ./...
(cd web && npm ci && npm test -- --run)`,
}

var codeYAML = []string{
	`jobs:
  test:
    runs-on: ubuntu-latest
    services:
      postgres:
        image: postgres:16
        env:
          POSTGRES_PASSWORD: postgres
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-go@v5
        with:
          go-version: "1.26"
      - run: go test -race ./...`,
	`services:
  db:
    image: postgres:16
    ports: ["5432:5432"]
    environment:
      POSTGRES_PASSWORD: postgres
  api:
    build: .
    depends_on: [db]
    environment:
      DATABASE_URL: postgres://postgres:postgres@db:5432/ledger?sslmode=disable`,
}

var codeMarkdown = []string{
	"## Running locally\n\n```bash\ndocker compose up -d db\ngo run ./cmd/server\n```\n\nThe API listens on `:8080`. Set `LEDGER_TIMEOUT` to change the request timeout (default `15s`).",
	"# ledgerline\n\nInvoice API and dashboard.\n\n| Path | What |\n|------|------|\n| `cmd/server` | HTTP server |\n| `internal/api` | handlers and middleware |\n| `web/` | React dashboard |",
}

func codeFor(lang string) []string {
	switch lang {
	case "go":
		return codeGo
	case "python":
		return codePython
	case "ts":
		return codeTS
	case "bash":
		return codeBash
	case "yaml":
		return codeYAML
	default:
		return codeMarkdown
	}
}

func fenceLang(lang string) string {
	switch lang {
	case "ts":
		return "typescript"
	case "markdown":
		return "md"
	}
	return lang
}

var fileHeaders = map[string]string{
	"go":       "package api\n\nimport (\n\t\"context\"\n\t\"encoding/base64\"\n\t\"errors\"\n\t\"fmt\"\n\t\"log/slog\"\n\t\"net/http\"\n\t\"strconv\"\n\t\"time\"\n)\n\n",
	"python":   "#!/usr/bin/env python3\n\"\"\"Maintenance script for the ledger database.\"\"\"\nimport argparse\nimport os\nfrom collections import defaultdict\nfrom datetime import date\n\nimport psycopg\n\n\n",
	"ts":       "import { useCallback, useState } from \"react\";\nimport type { Invoice, Page } from \"../api/types\";\nimport { formatAmount } from \"../lib/format\";\n\n",
	"bash":     "",
	"yaml":     "name: ci\non:\n  push:\n    branches: [main]\n  pull_request:\n\n",
	"markdown": "",
}

type shellCmd struct {
	cmd    string
	output []string // one is picked
	fail   float64  // probability of a failing run
	errOut string
}

var shellCmds = []shellCmd{
	{cmd: "go test ./...", output: []string{
		"ok  \tledgerline/internal/api\t0.412s\nok  \tledgerline/internal/auth\t0.031s\nok  \tledgerline/internal/billing\t0.087s\n?   \tledgerline/cmd/server\t[no test files]\nok  \tledgerline/internal/store\t1.204s",
	}, fail: 0.3, errOut: "--- FAIL: TestListInvoices (0.01s)\n    --- FAIL: TestListInvoices/cursor_past_end (0.00s)\n        handler_test.go:88: status = 500, want 200\nFAIL\nFAIL\tledgerline/internal/api\t0.388s\nok  \tledgerline/internal/auth\t0.029s\nFAIL"},
	{cmd: "go test -race -count=1 ./internal/store/...", output: []string{"ok  \tledgerline/internal/store\t2.811s"}, fail: 0.2,
		errOut: "==================\nWARNING: DATA RACE\nWrite at 0x00c0001a4018 by goroutine 23:\n  runtime.mapassign_faststr()\n  ledgerline/internal/store.(*Cache).Put()\n      /home/dev/src/ledgerline/internal/store/cache.go:41 +0x8c\n\nPrevious read at 0x00c0001a4018 by goroutine 19:\n  ledgerline/internal/store.(*Cache).evict()\n      /home/dev/src/ledgerline/internal/store/cache.go:63 +0x64\n==================\n--- FAIL: TestCacheConcurrent (0.02s)\n    testing.go:1490: race detected during execution of test\nFAIL"},
	{cmd: "go vet ./...", output: []string{""}, fail: 0.2, errOut: "# ledgerline/internal/api\ninternal/api/handler.go:58:3: the cancel function returned by context.WithTimeout should be called, not discarded, to avoid a context leak"},
	{cmd: "go build ./... && echo ok", output: []string{"ok"}, fail: 0.1, errOut: "# ledgerline/internal/api\ninternal/api/routes.go:22:18: undefined: s.listInvoices"},
	{cmd: "git status --short", output: []string{" M internal/api/handler.go\n M internal/api/handler_test.go\n?? internal/api/testdata/", " M web/src/lib/format.ts\n M web/src/lib/format.test.ts"}},
	{cmd: "git diff --stat", output: []string{" internal/api/handler.go      | 14 ++++++++++----\n internal/api/handler_test.go | 23 +++++++++++++++++++++++\n 2 files changed, 33 insertions(+), 4 deletions(-)"}},
	{cmd: "git log --oneline -5", output: []string{"a41c9e2 (HEAD -> main) api: return empty page for out-of-range cursor\n7d02b18 web: debounce pagination clicks\n0c93f5a store: add customer cache\n9e1d7a4 ci: run tests with -race\n5b8f210 billing: round half to even"}},
	{cmd: "cd web && npm test -- --run", output: []string{"\n RUN  v1.6.0 /home/dev/src/ledgerline/web\n\n ✓ src/lib/format.test.ts  (9 tests) 12ms\n ✓ src/hooks/usePagination.test.ts  (4 tests) 31ms\n\n Test Files  2 passed (2)\n      Tests  13 passed (13)\n   Duration  1.02s"}, fail: 0.25,
		errOut: "\n FAIL  src/lib/format.test.ts > formatAmount > negative values\nAssertionError: expected '€-12.50' to be '-€12.50'\n ❯ src/lib/format.test.ts:21:41\n\n Test Files  1 failed | 1 passed (2)\n      Tests  1 failed | 12 passed (13)"},
	{cmd: "cd web && npx tsc --noEmit", output: []string{""}, fail: 0.3, errOut: "src/components/InvoiceTable.tsx(31,17): error TS2322: Type 'string | undefined' is not assignable to type 'string'.\n  Type 'undefined' is not assignable to type 'string'."},
	{cmd: "python3 scripts/backfill.py --since 2025-12-01 --dry-run", output: []string{"would update inv_8812: total=129900\nwould update inv_8813: total=4500\nwould update inv_8820: total=77025\n3 invoices would be updated"}, fail: 0.15, errOut: "Traceback (most recent call last):\n  File \"/home/dev/src/ledgerline/scripts/backfill.py\", line 48, in <module>\n    main()\n  File \"/home/dev/src/ledgerline/scripts/backfill.py\", line 22, in backfill_invoices\n    total = sum(line[\"amount\"] * line[\"qty\"] for line in lines)\nKeyError: 'qty'"},
	{cmd: "curl -s -i localhost:8080/healthz", output: []string{"HTTP/1.1 200 OK\nContent-Type: application/json\nDate: Thu, 15 Jan 2026 09:41:12 GMT\nContent-Length: 15\n\n{\"status\":\"ok\"}"}},
	{cmd: "curl -s 'localhost:8080/api/invoices?cursor=MTAwMDA' | jq .", output: []string{"{\n  \"items\": [],\n  \"nextCursor\": null\n}"}, fail: 0.3, errOut: "{\n  \"error\": \"internal error\"\n}"},
	{cmd: "docker compose ps", output: []string{"NAME              IMAGE         COMMAND                  SERVICE   STATUS         PORTS\nledgerline-db-1   postgres:16   \"docker-entrypoint.s…\"   db        Up 2 minutes   0.0.0.0:5432->5432/tcp"}},
	{cmd: "make lint", output: []string{"golangci-lint run ./...\n0 issues."}, fail: 0.3, errOut: "golangci-lint run ./...\ninternal/store/cache.go:63:2: ineffectual assignment to expired (ineffassign)\n\texpired := 0\n\t^\n1 issues:\n* ineffassign: 1\nmake: *** [Makefile:14: lint] Error 1"},
	{cmd: "rg -n 'TODO|FIXME' --type go", output: []string{"internal/store/cache.go:12:// TODO: bound the cache size\ninternal/api/handler.go:73:\t// FIXME: cursor should be opaque\ninternal/billing/invoice.go:140:\t// TODO(ana): multi-currency totals"}},
}

var grepPatterns = []string{"parseCursor", "func .*Invoice", "RequestTimeout", "TODO", "useState<", "def backfill", "ctx.Done()", "sync.Mutex", "LEDGER_", "writeError\\("}

var findPatterns = []string{"*.go", "*_test.go", "*.tsx", "*.py", "*.sql", "*.yml"}

var bashUserCmds = []string{"git status", "go test ./internal/api/", "ls -la", "git log --oneline -3", "make lint", "docker compose ps", "git diff --stat", "go version"}

var labelNames = []string{"checkpoint", "before-refactor", "tests-green", "bug-repro", "good-baseline", "wip", "review-me", "perf-fix", "try-2", "keep"}

var sessionNames = []string{"Fix cursor pagination 500", "Invoice API: timeouts and logging", "ledgerline cleanup", "Cache race + tests", "Backfill script dry-run"}

var summaryGoals = []string{
	"Fix the 500 returned by `GET /api/invoices` when the cursor points past the last page.",
	"Make the request timeout configurable and add structured request logging.",
	"Remove the data race in the customer cache and add a concurrency test.",
	"Add a `--dry-run` mode to the backfill script.",
	"Get CI green again (Go tests, TypeScript build, lint).",
}

type model struct {
	api, provider, id                string
	pIn, pOut, pCacheRead, pCacheWrt float64 // $ per million tokens
	signs                            bool    // thinking blocks carry a signature
}

var models = []model{
	{"anthropic-messages", "anthropic", "claude-sonnet-4-5", 3, 15, 0.3, 3.75, true},
	{"anthropic-messages", "anthropic", "claude-opus-4-5", 5, 25, 0.5, 6.25, true},
	{"openai-responses", "openai", "gpt-5.1-codex", 1.25, 10, 0.125, 0, false},
	{"google-generative-ai", "google", "gemini-2.5-pro", 1.25, 10, 0.31, 0, false},
}

var thinkingLevels = []string{"off", "minimal", "low", "medium", "high", "xhigh"}

var errorMessages = []string{
	`529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`,
	"terminated",
	`429 {"type":"error","error":{"type":"rate_limit_error","message":"This request would exceed the rate limit for your organization of 30,000 input tokens per minute."}}`,
	"fetch failed: ECONNRESET",
	"Provider returned error: 500 Internal Server Error",
}

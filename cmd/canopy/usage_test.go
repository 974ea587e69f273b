package main

import (
	"encoding/json"
	"html"
	"math"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"canopy/internal/text"
	"canopy/sessiontree"
	spending "canopy/usage"
)

// usageReport is canopy usage --json, as a script reads it.
type usageReport struct {
	By   string     `json:"by"`
	Rows []usageRow `json:"rows"`
	// Total is every row's sum.
	Total  usageRow `json:"total"`
	Copies int      `json:"copies"`
}

type usageRow struct {
	Key               string
	Sessions, Replies int
	Input             float64 `json:"inputTokens"`
	Output            float64 `json:"outputTokens"`
	CacheRead         float64 `json:"cacheReadTokens"`
	CacheWrite        float64 `json:"cacheWriteTokens"`
	Tokens            float64 `json:"totalTokens"`
	Cost              *float64
}

func runUsageJSON(t *testing.T, args ...string) usageReport {
	t.Helper()
	code, out, errs := canopy(t, nil, append([]string{"usage", "--json"}, args...)...)
	if code != 0 || errs != "" {
		t.Fatalf("canopy usage %v: exit %d: %s", args, code, errs)
	}
	var rep usageReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return rep
}

// independent sums each session's figures as the page computes them:
// Session.Stats over all its entries.
func independent(t *testing.T, files ...string) (tokens, cost float64) {
	t.Helper()
	for _, f := range files {
		s, err := sessiontree.LoadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		st := s.Stats(s.Entries)
		u := st.Usage
		tokens += u.Input + u.Output + u.CacheRead + u.CacheWrite
		cost += st.Cost().USD
		s.Close()
	}
	return tokens, cost
}

func TestUsageAgreesWithStats(t *testing.T) {
	h := listHome(t)
	files := []string{
		".claude/projects/-work-p/7f3c2a10-5b6e-4c1d-9a2f-1e0b3c4d5e6f.jsonl",
		".claude/projects/-work-p/agent-a1b2c3.jsonl", // a subagent spends too
		".codex/sessions/2026/03/03/rollout-2026-03-03T09-00-00-0199a213-81c0-7800-8aa1-bbab2a035a53.jsonl",
		".pi/agent/sessions/--home-maya-src-linkstash--/2026-03-02T09-12-04-318Z_019cadd2-7c1e-7a4b-9f3d-2b8e51c04a67.jsonl",
		// and copy.jsonl, the same bytes: counted once
	}
	for i := range files {
		files[i] = filepath.Join(h, files[i])
	}
	wantTokens, wantCost := independent(t, files...)
	if wantTokens == 0 || wantCost == 0 {
		t.Fatalf("the test sessions spend nothing: %v tokens, $%v", wantTokens, wantCost)
	}
	for _, by := range []string{"day", "project", "agent", "model"} {
		rep := runUsageJSON(t, "--by", by)
		if rep.By != by || rep.Copies != 1 {
			t.Errorf("--by %s: by %q, %d copies; want 1 copy (copy.jsonl)", by, rep.By, rep.Copies)
		}
		if rep.Total.Tokens != wantTokens || rep.Total.Cost == nil || !near(*rep.Total.Cost, wantCost) {
			t.Errorf("--by %s: total %v tokens, cost %v; the sessions' Stats say %v tokens, $%v", by, rep.Total.Tokens, rep.Total.Cost, wantTokens, wantCost)
		}
		// The rows add up to the total.
		var tokens, cost float64
		for _, r := range rep.Rows {
			tokens += r.Tokens
			if r.Cost != nil {
				cost += *r.Cost
			}
			if r.Tokens != r.Input+r.Output+r.CacheRead+r.CacheWrite {
				t.Errorf("--by %s: row %q: total tokens %v is not the sum of its kinds", by, r.Key, r.Tokens)
			}
		}
		if tokens != wantTokens || !near(cost, wantCost) {
			t.Errorf("--by %s: rows sum to %v tokens, $%v; want %v, $%v", by, tokens, cost, wantTokens, wantCost)
		}
	}
	keys := func(rep usageReport) string {
		var k []string
		for _, r := range rep.Rows {
			k = append(k, r.Key)
		}
		return strings.Join(k, ",")
	}
	if got := keys(runUsageJSON(t, "--by", "agent")); got != "pi,claude-code,codex" {
		t.Errorf("agents %q, want pi,claude-code,codex (costliest first)", got)
	}
	if got := keys(runUsageJSON(t, "--by", "day")); got != "2026-03-02,2026-03-03" {
		t.Errorf("days %q", got)
	}
	if got := keys(runUsageJSON(t, "--by", "project")); got != "/home/maya/src/linkstash,/work/p" {
		t.Errorf("projects %q", got)
	}
	// A DIR names where to look; a home stands for its stores.
	if rep := runUsageJSON(t, h, "--by", "agent"); rep.Total.Tokens != wantTokens {
		t.Errorf("canopy usage HOME: %v tokens, want %v", rep.Total.Tokens, wantTokens)
	}
}

func TestUsageSince(t *testing.T) {
	h := listHome(t)
	codex := filepath.Join(h, ".codex/sessions/2026/03/03/rollout-2026-03-03T09-00-00-0199a213-81c0-7800-8aa1-bbab2a035a53.jsonl")
	wantTokens, wantCost := independent(t, codex) // the only session that spent on the 3rd
	rep := runUsageJSON(t, "--since", "2026-03-03", "--by", "agent")
	if len(rep.Rows) != 1 || rep.Rows[0].Key != "codex" || rep.Total.Tokens != wantTokens || !near(*rep.Total.Cost, wantCost) {
		t.Errorf("--since 2026-03-03: %+v; want codex alone, %v tokens, $%v", rep.Rows, wantTokens, wantCost)
	}
	if rep := runUsageJSON(t, "--since", "2030-01-01"); len(rep.Rows) != 0 || rep.Total.Tokens != 0 {
		t.Errorf("--since after everything: %+v", rep)
	}
	// An RFC 3339 time cuts within a day: replies at or after it.
	all := runUsageJSON(t, "--by", "day")
	part := runUsageJSON(t, "--by", "day", "--since", "2026-03-02T12:00:00Z")
	if part.Total.Tokens <= 0 || part.Total.Tokens >= all.Total.Tokens {
		t.Errorf("--since noon: %v tokens of %v", part.Total.Tokens, all.Total.Tokens)
	}
}

func TestUsageTable(t *testing.T) {
	listHome(t)
	code, out, errs := canopy(t, nil, "usage", "--by", "model")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if !strings.HasPrefix(lines[0], "MODEL ") || !strings.Contains(lines[0], "TOTAL TOKENS") {
		t.Errorf("heading %q", lines[0])
	}
	for _, want := range []string{"anthropic/claude-opus-4-5 ", "openai/gpt-5-codex ", "(no model named) ", "TOTAL ", "≈ estimated", "1 file is a copy"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
}

func TestUsageMistakes(t *testing.T) {
	listHome(t)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--by", "week"}, exitUsage, `--by "week": want day, project, agent or model`},
		{[]string{"--since", "yesterday"}, exitUsage, `--since: "yesterday" is not a date`},
		{[]string{"/no/such/dir"}, exitFail, "/no/such/dir: no such file or directory"},
	} {
		code, _, errs := canopy(t, nil, append([]string{"usage"}, c.args...)...)
		if code != c.code || !strings.Contains(errs, c.want) {
			t.Errorf("usage %v: exit %d, %q; want %d, %q", c.args, code, errs, c.code, c.want)
		}
	}
	// A directory with no sessions: an empty report, said on stderr.
	code, out, errs := canopy(t, nil, "usage", t.TempDir())
	if code != 0 || !strings.Contains(errs, "no sessions in") || !strings.Contains(out, "TOTAL") {
		t.Errorf("empty directory: exit %d, %q, %q", code, out, errs)
	}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// TestArchiveUsagePageAgrees: the archive's usage page shows, in each of
// its tables, the rows canopy usage prints for the same home.
func TestArchiveUsagePageAgrees(t *testing.T) {
	h := listHome(t)
	out := filepath.Join(t.TempDir(), "archive")
	if code, _, errs := canopy(t, nil, "archive", h, "-o", out, "--quiet"); code != 0 {
		t.Fatalf("archive: exit %d: %s", code, errs)
	}
	page := string(mustRead(t, filepath.Join(out, "usage.html")))
	if index := string(mustRead(t, filepath.Join(out, "index.html"))); !strings.Contains(index, `<a href="usage.html">`) {
		t.Error("the index does not link to the usage page")
	}
	for _, by := range []string{"day", "project", "agent", "model"} {
		code, js, errs := canopy(t, nil, "usage", h, "--json", "--by", by)
		if code != 0 {
			t.Fatalf("usage --by %s: exit %d: %s", by, code, errs)
		}
		var rep spending.Report
		if err := json.Unmarshal([]byte(js), &rep); err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, r := range append(rep.Rows, rep.Total) {
			key := text.Or(r.Key, map[bool]string{true: "Total", false: spending.By(by).None()}[len(want) == len(rep.Rows)])
			want = append(want, strings.Join([]string{key, text.Thousands(float64(r.Sessions)), text.Thousands(float64(r.Replies)),
				text.Thousands(r.Input), text.Thousands(r.Output), text.Thousands(r.CacheRead), text.Thousands(r.CacheWrite),
				text.Thousands(r.Tokens), r.CostText()}, " | "))
		}
		got := usageTable(t, page, by)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("--by %s: the usage page's table\n%s\nthe command's rows\n%s", by, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

// usageTable reads the rows of the usage page's table by the dimension:
// each row's cells, joined with " | ".
func usageTable(t *testing.T, page, by string) []string {
	t.Helper()
	start := strings.Index(page, `<section id="by-`+by+`"`)
	if start < 0 {
		t.Fatalf("no section by-%s", by)
	}
	sec := page[start:]
	sec = sec[strings.Index(sec, "<tbody>"):strings.Index(sec, "</table>")]
	var rows []string
	for _, tr := range strings.Split(sec, "<tr>")[1:] {
		var cells []string
		for _, c := range cellRE.FindAllStringSubmatch(tr, -1) {
			cells = append(cells, html.UnescapeString(c[1]))
		}
		rows = append(rows, strings.Join(cells, " | "))
	}
	return rows
}

var cellRE = regexp.MustCompile(`<t[hd][^>]*>([^<]*)</t[hd]>`)

// TestUsageKeyCut: a name the session chose (a model, a project) is cut
// in the table, so that one of a thousand characters leaves the numbers
// on the screen.
func TestUsageKeyCut(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"openai/gpt-5", "openai/gpt-5"},
		{strings.Repeat("é", 60), strings.Repeat("é", maxKeyWidth-1) + "…"},
	} {
		if got := cellText(c.in, maxKeyWidth); got != c.want {
			t.Errorf("cellText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

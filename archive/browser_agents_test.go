package archive

import (
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"canopy/internal/browsertest"
)

// TestBrowserIndexAgents: in the index of an archive of Claude Code's
// and Codex's sessions, a search that finds a subagent shows it with what
// ran it, sorting keeps subagents under their session, and axe-core finds
// no serious or critical violation (when it is installed).
func TestBrowserIndexAgents(t *testing.T) {
	// Found before the test changes directory.
	axePath, err := filepath.Abs("../tools/axe/node_modules/axe-core/axe.min.js")
	if err != nil {
		t.Fatal(err)
	}
	var browser browsertest.Shared
	t.Cleanup(browser.Stop)
	tb := browser.NewTab(t, "")
	dir := t.TempDir()
	t.Chdir(dir)
	home := agentsHome(t, dir)
	run(t, []string{home}, "out", Options{})
	index := (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(dir, "out", "index.html"))}).String()
	eval := func(expr string) string {
		t.Helper()
		return browsertest.Eval[string](tb, expr)
	}
	search := func(q string) {
		t.Helper()
		browsertest.Eval[any](tb, `(() => { const s = document.getElementById("search"); s.value = "`+q+`"; s.dispatchEvent(new Event("input")); })()`)
	}
	// The rows shown of /work/q: depth and title.
	const rows = `[...[...document.querySelectorAll("section.project")].find(s => s.querySelector("h2").textContent === "/work/q").querySelectorAll("tbody tr")].filter(tr => !tr.hidden).map(tr => (tr.dataset.depth || "0") + " " + tr.cells[0].dataset.v).join("|")`
	tb.Open(index)
	if got := eval(`document.getElementById("count").textContent`); got != "6 sessions, 8 subagents" {
		t.Fatalf("count reads %q", got)
	}
	search("cli.go")
	if got := eval(`document.getElementById("count").textContent`); got != "1 of 6 sessions, 2 of 8 subagents" {
		t.Errorf("searching a nested subagent: count %q", got)
	}
	if got, want := eval(rows), "0 Review the parser and its tests.|1 Find every caller of Parse.|2 Read cli.go and say how it calls Parse."; got != want {
		t.Errorf("searching a nested subagent shows\n%s\nwant\n%s", got, want)
	}
	search("")
	// Entries, descending: the Claude Code session (6 entries) first, its
	// subagents still under it in the order they ran, then the Codex
	// rollout (5), then the subagent whose session is not in the archive.
	browsertest.Eval[any](tb, `document.querySelector("thead th:nth-child(5) button").click()`)
	browsertest.Eval[any](tb, `document.querySelector("thead th:nth-child(5) button").click()`)
	want := "0 Review the parser and its tests.|1 Find every caller of Parse.|2 Read cli.go and say how it calls Parse.|1 Run the tests in the background.|1 Summarise parse.go in one line.|1 Step one of the release workflow.|1 An older subagent.|0 What does this repository do?|0 Another session's."
	if got := eval(rows); got != want {
		t.Errorf("sorted by entries, descending:\n%s\nwant\n%s", got, want)
	}
	if src, err := os.ReadFile(axePath); err == nil {
		if _, err := chromedp.Run(tb.Context(), chromedp.Evaluate[chromedp.Void](string(src)+"\n;undefined")); err != nil {
			t.Fatalf("injecting axe-core: %v", err)
		}
		got := browsertest.EvalAsync[[]string](tb, `axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] } }).then((r) => r.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id + ": " + v.nodes.length + " " + String(v.nodes[0].target)))`)
		for _, v := range got {
			t.Errorf("axe: %s", v)
		}
	} else if os.Getenv("CI") != "" {
		t.Fatalf("axe-core is required in CI (npm ci in tools/axe): %v", err)
	}
	tb.Clean()
}

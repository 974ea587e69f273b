package archive

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"canopy/internal/browsertest"
)

// TestIndexProjectCount: "1 project", "2 projects".
func TestIndexProjectCount(t *testing.T) {
	for _, tc := range []struct {
		projects int
		want     string
	}{
		{1, " in 1 project ·"},
		{2, " in 2 projects ·"},
	} {
		d := &indexData{Title: "Session archive", Projects: make([]projectView, tc.projects)}
		for i := range d.Projects {
			d.Projects[i].Name = "/p" + string(rune('a'+i))
		}
		out, err := executeIndex(d)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(out), tc.want) {
			t.Errorf("%d projects: the totals do not read %q", tc.projects, tc.want)
		}
	}
}

// TestBrowserIndexReader: the index searched by project path, its search
// bar and headings in view on a long page, the compact view kept, and no
// serious or critical axe-core violation (when axe-core is installed).
func TestBrowserIndexReader(t *testing.T) {
	// Found before fixtures, which changes into a temporary directory.
	axePath, err := filepath.Abs("../tools/axe/node_modules/axe-core/axe.min.js")
	if err != nil {
		t.Fatal(err)
	}
	var browser browsertest.Shared
	t.Cleanup(browser.Stop)
	tb := browser.NewTab(t, "")
	srcs, dir := fixtures(t)
	run(t, srcs, "out", Options{})
	index := (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(dir, "out", "index.html"))}).String()
	eval := func(expr string) string {
		t.Helper()
		return browsertest.Eval[string](tb, expr)
	}
	tb.Do("a short viewport", chromedp.EmulateViewport(800, 320))
	tb.Open(index)
	browsertest.Eval[any](tb, `(() => { const s = document.getElementById("search"); s.value = "srv/gateway"; s.dispatchEvent(new Event("input")); })()`)
	if got := eval(`document.getElementById("count").textContent`); got != "3 of 8 sessions" {
		t.Errorf("searching a project's path: %v", got)
	}
	browsertest.Eval[any](tb, `(() => { const s = document.getElementById("search"); s.value = ""; s.dispatchEvent(new Event("input")); scrollTo(0, document.body.scrollHeight); })()`)
	if got := eval(`(() => { const r = document.querySelector(".tools").getBoundingClientRect(), h = [...document.querySelectorAll("thead th")].find((th) => { const b = th.getBoundingClientRect(); return b.top >= r.bottom - 1 && b.top < innerHeight; }); return scrollY > 0 && r.top === 0 ? (h ? "ok" : "no heading in view") : "the search bar scrolled away"; })()`); got != "ok" {
		t.Errorf("scrolled down: %s", got)
	}
	browsertest.Eval[any](tb, `document.getElementById("compact").click()`)
	tb.Open(index)
	if got := eval(`document.body.className + " " + document.getElementById("compact").getAttribute("aria-pressed")`); got != "compact true" {
		t.Errorf("the compact view, opened again: %q", got)
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
	} else {
		t.Logf("axe-core not installed (npm ci in tools/axe): the index is not checked with it")
	}
	tb.Clean()
}

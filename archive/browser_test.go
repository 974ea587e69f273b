package archive

import (
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"canopy/internal/browsertest"
)

// The index works from file:// with its script under the page's CSP:
// search narrows the rows and hides empty projects, a heading sorts, and
// a page's breadcrumbs lead back to the index.
func TestBrowserIndex(t *testing.T) {
	// The package's TestMain is archive_test.go's: this test, the only one
	// in a browser, has a browser of its own.
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
	do := func(expr string) {
		t.Helper()
		browsertest.Eval[any](tb, expr)
	}
	tb.Open(index)
	if got := eval(`document.getElementById("count").textContent`); got != "8 sessions" {
		t.Fatalf("count reads %v: the script did not run", got)
	}
	do(`(() => { const s = document.getElementById("search"); s.value = "nightly"; s.dispatchEvent(new Event("input")); })()`)
	if got := eval(`document.getElementById("count").textContent`); got != "1 of 8 sessions" {
		t.Errorf("after searching: %v", got)
	}
	if got := eval(`[...document.querySelectorAll("section.project")].filter(s => !s.hidden).map(s => s.querySelector("h2").textContent).join("|")`); got != "/srv/gateway" {
		t.Errorf("projects shown: %v", got)
	}
	do(`(() => { const s = document.getElementById("search"); s.value = ""; s.dispatchEvent(new Event("input")); })()`)
	// Sort the gateway's sessions by entries, ascending then descending.
	order := `[...document.querySelectorAll("section.project")].find(s => s.querySelector("h2").textContent === "/srv/gateway").querySelectorAll("tbody tr td:nth-child(5)")`
	do(`document.querySelector("thead th:nth-child(5) button").click()`)
	if got := eval(`[...` + order + `].map(td => td.textContent).join(",")`); got != "2,2,4" {
		t.Errorf("entries ascending: %v", got)
	}
	do(`document.querySelector("thead th:nth-child(5) button").click()`)
	if got := eval(`[...` + order + `].map(td => td.textContent).join(",")`); got != "4,2,2" {
		t.Errorf("entries descending: %v", got)
	}
	// Follow a session link, then its breadcrumb back to the project.
	tb.NewDeadline()
	tb.Open(index)
	do(`[...document.querySelectorAll("a")].find(a => a.textContent === "Blue checkout button").click()`)
	time.Sleep(500 * time.Millisecond)
	if got := eval(`document.querySelector("nav.crumbs li[aria-current]").textContent`); got != "Blue checkout button" {
		t.Errorf("breadcrumb of the page: %v", got)
	}
	do(`document.querySelectorAll("nav.crumbs a")[1].click()`)
	time.Sleep(500 * time.Millisecond)
	if got := eval(`location.hash + " " + location.pathname.endsWith("/out/index.html")`); !strings.HasPrefix(got, "#"+projectAnchor("/home/ada/shop")) || !strings.HasSuffix(got, "true") {
		t.Errorf("the project breadcrumb led to %v", got)
	}
	tb.Clean()
}

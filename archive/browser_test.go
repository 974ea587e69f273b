package archive

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"canopy/internal/chromium"
)

// The index works from file:// with its script under the page's CSP:
// search narrows the rows and hides empty projects, a heading sorts, and
// a page's breadcrumbs lead back to the index.
func TestBrowserIndex(t *testing.T) {
	bin := chromium.Find()
	if bin == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("chromium is required in CI: install Debian's chromium")
		}
		t.Skip("chromium not found: install Debian's chromium to run browser tests")
	}
	srcs, dir := fixtures(t)
	run(t, srcs, "out", Options{})
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), chromium.Options(bin, t.TempDir())...)
	defer cancelAlloc()
	var mu sync.Mutex
	var problems []string
	listen := func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *runtime.EventExceptionThrown:
			problems = append(problems, "exception: "+e.ExceptionDetails.Text)
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError {
				problems = append(problems, "console error")
			}
		case *log.EventEntryAdded:
			if e.Entry != nil && e.Entry.Level == log.EntryLevelError {
				problems = append(problems, "log: "+e.Entry.Text) // CSP violations among them
			}
		}
	}
	ctx, cancel := chromedp.NewContext(actx, chromedp.WithListener(listen))
	defer cancel()
	ctx, cancelT := context.WithTimeout(ctx, 60*time.Second)
	defer cancelT()
	index := (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(dir, "out", "index.html"))}).String()
	eval := func(expr string) any {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[any](expr))
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		return v
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(index)); err != nil {
		t.Fatal(err)
	}
	if got := eval(`document.getElementById("count").textContent`); got != "8 sessions" {
		t.Fatalf("count reads %v: the script did not run", got)
	}
	eval(`(() => { const s = document.getElementById("search"); s.value = "nightly"; s.dispatchEvent(new Event("input")); })()`)
	if got := eval(`document.getElementById("count").textContent`); got != "1 of 8 sessions" {
		t.Errorf("after searching: %v", got)
	}
	if got := eval(`[...document.querySelectorAll("section.project")].filter(s => !s.hidden).map(s => s.querySelector("h2").textContent).join("|")`); got != "/srv/gateway" {
		t.Errorf("projects shown: %v", got)
	}
	eval(`(() => { const s = document.getElementById("search"); s.value = ""; s.dispatchEvent(new Event("input")); })()`)
	// Sort the gateway's sessions by entries, ascending then descending.
	order := `[...document.querySelectorAll("section.project")].find(s => s.querySelector("h2").textContent === "/srv/gateway").querySelectorAll("tbody tr td:nth-child(5)")`
	eval(`document.querySelector("thead th:nth-child(5) button").click()`)
	if got := eval(`[...` + order + `].map(td => td.textContent).join(",")`); got != "2,2,4" {
		t.Errorf("entries ascending: %v", got)
	}
	eval(`document.querySelector("thead th:nth-child(5) button").click()`)
	if got := eval(`[...` + order + `].map(td => td.textContent).join(",")`); got != "4,2,2" {
		t.Errorf("entries descending: %v", got)
	}
	// Follow a session link, then its breadcrumb back to the project.
	if err := chromedp.Do(ctx, chromedp.Navigate(index)); err != nil {
		t.Fatal(err)
	}
	eval(`[...document.querySelectorAll("a")].find(a => a.textContent === "Blue checkout button").click()`)
	time.Sleep(500 * time.Millisecond)
	if got := eval(`document.querySelector("nav.crumbs li[aria-current]").textContent`); got != "Blue checkout button" {
		t.Errorf("breadcrumb of the page: %v", got)
	}
	eval(`document.querySelectorAll("nav.crumbs a")[1].click()`)
	time.Sleep(500 * time.Millisecond)
	if got := eval(`location.hash + " " + location.pathname.endsWith("/out/index.html")`); !strings.HasPrefix(got.(string), "#"+projectAnchor("/home/ada/shop")) || !strings.HasSuffix(got.(string), "true") {
		t.Errorf("the project breadcrumb led to %v", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(problems) > 0 {
		t.Errorf("console: %v", problems)
	}
}

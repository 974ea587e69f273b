package browsertest

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"canopy/internal/chromium"
)

// tabTimeout bounds a tab's steps from its opening or its last NewDeadline,
// and the browser's start: long enough for a page of several MB on a busy
// machine, short enough that a hung page fails its test rather than the
// whole run.
const tabTimeout = 30 * time.Second

// Shared is one browser for a test binary, started on first use: starting
// Chromium costs more than most tests. A package keeps one in a variable
// and stops it from TestMain; a package that cannot, for one test, keeps a
// Shared in that test and stops it with t.Cleanup. The zero Shared is
// ready to use; after Stop it opens no more tabs.
type Shared struct {
	once    sync.Once
	browser *Browser
	dir     string // the browser's profile, removed by Stop
	missing bool   // no Chromium on this machine
	failure string // why the browser did not start
}

func (s *Shared) start() {
	bin := chromium.Find()
	if bin == "" {
		s.missing = true
		return
	}
	dir, err := os.MkdirTemp("", "canopy-chromium-")
	if err != nil {
		s.failure = "user data dir: " + err.Error()
		return
	}
	s.dir = dir
	b, err := Start(bin, dir, tabTimeout)
	if err != nil {
		s.failure = err.Error()
		return
	}
	s.browser = b
}

// get starts the browser on first use. Without Chromium it skips the test,
// or fails it under CI, where a skipped browser test would pass unseen.
func (s *Shared) get(t *testing.T) *Browser {
	t.Helper()
	s.once.Do(s.start)
	if s.missing {
		if os.Getenv("CI") != "" {
			t.Fatal("chromium is required in CI: install Debian's chromium")
		}
		t.Skip("chromium not found: install Debian's chromium to run browser tests")
	}
	if s.failure != "" {
		t.Fatal(s.failure)
	}
	if s.browser == nil {
		t.Fatal("the shared browser was stopped")
	}
	return s.browser
}

// Stop ends the browser, if it was started, and removes its profile.
func (s *Shared) Stop() {
	s.once.Do(func() {}) // no browser starts after Stop
	if s.browser != nil {
		s.browser.Stop()
	}
	if s.dir != "" {
		_ = os.RemoveAll(s.dir)
	}
}

// cspProbe reports CSP violations as console errors, in addition to the
// browser's own report of them.
const cspProbe = `document.addEventListener("securitypolicyviolation", function (e) {
  console.error("CSP violation: " + e.violatedDirective + " blocked " + e.blockedURI + " " + e.sample);
}, true);`

// Tab is one test's tab in the shared browser, watched from its first
// event. Its steps fail the test on an error; problems the page reports
// fail it through Clean, which also runs when the test ends.
type Tab struct {
	t       *testing.T
	prelude string
	tabCtx  context.Context // the tab, without a deadline
	ctx     context.Context // the tab, with the current deadline
	cancel  context.CancelFunc
	watch   *Watch
}

// NewTab opens a tab whose steps have 30 s. The prelude (JavaScript: the
// page's own helpers, or "") is in scope of every expression Eval,
// EvalAsync and Click evaluate.
func (s *Shared) NewTab(t *testing.T, prelude string) *Tab {
	t.Helper()
	b := s.get(t)
	w := &Watch{}
	tctx, cancelTab, err := b.NewTab(w, tabTimeout)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(tctx, tabTimeout)
	tb := &Tab{t: t, prelude: prelude, tabCtx: tctx, ctx: ctx, cancel: cancel, watch: w}
	t.Cleanup(func() { tb.Clean(); tb.cancel(); cancelTab() })
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument,
		page.AddScriptToEvaluateOnNewDocumentParams{Source: cspProbe}); err != nil {
		t.Fatalf("adding the CSP probe: %v", err)
	}
	return tb
}

// Context is the tab with its current deadline, for the chromedp calls the
// Tab has no method for.
func (tb *Tab) Context() context.Context { return tb.ctx }

// NewDeadline gives the tab's next steps 30 s more: a test that works
// through many pages in one tab calls it for each.
func (tb *Tab) NewDeadline() {
	tb.cancel()
	tb.ctx, tb.cancel = context.WithTimeout(tb.tabCtx, tabTimeout)
}

// Do runs actions in the tab; what names them in a failure.
func (tb *Tab) Do(what string, actions ...chromedp.Action[chromedp.Void]) {
	tb.t.Helper()
	if err := chromedp.Do(tb.ctx, actions...); err != nil {
		tb.t.Fatalf("%s: %v", what, err)
	}
}

// Open navigates the tab to u and waits for the page to load.
func (tb *Tab) Open(u string) {
	tb.t.Helper()
	tb.Do("opening "+u, chromedp.Navigate(u))
}

// BeforePages runs src in each of the tab's next pages before their own
// scripts.
func (tb *Tab) BeforePages(src string) {
	tb.t.Helper()
	if _, err := chromedp.Call(tb.ctx, page.AddScriptToEvaluateOnNewDocument,
		page.AddScriptToEvaluateOnNewDocumentParams{Source: src}); err != nil {
		tb.t.Fatalf("adding a script to the tab's pages: %v", err)
	}
}

// Eval evaluates a JavaScript expression (with the tab's prelude in scope)
// in the page and decodes its value.
func Eval[T any](tb *Tab, expr string) T {
	tb.t.Helper()
	js := "(() => {" + tb.prelude + "return (" + expr + ");})()"
	v, err := chromedp.Run(tb.ctx, chromedp.Evaluate[T](js))
	if err != nil {
		tb.t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// EvalAsync is Eval for an expression that yields a promise: its value is
// what the promise resolves to.
func EvalAsync[T any](tb *Tab, expr string) T {
	tb.t.Helper()
	js := "(async () => {" + tb.prelude + "return (" + expr + ");})()"
	v, err := chromedp.Run(tb.ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		tb.t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// Click clicks, with the mouse, the middle of the element that the
// expression elem yields, after checking that it is there, visible and not
// covered by another element: as a reader could, which a script's
// el.click() does not check.
func (tb *Tab) Click(what, elem string) {
	tb.t.Helper()
	type point struct {
		X, Y       float64
		Found, Hit bool
	}
	p := Eval[point](tb, `(() => {
  const el = (`+elem+`);
  if (!el) return { Found: false };
  el.scrollIntoView({ block: "nearest" });
  const r = el.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
  const hit = document.elementFromPoint(x, y);
  return { X: x, Y: y, Found: true, Hit: !!hit && r.width > 0 && r.height > 0 && (hit === el || el.contains(hit)) };
})()`)
	switch {
	case !p.Found:
		tb.t.Fatalf("%s: no such element", what)
	case !p.Hit:
		tb.t.Fatalf("%s: the element is hidden or covered", what)
	}
	tb.Do(what, chromedp.MouseClickXY(p.X, p.Y))
}

// Requests are the URLs of the tab's network requests so far.
func (tb *Tab) Requests() []string { return tb.watch.Requests() }

// Clean fails the test for any console error, exception, CSP violation,
// log error or dialog seen so far and not yet reported. NewTab also calls
// it when the test ends, so that problems are reported when a test stops
// early.
func (tb *Tab) Clean() {
	tb.t.Helper()
	problems, dialogs := tb.watch.takeNew()
	for _, p := range problems {
		tb.t.Error("page problem: " + p)
	}
	for _, d := range dialogs {
		tb.t.Error("a dialog opened: " + d)
	}
}

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"canopy/internal/browsertest"
	"canopy/internal/chromium"
)

// pageKind says how to read one exporter's page.
type pageKind struct {
	// Ready is a JavaScript expression, true once the conversation is in
	// the DOM and the page's script has filled the tree and its status.
	Ready string `json:"-"`
	// Selectors of the search box, the status line, the no-tools filter
	// button, the conversation, the tree's scrolling container and its rows.
	Search, Status, Filter, Conv, Tree, Rows string
	// IDAttr is the row attribute holding the entry id; a selected row has
	// SelectedClass, or aria-selected="true" when SelectedClass is empty.
	IDAttr, SelectedClass string
	// Virtual: only the rows in view are in the DOM.
	Virtual bool
}

const statusOK = `/^\d+ \/ \d+ entries$/.test(((document.getElementById("tree-status") || {}).textContent || "").trim())`

// oursPage: the status line is in the HTML before the script runs (the
// page is readable without JavaScript), so "script done" also needs the
// tree's rows, which the script draws last.
var oursPage = &pageKind{
	Ready:  `!!document.querySelector("#conversation article") && !!document.querySelector("#tree .row[data-entry-id]") && ` + statusOK,
	Search: "#tree-search", Status: "#tree-status", Filter: `button[data-filter="no-tools"]`,
	Conv: "#conversation", Tree: "#tree", Rows: ".row[data-entry-id]", IDAttr: "data-entry-id",
	Virtual: true,
}

// refPage: pi's template.html/template.js (0.73.1). Its script renders the
// tree, the status line and the messages in one synchronous run.
var refPage = &pageKind{
	Ready:  `!!document.querySelector("#messages > *") && ` + statusOK,
	Search: "#tree-search", Status: "#tree-status", Filter: `.filter-btn[data-filter="no-tools"]`,
	Conv: "#messages", Tree: "#tree-container", Rows: ".tree-node[data-id]", IDAttr: "data-id",
	SelectedClass: "active",
}

// measure is one number in milliseconds, or why there is none.
type measure struct {
	MS     float64   `json:"ms,omitempty"`
	Runs   []float64 `json:"runs,omitempty"`
	Note   string    `json:"note,omitempty"` // timeout, blank, nochange, fail: ...
	Detail string    `json:"detail,omitempty"`
}

func (m measure) ok() bool { return m.Note == "" }

type pageResult struct {
	Readable measure `json:"readable"`
	Search   measure `json:"search"`
	Filter   measure `json:"filter"`
	Click    measure `json:"click"`
	// From the first readable run: paint and navigation timings (ms from
	// navigation start) and the JS heap once readable.
	FCP      float64  `json:"firstContentfulPaintMs,omitempty"`
	DCL      float64  `json:"domContentLoadedMs,omitempty"`
	Load     float64  `json:"loadEventMs,omitempty"`
	JSHeapMB float64  `json:"jsHeapMB,omitempty"`
	Errors   []string `json:"errors,omitempty"`
	// OtherCPU is the share of the machine's CPUs that other processes
	// used during this page's measurements.
	OtherCPU  float64 `json:"otherCpuShare"`
	nErrors   int
	errorSeen map[string]bool
}

func (p *pageResult) summary() string {
	s := fmt.Sprintf("readable %s, search %s, filter %s, click %s", cellMS(p.Readable), cellMS(p.Search), cellMS(p.Filter), cellMS(p.Click))
	if len(p.Errors) > 0 {
		s += ", ERR: " + p.Errors[0]
	}
	return s
}

func (p *pageResult) addErrors(errs []string) {
	if p.errorSeen == nil {
		p.errorSeen = map[string]bool{}
	}
	for _, e := range errs {
		// One line each: an exception's stack adds nothing to the report.
		e, _, _ = strings.Cut(e, "\n")
		if len(e) > 300 {
			e = e[:300] + "…"
		}
		if p.errorSeen[e] {
			continue
		}
		p.errorSeen[e] = true
		if len(p.Errors) < 5 {
			p.Errors = append(p.Errors, e)
		}
	}
}

// chrome is one headless Chromium; every measurement has its own tab.
type chrome struct {
	b       *browsertest.Browser
	version string
	bin     string
	profile string
}

func startBrowser(bin, profile string) (*chrome, error) {
	if bin == "" {
		bin = chromium.Find()
	}
	if _, err := os.Stat(bin); err != nil {
		return nil, err
	}
	os.RemoveAll(profile) // a fresh user data dir every run
	if err := os.MkdirAll(profile, 0o755); err != nil {
		return nil, err
	}
	b, err := browsertest.Start(bin, profile, 60*time.Second)
	if err != nil {
		return nil, err
	}
	return &chrome{b: b, version: b.Version(), bin: bin, profile: profile}, nil
}

// alive restarts the browser if it has gone (crashed, or killed for lack
// of memory) and reports whether one is running.
func (c *chrome) alive(logf func(string, ...any)) bool {
	if c.b.Alive() {
		return true
	}
	logf("the browser has gone: starting a new one")
	c.stop()
	n, err := startBrowser(c.bin, c.profile)
	if err != nil {
		logf("browser: %v", err)
		return false
	}
	*c = *n
	return true
}

func (c *chrome) stop() { c.b.Stop() }

// tab opens a fresh tab with a time limit and runs fn in it; the tab's
// errors go to pr.
func (c *chrome) tab(limit time.Duration, pr *pageResult, fn func(ctx context.Context, w *browsertest.Watch) measure) measure {
	if !c.alive(func(string, ...any) {}) {
		return measure{Note: "fail: no browser"}
	}
	w := &browsertest.Watch{}
	tctx, cancelTab, err := c.b.NewTab(w, limit)
	if err != nil {
		return measure{Note: "fail: " + err.Error()}
	}
	defer cancelTab()
	ctx, cancel := context.WithTimeout(tctx, limit)
	defer cancel()
	// The network domain buffers responses for DevTools; a page of 100+ MB
	// does not need that.
	_, _ = chromedp.Call(ctx, network.Disable, cdp.Empty{})
	_, _ = chromedp.Call(ctx, page.BringToFront, cdp.Empty{})
	m := fn(ctx, w)
	if ctx.Err() != nil && m.ok() {
		m = measure{Note: "timeout"}
	}
	pr.addErrors(w.Problems())
	return m
}

type readyState struct {
	OK    bool    `json:"ok"`
	T     float64 `json:"t"`
	State string  `json:"rs"`
	Href  string  `json:"href"`
}

// open navigates the tab to u without waiting for the load event, and
// polls every 10 ms until the page is readable. It returns performance.now()
// (ms since navigation start) at the first poll that sees it readable.
func open(ctx context.Context, w *browsertest.Watch, u string, k *pageKind) measure {
	if _, err := chromedp.Call(ctx, page.Navigate, page.NavigateParams{URL: u}); err != nil {
		if ctx.Err() != nil {
			return measure{Note: "timeout"}
		}
		return measure{Note: "fail: navigate: " + err.Error()}
	}
	expr := `(() => { try { return {ok: !!(` + k.Ready + `), t: performance.now(), rs: document.readyState, href: location.href}; } catch (e) { return {ok: false, t: performance.now(), rs: document.readyState, href: location.href}; } })()`
	var completeSince time.Time
	for {
		st, err := chromedp.Run(ctx, chromedp.Evaluate[readyState](expr))
		if ctx.Err() != nil {
			return measure{Note: "timeout"}
		}
		if err == nil && st.OK && sameDoc(st.Href, u) {
			return measure{MS: st.T}
		}
		// A page whose script threw and that has finished loading will not
		// become readable: call it blank after a grace period.
		if err == nil && sameDoc(st.Href, u) && st.State == "complete" && len(w.Problems()) > 0 {
			if completeSince.IsZero() {
				completeSince = time.Now()
			} else if time.Since(completeSince) > 3*time.Second {
				return measure{Note: "blank", Detail: "loaded, script error, not readable"}
			}
		}
		select {
		case <-ctx.Done():
			return measure{Note: "timeout"}
		case <-time.After(10 * time.Millisecond):
		}
	}
}

type jsResult struct {
	MS     float64 `json:"ms"`
	Note   string  `json:"note"`
	Detail string  `json:"detail"`
}

// The in-page measurements. frame() resolves after the next animation
// frame has been drawn (a task queued from requestAnimationFrame runs after
// that frame's style, layout and paint).
const jsFrame = `const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
const statusText = () => ((document.querySelector(k.Status) || {}).textContent || "").trim();
`

// jsUntilStatusChanges runs an action (the body of act) and waits, frame by
// frame, for the status line to change, at most 10 s.
const jsUntilStatusChanges = `(async (k, arg) => {
` + jsFrame + `
  await frame(); await frame();
  const before = statusText();
  const t0 = performance.now();
  const err = ACT;
  if (err) return {ms: 0, note: "fail: " + err, detail: ""};
  for (;;) {
    await frame();
    const now = performance.now();
    if (statusText() !== before) return {ms: now - t0, note: "", detail: before + " -> " + statusText()};
    if (now - t0 > 10000) return {ms: now - t0, note: "nochange", detail: before};
  }
})`

const actSearch = `(() => {
  const box = document.querySelector(k.Search);
  if (!box) return "no search box";
  box.value = arg;
  box.dispatchEvent(new Event("input", {bubbles: true}));
  return "";
})()`

const actFilter = `(() => {
  const b = document.querySelector(k.Filter);
  if (!b) return "no filter button";
  b.click();
  return "";
})()`

// jsClick finds the tree row nearest the middle of the tree that is off
// the active path (so that the click changes the conversation; on a chain,
// where every row is on the path, the middle row), brings it into view and
// clicks it, then waits until the row is selected and the conversation has
// changed or shows the entry, plus one drawn frame. A virtualized tree is
// searched by scrolling outward from its middle, a view at a time.
const jsClick = `(async (k) => {
` + jsFrame + `
  const tree = document.querySelector(k.Tree), conv = document.querySelector(k.Conv);
  if (!tree || !conv) return {ms: 0, note: "fail: no tree or conversation", detail: ""};
  const inView = () => {
    const tr = tree.getBoundingClientRect(), mid = (tr.top + tr.bottom) / 2;
    let off = null, offD = Infinity, on = null, onD = Infinity;
    for (const r of tree.querySelectorAll(k.Rows)) {
      const b = r.getBoundingClientRect();
      if (b.height === 0 || b.bottom < tr.top || b.top > tr.bottom) continue;
      const d = Math.abs((b.top + b.bottom) / 2 - mid);
      if (r.classList.contains("in-path")) { if (d < onD) { on = r; onD = d; } }
      else if (d < offD) { off = r; offD = d; }
    }
    return {off, on};
  };
  let pick = null, fallback = null;
  if (k.Virtual) {
    const mid = Math.max(0, (tree.scrollHeight - tree.clientHeight) / 2), step = Math.max(100, tree.clientHeight);
    for (let j = 0; j <= 2 * Math.ceil(tree.scrollHeight / step) + 1 && !pick; j++) {
      const top = mid + (j % 2 ? 1 : -1) * Math.ceil(j / 2) * step;
      if (top < -step || top > tree.scrollHeight) continue;
      tree.scrollTop = Math.max(0, top);
      await frame();
      pick = inView().off;
    }
    if (!pick) { // every row is on the path: the middle one
      tree.scrollTop = mid;
      await frame();
      fallback = inView().on;
    }
  } else {
    const rows = tree.querySelectorAll(k.Rows), m = Math.floor(rows.length / 2);
    for (let d = 0; d <= rows.length && !pick; d++) {
      for (const i of [m + d, m - d]) {
        if (i >= 0 && i < rows.length && !rows[i].classList.contains("in-path")) { pick = rows[i]; break; }
      }
    }
    fallback = rows[m] || null;
  }
  const row0 = pick || fallback;
  if (!row0) return {ms: 0, note: "fail: no row", detail: ""};
  const id = row0.getAttribute(k.IDAttr), onPath = !pick;
  const rowSel = k.Rows + "[" + k.IDAttr + "=\"" + CSS.escape(id) + "\"]";
  row0.scrollIntoView({block: "center"});
  await frame(); await frame();
  const row = tree.querySelector(rowSel);
  if (!row) return {ms: 0, note: "fail: the row left the DOM", detail: id};
  const selected = (r) => k.SelectedClass ? r.classList.contains(k.SelectedClass) : r.getAttribute("aria-selected") === "true";
  let mutated = false;
  const mo = new MutationObserver(() => { mutated = true; });
  mo.observe(conv, {childList: true, subtree: true});
  const done = () => {
    const r = document.querySelector(rowSel), el = document.getElementById("entry-" + id);
    return !!r && selected(r) && (mutated || (!!el && conv.contains(el)));
  };
  const t0 = performance.now();
  row.click();
  while (!done()) {
    await frame();
    if (performance.now() - t0 > 10000) { mo.disconnect(); return {ms: performance.now() - t0, note: "nochange", detail: id}; }
  }
  await frame();
  const ms = performance.now() - t0;
  mo.disconnect();
  return {ms: ms, note: "", detail: id + (onPath ? " (on the active path)" : "") + (mutated ? "" : " (no mutation)")};
})`

func callJS(ctx context.Context, fn string, args ...any) measure {
	var enc []string
	for _, a := range args {
		b, _ := json.Marshal(a)
		enc = append(enc, string(b))
	}
	expr := fn + "(" + strings.Join(enc, ", ") + ")"
	r, err := chromedp.Run(ctx, chromedp.Evaluate[jsResult](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		if ctx.Err() != nil {
			return measure{Note: "timeout"}
		}
		return measure{Note: "fail: " + err.Error()}
	}
	return measure{MS: r.MS, Note: r.Note, Detail: r.Detail}
}

// measure runs the four page measurements on file, each in fresh tabs.
func (c *chrome) measure(o *options, file string, k *pageKind, word string, logf func(string, ...any)) *pageResult {
	pr := &pageResult{}
	if !c.alive(logf) {
		na := measure{Note: "n/a", Detail: "no browser"}
		pr.Readable, pr.Search, pr.Filter, pr.Click = na, na, na, na
		return pr
	}
	mark := markCPU()
	defer func() { pr.OtherCPU = otherShare(mark, markCPU()) }()
	u := (&url.URL{Scheme: "file", Path: filepath.ToSlash(file)}).String()

	var runs []measure
	for i := 0; i < o.browserRuns; i++ {
		first := i == 0
		runs = append(runs, c.tab(o.pageTimeout, pr, func(ctx context.Context, w *browsertest.Watch) measure {
			m := open(ctx, w, u, k)
			if m.ok() && first {
				c.timings(ctx, pr)
			}
			return m
		}))
	}
	pr.Readable = combine(runs)
	if !pr.Readable.ok() {
		na := measure{Note: "n/a", Detail: "page not readable: " + pr.Readable.Note}
		pr.Search, pr.Filter, pr.Click = na, na, na
		return pr
	}

	interact := func(name, js string, args ...any) measure {
		var runs []measure
		for i := 0; i < o.browserRuns; i++ {
			runs = append(runs, c.tab(o.pageTimeout, pr, func(ctx context.Context, w *browsertest.Watch) measure {
				if m := open(ctx, w, u, k); !m.ok() {
					return measure{Note: "n/a", Detail: "not readable: " + m.Note}
				}
				if o.interactAfter == "load" {
					waitLoaded(ctx)
				}
				// Let the page's own deferred work (timers queued by its
				// start-up) run before the measurement.
				select {
				case <-ctx.Done():
				case <-time.After(300 * time.Millisecond):
				}
				return callJS(ctx, js, args...)
			}))
		}
		m := combine(runs)
		logf("  %s: %s %s", name, cellMS(m), m.Detail)
		return m
	}
	pr.Search = interact("search", strings.Replace(jsUntilStatusChanges, "ACT", actSearch, 1), k, word)
	pr.Filter = interact("filter", strings.Replace(jsUntilStatusChanges, "ACT", actFilter, 1), k, "")
	pr.Click = interact("click", jsClick, k)
	return pr
}

// waitLoaded waits for the page's load event (and a task after it), at most
// as long as ctx allows.
func waitLoaded(ctx context.Context) {
	_, _ = chromedp.Run(ctx, chromedp.Evaluate[bool](`new Promise((r) => { if (document.readyState === "complete") r(true); else addEventListener("load", () => setTimeout(() => r(true), 0)); })`, chromedp.EvalAwaitPromise))
}

// timings reads the navigation and paint timings and the JS heap.
func (c *chrome) timings(ctx context.Context, pr *pageResult) {
	// Give the load event and the first paint a moment: the readable poll
	// can succeed before either is recorded.
	waitLoaded(ctx)
	t, err := chromedp.Run(ctx, chromedp.Evaluate[struct {
		FCP, DCL, Load, Heap float64
	}](`(() => {
  const nav = performance.getEntriesByType("navigation")[0] || {};
  const fcp = performance.getEntriesByName("first-contentful-paint")[0];
  return {FCP: fcp ? fcp.startTime : 0, DCL: nav.domContentLoadedEventEnd || 0, Load: nav.loadEventEnd || 0,
    Heap: performance.memory ? performance.memory.usedJSHeapSize / 1e6 : 0};
})()`))
	if err != nil {
		return
	}
	pr.FCP, pr.DCL, pr.Load, pr.JSHeapMB = t.FCP, t.DCL, t.Load, t.Heap
}

// combine is the median of the runs that have a number; a failure of any
// run is reported instead.
func combine(runs []measure) measure {
	var xs []float64
	for _, m := range runs {
		if !m.ok() {
			return m
		}
		xs = append(xs, m.MS)
	}
	m := runs[len(runs)-1]
	m.MS = median(xs)
	if len(xs) > 1 {
		m.Runs = xs
	}
	return m
}

// sameDoc reports whether the page's address is u, give or take a query
// or fragment the page's script added.
func sameDoc(href, u string) bool {
	if i := strings.IndexAny(href, "?#"); i >= 0 {
		href = href[:i]
	}
	return href == u
}

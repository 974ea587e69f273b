package render_test

// Browser tests: the exported page in Debian's Chromium, driven by chromedp.
// One browser is shared by every test (started on first use, stopped by
// TestMain); each test has its own tab and a time limit. Without Chromium
// the tests are skipped, except under CI, where they fail.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"canopy/internal/chromium"
	"canopy/internal/sessiongen"
	"canopy/render"
	"canopy/sessiontree"
)

const tabTimeout = 30 * time.Second

// ---- The shared browser ---------------------------------------------------

var browser struct {
	once          sync.Once
	ctx           context.Context // a chromedp context with the browser; tabs are its children
	cancel        context.CancelFunc
	cancelAlloc   context.CancelFunc
	userDataDir   string
	skip, failure string
}

func TestMain(m *testing.M) {
	code := m.Run()
	stopBrowser()
	os.Exit(code)
}

// browserContext starts Chromium on first use and returns the context that
// holds it. Without Chromium it skips the test, or fails it under CI.
func browserContext(t *testing.T) context.Context {
	t.Helper()
	browser.once.Do(startBrowser)
	if browser.skip != "" {
		if os.Getenv("CI") != "" {
			t.Fatal("chromium is required in CI: install Debian's chromium")
		}
		t.Skip("chromium not found: install Debian's chromium to run browser tests")
	}
	if browser.failure != "" {
		t.Fatal(browser.failure)
	}
	return browser.ctx
}

func startBrowser() {
	bin := chromium.Find()
	if bin == "" {
		browser.skip = "chromium not found"
		return
	}
	dir, err := os.MkdirTemp("", "canopy-chromium-")
	if err != nil {
		browser.failure = "user data dir: " + err.Error()
		return
	}
	browser.userDataDir = dir
	opts := chromium.Options(bin, dir)
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, bcancel := chromedp.NewContext(actx)
	browser.cancelAlloc, browser.cancel = acancel, bcancel
	// The first Do starts the browser and binds it to bctx, which must have
	// no deadline; a watchdog stops a browser that does not come up.
	done := make(chan error, 1)
	go func() { done <- chromedp.Do(bctx) }()
	select {
	case err = <-done:
	case <-time.After(tabTimeout):
		acancel()
		err = fmt.Errorf("no answer within %v", tabTimeout)
	}
	if err != nil {
		browser.failure = fmt.Sprintf("starting %s: %v", bin, err)
		return
	}
	browser.ctx = bctx
}

func stopBrowser() {
	if browser.ctx != nil {
		_ = chromedp.Cancel(browser.ctx) // closes the browser
	}
	if browser.cancel != nil {
		browser.cancel()
		browser.cancelAlloc()
	}
	if browser.userDataDir != "" {
		_ = os.RemoveAll(browser.userDataDir)
	}
}

// ---- Tabs -----------------------------------------------------------------

// watch records, from the first event of a tab, what must not happen on
// our pages: console errors (CSP violations among them), uncaught
// exceptions, browser log errors, dialogs; and every network request.
type watch struct {
	mu       sync.Mutex
	problems []string
	requests []string
	dialogs  []string
	// how many problems and dialogs clean has reported
	reportedProblems, reportedDialogs int
	onDialog                          func()
}

func (w *watch) listen(ev any) {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeAssert {
			var parts []string
			for _, a := range ev.Args {
				if len(a.Value) > 0 {
					parts = append(parts, string(a.Value))
				} else {
					parts = append(parts, a.Description)
				}
			}
			w.problems = append(w.problems, "console."+string(ev.Type)+": "+strings.Join(parts, " "))
		}
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		text := d.Text
		if d.Exception != nil && d.Exception.Description != "" {
			text += " " + d.Exception.Description
		}
		w.problems = append(w.problems, fmt.Sprintf("uncaught exception at %s:%d: %s", d.URL, d.LineNumber+1, text))
	case *log.EventEntryAdded:
		if e := ev.Entry; e != nil && e.Level == log.EntryLevelError {
			w.problems = append(w.problems, fmt.Sprintf("log error (%s) %s: %s", e.Source, e.URL, e.Text))
		}
	case *network.EventRequestWillBeSent:
		if ev.Request != nil {
			w.requests = append(w.requests, ev.Request.URL)
		}
	case *page.EventJavascriptDialogOpening:
		w.dialogs = append(w.dialogs, string(ev.Type)+": "+ev.Message)
		if w.onDialog != nil {
			go w.onDialog() // a dialog blocks the page: dismiss it, outside the event loop
		}
	}
}

func (w *watch) requestsSeen() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.requests)
}

// cspProbe reports CSP violations as console errors, in addition to the
// browser's own report of them.
const cspProbe = `document.addEventListener("securitypolicyviolation", function (e) {
  console.error("CSP violation: " + e.violatedDirective + " blocked " + e.blockedURI + " " + e.sample);
}, true);`

type tab struct {
	t      *testing.T
	tabCtx context.Context // the tab, without a deadline
	ctx    context.Context // the tab, with the current deadline
	cancel context.CancelFunc
	w      *watch
}

// deadline gives the tab's next steps tabTimeout more: a test that works
// through many pages in one tab calls it for each.
func (tb *tab) deadline() {
	tb.cancel()
	tb.ctx, tb.cancel = context.WithTimeout(tb.tabCtx, tabTimeout)
}

// newTab opens a tab in the shared browser, watched from its first event.
func newTab(t *testing.T) *tab {
	t.Helper()
	bctx := browserContext(t)
	w := &watch{}
	tctx, cancelTab := chromedp.NewContext(bctx, chromedp.WithListener(w.listen))
	ctx, cancel := context.WithTimeout(tctx, tabTimeout)
	tb := &tab{t: t, tabCtx: tctx, ctx: ctx, cancel: cancel, w: w}
	t.Cleanup(func() { tb.clean(); tb.cancel(); cancelTab() })
	w.onDialog = func() {
		dctx, cancel := context.WithTimeout(tctx, 5*time.Second)
		defer cancel()
		_, _ = chromedp.Call(dctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: false})
	}
	// The first Do opens the tab and binds it to the context it is given:
	// that must be tctx, which outlives the deadlines.
	opened := make(chan error, 1)
	go func() { opened <- chromedp.Do(tctx) }()
	select {
	case err := <-opened:
		if err != nil {
			t.Fatalf("opening a tab: %v", err)
		}
	case <-time.After(tabTimeout):
		cancelTab()
		t.Fatalf("opening a tab: no answer within %v", tabTimeout)
	}
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument,
		page.AddScriptToEvaluateOnNewDocumentParams{Source: cspProbe}); err != nil {
		t.Fatalf("adding the CSP probe: %v", err)
	}
	return tb
}

func (tb *tab) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	tb.t.Helper()
	if err := chromedp.Do(tb.ctx, actions...); err != nil {
		tb.t.Fatalf("%s: %v", what, err)
	}
}

func (tb *tab) open(u string) {
	tb.t.Helper()
	tb.do("opening "+u, chromedp.Navigate(u))
}

// pageHelpers are defined before every evaluated expression.
const pageHelpers = `
const $conv = document.getElementById("conversation");
const rowOf = (id) => [...document.querySelectorAll("#tree .row")].find((r) => r.getAttribute("data-entry-id") === id) || null;
// An entry's element id: HTML holds no NUL and reads CR LF and CR as LF.
const domId = (id) => id.replace(/\r\n?/g, "\n").replace(/\0/g, "\uFFFD");
const entryOf = (id) => { const el = document.getElementById("entry-" + domId(id)); return el && $conv.contains(el) ? el : null; };
// searched resolves once the search has been answered (the search workers
// answer after the input event; the search box is aria-busy until then)
// and the tree drawn.
const searched = async () => {
  const box = document.getElementById("tree-search"), t0 = performance.now();
  do await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  while (box.hasAttribute("aria-busy") && performance.now() - t0 < 10000);
};
// searchFor types q into the search box at once and waits until it is answered.
const searchFor = async (q) => {
  const box = document.getElementById("tree-search");
  box.value = q;
  box.dispatchEvent(new Event("input", {bubbles: true}));
  await searched();
};
`

// eval evaluates a JavaScript expression (with pageHelpers in scope) in
// the page and decodes its value.
func eval[T any](tb *tab, expr string) T {
	tb.t.Helper()
	js := "(() => {" + pageHelpers + "return (" + expr + ");})()"
	v, err := chromedp.Run(tb.ctx, chromedp.Evaluate[T](js))
	if err != nil {
		tb.t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// evalAsync is eval for an expression that yields a promise.
func evalAsync[T any](tb *tab, expr string) T {
	tb.t.Helper()
	js := "(async () => {" + pageHelpers + "return (" + expr + ");})()"
	v, err := chromedp.Run(tb.ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		tb.t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

var statusRE = regexp.MustCompile(`^\s*(\d+) / (\d+) entries\s*$`)

// status reads the tree's status line, "N / M entries".
func (tb *tab) status() (n, m int) {
	tb.t.Helper()
	text := eval[string](tb, `document.getElementById("tree-status").textContent`)
	sm := statusRE.FindStringSubmatch(text)
	if sm == nil {
		tb.t.Fatalf("#tree-status reads %q, not \"N / M entries\"", text)
	}
	n, _ = strconv.Atoi(sm[1])
	m, _ = strconv.Atoi(sm[2])
	return n, m
}

// settle waits until the page has run the timers its input handlers set
// and the search workers have answered.
func (tb *tab) settle() {
	tb.t.Helper()
	evalAsync[chromedp.Void](tb, `new Promise((r) => setTimeout(r, 250)).then(searched)`)
}

// noWorkers makes the tab's next pages run as in a browser without Web
// Workers: the page then searches on its own thread (its quick search,
// then its own exact index).
func (tb *tab) noWorkers() {
	tb.t.Helper()
	tb.beforePages(`Object.defineProperty(window, "Worker", { value: undefined, configurable: true });`)
}

// beforePages runs src in each of the tab's next pages before their own
// scripts.
func (tb *tab) beforePages(src string) {
	tb.t.Helper()
	if _, err := chromedp.Call(tb.ctx, page.AddScriptToEvaluateOnNewDocument,
		page.AddScriptToEvaluateOnNewDocumentParams{Source: src}); err != nil {
		tb.t.Fatalf("adding a script to the tab's pages: %v", err)
	}
}

// searchIndex waits (at most 30 s) until the page's exact search index is
// complete and returns where it is: "workers" or "page".
func (tb *tab) searchIndex() string {
	tb.t.Helper()
	return evalAsync[string](tb, `(async () => {
  const box = document.getElementById("tree-search");
  for (let i = 0; i < 600 && !box.hasAttribute("data-index"); i++) await new Promise((r) => setTimeout(r, 50));
  return box.getAttribute("data-index") || "not ready after 30 s";
})()`)
}

// click clicks, with the mouse, the middle of the element that the
// expression elem yields, after checking that it is there, visible and not
// covered by another element.
func (tb *tab) click(what, elem string) {
	tb.t.Helper()
	type point struct {
		X, Y       float64
		Found, Hit bool
	}
	p := eval[point](tb, `(() => {
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
	tb.do(what, chromedp.MouseClickXY(p.X, p.Y))
}

func (tb *tab) clickFilter(mode string) {
	tb.t.Helper()
	tb.click("clicking filter "+mode, `document.querySelector('#sidebar button[data-filter="`+mode+`"]')`)
}

// clickRow brings the tree row of entry id into view and clicks it.
func (tb *tab) clickRow(id string) {
	tb.t.Helper()
	if !tb.showRow(id) {
		tb.t.Fatalf("no tree row for entry %q in the current filter", id)
	}
	tb.click("clicking the row of "+id, `rowOf(`+jsString(id)+`)`)
}

// showRow scrolls the virtualized tree until the row of entry id is in the
// DOM, and reports whether it is.
func (tb *tab) showRow(id string) bool {
	tb.t.Helper()
	return evalAsync[bool](tb, `(async () => {
  const tree = document.getElementById("tree");
  if (rowOf(`+jsString(id)+`)) return true;
  const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  for (let top = 0; ; top += Math.max(20, tree.clientHeight / 2)) {
    if (rowOf(`+jsString(id)+`)) break;
    if (top > tree.scrollHeight) return false;
    tree.scrollTop = top;
    await frame();
  }
  rowOf(`+jsString(id)+`).scrollIntoView({ block: "center" });
  await frame();
  return !!rowOf(`+jsString(id)+`);
})()`)
}

// clean fails the test for any console error, exception, CSP violation,
// log error or dialog seen so far and not yet reported. newTab also calls
// it when the test ends, so that problems are reported when a test stops
// early.
func (tb *tab) clean() {
	tb.t.Helper()
	w := tb.w
	w.mu.Lock()
	var found []string
	for _, p := range w.problems[w.reportedProblems:] {
		found = append(found, "page problem: "+p)
	}
	for _, d := range w.dialogs[w.reportedDialogs:] {
		found = append(found, "a dialog opened: "+d)
	}
	w.reportedProblems, w.reportedDialogs = len(w.problems), len(w.dialogs)
	w.mu.Unlock()
	for _, f := range found {
		tb.t.Error(f)
	}
}

func jsString(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// ---- Pages ----------------------------------------------------------------

var renderer = sync.OnceValues(render.New)

func load(t *testing.T, path string) *sessiontree.Session {
	t.Helper()
	s, err := sessiontree.LoadFile(path)
	if err != nil {
		t.Fatalf("loading %s: %v", path, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// generatedSession writes a session made by sessiongen with cfg into a
// temporary directory and loads it: the session and the directory.
func generatedSession(t *testing.T, cfg sessiongen.Config) (*sessiontree.Session, string) {
	t.Helper()
	var buf bytes.Buffer
	if err := sessiongen.Generate(&buf, cfg); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "gen.jsonl")
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return load(t, file), dir
}

// writePage renders s into dir and returns the page's file:// URL.
func writePage(t *testing.T, s *sessiontree.Session, dir, name string) string {
	t.Helper()
	r, err := renderer()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name+".html")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Render(f, s, render.Options{}); err != nil {
		f.Close()
		t.Fatalf("rendering %s: %v", s.File, err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}

// demoSession is the demo session, or the first conformance case.
func demoSession(t *testing.T) *sessiontree.Session {
	t.Helper()
	if _, err := os.Stat("../testdata/demo/demo.jsonl"); err == nil {
		return load(t, "../testdata/demo/demo.jsonl")
	}
	files, _ := filepath.Glob("../testdata/conformance/s000/*.jsonl")
	if len(files) == 0 {
		t.Fatal("neither testdata/demo/demo.jsonl nor testdata/conformance/s000 found")
	}
	return load(t, files[0])
}

func withQuery(u string, q url.Values) string {
	return u + "?" + q.Encode()
}

// ---- What the page should show, computed in Go ----------------------------

func onPath(s *sessiontree.Session, leaf *sessiontree.Entry) map[*sessiontree.Entry]bool {
	m := map[*sessiontree.Entry]bool{}
	for _, e := range s.Path(leaf) {
		m[e] = true
	}
	return m
}

func body(e *sessiontree.Entry) *sessiontree.Body {
	b, err := e.Decode()
	if err != nil {
		return nil
	}
	return b
}

func messageText(e *sessiontree.Entry) string {
	b := body(e)
	if b == nil || b.Message == nil {
		return ""
	}
	var sb strings.Builder
	for _, blk := range b.Message.Content {
		if blk.Type == "text" {
			sb.WriteString(blk.Text)
			sb.WriteByte('\n')
		}
	}
	return sb.String()
}

// embeddedResults are the tool results drawn inside their call's card (no
// article of their own): for each call id, the first result in file order
// below the calling message.
func embeddedResults(s *sessiontree.Session) map[*sessiontree.Entry]bool {
	calls := map[string]*sessiontree.Entry{}
	out := map[*sessiontree.Entry]bool{}
	claimed := map[string]bool{}
	for _, e := range s.Entries {
		b := body(e)
		if b == nil || b.Message == nil {
			continue
		}
		switch b.Message.Role {
		case sessiontree.RoleAssistant:
			for _, blk := range b.Message.Content {
				if blk.Type == "toolCall" && blk.ID != "" && calls[blk.ID] == nil {
					calls[blk.ID] = e
				}
			}
		case sessiontree.RoleToolResult:
			id := b.Message.ToolCallID
			call := calls[id]
			if call == nil || claimed[id] {
				continue
			}
			for p := e.Parent; p != nil; p = p.Parent {
				if p == call {
					out[e], claimed[id] = true, true
					break
				}
			}
		}
	}
	return out
}

// isShownMessage reports whether e is a user message, or an assistant
// message with text: rows every filter but user-only and labeled-only show.
func isShownMessage(e *sessiontree.Entry) bool {
	if e.Type != sessiontree.TypeMessage {
		return false
	}
	switch e.Role {
	case sessiontree.RoleUser:
		return true
	case sessiontree.RoleAssistant:
		return strings.TrimSpace(messageText(e)) != ""
	}
	return false
}

// offPathPair finds a leaf A off the session's active path (a user or
// assistant message) and an ancestor B of A, also off the path, that is a
// user message or an assistant message with text, B != A when possible.
func offPathPair(s *sessiontree.Session) (a, b *sessiontree.Entry) {
	active := onPath(s, s.Leaf)
	for _, leaf := range s.Leaves() {
		if active[leaf] || leaf.Type != sessiontree.TypeMessage ||
			(leaf.Role != sessiontree.RoleUser && leaf.Role != sessiontree.RoleAssistant) {
			continue
		}
		var best *sessiontree.Entry
		for e := leaf; e != nil && !active[e]; e = e.Parent {
			if isShownMessage(e) {
				best = e
				if e != leaf {
					break
				}
			}
		}
		if best != nil {
			return leaf, best
		}
	}
	return nil, nil
}

// ---- 1. No console error --------------------------------------------------

func TestBrowserLoadsCleanly(t *testing.T) {
	t.Parallel()
	s := demoSession(t)
	tb := newTab(t)
	tb.open(writePage(t, s, t.TempDir(), "demo"))
	// The script ran to the end: the tree has rows and the status is set.
	if n := eval[int](tb, `document.querySelectorAll("#tree .row").length`); n == 0 {
		t.Error("the tree has no rows after load")
	}
	if !eval[bool](tb, `document.documentElement.classList.contains("js")`) {
		t.Error("the page script did not run (no js class on <html>)")
	}
	if n, m := tb.status(); n != render.FilterCounts(s, nil)["default"] || m != len(s.Entries) {
		t.Errorf("status %d / %d after load", n, m)
	}
	// Use the toolbar too: its code paths must not throw either.
	for _, id := range []string{"toggle-thinking", "toggle-tools", "toggle-theme"} {
		tb.click("clicking #"+id, `document.getElementById("`+id+`")`)
	}
	if got := eval[string](tb, `document.getElementById("toggle-tools").getAttribute("aria-pressed")`); got != "true" {
		t.Errorf("Expand outputs: aria-pressed=%q after a click", got)
	}
	time.Sleep(100 * time.Millisecond) // late errors
	tb.clean()
}

// ---- 2. Filter counts -----------------------------------------------------

func TestBrowserFilterCounts(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("../testdata/conformance/*/*.jsonl")
	if err != nil || len(files) < 30 {
		t.Fatalf("expected the 30 conformance cases, found %d (%v)", len(files), err)
	}
	shared := os.Getenv("CANOPY_SHARED")
	if shared == "" {
		shared = filepath.Join("..", "..", "shared")
	}
	if large := filepath.Join(shared, "corpus", "large-session.jsonl"); fileExists(large) {
		files = append([]string{large}, files...) // the slowest first
	} else {
		t.Logf("%s not found: checking the conformance cases only", large)
	}
	dir := t.TempDir()
	// Shards, each in its own tab, run side by side (as many as -parallel
	// allows); each tab goes through its pages one after the other.
	const shards = 3
	for k := range shards {
		t.Run(fmt.Sprintf("shard%d", k), func(t *testing.T) {
			t.Parallel()
			tb := newTab(t)
			for i := k; i < len(files); i += shards {
				tb.deadline()
				checkFilterCounts(t, tb, files[i], dir, i)
			}
			tb.clean()
		})
	}
}

func checkFilterCounts(t *testing.T, tb *tab, file, dir string, i int) {
	t.Helper()
	s := load(t, file)
	want := render.FilterCounts(s, nil)
	name := filepath.Base(filepath.Dir(file))
	if filepath.Base(file) == "large-session.jsonl" {
		name = "large-session"
	}
	tb.open(writePage(t, s, dir, fmt.Sprintf("p%02d", i)))
	if n, m := tb.status(); n != want["default"] || m != len(s.Entries) {
		t.Errorf("%s: on load the tree shows %d / %d entries, want %d / %d", name, n, m, want["default"], len(s.Entries))
	}
	for _, mode := range []string{"no-tools", "user-only", "labeled-only", "all", "default"} {
		tb.clickFilter(mode)
		type filterState struct {
			Status  string
			Pressed []string
		}
		st := eval[filterState](tb, `({
  Status: document.getElementById("tree-status").textContent,
  Pressed: [...document.querySelectorAll("button[data-filter]")].filter((b) => b.getAttribute("aria-pressed") === "true").map((b) => b.dataset.filter),
})`)
		if got, want := st.Status, fmt.Sprintf("%d / %d entries", want[mode], len(s.Entries)); strings.TrimSpace(got) != want {
			t.Errorf("%s, filter %s: the tree shows %q, want %q", name, mode, got, want)
		}
		if len(st.Pressed) != 1 || st.Pressed[0] != mode {
			t.Errorf("%s, filter %s: buttons pressed: %v", name, mode, st.Pressed)
		}
	}
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// ---- 3. Search ------------------------------------------------------------

// searchWord picks a word of some user messages that only a few entries
// contain; it returns the word, the user messages that contain it (the
// tree must show them) and every entry that could match it (the tree may
// show no other).
func searchWord(s *sessiontree.Session) (word string, must, may map[string]bool) {
	raw := make([]string, len(s.Entries))
	for i, e := range s.Entries {
		b, _ := e.Raw()
		raw[i] = strings.ToLower(string(b))
	}
	words := map[string]bool{}
	split := regexp.MustCompile(`[a-z]{6,}`)
	for _, e := range s.Entries {
		if e.Type == sessiontree.TypeMessage && e.Role == sessiontree.RoleUser {
			for _, w := range split.FindAllString(strings.ToLower(messageText(e)), -1) {
				words[w] = true
			}
		}
	}
	type cand struct {
		w    string
		hits int
	}
	var cands []cand
	for w := range words {
		hits := 0
		for _, r := range raw {
			if strings.Contains(r, w) {
				hits++
			}
		}
		if hits >= 2 && hits*3 <= len(s.Entries) {
			cands = append(cands, cand{w, hits})
		}
	}
	if len(cands) == 0 {
		return "", nil, nil
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].hits != cands[j].hits {
			return cands[i].hits < cands[j].hits
		}
		return cands[i].w < cands[j].w
	})
	word = cands[0].w
	must, may = map[string]bool{}, map[string]bool{}
	for i, e := range s.Entries {
		if e.Type == sessiontree.TypeMessage && e.Role == sessiontree.RoleUser &&
			strings.Contains(strings.ToLower(messageText(e)), word) {
			must[e.ID] = true
		}
		// A row matches on its own text, its label, and its rendered
		// element: a result's card shows its call's arguments.
		match := strings.Contains(raw[i], word) || strings.Contains(strings.ToLower(s.Labels[e.ID]), word)
		for p, n := e.Parent, 0; !match && p != nil && n < 8 && e.Role == sessiontree.RoleToolResult; p, n = p.Parent, n+1 {
			match = strings.Contains(raw[p.Index], word)
		}
		if match || e == s.Leaf {
			may[e.ID] = true
		}
	}
	return word, must, may
}

func TestBrowserSearch(t *testing.T) {
	t.Parallel()
	s := demoSession(t)
	word, must, may := searchWord(s)
	if word == "" {
		t.Fatalf("%s: no word to search for", s.File)
	}
	t.Logf("searching %s for %q: %d user messages contain it", s.File, word, len(must))
	tb := newTab(t)
	tb.open(writePage(t, s, t.TempDir(), "search"))
	all, _ := tb.status()

	tb.do("typing into the search box", chromedp.SendKeys(chromedp.CSS("#tree-search"), word))
	tb.settle()
	n, _ := tb.status()
	if n <= 0 || n >= all {
		t.Fatalf("after searching %q the tree shows %d of %d rows: want fewer, and some", word, n, all)
	}
	rows := eval[[]string](tb, `[...document.querySelectorAll("#tree .row")].map((r) => r.getAttribute("data-entry-id"))`)
	if n <= 40 && len(rows) != n { // all rows fit the drawn window
		t.Errorf("status says %d rows, %d are drawn", n, len(rows))
	}
	drawn := map[string]bool{}
	for _, id := range rows {
		drawn[id] = true
		if !may[id] {
			t.Errorf("row %s is shown, but nothing in that entry contains %q", id, word)
		}
	}
	for id := range must {
		if n <= 40 && !drawn[id] {
			t.Errorf("user message %s contains %q but its row is not shown", id, word)
		}
	}

	tb.do("pressing Escape in the search box", chromedp.SendKeys(chromedp.CSS("#tree-search"), kb.Escape))
	tb.settle()
	if back, _ := tb.status(); back != all {
		t.Errorf("after Escape the tree shows %d rows, want %d", back, all)
	}
	if v := eval[string](tb, `document.getElementById("tree-search").value`); v != "" {
		t.Errorf("after Escape the search box holds %q", v)
	}
	tb.clean()
}

// ---- 4. Deep links --------------------------------------------------------

// branchedSession is the demo session when it has a branch off its active
// path, else the first conformance case with one.
func branchedSession(t *testing.T) (s *sessiontree.Session, a, b *sessiontree.Entry) {
	t.Helper()
	s = demoSession(t)
	if a, b = offPathPair(s); a != nil {
		return s, a, b
	}
	files, _ := filepath.Glob("../testdata/conformance/*/*.jsonl")
	for _, f := range files {
		s = load(t, f)
		if a, b = offPathPair(s); a != nil {
			return s, a, b
		}
	}
	t.Fatal("no session with a branch off its active path")
	return nil, nil, nil
}

func TestBrowserDeepLink(t *testing.T) {
	t.Parallel()
	s, a, b := branchedSession(t)
	t.Logf("%s: leaf %s, target %s", s.File, a.ID, b.ID)
	page := writePage(t, s, t.TempDir(), "deep")
	tb := newTab(t)

	tb.open(withQuery(page, url.Values{"leafId": {a.ID}, "targetId": {b.ID}}))
	type targetState struct {
		Exists, Target, InView, RowSelected, NoticeHidden bool
	}
	st := eval[targetState](tb, `(() => {
  const el = entryOf(`+jsString(b.ID)+`), row = rowOf(`+jsString(b.ID)+`);
  const r = el ? el.getBoundingClientRect() : null;
  return {
    Exists: !!el,
    Target: !!el && el.classList.contains("target"),
    InView: !!r && r.top >= -1 && r.top < innerHeight && r.bottom > 0,
    RowSelected: !!row && row.getAttribute("aria-selected") === "true",
    NoticeHidden: document.getElementById("notice").hidden,
  };
})()`)
	if !st.Exists {
		t.Fatalf("#entry-%s is not in #conversation", b.ID)
	}
	if !st.Target {
		t.Errorf("#entry-%s does not have class target", b.ID)
	}
	if !st.InView {
		t.Errorf("#entry-%s is not in the viewport", b.ID)
	}
	if !st.RowSelected {
		t.Errorf("the row of %s is not drawn with aria-selected=true", b.ID)
	}
	if !st.NoticeHidden {
		t.Errorf("a notice is shown for a valid link: %q", eval[string](tb, `document.getElementById("notice").textContent`))
	}
	for _, e := range s.Path(a) {
		if !eval[bool](tb, `!!entryOf(`+jsString(e.ID)+`)`) {
			t.Errorf("entry %s of the path to %s is not in #conversation", e.ID, a.ID)
		}
	}
	if eval[bool](tb, `!!entryOf(`+jsString(s.Leaf.ID)+`)`) {
		t.Errorf("the session's leaf %s is shown, though the link asked for the path to %s", s.Leaf.ID, a.ID)
	}

	tb.open(withQuery(page, url.Values{"leafId": {"nope"}}))
	type noticeState struct {
		Visible bool
		Text    string
		Leaf    bool
	}
	ns := eval[noticeState](tb, `(() => {
  const n = document.getElementById("notice");
  return {
    Visible: !n.hidden && getComputedStyle(n).display !== "none" && n.getBoundingClientRect().height > 0,
    Text: n.textContent,
    Leaf: !!entryOf(`+jsString(s.Leaf.ID)+`),
  };
})()`)
	if !ns.Visible {
		t.Error("?leafId=nope: #notice is not visible")
	}
	if !strings.Contains(ns.Text, "nope") {
		t.Errorf("?leafId=nope: the notice %q does not name the id", ns.Text)
	}
	if !ns.Leaf {
		t.Errorf("?leafId=nope: the session's leaf %s is not shown", s.Leaf.ID)
	}
	tb.clean()
}

// ---- 5. Clicking a row ----------------------------------------------------

func TestBrowserClickRow(t *testing.T) {
	t.Parallel()
	s, _, c := branchedSession(t)
	leaf := sessiontree.NewestLeaf(c)
	t.Logf("%s: clicking %s, expecting the path to %s", s.File, c.ID, leaf.ID)
	tb := newTab(t)
	tb.open(writePage(t, s, t.TempDir(), "click"))
	tb.clickFilter("all")
	tb.clickRow(c.ID)
	tb.settle() // the address bar is brought up to date after the frame

	newPath := onPath(s, leaf)
	for _, e := range s.Path(leaf) {
		if !eval[bool](tb, `!!entryOf(`+jsString(e.ID)+`)`) {
			t.Errorf("entry %s of the path to %s is not in #conversation", e.ID, leaf.ID)
		}
	}
	for _, e := range s.Path(s.Leaf) {
		if !newPath[e] && eval[bool](tb, `!!entryOf(`+jsString(e.ID)+`)`) {
			t.Errorf("entry %s of the old path is still in #conversation", e.ID)
		}
	}
	type rowState struct {
		Selected, InPath, Target bool
		Leaf, TargetID           string
	}
	st := eval[rowState](tb, `(() => {
  const row = rowOf(`+jsString(c.ID)+`), el = entryOf(`+jsString(c.ID)+`);
  const q = new URLSearchParams(location.search);
  return {
    Selected: !!row && row.getAttribute("aria-selected") === "true",
    InPath: !!row && row.classList.contains("in-path"),
    Target: !!el && el.classList.contains("target"),
    Leaf: q.get("leafId") || "",
    TargetID: q.get("targetId") || "",
  };
})()`)
	if !st.Selected {
		t.Errorf("the clicked row %s is not aria-selected", c.ID)
	}
	if !st.InPath {
		t.Errorf("the clicked row %s does not have class in-path", c.ID)
	}
	if !st.Target {
		t.Errorf("#entry-%s is not marked as the target", c.ID)
	}
	if st.Leaf != leaf.ID || st.TargetID != c.ID {
		t.Errorf("location.search has leafId=%q targetId=%q, want %q and %q", st.Leaf, st.TargetID, leaf.ID, c.ID)
	}
	tb.clean()
}

// TestBrowserClickUnderFilter: with a filter on, a click moves the leaf
// (which the tree always shows) and the tree keeps what it knows of the
// filter while both leaves would show anyway: after each click, the tree
// must count what the filter shows with the new leaf.
func TestBrowserClickUnderFilter(t *testing.T) {
	t.Parallel()
	s, _, _ := branchedSession(t)
	page := writePage(t, s, t.TempDir(), "filterclick")
	tb := newTab(t)
	for _, mode := range []string{"user-only", "no-tools", "default"} {
		tb.open(page)
		tb.clickFilter(mode)
		leaf, clicks := s.Leaf, 0
		// Rows off the active path first (the leaf moves to another
		// branch), then back on the session's path.
		var rows []*sessiontree.Entry
		onLeafPath := onPath(s, s.Leaf)
		for _, e := range s.Entries {
			if !onLeafPath[e] {
				rows = append(rows, e)
			}
		}
		rows = append(rows, s.Path(s.Leaf)...)
		for _, e := range rows {
			if clicks == 4 {
				break
			}
			next := sessiontree.NewestLeaf(e)
			if next == leaf || !tb.showRow(e.ID) {
				continue
			}
			tb.clickRow(e.ID)
			tb.settle()
			clicks++
			leaf = next
			want := render.FilterCounts(s, leaf)[mode]
			if n, m := tb.status(); n != want || m != len(s.Entries) {
				t.Errorf("filter %s, after a click on %s (leaf %s): the tree shows %d / %d entries, want %d / %d", mode, e.ID, leaf.ID, n, m, want, len(s.Entries))
			}
			if !eval[bool](tb, `(() => { const r = rowOf(`+jsString(e.ID)+`); return !!r && r.getAttribute("aria-selected") === "true"; })()`) {
				t.Errorf("filter %s: the clicked row %s is not selected", mode, e.ID)
			}
			if !tb.showRow(leaf.ID) {
				t.Errorf("filter %s, after a click on %s: the tree has no row for the new leaf %s", mode, e.ID, leaf.ID)
			}
		}
		if clicks < 2 {
			t.Errorf("filter %s: %d rows could be clicked to move the leaf, want at least 2", mode, clicks)
		}
	}
	tb.clean()
}

// ---- 6. Without JavaScript ------------------------------------------------

func TestBrowserNoJavaScript(t *testing.T) {
	t.Parallel()
	s := demoSession(t)
	tb := newTab(t)
	if _, err := chromedp.Call(tb.ctx, emulation.SetScriptExecutionDisabled,
		emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
		t.Fatal(err)
	}
	tb.open(writePage(t, s, t.TempDir(), "nojs"))

	path := s.Path(s.Leaf)
	embedded := embeddedResults(s)
	articles := 0
	for _, e := range path {
		if !embedded[e] {
			articles++
		}
	}
	type noJSState struct {
		ScriptRan, HeaderShown, NoteShown, SearchHidden bool
		Title, Note                                     string
		Articles, Rows                                  int
		Missing                                         []string
	}
	ids, _ := json.Marshal(func() []string {
		var out []string
		for _, e := range path {
			out = append(out, e.ID)
		}
		return out
	}())
	st := eval[noJSState](tb, `(() => {
  const shown = (el) => !!el && el.getBoundingClientRect().height > 0 && getComputedStyle(el).display !== "none";
  const h1 = document.querySelector("h1"), note = document.querySelector("#sidebar .noscript");
  return {
    ScriptRan: document.documentElement.classList.contains("js"),
    HeaderShown: shown(h1),
    Title: h1 ? h1.textContent : "",
    NoteShown: shown(note),
    Note: note ? note.textContent : "",
    SearchHidden: !shown(document.getElementById("tree-search")),
    Articles: $conv.querySelectorAll("article.entry").length,
    Rows: document.querySelectorAll("#tree .row").length,
    Missing: `+string(ids)+`.filter((id) => !entryOf(id)),
  };
})()`)
	if st.ScriptRan || st.Rows > 0 {
		t.Fatalf("the page script ran with JavaScript disabled (js class %v, %d rows)", st.ScriptRan, st.Rows)
	}
	if !st.HeaderShown || strings.TrimSpace(st.Title) == "" {
		t.Errorf("no visible h1 (text %q)", st.Title)
	}
	if st.Articles != articles {
		t.Errorf("%d articles in #conversation, want %d (path of %d entries, %d results in their call's card)",
			st.Articles, articles, len(path), len(path)-articles)
	}
	for _, id := range st.Missing {
		t.Errorf("entry %s of the active path is not in #conversation", id)
	}
	if !st.NoteShown || !strings.Contains(st.Note, "JavaScript") {
		t.Errorf("the noscript note is not visible (text %q)", st.Note)
	}
	if !st.SearchHidden {
		t.Error("the search box is shown though it cannot work without JavaScript")
	}
	tb.clean()
}

// ---- 7. No network --------------------------------------------------------

func TestBrowserNoNetwork(t *testing.T) {
	t.Parallel()
	s, _, c := branchedSession(t)
	page := writePage(t, s, t.TempDir(), "net")
	tb := newTab(t)
	tb.open(page)
	for _, mode := range []string{"no-tools", "user-only", "labeled-only", "all"} {
		tb.clickFilter(mode)
	}
	word, _, _ := searchWord(s)
	tb.do("searching", chromedp.SendKeys(chromedp.CSS("#tree-search"), word))
	tb.settle()
	tb.do("clearing the search", chromedp.SendKeys(chromedp.CSS("#tree-search"), kb.Escape))
	tb.clickRow(c.ID)
	for _, id := range []string{"toggle-thinking", "toggle-tools", "toggle-theme"} {
		tb.click("clicking #"+id, `document.getElementById("`+id+`")`)
	}
	tb.click("clicking a copy-link button", `$conv.querySelector(".copy-link")`)
	time.Sleep(200 * time.Millisecond) // requests that come late

	requests := tb.w.requestsSeen()
	sawPage := false
	for _, r := range requests {
		u, err := url.Parse(r)
		switch {
		case err != nil:
			t.Errorf("request to an unparsable URL %q", r)
		case u.Scheme == "data", u.Scheme == "blob": // pictures, and the search workers' script: blob: URLs the page's script made
		case u.Scheme == "file":
			if strings.SplitN(r, "?", 2)[0] == page {
				sawPage = true
			} else {
				t.Errorf("request for another file: %s", r)
			}
		default:
			t.Errorf("network request: %s", r)
		}
	}
	if !sawPage {
		t.Errorf("the request for the page itself was not seen (requests: %q): is the network domain watched?", requests)
	}
	tb.clean()
}

// ---- 8. Hostile content ---------------------------------------------------

const hostilePayload = `<script>window.__pwned=1</script>`

func TestBrowserHostileContent(t *testing.T) {
	t.Parallel()
	s := load(t, "../testdata/hostile/hostile.jsonl")
	if len(s.Diagnostics) > 0 {
		t.Fatalf("hostile.jsonl does not load cleanly: %+v", s.Diagnostics)
	}
	tb := newTab(t)
	tb.open(writePage(t, s, t.TempDir(), "hostile"))

	type safety struct {
		Pwned, BodyHidden, PayloadText, LastEntry bool
		Handlers, Links, Scripts, Styles, Images  []string
		Articles                                  int
	}
	check := func(when string) {
		t.Helper()
		st := eval[safety](tb, `(() => {
  // Every element of the document and of the stored chunks.
  const all = [];
  const walk = (root) => root.querySelectorAll("*").forEach((el) => {
    all.push(el);
    if (el.tagName === "TEMPLATE") walk(el.content);
    // The store's chunks are raw text: parsed as the page's script does.
    if (el.tagName === "SCRIPT" && el.type === "text/x-canopy") {
      const t = document.createElement("template");
      t.innerHTML = el.textContent;
      walk(t.content);
    }
  });
  walk(document);
  const handlers = [], links = [], scripts = [], styles = [], images = [];
  const ourBlob = (el) => el.tagName === "IMG" && el.className === "image" && /^blob:/.test(el.getAttribute("src") || "");
  for (const el of all) {
    for (const a of el.attributes) if (/^on/i.test(a.name)) handlers.push(el.tagName + " " + a.name + "=" + a.value);
    const href = el.getAttribute("href") || el.getAttribute("xlink:href");
    if (href && !/^(https?:|mailto:|#)/i.test(href.trim())) links.push(el.tagName + " href=" + href);
    if (el.tagName === "SCRIPT" && !["tree-data", "source-data", "page-script"].includes(el.id) && !(el.type === "text/x-canopy" && el.parentNode.id === "store")) scripts.push(el.outerHTML.slice(0, 120));
    if (el.tagName === "STYLE" && el.parentNode !== document.head) styles.push(el.outerHTML.slice(0, 120));
    // A picture's src is its data: URL, or the blob: URL the page's script made of it.
    if ((el.tagName === "IMG" || el.tagName === "svg" || el.tagName === "IFRAME") && !(el.getAttribute("src") || "").startsWith("data:") && !ourBlob(el)) images.push(el.outerHTML.slice(0, 120));
  }
  return {
    Pwned: typeof window.__pwned !== "undefined",
    BodyHidden: getComputedStyle(document.body).display === "none" || $conv.getBoundingClientRect().height === 0,
    PayloadText: $conv.textContent.includes(`+jsString(hostilePayload)+`),
    LastEntry: !!entryOf(`+jsString(s.Leaf.ID)+`),
    Handlers: handlers, Links: links, Scripts: scripts, Styles: styles, Images: images,
    Articles: $conv.querySelectorAll("article.entry").length,
  };
})()`)
		if st.Pwned {
			t.Errorf("%s: window.__pwned is set: a payload ran", when)
		}
		if st.BodyHidden {
			t.Errorf("%s: the page is hidden: a <style> payload applied", when)
		}
		for _, list := range [][]string{st.Handlers, st.Links, st.Scripts, st.Styles, st.Images} {
			for _, x := range list {
				t.Errorf("%s: element from session text: %s", when, x)
			}
		}
		if !st.LastEntry {
			t.Errorf("%s: the last entry %s is not rendered: a payload swallowed the page", when, s.Leaf.ID)
		}
		if when == "after load" {
			if !st.PayloadText {
				t.Errorf("%s: the conversation does not show %q as text", when, hostilePayload)
			}
			if want := len(s.Path(s.Leaf)) - len(embeddedResults(s)); st.Articles != want {
				t.Errorf("%s: %d articles in #conversation, want %d", when, st.Articles, want)
			}
		}
	}
	check("after load")

	// Every entry's row, clicked in turn: each entry's element is cloned
	// from its template and put on the page.
	tb.clickFilter("all")
	ids := eval[[]string](tb, `JSON.parse(document.getElementById("tree-data").textContent).id`)
	if len(ids) != len(s.Entries) {
		t.Fatalf("the tree has %d entries, the session %d", len(ids), len(s.Entries))
	}
	if n, _ := tb.status(); n != len(s.Entries) {
		t.Errorf("filter all shows %d of %d entries", n, len(s.Entries))
	}
	for _, id := range ids {
		tb.deadline()
		tb.clickRow(id)
		type afterClick struct{ Shown, Pwned bool }
		st := eval[afterClick](tb, `({ Shown: !!entryOf(`+jsString(id)+`), Pwned: typeof window.__pwned !== "undefined" })`)
		if !st.Shown {
			t.Errorf("after clicking its row, entry %q is not in #conversation", id)
		}
		if st.Pwned {
			t.Fatalf("window.__pwned is set after clicking the row of %q", id)
		}
	}
	check("after clicking every row")

	// The search runs over the entries' text, payloads included.
	tb.do("searching for a payload", chromedp.SendKeys(chromedp.CSS("#tree-search"), "__pwned=1</script>"))
	tb.settle()
	if n, _ := tb.status(); n == 0 {
		t.Error("searching for the payload finds no entry")
	}
	check("after a search")
	time.Sleep(100 * time.Millisecond)
	tb.clean()
}

// ---- 9. The hostile corpus ------------------------------------------------

// corpusPayload is one line of testdata/hostile/payloads.txt: the text as a
// reader sees it, and the JSON string literal written into the session.
type corpusPayload struct {
	text string // after loading: lone surrogates and invalid UTF-8 as U+FFFD
	lit  string // a JSON string literal, quotes included
}

// readPayloads reads payloads.txt: one payload a line; "##" starts a
// comment; "q:" a Go-quoted string; "j:" a JSON string literal kept as
// written (lone surrogates).
func readPayloads(t *testing.T, path string) []corpusPayload {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []corpusPayload
	seen := map[string]bool{}
	for n, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		var p corpusPayload
		switch {
		case line == "" || strings.HasPrefix(line, "##"):
			continue
		case strings.HasPrefix(line, "q:"):
			s, err := strconv.Unquote(line[2:])
			if err != nil {
				t.Fatalf("%s:%d: bad Go-quoted payload: %v", path, n+1, err)
			}
			p = corpusPayload{s, jsonLiteral(s)}
		case strings.HasPrefix(line, "j:"):
			var s string
			if err := json.Unmarshal([]byte(line[2:]), &s); err != nil {
				t.Fatalf("%s:%d: bad JSON payload: %v", path, n+1, err)
			}
			p = corpusPayload{s, line[2:]}
		default:
			p = corpusPayload{line, jsonLiteral(line)}
		}
		if seen[p.lit] {
			t.Fatalf("%s:%d: duplicate payload", path, n+1)
		}
		seen[p.lit] = true
		out = append(out, p)
	}
	return out
}

// jsonLiteral quotes s as a JSON string, escaping only what JSON requires:
// markup, U+2028 and invalid UTF-8 reach the file as they are.
func jsonLiteral(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20:
			fmt.Fprintf(&b, `\u%04x`, c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// jstr is a JSON string literal that encoding/json writes as it is.
type jstr string

func (j jstr) MarshalJSON() ([]byte, error) { return []byte(j), nil }

// cat joins JSON string literals (and plain strings, quoted) into one.
func cat(parts ...any) jstr {
	var b strings.Builder
	b.WriteByte('"')
	for _, p := range parts {
		var lit string
		switch p := p.(type) {
		case jstr:
			lit = string(p)
		case corpusPayload:
			lit = p.lit
		case string:
			lit = jsonLiteral(p)
		default:
			panic(fmt.Sprintf("cat: %T", p))
		}
		b.WriteString(lit[1 : len(lit)-1])
	}
	b.WriteByte('"')
	return jstr(b.String())
}

type obj = map[string]any

// corpusSession is a pi v3 session carrying every payload in every text
// field, and what the test needs to know about it.
type corpusSession struct {
	data     []byte
	userText map[string]corpusPayload // user message id (as loaded) -> its payload
	ids      map[string][]string      // what -> entry ids (as loaded) to click
	bigID    string                   // the entry with the 10 MB word
	endID    string                   // the last entry
}

// loadedID is the id as the loader decodes the literal.
func loadedID(lit jstr) string {
	var s string
	if err := json.Unmarshal([]byte(lit), &s); err != nil {
		panic(err)
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

// buildCorpusSession writes one round per payload P on the active path,
// each entry of it carrying P in every text field it has (its id among
// them), and off each round a short branch, stored in <template>s.
func buildCorpusSession(t *testing.T, payloads []corpusPayload) *corpusSession {
	t.Helper()
	cs := &corpusSession{userText: map[string]corpusPayload{}, ids: map[string][]string{}}
	var buf strings.Builder
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	clock := time.Date(2026, 4, 1, 10, 0, 0, 0, time.UTC)
	write := func(o obj) {
		clock = clock.Add(time.Second)
		if _, ok := o["timestamp"]; !ok {
			o["timestamp"] = clock.Format("2006-01-02T15:04:05.000Z")
		}
		if err := enc.Encode(o); err != nil {
			t.Fatal(err)
		}
	}
	ms := func() int64 { return clock.UnixMilli() }
	text := func(p any) obj { return obj{"type": "text", "text": p} }
	usage := obj{"input": 10, "output": 20, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 30,
		"cost": obj{"input": 0.001, "output": 0.002, "cacheRead": 0, "cacheWrite": 0, "total": 0.003}}

	var all []any
	for _, p := range payloads {
		all = append(all, p, "\n")
	}
	write(obj{"type": "session", "version": 3, "id": cat("corpus ", payloads[0], payloads[len(payloads)-1]),
		"cwd": cat(all...)})

	var tip any // parentId of the next main entry: nil, then a jstr
	var id func(k string) jstr
	entry := func(typ any, k string, parent any, fields obj) jstr {
		o := obj{"type": typ, "id": id(k), "parentId": parent}
		for f, v := range fields {
			o[f] = v
		}
		write(o)
		return id(k)
	}
	main := func(typ any, k string, fields obj) jstr {
		e := entry(typ, k, tip, fields)
		tip = e
		return e
	}
	for i, pl := range payloads {
		p := jstr(pl.lit)
		id = func(k string) jstr { return cat(p, fmt.Sprintf(" #%d.%s", i, k)) }
		u1 := main("message", "u1", obj{"message": obj{"role": "user", "content": p, "timestamp": ms()}})
		cs.userText[loadedID(u1)] = pl
		cid := func(k string) jstr { return cat(p, " call "+k) }
		a1 := main("message", "a1", obj{"message": obj{"role": "assistant",
			"content": []any{
				obj{"type": "thinking", "thinking": p},
				text(p),
				obj{"type": "toolCall", "id": cid("bash"), "name": "bash", "arguments": obj{"command": p}},
				obj{"type": "toolCall", "id": cid("read"), "name": "read", "arguments": obj{"path": p}},
				obj{"type": "toolCall", "id": cid("write"), "name": "write", "arguments": obj{"path": p, "content": p}},
				obj{"type": "toolCall", "id": cid("edit"), "name": "edit", "arguments": obj{"path": p, "oldText": p, "newText": cat(p, "\nnew")}},
				obj{"type": "toolCall", "id": cid("own"), "name": p, "arguments": obj{"x": p, "path": p}},
			},
			"api": "x", "provider": p, "model": p, "usage": usage, "stopReason": "toolUse", "timestamp": ms()}})
		for _, k := range []string{"bash", "read", "write", "edit", "own"} {
			r := main("message", "r-"+k, obj{"message": obj{"role": "toolResult", "toolCallId": cid(k), "toolName": p,
				"content": []any{text(p)}, "isError": k == "own", "timestamp": ms()}})
			if k == "own" {
				cs.ids["own-result"] = append(cs.ids["own-result"], loadedID(r))
			}
		}
		u2 := main("message", "u2", obj{"message": obj{"role": "user", "content": []any{text(p), text("second block")}, "timestamp": ms()}})
		main("label", "label", obj{"targetId": u2, "label": p})
		main("custom_message", "cm", obj{"customType": p, "content": p, "display": true})
		main("custom", "custom", obj{"customType": p, "data": obj{"x": p}})
		main("compaction", "compaction", obj{"summary": p, "firstKeptEntryId": u2, "tokensBefore": 12345})
		main("branch_summary", "bs", obj{"fromId": a1, "summary": p})
		main("model_change", "mc", obj{"provider": p, "modelId": p})
		main("thinking_level_change", "tl", obj{"thinkingLevel": p})
		main("session_info", "si", obj{"name": p})
		main("message", "bash", obj{"message": obj{"role": "bashExecution", "command": p, "output": p, "exitCode": 1,
			"cancelled": false, "truncated": true, "fullOutputPath": p, "timestamp": ms()}})
		main("message", "err", obj{"message": obj{"role": "assistant", "content": []any{}, "api": "x", "provider": p, "model": p,
			"usage": usage, "stopReason": "error", "errorMessage": p, "timestamp": ms()}})
		fork := tip
		x := main(p, "x", obj{"text": p})
		cs.ids["unknown-type"] = append(cs.ids["unknown-type"], loadedID(x))

		// The branch off the path: written after the round, so that it is
		// newer than the path's child of the fork.
		b1 := entry("message", "b1", fork, obj{"message": obj{"role": "user", "content": []any{text(p)}, "timestamp": ms()}})
		cs.ids["branch-user"] = append(cs.ids["branch-user"], loadedID(b1))
		bid := func(k string) jstr { return cat(p, " branch call "+k) }
		b2 := entry("message", "b2", b1, obj{"message": obj{"role": "assistant",
			"content": []any{
				obj{"type": "thinking", "thinking": p},
				text(p),
				obj{"type": "toolCall", "id": bid("edit"), "name": "edit", "arguments": obj{"path": p, "oldText": "a", "newText": "b"}},
				obj{"type": "toolCall", "id": bid("own"), "name": p, "arguments": obj{"x": p}},
			},
			"api": "x", "provider": p, "model": p, "usage": usage, "stopReason": "toolUse", "timestamp": ms()}})
		entry("message", "b3", b2, obj{"message": obj{"role": "toolResult", "toolCallId": bid("edit"), "toolName": "edit",
			"content": []any{text(p)}, "details": obj{"diff": cat("-1 ", p, "\n+1 ", p, "\n ", p)}, "isError": false, "timestamp": ms()}})

		if i == 0 {
			// One word of 10 MB, on the path, early: the rest of the
			// conversation comes after it. (Early, too, because Chromium
			// takes seconds to lay it out: the clicks below keep it shown.)
			big := main("message", "big", obj{"message": obj{"role": "assistant",
				"content": []any{text(strings.Repeat("Wx0", 10<<20/3))},
				"api":     "x", "provider": "p", "model": "m", "usage": usage, "stopReason": "stop", "timestamp": ms()}})
			cs.bigID = loadedID(big)
		}
	}
	id = func(string) jstr { return cat("END ", payloads[0]) }
	end := main("message", "end", obj{"message": obj{"role": "assistant", "content": []any{text("END-OF-CONVERSATION")},
		"api": "x", "provider": "p", "model": "m", "usage": usage, "stopReason": "stop", "timestamp": ms()}})
	cs.endID = loadedID(end)
	cs.data = []byte(buf.String())
	return cs
}

// literalInMarkdown reports whether Markdown shows p exactly as written:
// plain ASCII on one line, without the characters Markdown interprets.
var autolinkRE = regexp.MustCompile(`<[A-Za-z][A-Za-z0-9.+-]{1,31}:[^\s<>]*>`)

func literalInMarkdown(p corpusPayload) bool {
	for i := 0; i < len(p.text); i++ {
		if c := p.text[i]; c < 0x20 || c > 0x7e {
			return false
		}
	}
	return strings.TrimSpace(p.text) == p.text && !strings.ContainsAny(p.text, "[]*~`&\\!|") &&
		!strings.Contains(strings.ReplaceAll(p.text, "__pwned", ""), "_") &&
		!strings.HasPrefix(p.text, "#") && !strings.HasPrefix(p.text, ">") && !autolinkRE.MatchString(p.text)
}

// corpusScan lists what session text must never become on the page: every
// element of the document and of the stored chunks is looked at.
const corpusScan = `(() => {
  const all = [];
  const walk = (root) => root.querySelectorAll("*").forEach((el) => {
    all.push(el);
    if (el.tagName === "TEMPLATE") walk(el.content);
    // The store's chunks are raw text: parsed as the page's script does.
    if (el.tagName === "SCRIPT" && el.type === "text/x-canopy") {
      const t = document.createElement("template");
      t.innerHTML = el.textContent;
      walk(t.content);
    }
  });
  walk(document);
  const ours = new Set(["tree-data", "source-data", "page-script"]);
  const bad = [];
  // A picture's src is its data: URL, or the blob: URL the page's script made of it.
  const ourBlob = (el) => el.tagName === "IMG" && el.className === "image" && /^blob:/.test(el.getAttribute("src") || "");
  const deny = /^(script|style|iframe|frame|frameset|object|embed|base|meta|link|form|textarea|select|video|audio|source|svg|math|marquee|portal|noscript|noembed|xmp|plaintext|dialog|title|body|html|head)$/i;
  for (const el of all) {
    const tag = el.tagName.toLowerCase();
    const inHead = el.parentNode === document.head;
    const isOurs = (tag === "script" && (ours.has(el.id) || (el.type === "text/x-canopy" && el.parentNode && el.parentNode.id === "store"))) ||
      (tag === "style" && inHead) || (tag === "meta" && inHead) || (tag === "title" && inHead) ||
      (tag === "noscript" && el.parentNode && el.parentNode.id === "sidebar") ||
      ((tag === "html" || tag === "head" || tag === "body") && el.ownerDocument === document && (el === document.documentElement || el === document.head || el === document.body));
    if (deny.test(tag) && !isOurs) bad.push("element " + el.outerHTML.slice(0, 100));
    if (tag === "template" && !(el.parentNode && el.parentNode.id === "store")) bad.push("template " + el.outerHTML.slice(0, 100));
    if (tag === "input" && el.id !== "tree-search" && !(el.type === "checkbox" && el.disabled)) bad.push("input " + el.outerHTML.slice(0, 100));
    for (const a of el.attributes) {
      const name = a.name.toLowerCase(), v = a.value.trim();
      if (/^on/.test(name)) bad.push(tag + " " + name + "=" + v.slice(0, 80));
      if (name === "style" && !el.closest("#tree")) bad.push(tag + " style=" + v.slice(0, 80));
      if (/^(src|srcset|srcdoc|data|action|formaction|ping|background|poster|xlink:href|autofocus)$/.test(name) && !/^data:image\/(png|jpeg|gif|webp)[;,]/i.test(v) && !ourBlob(el))
        bad.push(tag + " " + name + "=" + v.slice(0, 80));
      if (name === "href" && !/^(https?:|mailto:|#)/i.test(v)) bad.push(tag + " href=" + v.slice(0, 80));
    }
    if (tag === "img" && !(el.getAttribute("src") || "").startsWith("data:") && !ourBlob(el)) bad.push("img " + el.outerHTML.slice(0, 100));
  }
  return bad;
})()`

func TestBrowserHostileCorpus(t *testing.T) {
	t.Parallel()
	start := time.Now()
	payloads := readPayloads(t, "../testdata/hostile/payloads.txt")
	if len(payloads) < 110 {
		t.Fatalf("payloads.txt holds %d payloads, want at least 110", len(payloads))
	}
	cs := buildCorpusSession(t, payloads)
	dir := t.TempDir()
	file := filepath.Join(dir, "corpus.jsonl")
	if err := os.WriteFile(file, cs.data, 0o644); err != nil {
		t.Fatal(err)
	}
	s := load(t, file)
	if len(s.Diagnostics) > 0 {
		t.Errorf("the corpus session does not load cleanly: %d diagnostics, the first %+v", len(s.Diagnostics), s.Diagnostics[0])
	}
	if s.Leaf == nil || s.Leaf.ID != cs.endID {
		t.Fatalf("the session's leaf is not the END entry")
	}
	page := writePage(t, s, dir, "corpus")
	t.Logf("%d payloads, %d entries, session %.1f MB; built and rendered in %v",
		len(payloads), len(s.Entries), float64(len(cs.data))/(1<<20), time.Since(start).Round(time.Millisecond))

	// What the conversation shows for the session's leaf: an element for
	// every entry of the path (results inside their call's card).
	var pathIDs, articleIDs []string
	embedded := embeddedResults(s)
	for _, e := range s.Path(s.Leaf) {
		pathIDs = append(pathIDs, e.ID)
		if !embedded[e] {
			articleIDs = append(articleIDs, e.ID)
		}
	}

	tb := newTab(t)
	tb.open(page)

	type corpusState struct {
		Pwned, End, BodyHidden bool
		Last                   string
		Articles, Disorder     int
		Missing, Bad           []string
	}
	check := func(when string) {
		t.Helper()
		tb.deadline()
		st := eval[corpusState](tb, `(() => {
  // A long conversation has elements for a window of its entries; before
  // printing, for all of them.
  window.dispatchEvent(new Event("beforeprint"));
  const end = entryOf(`+jsString(cs.endID)+`);
  return {
    Pwned: typeof window.__pwned !== "undefined",
    End: !!end && end.textContent.includes("END-OF-CONVERSATION") && $conv.lastElementChild === end,
    Last: $conv.lastElementChild ? $conv.lastElementChild.id.slice(0, 80) : "",
    BodyHidden: getComputedStyle(document.body).display === "none" || $conv.getBoundingClientRect().height === 0,
    Articles: $conv.querySelectorAll("article.entry").length,
    Missing: `+jsStrings(pathIDs)+`.filter((id) => !entryOf(id)),
    Disorder: (() => { // the first child of #conversation out of the path's order, or -1
      const want = `+jsStrings(articleIDs)+`, kids = $conv.children;
      for (let i = 0; i < Math.max(want.length, kids.length); i++) if (i >= want.length || kids[i] !== entryOf(want[i])) return i;
      return -1;
    })(),
    Bad: `+corpusScan+`,
  };
})()`)
		if st.Pwned {
			t.Errorf("%s: window.__pwned is set: a payload ran", when)
		}
		if st.BodyHidden {
			t.Errorf("%s: the page is hidden: a <style> payload applied", when)
		}
		if !st.End {
			t.Errorf("%s: the last element of #conversation is %q, not #entry-<last id> with END-OF-CONVERSATION: a payload swallowed the page", when, st.Last)
		}
		if st.Articles != len(articleIDs) {
			t.Errorf("%s: %d articles in #conversation, want %d", when, st.Articles, len(articleIDs))
		}
		if st.Disorder >= 0 {
			t.Errorf("%s: element %d of #conversation is not the path's entry %d", when, st.Disorder, st.Disorder)
		}
		for _, id := range st.Missing {
			t.Errorf("%s: entry %q of the path has no element #entry-<id> in #conversation", when, id)
		}
		for i, b := range st.Bad {
			if i == 20 {
				t.Errorf("%s: and %d more", when, len(st.Bad)-i)
				break
			}
			t.Errorf("%s: from session text: %s", when, b)
		}
		tb.clean()
	}
	check("after load")

	// Payloads show as the text they are, in the user messages.
	var ids, texts []string
	for id, p := range cs.userText {
		if literalInMarkdown(p) {
			ids, texts = append(ids, id), append(texts, p.text)
		}
	}
	if len(ids) < 30 {
		t.Errorf("only %d payloads are plain enough to be checked as literal text", len(ids))
	}
	missing := eval[[]int](tb, `(() => {
  const ids = `+jsStrings(ids)+`, texts = `+jsStrings(texts)+`, out = [];
  ids.forEach((id, i) => { const el = entryOf(id); if (!el || !el.textContent.includes(texts[i])) out.push(i); });
  return out;
})()`)
	for _, i := range missing {
		t.Errorf("the user message %q does not show its payload as text: %q", ids[i], texts[i])
	}

	// A remote Markdown image is a link, never fetched; an embedded PNG is
	// shown (so the scan for images sees some).
	type images struct{ RemoteLink, Embedded, Big bool }
	im := eval[images](tb, `({
  RemoteLink: !!$conv.querySelector('a[href="http://127.0.0.1:9/remote.png"]'),
  Embedded: !!$conv.querySelector('img[src^="data:image/png;base64,iVBOR"]'),
  Big: !!entryOf(`+jsString(cs.bigID)+`) && entryOf(`+jsString(cs.bigID)+`).textContent.length >= 10 << 20,
})`)
	if !im.RemoteLink {
		t.Error("![remote picture](http://127.0.0.1:9/remote.png) is not shown as a link")
	}
	if !im.Embedded {
		t.Error("the embedded PNG of payloads.txt is not shown as an image")
	}
	if !im.Big {
		t.Error("the entry with the 10 MB word is not shown whole")
	}

	// Filter "all", searches, clicks on rows.
	tb.clickFilter("all")
	if n, _ := tb.status(); n != len(s.Entries) {
		t.Errorf("filter all shows %d of %d entries", n, len(s.Entries))
	}
	// One search typed key by key; the others set at once (each keystroke
	// searches 4,000 entries and highlights a 17 MB conversation).
	tb.do("typing a search", chromedp.SendKeys(chromedp.CSS("#tree-search"), "<!--"))
	tb.settle()
	if n, _ := tb.status(); n == 0 {
		t.Error("searching <!-- finds no entry")
	}
	for _, q := range []string{"__pwned=1</script>", "javascript: onerror", "</template>", "127.0.0.1:9 \u202e", "{{.}}"} {
		tb.deadline()
		n := evalAsync[int](tb, `(async () => {
  const box = document.getElementById("tree-search");
  box.value = `+jsString(q)+`;
  box.dispatchEvent(new Event("input", { bubbles: true }));
  await new Promise((r) => setTimeout(r, 250));
  return document.querySelectorAll("#tree .row").length;
})()`)
		if n == 0 {
			t.Errorf("searching %q shows no row", q)
		}
	}
	tb.do("clearing the search", chromedp.SendKeys(chromedp.CSS("#tree-search"), kb.Escape))
	tb.settle()
	if n, _ := tb.status(); n != len(s.Entries) {
		t.Errorf("after Escape filter all shows %d of %d entries", n, len(s.Entries))
	}
	if eval[bool](tb, `typeof window.__pwned !== "undefined"`) {
		t.Error("window.__pwned is set after searching")
	}
	tb.clean()

	treeIDs := eval[[]string](tb, `JSON.parse(document.getElementById("tree-data").textContent).id`)
	pos := map[string]int{}
	for i, id := range treeIDs {
		pos[id] = i
	}
	var clicks []string
	for _, k := range []string{"branch-user", "own-result", "unknown-type"} {
		list := cs.ids[k]
		clicks = append(clicks, list[len(list)/(2+len(clicks))])
	}
	// Entries whose ids hold NUL, CR, a bidi override, U+FFFD (from a
	// lone surrogate): one of each.
	for _, c := range []string{"\x00", "\r", "\u202e", "\uFFFD"} {
		var pick string
		for id := range cs.userText {
			if strings.Contains(id, c) && (pick == "" || id < pick) {
				pick = id
			}
		}
		if pick == "" {
			t.Errorf("no payload puts %q into an id", c)
			continue
		}
		clicks = append(clicks, pick)
	}
	// Not the row of the 10 MB word: Chromium takes seconds to draw that
	// word when it is scrolled into view (it is shown on every path below).
	// In tree order, each click changes the conversation a little.
	sort.Slice(clicks, func(i, j int) bool { return pos[clicks[i]] < pos[clicks[j]] })
	clicks = append(clicks, cs.endID) // back to the session's leaf
	for _, id := range clicks {
		tb.deadline()
		p, ok := pos[id]
		if !ok {
			t.Errorf("entry %q is not in the tree data", id)
			continue
		}
		// In filter "all" without a search, row n is tree position n.
		eval[chromedp.Void](tb, `(() => {
  const tree = document.getElementById("tree");
  tree.scrollTop = Math.max(0, `+strconv.Itoa(p)+` * 20 - tree.clientHeight / 2);
  tree.dispatchEvent(new Event("scroll")); // the page draws the rows in view
})()`)
		tb.clickRow(id)
		type afterClick struct{ Shown, Target, Pwned bool }
		st := eval[afterClick](tb, `(() => {
  const el = entryOf(`+jsString(id)+`);
  return { Shown: !!el, Target: !!el && el.classList.contains("target"), Pwned: typeof window.__pwned !== "undefined" };
})()`)
		if !st.Shown {
			t.Errorf("after clicking its row, entry %q is not in #conversation", id)
		} else if !st.Target {
			t.Errorf("after clicking its row, entry %q is not marked as the target", id)
		}
		if st.Pwned {
			t.Fatalf("window.__pwned is set after clicking the row of %q", id)
		}
	}
	check("after clicking rows")

	time.Sleep(200 * time.Millisecond) // requests that come late
	for _, r := range tb.w.requestsSeen() {
		u, err := url.Parse(r)
		switch {
		case err == nil && u.Scheme == "data":
		case err == nil && u.Scheme == "blob": // the search workers' script and pictures: the page's script made them
		case err == nil && u.Scheme == "file" && strings.SplitN(r, "?", 2)[0] == page:
		default:
			t.Errorf("request: %.200s", r)
		}
	}
	tb.clean()
	t.Logf("%d payloads checked as literal text, %d rows clicked; %v in all", len(ids), len(clicks), time.Since(start).Round(time.Millisecond))
}

// jsStrings is a JavaScript array of strings.
func jsStrings(v []string) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

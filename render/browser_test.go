package render_test

// Browser tests: the exported page in Debian's Chromium, driven by chromedp.
// One browser is shared by every test (started on first use, stopped by
// TestMain); each test has its own tab and a time limit. Without Chromium
// the tests are skipped, except under CI, where they fail.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
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
	var bin string
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			bin = p
			break
		}
	}
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
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(bin),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(dir),
		// Wider than the page's 900px breakpoint: the sidebar is shown,
		// not a closed drawer.
		chromedp.WindowSize(1280, 1000),
	)
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
const entryOf = (id) => { const el = document.getElementById("entry-" + id); return el && $conv.contains(el) ? el : null; };
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
// (the search runs after a timer of at most 120 ms).
func (tb *tab) settle() {
	tb.t.Helper()
	evalAsync[chromedp.Void](tb, `new Promise((r) => setTimeout(r, 250))`)
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
	return s
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
		raw[i] = strings.ToLower(string(e.Raw))
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
		case u.Scheme == "data":
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
  // Every element of the document and of the stored <template>s.
  const all = [];
  const walk = (root) => root.querySelectorAll("*").forEach((el) => {
    all.push(el);
    if (el.tagName === "TEMPLATE") walk(el.content);
  });
  walk(document);
  const handlers = [], links = [], scripts = [], styles = [], images = [];
  for (const el of all) {
    for (const a of el.attributes) if (/^on/i.test(a.name)) handlers.push(el.tagName + " " + a.name + "=" + a.value);
    const href = el.getAttribute("href") || el.getAttribute("xlink:href");
    if (href && !/^(https?:|mailto:|#)/i.test(href.trim())) links.push(el.tagName + " href=" + href);
    if (el.tagName === "SCRIPT" && !["tree-data", "source-data"].includes(el.id) && el !== document.body.lastElementChild) scripts.push(el.outerHTML.slice(0, 120));
    if (el.tagName === "STYLE" && el.parentNode !== document.head) styles.push(el.outerHTML.slice(0, 120));
    if ((el.tagName === "IMG" || el.tagName === "svg" || el.tagName === "IFRAME") && !(el.getAttribute("src") || "").startsWith("data:")) images.push(el.outerHTML.slice(0, 120));
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

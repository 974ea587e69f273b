package htmlpage_test

// Browser tests: the exported page in Debian's Chromium, driven by chromedp
// through internal/browsertest. One browser is shared by every test
// (started on first use, stopped by TestMain); each test has its own tab
// and a time limit. Without Chromium the tests are skipped, except under
// CI, where they fail.
//
// This file holds what every browser test of the page uses: the tab with
// the page's own actions, and the page's JavaScript helpers.

import (
	"encoding/json"
	"os"
	"regexp"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"

	"canopy/internal/browsertest"
)

// browser is the test binary's one browser: the package's tests share it.
var browser browsertest.Shared

func TestMain(m *testing.M) {
	code := m.Run()
	browser.Stop()
	os.Exit(code)
}

// tab is a tab on a canopy page: browsertest's tab, with the page's
// helpers (pageHelpers) in scope of what it evaluates and the page's own
// actions: its filters, the tree's rows, the search.
type tab struct {
	*browsertest.Tab
	t *testing.T
}

// newTab opens a tab in the shared browser, watched from its first event.
func newTab(t *testing.T) *tab {
	t.Helper()
	return &tab{Tab: browser.NewTab(t, pageHelpers), t: t}
}

// Open opens the page at u (Navigate waits for its load event) and waits
// until the page's script has unpacked its store, which it does after
// the store has arrived, asynchronously (loadStore in
// assets/page/store.js): #store has data-ready then. A page whose script
// does not run (no "js" class) or without a store is not waited for.
func (tb *tab) Open(u string) {
	tb.t.Helper()
	tb.Tab.Open(u)
	tb.waitStore()
}

// waitStore waits (10 s at most) until the page's store is unpacked.
func (tb *tab) waitStore() {
	tb.t.Helper()
	if !evalAsync[bool](tb, `(async () => {
  const ready = () => { const s = document.getElementById("store"); return !s || !document.documentElement.classList.contains("js") || s.hasAttribute("data-ready"); };
  for (const t0 = performance.now(); !ready() && performance.now() - t0 < 10000;) await new Promise((r) => setTimeout(r, 5));
  return ready();
})()`) {
		tb.t.Fatal("the page's store was not unpacked within 10 s")
	}
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
// allElements is every element of the document and of the stored chunks
// (raw text: parsed as the page's script does).
const allElements = () => {
  const all = [];
  const walk = (root) => root.querySelectorAll("*").forEach((el) => {
    all.push(el);
    if (el.tagName === "TEMPLATE") walk(el.content);
    if (el.tagName === "SCRIPT" && el.type === "text/x-canopy") {
      const t = document.createElement("template");
      t.innerHTML = el.textContent;
      walk(t.content);
    }
  });
  walk(document);
  return all;
};
// ourBlob: a picture whose src is a blob: URL the page's script made of
// its data: URL.
const ourBlob = (el) => el.tagName === "IMG" && el.className === "image" && /^blob:/.test(el.getAttribute("src") || "");
`

// eval evaluates a JavaScript expression (with pageHelpers in scope) in
// the page and decodes its value.
func eval[T any](tb *tab, expr string) T {
	tb.t.Helper()
	return browsertest.Eval[T](tb.Tab, expr)
}

// evalAsync is eval for an expression that yields a promise.
func evalAsync[T any](tb *tab, expr string) T {
	tb.t.Helper()
	return browsertest.EvalAsync[T](tb.Tab, expr)
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
	tb.BeforePages(`Object.defineProperty(window, "Worker", { value: undefined, configurable: true });`)
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

// clickFilter clicks the sidebar's button of filter mode.
func (tb *tab) clickFilter(mode string) {
	tb.t.Helper()
	tb.Click("clicking filter "+mode, `document.querySelector('#sidebar button[data-filter="`+mode+`"]')`)
}

// clickRow brings the tree row of entry id into view and clicks it.
func (tb *tab) clickRow(id string) {
	tb.t.Helper()
	if !tb.showRow(id) {
		tb.t.Fatalf("no tree row for entry %q in the current filter", id)
	}
	tb.Click("clicking the row of "+id, `rowOf(`+jsString(id)+`)`)
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

// jsString is a JavaScript string literal of s.
func jsString(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// jsStrings is a JavaScript array of strings.
func jsStrings(v []string) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

package htmlpage_test

// What a reader on a phone, with the keyboard alone or with a screen
// reader meets: the drawer, Enter then Tab, the deep-link notice, "no
// matches" and stepping through matches, the sidebar's width, folding
// branches, the tree's and the entries' names, print.

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"canopy/internal/sessiongen"
)

// key presses key in whatever has focus.
func (tb *tab) key(what, key string, opts ...chromedp.KeyOption) {
	tb.t.Helper()
	tb.Do(what, chromedp.KeyEvent(key, opts...))
}

// active describes the focused element: its id, or its tag and class.
func (tb *tab) active() string {
	tb.t.Helper()
	return eval[string](tb, `(() => { const a = document.activeElement; return a ? (a.id || a.tagName + "." + a.className) : ""; })()`)
}

type drawerState struct {
	Open, Expanded, FocusInside, ButtonReachable bool
	// Inert: the page behind the drawer (the content and the skip link).
	Inert bool
	Where string // the button's box and what is at its centre, for a failure's message
}

func (tb *tab) drawer() drawerState {
	tb.t.Helper()
	tb.settle()
	// The drawer slides: on a loaded machine 250 ms may not see it end.
	evalAsync[chromedp.Void](tb, `Promise.all(document.getAnimations().map((a) => a.finished.catch(() => {})))`)
	return eval[drawerState](tb, `(() => {
  const s = document.getElementById("sidebar"), b = document.getElementById("menu-button");
  const r = b.getBoundingClientRect(), hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return {
    Open: s.classList.contains("open") && s.getBoundingClientRect().right > 10,
    Expanded: b.getAttribute("aria-expanded") === "true",
    FocusInside: s.contains(document.activeElement),
    ButtonReachable: r.top >= 0 && r.bottom <= innerHeight && (hit === b || b.contains(hit)),
    Where: Math.round(r.top) + ".." + Math.round(r.bottom) + " of " + innerHeight + ", hit " + (hit ? hit.tagName + "#" + hit.id + "." + hit.className : "nothing"),
    Inert: document.getElementById("content").inert && document.querySelector(".skip-link").inert,
  };
})()`)
}

// drawerUntil is the drawer's state once ok says yes of it, or after two
// seconds: a drawer that was just closed may not have begun its slide
// when its animations are first asked for (the style not yet computed),
// which on a loaded machine left the button under the closing drawer.
func (tb *tab) drawerUntil(ok func(drawerState) bool) drawerState {
	tb.t.Helper()
	st := tb.drawer()
	for i := 0; i < 20 && !ok(st); i++ {
		time.Sleep(100 * time.Millisecond)
		st = tb.drawer()
	}
	return st
}

func TestBrowserPhoneDrawer(t *testing.T) {
	t.Parallel()
	tb := newTab(t)
	tb.emulate(390, 844, true)
	tb.Open(writePage(t, demoSession(t), t.TempDir(), "drawer"))
	// Far down the page, the Tree button is still in reach.
	eval[bool](tb, `(scrollTo(0, document.body.scrollHeight), true)`)
	closes := []struct {
		name string
		act  func()
	}{
		{"Escape", func() { tb.key("pressing Escape", kb.Escape) }},
		{"a tap outside", func() { tb.Do("tapping outside the drawer", chromedp.MouseClickXY(380, 300)) }},
		{"the Close button", func() { tb.Click("clicking Close", `document.getElementById("drawer-close")`) }},
	}
	// With the drawer open, Tab and Shift+Tab go round the drawer, never
	// to the page behind it.
	tb.Click("opening the drawer", `document.getElementById("menu-button")`)
	for i := range 10 { // seven Tabs (round the drawer), then three Shift+Tabs
		opts := []chromedp.KeyOption{}
		if i >= 7 {
			opts = append(opts, chromedp.KeyModifiers(chromedp.ModifierShift))
		}
		tb.key("pressing Tab in the open drawer", kb.Tab, opts...)
		if eval[bool](tb, `document.getElementById("content").contains(document.activeElement) || document.activeElement === document.querySelector(".skip-link")`) {
			t.Fatalf("Tab %d in the open drawer went to %q, behind the drawer", i+1, tb.active())
		}
	}
	// The Tabs scroll the drawer's tree smoothly: the Close button is
	// clicked where it stands once that is over, not where it was.
	tb.drawerUntil(func(st drawerState) bool { return st.Open })
	tb.Click("closing the drawer", `document.getElementById("drawer-close")`)
	for _, c := range closes {
		if st := tb.drawerUntil(func(st drawerState) bool { return st.ButtonReachable }); !st.ButtonReachable {
			t.Fatalf("before opening the drawer for %s: the Tree button is out of view or covered (%s)", c.name, st.Where)
		}
		if st := tb.drawer(); st.Inert {
			t.Fatalf("before opening the drawer for %s: the page is inert", c.name)
		}
		tb.Click("opening the drawer", `document.getElementById("menu-button")`)
		if st := tb.drawer(); !st.Open || !st.Expanded || !st.FocusInside || !st.Inert {
			t.Fatalf("the drawer did not open with focus in it and the page behind it inert: %+v", st)
		}
		c.act()
		st := tb.drawer()
		if st.Open || st.Expanded || st.Inert {
			t.Errorf("%s did not close the drawer, or left the page inert: %+v", c.name, st)
		}
		if a := tb.active(); a != "menu-button" {
			t.Errorf("after %s focus is on %q, not back on the Tree button", c.name, a)
		}
	}
	tb.Clean()
}

func TestBrowserEnterThenTab(t *testing.T) {
	t.Parallel()
	s, _, _ := branchedSession(t)
	for _, phone := range []bool{false, true} {
		tb := newTab(t)
		if phone {
			tb.emulate(390, 844, true)
		}
		tb.Open(writePage(t, s, t.TempDir(), "keys"))
		if phone {
			tb.Click("opening the drawer", `document.getElementById("menu-button")`)
		} else {
			eval[bool](tb, `(document.getElementById("tree").focus(), true)`)
		}
		for range 3 {
			tb.key("pressing ArrowDown in the tree", kb.ArrowDown)
		}
		id := eval[string](tb, `document.querySelector("#tree .row.focus").getAttribute("data-entry-id")`)
		tb.key("pressing Enter on a row", kb.Enter)
		tb.settle()
		if !phone {
			tb.key("pressing Tab", kb.Tab)
		}
		type focusState struct{ Inside, InView bool }
		st := eval[focusState](tb, `(() => {
  const el = entryOf(`+jsString(id)+`), r = el ? el.getBoundingClientRect() : null;
  return { Inside: !!el && el.contains(document.activeElement), InView: !!r && r.bottom > 0 && r.top < innerHeight };
})()`)
		if !st.Inside || !st.InView {
			t.Errorf("phone %v: after Enter on the row of %s (then Tab on a desktop), focus is on %q (in the entry: %v; the entry in view: %v)", phone, id, tb.active(), st.Inside, st.InView)
		}
		tb.Clean()
	}
}

func TestBrowserSkipLink(t *testing.T) {
	t.Parallel()
	tb := newTab(t)
	tb.Open(writePage(t, demoSession(t), t.TempDir(), "skip"))
	tb.key("pressing Tab", kb.Tab)
	if a := eval[string](tb, `document.activeElement.className`); a != "skip-link" {
		t.Fatalf("the first Tab lands on %q, not the skip link", a)
	}
	if !eval[bool](tb, `(() => { const r = document.activeElement.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight && r.width > 0; })()`) {
		t.Error("the focused skip link is not in view")
	}
	tb.key("following the skip link", kb.Enter)
	tb.key("pressing Tab", kb.Tab)
	if !eval[bool](tb, `$conv.contains(document.activeElement)`) {
		t.Errorf("after the skip link, Tab lands on %q, outside the conversation", tb.active())
	}
	tb.Clean()
}

func TestBrowserNoticeInView(t *testing.T) {
	t.Parallel()
	s := demoSession(t)
	tb := newTab(t)
	tb.Open(withQuery(writePage(t, s, t.TempDir(), "notice"), url.Values{"leafId": {"nope"}, "targetId": {s.Entries[0].ID}}))
	tb.settle()
	type noticeState struct {
		InView, Scrolled bool
		Text             string
	}
	st := eval[noticeState](tb, `(() => {
  const n = document.getElementById("notice"), r = n.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + 4, r.top + r.height / 2);
  return { InView: !n.hidden && r.height > 0 && r.top >= 0 && r.bottom <= innerHeight && n.contains(hit), Scrolled: scrollY > 0, Text: n.textContent };
})()`)
	if !st.InView {
		t.Errorf("the notice %q is not in view (page scrolled: %v)", st.Text, st.Scrolled)
	}
	// Scrolled far from it, it stays in view; dismissed, it goes.
	eval[bool](tb, `(scrollTo(0, document.body.scrollHeight), true)`)
	tb.settle()
	if !eval[bool](tb, `(() => { const r = document.getElementById("notice").getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; })()`) {
		t.Error("scrolled to the end, the notice is out of view")
	}
	tb.Click("dismissing the notice", `document.querySelector("#notice button")`)
	if !eval[bool](tb, `document.getElementById("notice").hidden`) {
		t.Error("the notice's button did not dismiss it")
	}
	tb.Clean()
}

func TestBrowserNoMatches(t *testing.T) {
	t.Parallel()
	s, dir := generatedSession(t, sessiongen.Config{Entries: 600, Shape: sessiongen.ShapeBranched, Seed: 9})
	tb := newTab(t)
	tb.Open(writePage(t, s, dir, "nomatch"))
	type emptyState struct {
		Shown    bool
		Text     string
		Disabled bool
	}
	read := func() emptyState {
		return eval[emptyState](tb, `(() => {
  const e = document.getElementById("tree-empty");
  return { Shown: getComputedStyle(e).display !== "none" && e.getBoundingClientRect().height > 0, Text: e.textContent, Disabled: document.getElementById("match-next").disabled };
})()`)
	}
	evalAsync[bool](tb, `searchFor("zqxjvqqz").then(() => true)`)
	if st := read(); !st.Shown || !strings.Contains(st.Text, "No entries match") || !strings.Contains(st.Text, "zqxjvqqz") || !st.Disabled {
		t.Errorf("a search that finds nothing: %+v", st)
	}
	evalAsync[bool](tb, `searchFor("the").then(() => true)`)
	if st := read(); st.Shown || st.Disabled {
		t.Errorf("a search that finds entries: %+v", st)
	}
	// A row whose own line lacks the word shows where its entry has it.
	for _, word := range []string{"func", "error", "test"} {
		evalAsync[bool](tb, `searchFor(`+jsString(word)+`).then(() => new Promise((r) => setTimeout(r, 600))).then(() => true)`)
		type ctx struct{ Without, Shown int }
		c := eval[ctx](tb, `(() => {
  const rows = [...document.querySelectorAll("#tree .row")].filter((r) => !r.title.toLowerCase().includes(`+jsString(word)+`));
  return { Without: rows.length, Shown: rows.filter((r) => (r.querySelector(".row-ctx") || {textContent: ""}).textContent.includes(`+jsString(word)+`)).length };
})()`)
		if c.Shown != c.Without {
			t.Errorf("searching %q: %d of %d rows whose line lacks it show where their entry has it", word, c.Shown, c.Without)
		}
	}
	evalAsync[bool](tb, `searchFor("the").then(() => true)`)
	// Enter in the search box goes from match to match.
	eval[bool](tb, `(document.getElementById("tree-search").focus(), true)`)
	seen := map[string]bool{}
	for i := range 3 {
		tb.key("pressing Enter in the search box", kb.Enter)
		tb.settle()
		id := eval[string](tb, `(document.querySelector('#tree .row[aria-selected="true"]') || {getAttribute: () => ""}).getAttribute("data-entry-id")`)
		if id == "" || !eval[bool](tb, `!!entryOf(`+jsString(id)+`) && entryOf(`+jsString(id)+`).classList.contains("target")`) {
			t.Fatalf("match %d: no row selected, or its entry %q not shown as the target", i+1, id)
		}
		seen[id] = true
	}
	if len(seen) < 2 {
		t.Errorf("three Enters went to %d match(es), want three steps", len(seen))
	}
	tb.Clean()
}

func TestBrowserSidebarWidth(t *testing.T) {
	t.Parallel()
	s := demoSession(t)
	page := writePage(t, s, t.TempDir(), "width")
	width := func(tb *tab) int {
		return eval[int](tb, `Math.round(document.getElementById("sidebar").getBoundingClientRect().width)`)
	}
	tb := newTab(t)
	tb.Open(page)
	w0 := width(tb)
	eval[bool](tb, `(document.getElementById("side-resize").focus(), true)`)
	for range 3 {
		tb.key("pressing ArrowRight on the separator", kb.ArrowRight)
	}
	if w := width(tb); w != w0+60 {
		t.Errorf("three ArrowRights: the sidebar is %d px wide, want %d", w, w0+60)
	}
	// Dragged with the mouse.
	x := eval[float64](tb, `document.getElementById("side-resize").getBoundingClientRect().left + 3`)
	tb.Do("dragging the separator",
		chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, x, 300, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x-100, 300, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, x-100, 300, chromedp.ButtonLeft))
	tb.settle()
	want := width(tb)
	if want > w0 || want < w0-60 {
		t.Errorf("dragged 100 px to the left from %d px: the sidebar is %d px wide", w0+60, want)
	}
	tb.Open(page)
	if w := width(tb); w != want {
		t.Errorf("opened again: the sidebar is %d px wide, want %d (kept for the page)", w, want)
	}
	tb.Clean()

	// Without storage the page works, and the separator still resizes.
	tb = newTab(t)
	tb.BeforePages(`Object.defineProperty(window, "localStorage", { get() { throw new DOMException("denied", "SecurityError"); } });`)
	tb.Open(page)
	eval[bool](tb, `(document.getElementById("side-resize").focus(), true)`)
	tb.key("pressing ArrowLeft on the separator", kb.ArrowLeft)
	if w := width(tb); w != 380 {
		t.Errorf("without storage: the sidebar is %d px wide after ArrowLeft, want 380", w)
	}
	tb.Clean()
}

func TestBrowserFoldBranches(t *testing.T) {
	t.Parallel()
	s, dir := generatedSession(t, sessiongen.Config{Entries: 600, Shape: sessiongen.ShapeBranched, Seed: 9})
	tb := newTab(t)
	tb.Open(writePage(t, s, dir, "fold"))
	tb.clickFilter("all")
	id := evalAsync[string](tb, `(async () => {
  const tree = document.getElementById("tree"), frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  for (let top = 0; top <= tree.scrollHeight; top += tree.clientHeight / 2) {
    const r = document.querySelector('#tree .row[aria-expanded="true"]');
    if (r) { r.scrollIntoView({ block: "center" }); await frame(); return r.getAttribute("data-entry-id"); }
    tree.scrollTop = top;
    await frame();
  }
  return "";
})()`)
	if id == "" {
		t.Fatal("no branch point among the rows in view")
	}
	n0, _ := tb.status()
	tb.Click("collapsing a branch point", `rowOf(`+jsString(id)+`).querySelector(".twisty")`)
	tb.settle()
	n1, _ := tb.status()
	if eval[string](tb, `rowOf(`+jsString(id)+`).getAttribute("aria-expanded")`) != "false" || n1 >= n0 {
		t.Fatalf("collapsed: aria-expanded %q, %d rows shown (%d before)", eval[string](tb, `rowOf(`+jsString(id)+`).getAttribute("aria-expanded")`), n1, n0)
	}
	eval[bool](tb, `(document.getElementById("tree").focus(), true)`)
	tb.key("pressing ArrowRight on the collapsed row", kb.ArrowRight)
	tb.settle()
	if n2, _ := tb.status(); n2 != n0 || eval[string](tb, `rowOf(`+jsString(id)+`).getAttribute("aria-expanded")`) != "true" {
		t.Errorf("ArrowRight did not expand the row again: %d rows shown, want %d", n2, n0)
	}
	tb.key("pressing ArrowLeft on the expanded row", kb.ArrowLeft)
	tb.settle()
	if n3, _ := tb.status(); n3 != n1 {
		t.Errorf("ArrowLeft did not collapse the row: %d rows shown, want %d", n3, n1)
	}
	tb.Click("collapsing all", `document.getElementById("collapse-all")`)
	tb.Click("expanding all", `document.getElementById("expand-all")`)
	if n4, _ := tb.status(); n4 != n0 {
		t.Errorf("after Expand all, %d rows shown, want %d", n4, n0)
	}
	// The active leaf: its row drawn and selected, its entry in view.
	eval[bool](tb, `(document.getElementById("tree").scrollTop = 0, scrollTo(0, 0), true)`)
	tb.settle() // the scroll events
	tb.Click("jumping to the active leaf", `document.getElementById("jump-leaf")`)
	tb.settle()
	leaf := s.Leaf.ID
	// Polled for 5 s: on a busy machine the scroll settles late.
	if !evalAsync[bool](tb, `(async () => {
  for (let i = 0; i < 50; i++, await new Promise((r) => setTimeout(r, 100))) {
    const r = rowOf(`+jsString(leaf)+`), e = entryOf(`+jsString(leaf)+`);
    if (!r || !e) continue;
    const b = e.getBoundingClientRect();
    if (r.getAttribute("aria-selected") === "true" && b.top < innerHeight && b.bottom > 0) return true;
  }
  return false;
})()`) {
		t.Errorf("Active leaf: the row of %s is not selected, or its entry not in view: %s", leaf, eval[string](tb, `(() => {
  const r = rowOf(`+jsString(leaf)+`), e = entryOf(`+jsString(leaf)+`);
  return "row " + (r ? r.getAttribute("aria-selected") : "not drawn") + ", entry " + (e ? JSON.stringify(e.getBoundingClientRect()) : "not shown") + ", innerHeight " + innerHeight + ", selected " + ((document.querySelector('#tree .row[aria-selected="true"]') || {id: "none"}).id);
})()`))
	}
	tb.Clean()
}

// TestBrowserNames: what a screen reader reads of rows and entries.
func TestBrowserNames(t *testing.T) {
	t.Parallel()
	s, dir := generatedSession(t, sessiongen.Config{Entries: 400, Shape: sessiongen.ShapeBranched, Seed: 4})
	tb := newTab(t)
	tb.Open(writePage(t, s, dir, "names"))
	tb.clickFilter("all")
	type names struct {
		Rows, BadRows, Articles, Unnamed int
		Example                          string
	}
	st := eval[names](tb, `(() => {
  const spoken = (el) => [...el.childNodes].filter((c) => !(c.nodeType === 1 && c.getAttribute("aria-hidden") === "true")).map((c) => c.textContent).join("");
  const rows = [...document.querySelectorAll("#tree .row")];
  const bad = rows.filter((r) => /[│├└─]/.test(spoken(r)) || !(+r.getAttribute("aria-posinset") >= 1) || +r.getAttribute("aria-posinset") > +r.getAttribute("aria-setsize") || !r.hasAttribute("aria-level"));
  const arts = [...$conv.querySelectorAll("article.entry")];
  const unnamed = arts.filter((a) => !a.getAttribute("aria-label") || !a.querySelector('[role="heading"]'));
  return { Rows: rows.length, BadRows: bad.length, Articles: arts.length, Unnamed: unnamed.length, Example: bad.length ? bad[0].outerHTML.slice(0, 300) : "" };
})()`)
	if st.Rows == 0 || st.BadRows > 0 {
		t.Errorf("%d of %d rows read connectors aloud or lack a level or place: %s", st.BadRows, st.Rows, st.Example)
	}
	if st.Articles == 0 || st.Unnamed > 0 {
		t.Errorf("%d of %d entries are unnamed or have no heading", st.Unnamed, st.Articles)
	}
	tb.Clean()
}

// TestBrowserPrintOpensMore: printed, "N more lines" shows its lines.
func TestBrowserPrintOpensMore(t *testing.T) {
	t.Parallel()
	s, dir := generatedSession(t, sessiongen.Config{Entries: 400, Shape: sessiongen.ShapeLinear, Seed: 4, Content: "code"})
	tb := newTab(t)
	tb.Open(writePage(t, s, dir, "print"))
	if eval[int](tb, `document.querySelectorAll("#conversation details.more").length`) == 0 {
		t.Skip("the generated session has no folded output")
	}
	if _, err := chromedp.Call(tb.Context(), emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"}); err != nil {
		t.Fatalf("emulating print: %v", err)
	}
	if n := eval[int](tb, `[...document.querySelectorAll("#conversation details.more:not([open]) > pre")].filter((p) => p.getBoundingClientRect().height === 0).length`); n > 0 {
		t.Errorf("printed, %d folded outputs stay closed", n)
	}
	tb.Clean()
}

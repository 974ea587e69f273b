package htmlpage_test

// The page's small things (issue 35): a search that finds nothing shows
// no rows and says so, naming All only when All finds something; each
// filter's count is the rows it shows; on a phone the header is one line
// and the Tree button, in it, covers no text and not the drawer's last
// row.

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// treeState is the tree as a reader finds it: the status line, the rows
// (every row, the tree scrolled from top to bottom: it is virtualized),
// and the message over it.
type treeState struct {
	Status string
	Rows   []string
	Empty  string
	Shown  bool // the message is on screen
}

func (tb *tab) tree() treeState {
	tb.t.Helper()
	tb.settle()
	return evalAsync[treeState](tb, `(async () => {
  const tree = document.getElementById("tree"), seen = new Set(), rows = [];
  const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  for (let top = 0; ; top += Math.max(40, tree.clientHeight - 40)) {
    tree.scrollTop = top;
    await frame();
    document.querySelectorAll("#tree .row").forEach((r) => {
      const id = r.getAttribute("data-entry-id");
      if (!seen.has(id)) { seen.add(id); rows.push(id); }
    });
    if (top >= tree.scrollHeight) break;
  }
  tree.scrollTop = 0;
  await frame();
  const e = document.getElementById("tree-empty");
  return {
    Status: document.getElementById("tree-status").textContent.trim(),
    Rows: rows, Empty: e.textContent,
    Shown: getComputedStyle(e).display !== "none" && e.getBoundingClientRect().height > 0,
  };
})()`)
}

func TestBrowserSearchNothingFound(t *testing.T) {
	t.Parallel()
	s := load(t, "../testdata/claude/session.jsonl")
	tb := newTab(t)
	tb.Open(writePage(t, s, t.TempDir(), "nothing"))
	search := func(q string) treeState {
		evalAsync[bool](tb, `searchFor(`+jsString(q)+`).then(() => true)`)
		return tb.tree()
	}
	total := len(s.Entries)

	// Nothing anywhere: no rows, 0 counted, the message, no "All".
	st := search("zqxjvqqz")
	if len(st.Rows) != 0 || st.Status != fmt.Sprintf("0 / %d entries", total) {
		t.Errorf("a search that finds nothing: status %q, rows %v; want no rows and 0 / %d", st.Status, st.Rows, total)
	}
	if !st.Shown || !strings.Contains(st.Empty, "No entries match “zqxjvqqz”") || strings.Contains(st.Empty, "All") {
		t.Errorf("a search that finds nothing says %q (shown %v): want it said, and no word of All", st.Empty, st.Shown)
	}
	if !eval[bool](tb, `document.getElementById("match-next").disabled && document.getElementById("match-prev").disabled`) {
		t.Error("with nothing found, the buttons to the next and previous match are enabled")
	}
	// Nothing in User, something in All (a hook's message): All is named,
	// with what it finds, and All then shows it.
	tb.clickFilter("user-only")
	st = search("gofmt")
	if len(st.Rows) != 0 || !strings.HasPrefix(st.Status, "0 / ") {
		t.Errorf("user-only, %q: status %q, rows %v; want none", "gofmt", st.Status, st.Rows)
	}
	var inAll int
	if _, err := fmt.Sscanf(st.Empty[strings.Index(st.Empty, "All shows ")+len("All shows "):], "%d", &inAll); !st.Shown || !strings.Contains(st.Empty, "All shows ") || err != nil {
		t.Errorf("user-only, %q: the message reads %q, want it to name All and what All finds", "gofmt", st.Empty)
	}
	tb.clickFilter("all")
	st = tb.tree()
	if len(st.Rows) != inAll || inAll == 0 || st.Status != fmt.Sprintf("%d / %d entries", inAll, total) || st.Shown {
		t.Errorf("all, %q: status %q, rows %v, message %q; want the %d All was said to find", "gofmt", st.Status, st.Rows, st.Empty, inAll)
	}
	// Nothing in User nor in All: All is not suggested.
	tb.clickFilter("user-only")
	if st = search("zqxjvqqz"); strings.Contains(st.Empty, "All") || len(st.Rows) != 0 {
		t.Errorf("user-only, nothing anywhere: %q, rows %v", st.Empty, st.Rows)
	}
	// A search that finds something shows only what it finds.
	st = search("parse")
	if len(st.Rows) == 0 || st.Shown || st.Status != fmt.Sprintf("%d / %d entries", len(st.Rows), total) {
		t.Errorf("user-only, %q: status %q, %d rows, message %q", "parse", st.Status, len(st.Rows), st.Empty)
	}
	tb.Clean()
}

// TestBrowserFilterRowsCounted: under every filter, with and without a
// search, the status line counts the rows the tree then shows, on a
// Claude Code, a Codex and a pi page; a filter that shows no entry says
// its one row is the active leaf.
func TestBrowserFilterRowsCounted(t *testing.T) {
	t.Parallel()
	files := []string{"../testdata/claude/session.jsonl", "../testdata/codex/rollout.jsonl", "../testdata/conformance/s003"}
	if m, _ := filepath.Glob(files[2] + "/*.jsonl"); len(m) > 0 {
		files[2] = m[0]
	}
	if large := filepath.Join(corpusDir, "large-session.jsonl"); fileExists(large) && !testing.Short() {
		files = append(files, large)
	}
	dir := t.TempDir()
	tb := newTab(t)
	for i, f := range files {
		tb.NewDeadline()
		s := load(t, f)
		tb.Open(writePage(t, s, dir, fmt.Sprintf("counted%d", i)))
		name := filepath.Base(f)
		for _, q := range []string{"", "the"} {
			evalAsync[bool](tb, `searchFor(`+jsString(q)+`).then(() => true)`)
			for _, mode := range []string{"default", "no-tools", "user-only", "labeled-only", "all"} {
				tb.clickFilter(mode)
				st := tb.tree()
				if want := fmt.Sprintf("%d / %d entries", len(st.Rows), len(s.Entries)); st.Status != want {
					t.Errorf("%s, filter %s, search %q: the status reads %q, the tree shows %d rows", name, mode, q, st.Status, len(st.Rows))
				}
				if q == "" && mode == "labeled-only" && len(s.Labels) == 0 {
					if len(st.Rows) != 1 || st.Rows[0] != s.Leaf.ID || !st.Shown || !strings.Contains(st.Empty, "active leaf") {
						t.Errorf("%s, no labels, filter Labeled: rows %v, message %q (shown %v); want the leaf's row, said to be it", name, st.Rows, st.Empty, st.Shown)
					}
				}
			}
		}
	}
	tb.Clean()
}

// phonePages are pages of each kind for the phone's tests.
func phonePages(t *testing.T) map[string]string {
	t.Helper()
	dir := t.TempDir()
	pages := map[string]string{
		"claude": writePage(t, load(t, "../testdata/claude/session.jsonl"), dir, "claude"),
		"codex":  writePage(t, load(t, "../testdata/codex/rollout.jsonl"), dir, "codex"),
		"demo":   writePage(t, demoSession(t), dir, "demo"),
	}
	if large := filepath.Join(corpusDir, "large-session.jsonl"); fileExists(large) && !testing.Short() {
		pages["pi-large"] = writePage(t, load(t, large), dir, "pi-large")
	}
	return pages
}

// TestBrowserPhoneHeader: on a phone the header is one line, the title's
// (cut short), with the session's details one tap away; on a desktop they
// show at once; without script the fold still opens.
func TestBrowserPhoneHeader(t *testing.T) {
	t.Parallel()
	type header struct {
		Height, Line, Title float64
		Facts               bool // the session's facts are on screen
		Toolbar             bool
	}
	read := func(tb *tab) header {
		return eval[header](tb, `(() => {
  const h = document.getElementById("page-header"), t = h.querySelector("h1"), f = h.querySelector("dl.facts");
  const lh = parseFloat(getComputedStyle(t).lineHeight), bar = document.getElementById("toggle-thinking");
  return { Height: h.getBoundingClientRect().height, Line: lh, Title: t.getBoundingClientRect().height,
    // checkVisibility: a closed fold's content still has a box when asked.
    Facts: f.checkVisibility() && f.getBoundingClientRect().height > 0, Toolbar: !!bar && bar.checkVisibility() && bar.getBoundingClientRect().height > 0 };
})()`)
	}
	for name, page := range phonePages(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			tb := newTab(t)
			tb.emulate(390, 844, true)
			tb.Open(page)
			h := read(tb)
			if h.Title > 1.5*h.Line || h.Height > 2*h.Line+24 || h.Facts || h.Toolbar {
				t.Errorf("phone: the header is %.0f px high, its title %.0f (a line: %.0f), facts shown %v, toolbar %v: want one line, folded", h.Height, h.Title, h.Line, h.Facts, h.Toolbar)
			}
			tb.Click("opening the header's details", `document.querySelector("details.about > summary")`)
			if h := read(tb); !h.Facts || !h.Toolbar {
				t.Errorf("phone: after a tap on Details the facts (%v) and the toolbar (%v) are not shown", h.Facts, h.Toolbar)
			}
			tb.Click("closing the header's details", `document.querySelector("details.about > summary")`)
			if h := read(tb); h.Facts {
				t.Error("phone: a second tap on Details leaves the facts shown")
			}
			tb.emulate(1280, 900, false)
			if h := read(tb); !h.Facts || !h.Toolbar || eval[bool](tb, `document.querySelector("details.about > summary").getBoundingClientRect().height > 0`) {
				t.Errorf("desktop: facts shown %v, toolbar %v, or the fold's summary shown: want the details open ground", h.Facts, h.Toolbar)
			}
			tb.Clean()
		})
	}
	// Without script: the fold opens (it is HTML's), the header is a line.
	t.Run("no-js", func(t *testing.T) {
		t.Parallel()
		tb := newTab(t)
		tb.emulate(390, 844, true)
		if _, err := chromedp.Call(tb.Context(), emulation.SetScriptExecutionDisabled,
			emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
			t.Fatal(err)
		}
		tb.Open(writePage(t, demoSession(t), t.TempDir(), "nojs"))
		h := read(tb)
		if h.Title > 1.5*h.Line || h.Facts {
			t.Errorf("phone without script: title %.0f px (a line %.0f), facts shown %v", h.Title, h.Line, h.Facts)
		}
		tb.Click("opening the header's details", `document.querySelector("details.about > summary")`)
		if h := read(tb); !h.Facts {
			t.Error("phone without script: the header's details do not open")
		}
		tb.Clean()
	})
}

// TestBrowserTreeButtonCoversNothing: on a phone, wherever the page is
// scrolled, no text is under the Tree button but what the header bar it
// sits in hides (text scrolled under the bar), and none of the header's
// own; with the drawer open, nothing covers the drawer's last row or its
// status line.
func TestBrowserTreeButtonCoversNothing(t *testing.T) {
	t.Parallel()
	for name, page := range phonePages(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			tb := newTab(t)
			tb.emulate(390, 844, true)
			tb.Open(page)
			for _, at := range []string{"0", "document.body.scrollHeight / 2", "document.body.scrollHeight"} {
				covered := evalAsync[[]string](tb, `(async () => {
  scrollTo(0, `+at+`);
  await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 50)));
  const b = document.getElementById("menu-button"), head = document.getElementById("page-header"), br = b.getBoundingClientRect();
  const out = [];
  if (br.width === 0) return ["the Tree button is not shown"];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n; (n = walk.nextNode());) {
    if (!n.data.trim() || b.contains(n)) continue;
    const el = n.parentElement;
    if (!el || el.closest("#sidebar, script, template, #store, .skip-link")) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    for (const r of range.getClientRects()) {
      const x0 = Math.max(r.left, br.left), x1 = Math.min(r.right, br.right), y0 = Math.max(r.top, br.top), y1 = Math.min(r.bottom, br.bottom);
      if (x1 - x0 < 1 || y1 - y0 < 1) continue;
      // Text the header bar hides as a whole (scrolled under it) is not
      // the button's doing; the header's own text, or text the button
      // alone lies over, is.
      const top = document.elementFromPoint((x0 + x1) / 2, (y0 + y1) / 2);
      const hr = head.getBoundingClientRect(), px = (x0 + x1) / 2, py = (y0 + y1) / 2;
      const underBar = px >= hr.left && px <= hr.right && py >= hr.top && py <= hr.bottom && !!top && head.contains(top);
      if (head.contains(el) || !underBar) out.push(JSON.stringify(n.data.trim().slice(0, 40)));
    }
  }
  return out;
})()`)
				if len(covered) > 0 {
					t.Errorf("scrolled to %s: the Tree button covers text: %v", at, covered)
				}
			}
			// The drawer: its last row and status line, nothing over them.
			tb.Click("opening the drawer", `document.getElementById("menu-button")`)
			tb.settle()
			over := evalAsync[[]string](tb, `(async () => {
  const tree = document.getElementById("tree"), side = document.getElementById("sidebar");
  tree.scrollTop = tree.scrollHeight;
  await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 300)));
  const rows = [...document.querySelectorAll("#tree .row")].sort((a, b) => b.getBoundingClientRect().bottom - a.getBoundingClientRect().bottom);
  const out = [];
  // The page behind the open drawer is inert, which hit testing passes
  // through: made hittable for the look, it must still be under the drawer.
  const behind = document.getElementById("content");
  behind.inert = false;
  for (const el of [rows[0], document.getElementById("tree-status")]) {
    if (!el) { out.push("no last row"); continue; }
    const r = el.getBoundingClientRect();
    for (let x = r.left + 2; x < r.right - 1; x += 8) {
      const top = document.elementFromPoint(x, (r.top + r.bottom) / 2);
      if (!top || !side.contains(top)) { out.push((el.id || "last row") + " at x=" + Math.round(x) + ": " + (top ? top.id || top.tagName : "nothing")); break; }
    }
  }
  behind.inert = true;
  return out;
})()`)
			if len(over) > 0 {
				t.Errorf("with the drawer open, something covers: %v", over)
			}
			tb.Clean()
		})
	}
}

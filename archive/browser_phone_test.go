package archive

import (
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"canopy/internal/browsertest"
)

// TestBrowserIndexPhone: the index on a 390 px phone, with and without
// script, in its full and compact views: nothing runs off the side of the
// screen, a session's title has most of the width (no column of six
// characters), no cell of a session is narrower than minChars characters,
// and axe-core (when installed) finds no serious or critical violation.
func TestBrowserIndexPhone(t *testing.T) {
	axePath, err := filepath.Abs("../tools/axe/node_modules/axe-core/axe.min.js")
	if err != nil {
		t.Fatal(err)
	}
	var browser browsertest.Shared
	t.Cleanup(browser.Stop)
	srcs, dir := fixtures(t)
	run(t, srcs, "out", Options{})
	index := (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(dir, "out", "index.html"))}).String()
	const minChars = 12
	type layout struct {
		Overflow          float64 // px beyond the phone's 390 (a mobile viewport widens to its content)
		Rows              int
		NarrowTitle       string // a title cell under 60% of the width
		NarrowCell        string // a cell under minChars characters
		TitleLines, Lines int
	}
	check := func(tb *browsertest.Tab, view string) {
		t.Helper()
		l := browsertest.Eval[layout](tb, `(() => {
  const out = { Overflow: Math.max(document.documentElement.scrollWidth, innerWidth) - 390, Rows: 0, NarrowTitle: "", NarrowCell: "" };
  const ch = (el) => { const s = document.createElement("span"); s.textContent = "0000000000"; s.style.cssText = "position:absolute;visibility:hidden;white-space:nowrap"; el.appendChild(s); const w = s.getBoundingClientRect().width / 10; s.remove(); return w; };
  for (const tr of document.querySelectorAll("section.project tbody tr")) {
    if (!tr.checkVisibility()) continue;
    out.Rows++;
    [...tr.cells].forEach((td, i) => {
      const r = td.getBoundingClientRect();
      if (!td.checkVisibility() || r.width === 0) return;
      if (i === 0 && r.width < 0.6 * 390 && !out.NarrowTitle) out.NarrowTitle = td.textContent.slice(0, 40) + " (" + Math.round(r.width) + " px)";
      if (r.width < `+strconv.Itoa(minChars)+` * ch(td) && !out.NarrowCell) out.NarrowCell = "column " + (i + 1) + " of " + tr.cells[0].textContent.slice(0, 30) + ": " + Math.round(r.width) + " px, " + (r.width / ch(td)).toFixed(1) + " characters";
    });
  }
  return out;
})()`)
		if l.Rows < 8 {
			t.Errorf("%s: %d sessions' rows shown, want the 8", view, l.Rows)
		}
		if l.Overflow > 0 {
			t.Errorf("%s: the index runs %.0f px off the side of a 390 px screen", view, l.Overflow)
		}
		if l.NarrowTitle != "" {
			t.Errorf("%s: a session's title is squeezed: %s", view, l.NarrowTitle)
		}
		if l.NarrowCell != "" {
			t.Errorf("%s: a cell narrower than %d characters: %s", view, minChars, l.NarrowCell)
		}
	}
	axe := func(tb *browsertest.Tab, view string) {
		t.Helper()
		src, err := os.ReadFile(axePath)
		if err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("axe-core is required in CI (npm ci in tools/axe): %v", err)
			}
			return
		}
		if _, err := chromedp.Run(tb.Context(), chromedp.Evaluate[chromedp.Void](string(src)+"\n;undefined")); err != nil {
			t.Fatalf("injecting axe-core: %v", err)
		}
		got := browsertest.EvalAsync[[]string](tb, `axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] } }).then((r) => r.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id + ": " + v.nodes.length + " " + String(v.nodes[0].target)))`)
		for _, v := range got {
			t.Errorf("%s, axe: %s", view, v)
		}
	}
	phone := chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch)

	tb := browser.NewTab(t, "")
	tb.Do("a phone's viewport", phone)
	tb.Open(index)
	check(tb, "phone")
	axe(tb, "phone")
	browsertest.Eval[any](tb, `document.getElementById("compact").click()`)
	check(tb, "phone, compact")
	browsertest.Eval[any](tb, `(document.getElementById("compact").click(), localStorage.removeItem("canopy-index-compact"))`)
	tb.Clean()

	tb = browser.NewTab(t, "")
	tb.Do("a phone's viewport", phone)
	if _, err := chromedp.Call(tb.Context(), emulation.SetScriptExecutionDisabled,
		emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
		t.Fatal(err)
	}
	tb.Open(index)
	check(tb, "phone without script")
	tb.Clean()
}

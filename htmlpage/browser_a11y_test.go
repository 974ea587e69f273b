package htmlpage_test

// Accessibility: axe-core (WCAG 2.1 A and AA rules) on the demo page, on
// real sessions and on a generated one, on a desktop and on a phone with
// the tree's drawer open, in both themes. axe-core comes from npm
// (tools/axe: npm ci); without it the tests skip, except under CI.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"canopy/internal/sessiongen"
)

// axePath is axe-core's script, as npm ci in tools/axe installs it.
const axePath = "../tools/axe/node_modules/axe-core/axe.min.js"

// corpusDir holds real sessions that are not the project's to commit.
const corpusDir = "/work/shared/corpus"

// axeScript is axe-core's source. Without it the test skips, or fails
// under CI, where a skipped check would pass unseen.
func axeScript(t *testing.T) string {
	t.Helper()
	src, err := os.ReadFile(axePath)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("axe-core is required in CI (npm ci in tools/axe): %v", err)
		}
		t.Skipf("axe-core not installed (run npm ci in tools/axe): %v", err)
	}
	return string(src)
}

// axeFinding is one rule that failed, as the test reports it.
type axeFinding struct {
	ID, Impact, Help string
	Count            int
	Examples         []string
}

// axeOptions are the rules run: WCAG 2.1 A and AA.
const axeOptions = `{ runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] }, resultTypes: ["violations"] }`

// axeLimit bounds one axe run: a long page takes axe minutes.
const axeLimit = 3 * time.Minute

// axeBatch is how many of the conversation's elements one axe run checks:
// a run over all of a long page holds the page's thread for longer than a
// tab's deadline.
const axeBatch = 150

// runAxe injects axe-core into the page (through the DevTools protocol:
// the page's policy allows only its own script) and runs the WCAG 2.1 A
// and AA rules, on the page outside the conversation, then on the
// conversation a batch of entries at a time: the serious and critical
// violations, each rule once with its count. Entries are laid out first
// (content-visibility: visible), which changes nothing a reader meets
// but spares axe a layout for each element it looks at.
func runAxe(tb *tab, src string) []axeFinding {
	tb.t.Helper()
	tb.NewDeadline()
	if _, err := chromedp.Run(tb.Context(), chromedp.Evaluate[chromedp.Void](src+"\n;undefined")); err != nil {
		tb.t.Fatalf("injecting axe-core: %v", err)
	}
	parts := eval[int](tb, `(() => {
  document.querySelectorAll("article.entry").forEach((a) => a.style.contentVisibility = "visible");
  window.axeParts = [...document.querySelectorAll("#conversation > *")];
  return window.axeParts.length;
})()`)
	contexts := []string{`{ exclude: [["#conversation"]] }`}
	for i := 0; i < parts; i += axeBatch {
		contexts = append(contexts, fmt.Sprintf(`{ include: window.axeParts.slice(%d, %d) }`, i, i+axeBatch))
	}
	var all []axeFinding
	at := map[string]int{}
	for _, c := range contexts {
		for _, f := range axeRun(tb, c) {
			if i, ok := at[f.ID]; ok {
				all[i].Count += f.Count
				continue
			}
			at[f.ID] = len(all)
			all = append(all, f)
		}
	}
	return all
}

// axeRun runs axe on context c. A run over a long page on a busy machine
// can hold the page's thread for longer than a tab's deadline: it has
// axeLimit, on a context that keeps the tab but not its deadline.
func axeRun(tb *tab, c string) []axeFinding {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(context.WithoutCancel(tb.Context()), axeLimit)
	defer cancel()
	js := `axe.run(` + c + `, ` + axeOptions + `).then((r) => r.violations
  .filter((v) => v.impact === "serious" || v.impact === "critical")
  .map((v) => ({
    ID: v.id, Impact: v.impact, Help: v.help, Count: v.nodes.length,
    Examples: v.nodes.slice(0, 3).map((n) => String(n.target) + " " + n.html.slice(0, 160) + " | " + (n.failureSummary || "").replace(/\s+/g, " ").slice(0, 240)),
  })))`
	found, err := chromedp.Run(ctx, chromedp.Evaluate[[]axeFinding](js, chromedp.EvalAwaitPromise))
	if err != nil {
		tb.t.Fatalf("axe on %s: %v", c, err)
	}
	tb.NewDeadline()
	return found
}

// a11yPage is a page the accessibility tests check.
type a11yPage struct {
	name string
	url  string
	long bool // checked in two views, not all: axe takes 20 s and more on each
}

// a11yPages are the demo page, a Claude Code and a Codex page (their
// folded records, context and streamed replies), the real sessions of the
// shared corpus (when it is there) and a generated branched session.
func a11yPages(t *testing.T) []a11yPage {
	t.Helper()
	dir := t.TempDir()
	pages := []a11yPage{{"demo", writePage(t, demoSession(t), dir, "demo"), false}}
	for _, f := range []string{"../testdata/claude/session.jsonl", "../testdata/codex/rollout.jsonl"} {
		name := filepath.Base(filepath.Dir(f))
		pages = append(pages, a11yPage{name, writePage(t, load(t, f), dir, name), false})
	}
	real, _ := filepath.Glob(filepath.Join(corpusDir, "*.jsonl"))
	if len(real) == 0 {
		t.Logf("no real sessions in %s: checking the demo and a generated page only", corpusDir)
	}
	if testing.Short() {
		real = nil // a minute and more each
	}
	for _, f := range real {
		name := strings.TrimSuffix(filepath.Base(f), ".jsonl")
		pages = append(pages, a11yPage{name, writePage(t, load(t, f), dir, name), true})
	}
	s, gdir := generatedSession(t, sessiongen.Config{Entries: 3000, Shape: sessiongen.ShapeBranched, Seed: 7})
	pages = append(pages, a11yPage{"generated", writePage(t, s, gdir, "generated"), false})
	return pages
}

// a11yView is how a page is looked at: a viewport, a theme, the drawer.
type a11yView struct {
	name          string
	width, height int64
	mobile        bool
	theme         string
	drawer        bool
	details       bool   // the header's fold (a phone's) opened
	search        string // typed into the tree's search box
	long          bool   // a view long pages are checked in too
}

var a11yViews = []a11yView{
	{name: "desktop", width: 1280, height: 900, theme: "light"},
	{name: "desktop-dark", width: 1280, height: 900, theme: "dark", long: true},
	{name: "phone", width: 390, height: 844, mobile: true, theme: "light"},
	{name: "phone-drawer", width: 390, height: 844, mobile: true, theme: "light", drawer: true, long: true},
	{name: "phone-drawer-dark", width: 390, height: 844, mobile: true, theme: "dark", drawer: true},
	{name: "phone-details", width: 390, height: 844, mobile: true, theme: "light", details: true},
	{name: "phone-details-dark", width: 390, height: 844, mobile: true, theme: "dark", details: true},
	{name: "phone-drawer-nothing-found", width: 390, height: 844, mobile: true, theme: "light", drawer: true, search: "zqxjvqqz"},
}

// emulate sets the tab's viewport (a phone's with touch when mobile).
func (tb *tab) emulate(width, height int64, mobile bool) {
	tb.t.Helper()
	opts := []chromedp.EmulateViewportOption{}
	if mobile {
		opts = append(opts, chromedp.EmulateMobile, chromedp.EmulateTouch)
	}
	tb.Do(fmt.Sprintf("emulating a %dx%d viewport", width, height), chromedp.EmulateViewport(width, height, opts...))
}

func TestBrowserAxe(t *testing.T) {
	t.Parallel()
	src := axeScript(t)
	for _, p := range a11yPages(t) {
		t.Run(p.name, func(t *testing.T) {
			t.Parallel()
			for _, v := range a11yViews {
				if p.long && !v.long {
					continue
				}
				checkAxe(t, src, p, v)
			}
		})
	}
}

// checkAxe opens the page in view v and fails on any serious or critical
// violation axe finds.
func checkAxe(t *testing.T, src string, p a11yPage, v a11yView) {
	t.Helper()
	tb := newTab(t)
	tb.emulate(v.width, v.height, v.mobile)
	tb.BeforePages(`try { localStorage.setItem("canopy-theme", "` + v.theme + `"); } catch (e) {}`)
	tb.Open(p.url)
	tb.settle()
	if v.details {
		tb.Click("opening the header's details", `document.querySelector("details.about > summary")`)
		tb.settle()
		if !eval[bool](tb, `document.querySelector("details.about").open`) {
			t.Fatalf("%s: the header's details did not open", v.name)
		}
	}
	if v.drawer {
		tb.Click("opening the tree's drawer", `document.getElementById("menu-button")`)
		tb.settle()
		if !eval[bool](tb, `document.getElementById("sidebar").classList.contains("open")`) {
			t.Fatalf("%s: the drawer did not open", v.name)
		}
	}
	if v.search != "" {
		evalAsync[bool](tb, `searchFor(`+jsString(v.search)+`).then(() => true)`)
		tb.settle()
	}
	for _, f := range runAxe(tb, src) {
		t.Errorf("%s, %s: %s (%s) on %d elements: %s\n  %s", p.name, v.name, f.ID, f.Impact, f.Count, f.Help, strings.Join(f.Examples, "\n  "))
	}
	tb.Clean()
}

package archive

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"canopy/internal/browsertest"
	"canopy/internal/sessiongen"
)

// searchFixture writes an archive's sources: n generated pi sessions,
// Claude Code transcripts, and two of our own, one of which has a word
// in one entry of a branch that is not its leaf's.
func searchFixture(t *testing.T, n int) []string {
	t.Helper()
	for i := range n {
		p := filepath.Join("src", "pi", fmt.Sprintf("p%d", i%7), fmt.Sprintf("s%03d.jsonl", i))
		writeWith(t, p, func(f *os.File) error {
			return sessiongen.Generate(f, sessiongen.Config{Entries: 10 + i%20, Shape: sessiongen.ShapeBranched, Seed: uint64(i + 1), Content: "small"})
		})
	}
	for i := range 3 {
		p := filepath.Join("src", "claude", "-work-app", fmt.Sprintf("c%d.jsonl", i))
		writeWith(t, p, func(f *os.File) error {
			return sessiongen.GenerateAgent(f, sessiongen.AgentConfig{Format: sessiongen.FormatClaude, Turns: 2 + i})
		})
	}
	crafted := func(id, cwd, when, model, branchA string) string {
		line := func(id, parent, role, text string) string {
			p := `null`
			if parent != "" {
				p = `"` + parent + `"`
			}
			msg := `{"role":"user","content":"` + text + `","timestamp":0}`
			if role == "assistant" {
				msg = `{"role":"assistant","content":[{"type":"text","text":"` + text + `"}],"provider":"x","model":"` + model + `","stopReason":"stop","timestamp":0}`
			}
			return `{"type":"message","id":"` + id + `","parentId":` + p + `,"timestamp":"` + when + `","message":` + msg + "}\n"
		}
		return `{"type":"session","version":3,"id":"` + id + `","timestamp":"` + when + `","cwd":"` + cwd + `"}` + "\n" +
			line("u1", "", "user", "Start the walrusmarker task") +
			line("a1", "u1", "assistant", "Sure, panicking is not an option.") +
			line("u2a", "a1", "user", branchA) +
			line("a2a", "u2a", "assistant", "Done on branch A.") +
			line("u2b", "a1", "user", "Do it the plain way") +
			line("a2b", "u2b", "assistant", "Done on branch B.")
	}
	writeFile(t, "src/pi/crafted/one.jsonl", crafted("c-one", "/home/x/crafted", "2020-01-02T10:00:00.000Z", "crafted-model-x",
		"Try the zanzibarquokka approach: a tangerine rhapsody in billing.go"))
	writeFile(t, "src/pi/crafted/two.jsonl", crafted("c-two", "/home/x/other", "2026-03-02T10:00:00.000Z", "other-model",
		"Nothing special here"))
	// (Both are titled by their first prompt: "Start the walrusmarker task".)
	return []string{"src/pi", "src/claude"}
}

func writeWith(t *testing.T, p string, f func(*os.File) error) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	out, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := f(out); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

func writeFile(t *testing.T, p, s string) {
	t.Helper()
	writeWith(t, p, func(f *os.File) error { _, err := f.WriteString(s); return err })
}

// TestBrowserSearch: on an archive of many sessions, from file://, the
// index's search finds a word of one entry on a branch, and its link
// opens that session at that entry on its branch with the word
// highlighted; a phrase and a prefix work; filters narrow; axe-core
// finds no serious violation; nothing is requested but the folder's
// files.
func TestBrowserSearch(t *testing.T) {
	axePath, err := filepath.Abs("../tools/axe/node_modules/axe-core/axe.min.js")
	if err != nil {
		t.Fatal(err)
	}
	var browser browsertest.Shared
	t.Cleanup(browser.Stop)
	tb := browser.NewTab(t, "")
	dir := t.TempDir()
	t.Chdir(dir)
	srcs := searchFixture(t, 150)
	run(t, srcs, "out", Options{})
	index := (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(dir, "out", "index.html"))}).String()
	eval := func(expr string) string {
		t.Helper()
		return browsertest.Eval[string](tb, expr)
	}
	// search types q and waits until the results are complete (the
	// status no longer ends in "…"), then returns the titles shown.
	search := func(q string) string {
		t.Helper()
		// The status is emptied first: the page leaves the last
		// search's until this one's results are there.
		browsertest.Eval[any](tb, `(() => { document.getElementById("ft-status").textContent = ""; const s = document.getElementById("ft-q"); s.value = `+jsString(q)+`; s.dispatchEvent(new Event("input")); })()`)
		for range 100 {
			st := eval(`document.getElementById("ft-status").textContent`)
			if st != "" && !strings.HasSuffix(st, "…") {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		return eval(`[...document.querySelectorAll("#ft-results li")].map(li => li.querySelector("a").textContent).join("|")`)
	}
	setFilter := func(id, value string) {
		t.Helper()
		// The option whose value ends with value ("" for any).
		ok := browsertest.Eval[bool](tb, `(() => { const s = document.getElementById("`+id+`"), v = `+jsString(value)+`;
  if (!s.options) { s.value = v; s.dispatchEvent(new Event("change")); return true; }
  const o = [...s.options].find(o => v === "" ? o.value === "" : o.value.endsWith(v)); if (!o) return false;
  s.value = o.value; s.dispatchEvent(new Event("change")); return true; })()`)
		if !ok {
			t.Fatalf("%s has no option %q", id, value)
		}
	}
	tb.Open(index)

	// A word in one entry of one session, on a branch that is not the leaf's.
	if got := search("zanzibarquokka"); got != "Start the walrusmarker task" {
		t.Fatalf("zanzibarquokka found %q", got)
	}
	href := eval(`document.querySelector("#ft-results li a").getAttribute("href")`)
	u, err := url.Parse(href)
	if err != nil {
		t.Fatal(err)
	}
	if q := u.Query(); q.Get("targetId") != "u2a" || q.Get("leafId") != "a2a" {
		t.Errorf("the result links to %s, want the entry u2a on its branch (leaf a2a)", href)
	}
	if got := eval(`document.querySelector("#ft-results mark").textContent`); got != "zanzibarquokka" {
		t.Errorf("the snippet marks %q", got)
	}
	// A prefix, typed or with *, and a phrase; the phrase's words out of order are not it.
	for q, want := range map[string]string{"zanzib*": "Start the walrusmarker task", "zanzibarq": "Start the walrusmarker task",
		`"tangerine rhapsody"`: "Start the walrusmarker task", `"rhapsody tangerine"`: ""} {
		if got := search(q); got != want {
			t.Errorf("%s found %q, want %q", q, got, want)
		}
	}
	// A word of several (a file name) is their phrase.
	if got := search("billing.go"); !strings.Contains(got, "Start the walrusmarker task") {
		t.Errorf("billing.go found %q", got)
	}
	// Filters narrow: by project, model, agent and date.
	all := search("panicking ")
	if strings.Count(all, "|") < 2 || !strings.Contains(all, "Start the walrusmarker task") {
		t.Fatalf("panicking found %q: want both crafted sessions and the Claude Code ones", all)
	}
	setFilter("ft-project", "/home/x/other")
	if got := search("panicking "); got != "Start the walrusmarker task" || !strings.Contains(eval(`document.querySelector(".ft-meta").textContent`), "/home/x/other") {
		t.Errorf("filtered by project: %q", got)
	}
	setFilter("ft-project", "")
	setFilter("ft-model", "crafted-model-x")
	if got := search("panicking "); got != "Start the walrusmarker task" || !strings.Contains(eval(`document.querySelector("#ft-results li .ft-meta").textContent`), "/home/x/crafted") {
		t.Errorf("filtered by model: %s", got)
	}
	setFilter("ft-model", "")
	setFilter("ft-agent", "claude-code")
	if got := search("panicking "); got == "" || strings.Contains(got, "walrusmarker") {
		t.Errorf("filtered by agent: %q", got)
	}
	setFilter("ft-agent", "")
	setFilter("ft-to", "2021-01-01")
	if got := search("panicking "); got != "Start the walrusmarker task" || eval(`String(document.querySelectorAll("#ft-results li").length)`) != "1" {
		t.Errorf("filtered to 2021: %q", got)
	}
	setFilter("ft-to", "")
	search("zanzibarquokka")
	if src, err := os.ReadFile(axePath); err == nil {
		if _, err := chromedp.Run(tb.Context(), chromedp.Evaluate[chromedp.Void](string(src)+"\n;undefined")); err != nil {
			t.Fatalf("injecting axe-core: %v", err)
		}
		got := browsertest.EvalAsync[[]string](tb, `axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] } }).then((r) => r.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id + ": " + v.nodes.length + " " + String(v.nodes[0].target)))`)
		for _, v := range got {
			t.Errorf("axe: %s", v)
		}
	} else if os.Getenv("CI") != "" {
		t.Fatalf("axe-core is required in CI (npm ci in tools/axe): %v", err)
	}

	// The keyboard: down from the box to the first result, Enter opens it.
	browsertest.Eval[any](tb, `document.getElementById("ft-q").focus()`)
	tb.Do("keys", chromedp.KeyEvent(kb.ArrowDown))
	if got := eval(`document.activeElement.textContent`); got != "Start the walrusmarker task" {
		t.Errorf("ArrowDown from the box focuses %q", got)
	}
	tb.Do("enter", chromedp.KeyEvent(kb.Enter))
	time.Sleep(300 * time.Millisecond)
	for range 50 {
		if eval(`String(!!document.querySelector(".target"))`) == "true" {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if got := eval(`(document.querySelector(".target") || {}).id || ""`); !strings.Contains(got, "u2a") {
		t.Errorf("the result opened at %q, want the entry u2a", got)
	}
	if got := eval(`document.querySelector(".target") ? document.querySelector(".target").textContent : ""`); !strings.Contains(got, "zanzibarquokka") {
		t.Errorf("the entry shown: %q", got)
	}
	for range 30 {
		if eval(`String(CSS.highlights.has("search-hit") && CSS.highlights.get("search-hit").size > 0)`) == "true" {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if got := eval(`String(CSS.highlights.has("search-hit") ? [...CSS.highlights.get("search-hit")].map(r => r.toString()).join("|") : "")`); !strings.Contains(strings.ToLower(got), "zanzibarquokka") {
		t.Errorf("highlighted in the entry: %q", got)
	}
	for _, r := range tb.Requests() {
		// data: and blob: URLs are the page's own (its icons, the data it
		// inflates), not requests.
		if !strings.HasPrefix(r, "file://"+filepath.ToSlash(filepath.Join(dir, "out"))+"/") && !strings.HasPrefix(r, "data:") && !strings.HasPrefix(r, "blob:") {
			t.Errorf("a request left the archive's folder: %s", r)
		}
	}
	tb.Clean()
}

func jsString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

package htmlpage_test

// The page on its own: it loads without an error, reads without
// JavaScript, and asks the network for nothing.

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"canopy/htmlpage"
)

// ---- No console error -----------------------------------------------------

func TestBrowserLoadsCleanly(t *testing.T) {
	t.Parallel()
	s := demoSession(t)
	tb := newTab(t)
	tb.Open(writePage(t, s, t.TempDir(), "demo"))
	// The script ran to the end: the tree has rows and the status is set.
	if n := eval[int](tb, `document.querySelectorAll("#tree .row").length`); n == 0 {
		t.Error("the tree has no rows after load")
	}
	if !eval[bool](tb, `document.documentElement.classList.contains("js")`) {
		t.Error("the page script did not run (no js class on <html>)")
	}
	if n, m := tb.status(); n != htmlpage.FilterCounts(s, nil)["default"] || m != len(s.Entries) {
		t.Errorf("status %d / %d after load", n, m)
	}
	// Use the toolbar too: its code paths must not throw either.
	for _, id := range []string{"toggle-thinking", "toggle-tools", "toggle-theme"} {
		tb.Click("clicking #"+id, `document.getElementById("`+id+`")`)
	}
	if got := eval[string](tb, `document.getElementById("toggle-tools").getAttribute("aria-pressed")`); got != "true" {
		t.Errorf("Expand outputs: aria-pressed=%q after a click", got)
	}
	time.Sleep(100 * time.Millisecond) // late errors
	tb.Clean()
}

// ---- Without JavaScript ---------------------------------------------------

func TestBrowserNoJavaScript(t *testing.T) {
	t.Parallel()
	s := demoSession(t)
	tb := newTab(t)
	if _, err := chromedp.Call(tb.Context(), emulation.SetScriptExecutionDisabled,
		emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
		t.Fatal(err)
	}
	tb.Open(writePage(t, s, t.TempDir(), "nojs"))

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
	tb.Clean()
}

// ---- No network -----------------------------------------------------------

func TestBrowserNoNetwork(t *testing.T) {
	t.Parallel()
	s, _, c := branchedSession(t)
	page := writePage(t, s, t.TempDir(), "net")
	tb := newTab(t)
	tb.Open(page)
	for _, mode := range []string{"no-tools", "user-only", "labeled-only", "all"} {
		tb.clickFilter(mode)
	}
	word, _, _ := searchWord(s)
	tb.Do("searching", chromedp.SendKeys(chromedp.CSS("#tree-search"), word))
	tb.settle()
	tb.Do("clearing the search", chromedp.SendKeys(chromedp.CSS("#tree-search"), kb.Escape))
	tb.clickRow(c.ID)
	for _, id := range []string{"toggle-thinking", "toggle-tools", "toggle-theme"} {
		tb.Click("clicking #"+id, `document.getElementById("`+id+`")`)
	}
	tb.Click("clicking a copy-link button", `$conv.querySelector(".copy-link")`)
	time.Sleep(200 * time.Millisecond) // requests that come late

	requests := tb.Requests()
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
	tb.Clean()
}

package htmlpage_test

// Hostile content (testdata/hostile/hostile.jsonl): session text that
// tries to become markup or script stays text, on load, after every row
// is clicked and after a search.

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"canopy/sessiontree"
)

const hostilePayload = `<script>window.__pwned=1</script>`

func TestBrowserHostileContent(t *testing.T) {
	t.Parallel()
	s := load(t, "../testdata/hostile/hostile.jsonl")
	if len(s.Diagnostics) > 0 {
		t.Fatalf("hostile.jsonl does not load cleanly: %+v", s.Diagnostics)
	}
	tb := newTab(t)
	tb.Open(writePage(t, s, t.TempDir(), "hostile"))
	checkHostileContent(t, tb, s, "after load")

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
		tb.NewDeadline()
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
	checkHostileContent(t, tb, s, "after clicking every row")

	// The search runs over the entries' text, payloads included.
	tb.Do("searching for a payload", chromedp.SendKeys(chromedp.CSS("#tree-search"), "__pwned=1</script>"))
	tb.settle()
	if n, _ := tb.status(); n == 0 {
		t.Error("searching for the payload finds no entry")
	}
	checkHostileContent(t, tb, s, "after a search")
	time.Sleep(100 * time.Millisecond)
	tb.Clean()
}

// hostileSafety is what TestBrowserHostileContent checks on the page.
type hostileSafety struct {
	Pwned, BodyHidden, PayloadText, LastEntry bool
	Handlers, Links, Scripts, Styles, Images  []string
	Articles                                  int
}

// hostileScan reads a hostileSafety off the page: every element of the
// document and of the stored chunks is looked at; leafID is the session's
// last entry.
func hostileScan(leafID string) string {
	return `(() => {
  const all = allElements();
  const handlers = [], links = [], scripts = [], styles = [], images = [];
  for (const el of all) {
    for (const a of el.attributes) if (/^on/i.test(a.name)) handlers.push(el.tagName + " " + a.name + "=" + a.value);
    const href = el.getAttribute("href") || el.getAttribute("xlink:href");
    if (href && !/^(https?:|mailto:|#)/i.test(href.trim())) links.push(el.tagName + " href=" + href);
    if (el.tagName === "SCRIPT" && !["tree-data", "source-data", "page-script"].includes(el.id) && !(el.type === "text/x-canopy" && el.parentNode.id === "store")) scripts.push(el.outerHTML.slice(0, 120));
    if (el.tagName === "STYLE" && el.parentNode !== document.head) styles.push(el.outerHTML.slice(0, 120));
    // A picture's src is its data: URL, or ourBlob.
    if ((el.tagName === "IMG" || el.tagName === "svg" || el.tagName === "IFRAME") && !(el.getAttribute("src") || "").startsWith("data:") && !ourBlob(el)) images.push(el.outerHTML.slice(0, 120));
  }
  return {
    Pwned: typeof window.__pwned !== "undefined",
    BodyHidden: getComputedStyle(document.body).display === "none" || $conv.getBoundingClientRect().height === 0,
    PayloadText: $conv.textContent.includes(` + jsString(hostilePayload) + `),
    LastEntry: !!entryOf(` + jsString(leafID) + `),
    Handlers: handlers, Links: links, Scripts: scripts, Styles: styles, Images: images,
    Articles: $conv.querySelectorAll("article.entry").length,
  };
})()`
}

// checkHostileContent fails the test for any payload that ran or became
// markup; after load, it also checks that the payload shows as text and
// the path as its articles.
func checkHostileContent(t *testing.T, tb *tab, s *sessiontree.Session, when string) {
	t.Helper()
	st := eval[hostileSafety](tb, hostileScan(s.Leaf.ID))
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

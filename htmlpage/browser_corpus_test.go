package htmlpage_test

// The hostile corpus (browser_corpusgen_test.go) on the page: no payload
// runs or becomes markup, on load, through searches and clicks, and the
// page asks the network for nothing.

import (
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"canopy/sessiontree"
)

func TestBrowserHostileCorpus(t *testing.T) {
	t.Parallel()
	start := time.Now()
	cs, s, page := corpusPage(t, start)
	path := corpusPathOf(s)
	tb := newTab(t)
	tb.Open(page)
	checkCorpus(t, tb, cs, path, "after load")
	literal := checkLiteralPayloads(t, tb, cs)
	checkCorpusImages(t, tb, cs)
	searchCorpus(t, tb, s)
	clicks, pos := corpusClicks(t, tb, cs)
	clickCorpusRows(t, tb, clicks, pos)
	checkCorpus(t, tb, cs, path, "after clicking rows")
	checkCorpusRequests(t, tb, page)
	tb.Clean()
	t.Logf("%d payloads checked as literal text, %d rows clicked; %v in all", literal, len(clicks), time.Since(start).Round(time.Millisecond))
}

// corpusPage builds the corpus session, loads it and writes its page: the
// session as built and as loaded, and the page's URL.
func corpusPage(t *testing.T, start time.Time) (*corpusSession, *sessiontree.Session, string) {
	t.Helper()
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
	// Payloads with broken UTF-8 get their warning (shown as U+FFFD);
	// nothing else may be wrong.
	var diags []sessiontree.Diagnostic
	for _, d := range s.Diagnostics {
		if !strings.HasPrefix(d.Message, "invalid UTF-8") {
			diags = append(diags, d)
		}
	}
	if len(diags) > 0 {
		t.Errorf("the corpus session does not load cleanly: %d diagnostics, the first %+v", len(diags), diags[0])
	}
	if s.Leaf == nil || s.Leaf.ID != cs.endID {
		t.Fatalf("the session's leaf is not the END entry")
	}
	page := writePage(t, s, dir, "corpus")
	t.Logf("%d payloads, %d entries, session %.1f MB; built and rendered in %v",
		len(payloads), len(s.Entries), float64(len(cs.data))/(1<<20), time.Since(start).Round(time.Millisecond))
	return cs, s, page
}

// corpusPath is what the conversation shows for the session's leaf: an
// element for every entry of the path (ids), an article for each but the
// results inside their call's card (articles).
type corpusPath struct{ ids, articles []string }

func corpusPathOf(s *sessiontree.Session) corpusPath {
	var p corpusPath
	embedded := embeddedResults(s)
	for _, e := range s.Path(s.Leaf) {
		p.ids = append(p.ids, e.ID)
		if !embedded[e] {
			p.articles = append(p.articles, e.ID)
		}
	}
	return p
}

// corpusState is what checkCorpus reads off the page.
type corpusState struct {
	Pwned, End, BodyHidden bool
	Last                   string
	Articles, Disorder     int
	Missing, Bad           []string
}

// checkCorpus fails the test for a payload that ran, hid the page,
// swallowed part of it or became markup, and for a conversation that is
// not the session's path in order.
func checkCorpus(t *testing.T, tb *tab, cs *corpusSession, path corpusPath, when string) {
	t.Helper()
	tb.NewDeadline()
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
    Missing: `+jsStrings(path.ids)+`.filter((id) => !entryOf(id)),
    Disorder: (() => { // the first child of #conversation out of the path's order, or -1
      const want = `+jsStrings(path.articles)+`, kids = $conv.children;
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
	if st.Articles != len(path.articles) {
		t.Errorf("%s: %d articles in #conversation, want %d", when, st.Articles, len(path.articles))
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
	tb.Clean()
}

// checkLiteralPayloads checks that payloads show as the text they are, in
// the user messages, and returns how many it checked.
func checkLiteralPayloads(t *testing.T, tb *tab, cs *corpusSession) int {
	t.Helper()
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
	return len(ids)
}

// checkCorpusImages: a remote Markdown image is a link, never fetched; an
// embedded PNG is shown (so the scan for images sees some).
func checkCorpusImages(t *testing.T, tb *tab, cs *corpusSession) {
	t.Helper()
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
}

// searchCorpus turns filter "all" on and searches for payloads.
func searchCorpus(t *testing.T, tb *tab, s *sessiontree.Session) {
	t.Helper()
	tb.clickFilter("all")
	if n, _ := tb.status(); n != len(s.Entries) {
		t.Errorf("filter all shows %d of %d entries", n, len(s.Entries))
	}
	// One search typed key by key; the others set at once (each keystroke
	// searches 4,000 entries and highlights a 17 MB conversation).
	tb.Do("typing a search", chromedp.SendKeys(chromedp.CSS("#tree-search"), "<!--"))
	tb.settle()
	if n, _ := tb.status(); n == 0 {
		t.Error("searching <!-- finds no entry")
	}
	for _, q := range []string{"__pwned=1</script>", "javascript: onerror", "</template>", "127.0.0.1:9 \u202e", "{{.}}"} {
		tb.NewDeadline()
		n := evalAsync[int](tb, `(async () => {
  const box = document.getElementById("tree-search");
  box.value = `+jsString(q)+`;
  box.dispatchEvent(new Event("input", { bubbles: true }));
  await new Promise((r) => setTimeout(r, 250));
  // Rows, or (a search that finds nothing shows none) the message saying so.
  const none = document.getElementById("tree-empty").textContent.startsWith("No entries match");
  return document.querySelectorAll("#tree .row").length || (none ? -1 : 0);
})()`)
		if n == 0 {
			t.Errorf("searching %q shows no row, and does not say it found nothing", q)
		}
	}
	tb.Do("clearing the search", chromedp.SendKeys(chromedp.CSS("#tree-search"), kb.Escape))
	tb.settle()
	if n, _ := tb.status(); n != len(s.Entries) {
		t.Errorf("after Escape filter all shows %d of %d entries", n, len(s.Entries))
	}
	if eval[bool](tb, `typeof window.__pwned !== "undefined"`) {
		t.Error("window.__pwned is set after searching")
	}
	tb.Clean()
}

// corpusClicks picks the rows to click, in tree order, ending on the
// session's leaf; pos is each entry's position in the tree.
func corpusClicks(t *testing.T, tb *tab, cs *corpusSession) (clicks []string, pos map[string]int) {
	t.Helper()
	treeIDs := eval[[]string](tb, `JSON.parse(document.getElementById("tree-data").textContent).id`)
	pos = map[string]int{}
	for i, id := range treeIDs {
		pos[id] = i
	}
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
	return clicks, pos
}

// clickCorpusRows clicks the rows of clicks in turn: each entry is then
// shown, as the target, and no payload ran.
func clickCorpusRows(t *testing.T, tb *tab, clicks []string, pos map[string]int) {
	t.Helper()
	for _, id := range clicks {
		tb.NewDeadline()
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
}

// checkCorpusRequests fails the test for any request but the page's own
// and the data: and blob: URLs of its pictures and workers.
func checkCorpusRequests(t *testing.T, tb *tab, page string) {
	t.Helper()
	time.Sleep(200 * time.Millisecond) // requests that come late
	for _, r := range tb.Requests() {
		u, err := url.Parse(r)
		switch {
		case err == nil && u.Scheme == "data":
		case err == nil && u.Scheme == "blob": // the search workers' script and pictures: the page's script made them
		case err == nil && u.Scheme == "file" && strings.SplitN(r, "?", 2)[0] == page:
		default:
			t.Errorf("request: %.200s", r)
		}
	}
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
  const all = allElements();
  const ours = new Set(["tree-data", "source-data", "page-script"]);
  const bad = [];
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

package htmlpage_test

// The tree's search: typed and cleared, its quick and exact answers, in
// the search workers or on the page's own thread.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"canopy/internal/sessiongen"
	"canopy/sessiontree"
)

// indexModes are the two ways a page searches once it has loaded: in its
// search workers, and on its own thread where a browser has no workers.
var indexModes = []indexMode{{"workers", true}, {"page", false}}

type indexMode struct {
	name    string
	workers bool
}

// searchTab opens a tab that searches as mode does: in workers, or on the
// page's thread (a browser without workers).
func searchTab(t *testing.T, mode indexMode) *tab {
	t.Helper()
	tb := newTab(t)
	if !mode.workers {
		tb.noWorkers()
	}
	return tb
}

// requireIndex waits until the exact index is built where mode builds it.
func (tb *tab) requireIndex(name string) {
	tb.t.Helper()
	if got := tb.searchIndex(); got != name {
		tb.t.Fatalf("%s: the exact index is in %q, want %q", name, got, name)
	}
}

// rowsFor searches for query and returns the ids of the rows drawn, sorted.
func (tb *tab) rowsFor(query string) []string {
	got := evalAsync[[]string](tb, `searchFor(`+jsString(query)+`).then(() =>
  [...document.querySelectorAll("#tree .row")].map((r) => r.getAttribute("data-entry-id")))`)
	slices.Sort(got)
	return got
}

// TestBrowserSearchMarkup: the search finds a word in an entry's text
// whatever its case, and nothing that only the entry's HTML holds (the
// "lt" of "&lt;", the "amp" of "&amp;", a tag's name), both at once (the
// quick search, in the entries' HTML) and once the exact index is built,
// by the search workers or by the page itself. The session has a few
// thousand filler entries after the ones searched, so that the first
// searches are made before the index is ready.
func TestBrowserSearchMarkup(t *testing.T) {
	t.Parallel()
	special := []string{
		"Compare a < b > c today",
		"The LOUD Answer",
		"R&D budget",
		"say \"words\" here",
	}
	var b strings.Builder
	b.WriteString(`{"type":"session","version":3,"id":"search-markup","timestamp":"2026-03-01T09:00:00.000Z","cwd":"/w"}` + "\n")
	const filler = 3000
	parent := "null"
	var ids []string
	for i := 0; i < len(special)+filler; i++ {
		id := fmt.Sprintf("e%05d", i)
		text := fmt.Sprintf("filler entry number %d", i)
		if i < len(special) {
			text = special[i]
		}
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		content, _ := json.Marshal([]map[string]string{{"type": "text", "text": text}})
		fmt.Fprintf(&b, `{"type":"message","id":%q,"parentId":%s,"timestamp":"2026-03-01T09:%02d:%02d.000Z","message":{"role":%q,"content":%s,"timestamp":1772355600719}}`+"\n",
			id, parent, (i/60)%60, i%60, role, content)
		parent = fmt.Sprintf("%q", id)
		ids = append(ids, id)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "markup.jsonl")
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	s := load(t, file)
	page := writePage(t, s, dir, "markup")

	cases := []struct {
		query string
		want  []string // a search shows only what it finds (not the leaf)
	}{
		{"loud", []string{ids[1]}},
		{"LOUD answer", []string{ids[1]}},
		{"r&d", []string{ids[2]}},
		{"<", []string{ids[0]}},
		{"a < b > c", []string{ids[0]}},
		{"lt", nil},
		{"amp", nil},
		{"gt", nil},
		{"quot", nil},
		{"span", nil},
		{`"words"`, []string{ids[3]}},
	}
	for _, mode := range indexModes {
		tb := searchTab(t, mode)
		tb.Open(page)
		for _, when := range []string{"at once", "with the index built"} {
			if when != "at once" {
				tb.requireIndex(mode.name)
			}
			for _, c := range cases {
				want := slices.Clone(c.want)
				slices.Sort(want)
				if got := tb.rowsFor(c.query); !slices.Equal(got, want) {
					t.Errorf("%s, %s, searching %q shows rows %v, want %v", mode.name, when, c.query, got, want)
				}
			}
		}
		tb.Clean()
	}
}

// TestBrowserIncrementalSearch: a query typed a letter at a time (each
// keystroke re-asks only the entries the previous one found, or the
// workers) and a filter changed during a search (the search's answers are
// kept) show what the same query and filter show when made at once, before
// and after the exact index is built, by the workers or by the page.
func TestBrowserIncrementalSearch(t *testing.T) {
	t.Parallel()
	s, dir := generatedSession(t, sessiongen.Config{Entries: 6000, Shape: sessiongen.ShapeBranched, Seed: 11})
	page := writePage(t, s, dir, "incremental")
	// On the page's own search, each step runs in one task (the search runs
	// on the input event: WAIT is nothing and the awaits yield to no task),
	// so that the index cannot be completed between the two ways. The
	// workers answer later: WAIT waits for their answer.
	const steps = `(async () => {
  const box = document.getElementById("tree-search"), status = () => document.getElementById("tree-status").textContent;
  const type = async (v) => { box.value = v; box.dispatchEvent(new Event("input", {bubbles: true})); WAIT; return status(); };
  const filter = (m) => { document.querySelector('#sidebar button[data-filter="' + m + '"]').click(); return status(); };
  const out = [];
  for (const word of ["the", "cont", "test"]) {
    let inc = "";
    for (let i = 1; i <= word.length; i++) inc = await type(word.slice(0, i));
    await type("");
    out.push([word, inc, await type(word)]);
  }
  await type("the");
  const step = await type("the test");
  await type("");
  out.push(["the test", step, await type("the test")]);
  await type("the");
  const a = filter("no-tools");
  filter("default"); await type(""); filter("no-tools");
  out.push(["the, then no-tools", a, await type("the")]);
  await type(""); filter("default");
  return out;
})()`
	for _, mode := range indexModes {
		tb := searchTab(t, mode)
		tb.Open(page)
		for _, when := range []string{"at once", "with the index built"} {
			wait := ""
			if when != "at once" {
				tb.requireIndex(mode.name)
				if mode.workers {
					wait = "await searched()"
				}
			} else if mode.workers {
				continue // the workers may be ready or not: the other case
			}
			for _, r := range evalAsync[[][3]string](tb, strings.Replace(steps, "WAIT", wait, 1)) {
				if r[1] != r[2] {
					t.Errorf("%s, %s, %q: step by step the tree shows %q, at once %q", mode.name, when, r[0], r[1], r[2])
				}
			}
		}
		tb.Clean()
	}
}

// TestBrowserSearchWorkers: the search workers find what the page's own
// exact index finds (in the entries' text, results drawn in their calls'
// cards, labels and row text), for every kind of term, on the same page.
func TestBrowserSearchWorkers(t *testing.T) {
	t.Parallel()
	s, dir := generatedSession(t, sessiongen.Config{Entries: 6000, Shape: sessiongen.ShapeBranched, Seed: 23})
	page := writePage(t, s, dir, "workers")
	queries := []string{"the", "THE", "test", "the test", "zqxjv", "error", "func", "fmt.", "(", "<", "&", `"`, "'", "→", "a", "e e e"}
	answers := map[string][]string{}
	for _, mode := range indexModes {
		tb := searchTab(t, mode)
		tb.Open(page)
		tb.requireIndex(mode.name)
		tb.settle()
		var got []string
		for _, q := range queries {
			// The rows compared are those drawn at the top of the tree: on a
			// busy machine the page may settle its first scroll late, and a
			// virtualized tree draws the rows of where it is scrolled.
			got = append(got, q+": "+evalAsync[string](tb, `searchFor(`+jsString(q)+`).then(async () => {
  const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  document.getElementById("tree").scrollTop = 0;
  await frame(); await frame();
  return document.getElementById("tree-status").textContent + " " +
    [...document.querySelectorAll("#tree .row")].map((r) => r.getAttribute("data-entry-id")).join(" ");
})`))
		}
		answers[mode.name] = got
		tb.Clean()
	}
	w, p := answers["workers"], answers["page"]
	for i := range queries {
		if w[i] != p[i] {
			t.Errorf("the workers answer %q, the page %q", w[i], p[i])
		}
	}
	// Not every query may find everything or nothing: the comparison would
	// prove little.
	if w[0] == w[4] {
		t.Errorf("searching %q and %q shows the same rows: %q", queries[0], queries[4], w[0])
	}
}

// TestBrowserSearchWorkersFail: workers that fail once started (here their
// script throws) are given up: the page builds its own index and finds
// what it finds without workers.
func TestBrowserSearchWorkersFail(t *testing.T) {
	t.Parallel()
	s, dir := generatedSession(t, sessiongen.Config{Entries: 2000, Shape: sessiongen.ShapeBranched, Seed: 5})
	page := writePage(t, s, dir, "broken-workers")
	search := func(tb *tab) string {
		return evalAsync[string](tb, `searchFor("the test").then(() => document.getElementById("tree-status").textContent)`)
	}
	var answers []string
	for _, broken := range []bool{true, false} {
		tb := newTab(t)
		if broken {
			tb.BeforePages(`(() => {
  const W = window.Worker;
  window.Worker = function () { return new W(URL.createObjectURL(new Blob(["throw new Error('a broken worker')"], { type: "text/javascript" }))); };
})();`)
		} else {
			tb.noWorkers()
		}
		tb.Open(page)
		if got := tb.searchIndex(); got != "page" {
			t.Fatalf("broken workers %v: the exact index is in %q, want the page", broken, got)
		}
		answers = append(answers, search(tb))
		tb.Clean()
	}
	if answers[0] != answers[1] {
		t.Errorf("after its workers failed the page shows %q, without workers %q", answers[0], answers[1])
	}
	if answers[0] == "" || strings.HasPrefix(answers[0], "2000 /") {
		t.Errorf("searching shows %q: want some rows, not all", answers[0])
	}
}

// TestBrowserSearchCards: a result drawn in its call's card is searched
// once, as the result's text, and its caller has what its cards have: a
// word of the result's output shows both rows, the result's label shows
// only the result (the card does not show it), and two words, one in the
// caller's own text and one in the card, show the caller. A term does not
// run from one card into the next ("txtbash": the first card's output ends
// in "bravo.txt", the second card starts with its tool's name). The same
// in the workers and in the page's own index.
func TestBrowserSearchCards(t *testing.T) {
	t.Parallel()
	lines := []string{
		`{"type":"session","version":3,"id":"search-cards","timestamp":"2026-03-01T09:00:00.000Z","cwd":"/w"}`,
		`{"type":"message","id":"u1","parentId":null,"timestamp":"2026-03-01T09:00:01.000Z","message":{"role":"user","content":"start here","timestamp":1772355601000}}`,
		`{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-03-01T09:00:02.000Z","message":{"role":"assistant","content":[{"type":"text","text":"I will look around"},{"type":"toolCall","id":"c1","name":"bash","arguments":{"command":"ls"}},{"type":"toolCall","id":"c2","name":"bash","arguments":{"command":"pwd"}}],"timestamp":1772355602000}}`,
		`{"type":"message","id":"r1","parentId":"a1","timestamp":"2026-03-01T09:00:03.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":"bravo.txt"}],"isError":false,"timestamp":1772355603000}}`,
		`{"type":"message","id":"r2","parentId":"r1","timestamp":"2026-03-01T09:00:03.500Z","message":{"role":"toolResult","toolCallId":"c2","toolName":"bash","content":[{"type":"text","text":"/home/echo"}],"isError":false,"timestamp":1772355603500}}`,
		`{"type":"label","id":"l1","parentId":"r2","timestamp":"2026-03-01T09:00:04.000Z","targetId":"r1","label":"charlie"}`,
		`{"type":"message","id":"a2","parentId":"l1","timestamp":"2026-03-01T09:00:05.000Z","message":{"role":"assistant","content":[{"type":"text","text":"done with delta"}],"timestamp":1772355605000}}`,
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "cards.jsonl")
	if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	page := writePage(t, load(t, file), dir, "cards")
	cases := []struct {
		query string
		want  []string // only what the search finds (not the leaf, a2)
	}{
		{"bravo", []string{"a1", "r1"}},
		{"echo", []string{"a1", "r2"}},
		{"charlie", []string{"r1"}},
		{"look bravo", []string{"a1"}},
		{"bravo echo", []string{"a1"}},
		{"look", []string{"a1"}},
		{"start", []string{"u1"}},
		{"txtbash", nil},
		{"zqxjv", nil},
	}
	for _, mode := range indexModes {
		tb := searchTab(t, mode)
		tb.Open(page)
		tb.requireIndex(mode.name)
		for _, c := range cases {
			got := tb.rowsFor(c.query)
			want := slices.Clone(c.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("%s: searching %q shows rows %v, want %v", mode.name, c.query, got, want)
			}
		}
		tb.Clean()
	}
}

// ---- A search typed, then cleared -----------------------------------------

// searchWord picks a word of some user messages that only a few entries
// contain; it returns the word, the user messages that contain it (the
// tree must show them) and every entry that could match it (the tree may
// show no other).
func searchWord(s *sessiontree.Session) (word string, must, may map[string]bool) {
	raw := make([]string, len(s.Entries))
	for i, e := range s.Entries {
		b, _ := e.Raw()
		raw[i] = strings.ToLower(string(b))
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
	tb.Open(writePage(t, s, t.TempDir(), "search"))
	all, _ := tb.status()

	tb.Do("typing into the search box", chromedp.SendKeys(chromedp.CSS("#tree-search"), word))
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

	tb.Do("pressing Escape in the search box", chromedp.SendKeys(chromedp.CSS("#tree-search"), kb.Escape))
	tb.settle()
	if back, _ := tb.status(); back != all {
		t.Errorf("after Escape the tree shows %d rows, want %d", back, all)
	}
	if v := eval[string](tb, `document.getElementById("tree-search").value`); v != "" {
		t.Errorf("after Escape the search box holds %q", v)
	}
	tb.Clean()
}

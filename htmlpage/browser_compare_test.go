package htmlpage_test

// The compare view: "compare" on a row opens two branches side by side
// from their fork, with each side's figures; its link reopens it; axe
// finds nothing serious in it; a phone shows one side under the other.

import (
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp/kb"

	cv "canopy/conversation"
	"canopy/htmlpage"
	"canopy/sessiontree"
)

// compareState is what the test reads of the compare view.
type compareState struct {
	Open      bool
	Fork      string
	LeafA     string
	LeafB     string
	Figures   [][]string // the table's rows: name, A's, B's
	URL       string
	Sides     int
	EntriesA  int
	EntriesB  int
	Conv      bool // #conversation is displayed
	FilesText string
	Files     []string // the files listed, in order
	Both      []string // those marked as changed on both sides
}

const readCompare = `(() => {
  const v = document.getElementById("compare");
  const side = (k) => document.querySelector(".cmp-side-" + k);
  return {
    Open: !!v && !v.hidden && document.body.classList.contains("comparing"),
    Fork: v ? v.getAttribute("data-fork") || "" : "",
    LeafA: side("a") ? side("a").getAttribute("data-leaf") : "",
    LeafB: side("b") ? side("b").getAttribute("data-leaf") : "",
    Figures: v ? [...v.querySelectorAll(".cmp-stats tbody tr")].map((tr) => [...tr.children].map((c) => c.textContent)) : [],
    URL: location.href,
    Sides: document.querySelectorAll(".cmp-side").length,
    EntriesA: side("a") ? side("a").querySelectorAll(".cmp-entries > article.entry").length : 0,
    EntriesB: side("b") ? side("b").querySelectorAll(".cmp-entries > article.entry").length : 0,
    Conv: getComputedStyle(document.getElementById("conversation")).display !== "none",
    FilesText: v && v.querySelector(".cmp-files") ? v.querySelector(".cmp-files").textContent : "",
    Files: v ? [...v.querySelectorAll(".cmp-file > code")].map((c) => c.textContent) : [],
    Both: v ? [...v.querySelectorAll(".cmp-file.cmp-both > code")].map((c) => c.textContent) : [],
  };
})()`

// waitCompare waits until the compare view has drawn its sides.
func waitCompare(tb *tab) compareState {
	tb.t.Helper()
	evalAsync[bool](tb, `(async () => {
  for (const t0 = performance.now(); performance.now() - t0 < 10000;) {
    if (document.querySelector("#compare .cmp-sides")) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
})()`)
	return eval[compareState](tb, readCompare)
}

// checkCompare checks the view against what Go computes for its leaves.
func checkCompare(t *testing.T, s *sessiontree.Session, st compareState, wantA string) {
	t.Helper()
	if !st.Open || st.Sides != 2 {
		t.Fatalf("the compare view is not open with two sides: %+v", st)
	}
	if st.Conv {
		t.Error("the conversation is still displayed under the compare view")
	}
	if st.LeafA != wantA {
		t.Errorf("side A is the branch of %q, want the active path's leaf %q", st.LeafA, wantA)
	}
	a, b := s.Entry(st.LeafA), s.Entry(st.LeafB)
	if a == nil || b == nil {
		t.Fatalf("the sides' leaves %q and %q are not entries", st.LeafA, st.LeafB)
	}
	fk := cv.ForkOf(s, a, b)
	wantFork := ""
	if fk.At != nil {
		wantFork = fk.At.ID
	}
	if st.Fork != wantFork {
		t.Errorf("fork %q, want %q", st.Fork, wantFork)
	}
	want := htmlpage.CompareFigures(s, fk.A, fk.B)
	if len(st.Figures) != len(want) {
		t.Fatalf("%d rows of figures, want %d: %q", len(st.Figures), len(want), st.Figures)
	}
	for i, w := range want {
		if got := st.Figures[i]; len(got) != 3 || got[0] != w[0] || got[1] != w[1] || got[2] != w[2] {
			t.Errorf("figures row %d: %q, want %q", i, got, w)
		}
	}
	inCard := htmlpage.InCard(s)
	shown := func(es []*sessiontree.Entry) int {
		n := 0
		for _, e := range es {
			if !inCard(e) {
				n++
			}
		}
		return min(n, 60)
	}
	if st.EntriesA != shown(fk.A) || st.EntriesB != shown(fk.B) {
		t.Errorf("the sides show %d and %d entries, want %d and %d", st.EntriesA, st.EntriesB, shown(fk.A), shown(fk.B))
	}
	var files, both []string
	inA := map[string]bool{}
	model := cv.New(s)
	for _, f := range model.FilesTouched(fk.A) {
		files = append(files, f.Path)
		inA[f.Path] = true
	}
	for _, f := range model.FilesTouched(fk.B) {
		if inA[f.Path] {
			both = append(both, f.Path)
		} else {
			files = append(files, f.Path)
		}
	}
	if strings.Join(st.Files, "\n") != strings.Join(files, "\n") || len(st.Both) != len(both) {
		t.Errorf("files listed %q (both: %q), want %q (both: %q)", st.Files, st.Both, files, both)
	}
}

// checkLastChanges opens each side's last change of every file listed
// and checks that it shows the call's card.
func checkLastChanges(t *testing.T, tb *tab) {
	t.Helper()
	type change struct{ Summary, Card string }
	got := evalAsync[[]change](tb, `(async () => {
  const out = [];
  for (const d of document.querySelectorAll("#compare .cmp-change")) {
    d.open = true;
    await new Promise((r) => setTimeout(r, 0));
    const card = d.querySelector(".tool");
    out.push({ Summary: d.querySelector("summary").textContent, Card: card ? card.className + " " + card.querySelector(".tool-head").textContent : "" });
  }
  return out;
})()`)
	for _, c := range got {
		if !strings.Contains(c.Card, "tool-write") && !strings.Contains(c.Card, "tool-edit") {
			t.Errorf("%q opens no edit or write card: %q", c.Summary, c.Card)
		}
	}
}

func TestBrowserCompare(t *testing.T) {
	t.Parallel()
	s, _, row := branchedSession(t)
	page := writePage(t, s, t.TempDir(), "compare")
	tb := newTab(t)
	tb.emulate(1280, 900, false)
	tb.Open(page)
	if !tb.showRow(row.ID) {
		t.Fatalf("no row for %s", row.ID)
	}
	tb.Click("clicking compare on the row of "+row.ID, `rowOf(`+jsString(row.ID)+`).querySelector(".row-compare")`)
	st := waitCompare(tb)
	checkCompare(t, s, st, s.Leaf.ID)
	t.Logf("compared %s and %s: fork %s, files %q (both %q)", st.LeafA, st.LeafB, st.Fork, st.Files, st.Both)
	checkLastChanges(t, tb)
	if !strings.Contains(st.URL, "?compare=") {
		t.Fatalf("the address bar does not link to the view: %s", st.URL)
	}
	if st.LeafB == s.Leaf.ID {
		t.Fatalf("side B is the active path's leaf too")
	}

	// The link reopens the same view.
	first := st
	tb.Open(st.URL)
	again := waitCompare(tb)
	checkCompare(t, s, again, s.Leaf.ID)
	if again.LeafB != first.LeafB || again.Fork != first.Fork || strings.Join(flat(again.Figures), "|") != strings.Join(flat(first.Figures), "|") {
		t.Errorf("the link reopened another view: %+v, first %+v", again, first)
	}

	// Back to the conversation.
	tb.Click("going back", `[...document.querySelectorAll("#compare .cmp-head button")].find((b) => /Back/.test(b.textContent))`)
	if st := eval[compareState](tb, readCompare); st.Open || !st.Conv {
		t.Errorf("after Back: the view is open (%v) or the conversation hidden (%v)", st.Open, !st.Conv)
	}
	tb.Clean()
}

func flat(rows [][]string) []string {
	var out []string
	for _, r := range rows {
		out = append(out, r...)
	}
	return out
}

// TestBrowserComparePhone: on a phone, both sides show, one under the other.
func TestBrowserComparePhone(t *testing.T) {
	t.Parallel()
	s := demoSession(t)
	a, b := sharedFilePair(t, s)
	page := writePage(t, s, t.TempDir(), "compare-phone")
	tb := newTab(t)
	tb.emulate(390, 844, true)
	tb.Open(page + "?compare=" + leafParam(a.ID) + "," + leafParam(b.ID))
	st := waitCompare(tb)
	checkCompare(t, s, st, a.ID)
	if len(st.Both) == 0 {
		t.Errorf("no file marked as changed on both sides: %q", st.Files)
	}
	checkLastChanges(t, tb)
	type box struct{ ATop, ABottom, BTop, AW, BW, VW float64 }
	bx := eval[box](tb, `(() => {
  const a = document.querySelector(".cmp-side-a").getBoundingClientRect(), b = document.querySelector(".cmp-side-b").getBoundingClientRect();
  return { ATop: a.top, ABottom: a.bottom, BTop: b.top, AW: a.width, BW: b.width, VW: document.documentElement.clientWidth };
})()`)
	if bx.BTop < bx.ABottom-1 {
		t.Errorf("on a phone, side B (top %.0f) is not under side A (bottom %.0f)", bx.BTop, bx.ABottom)
	}
	if bx.AW < bx.VW*0.8 || bx.BW < bx.VW*0.8 || bx.AW > bx.VW || bx.BW > bx.VW {
		t.Errorf("on a phone, the sides are %.0f and %.0f px wide in a %.0f px viewport", bx.AW, bx.BW, bx.VW)
	}
	tb.Clean()
}

// TestBrowserCompareAxe: axe finds no serious violation in the view, on a
// desktop and on a phone.
func TestBrowserCompareAxe(t *testing.T) {
	t.Parallel()
	src := axeScript(t)
	s, leaf, _ := branchedSession(t)
	page := writePage(t, s, t.TempDir(), "compare-axe") + "?compare=" + leafParam(s.Leaf.ID) + "," + leafParam(leaf.ID)
	for _, v := range []a11yView{
		{name: "desktop", width: 1280, height: 900, theme: "light"},
		{name: "phone-dark", width: 390, height: 844, mobile: true, theme: "dark"},
	} {
		tb := newTab(t)
		tb.emulate(v.width, v.height, v.mobile)
		tb.BeforePages(`try { localStorage.setItem("canopy-theme", "` + v.theme + `"); } catch (e) {}`)
		tb.Open(page)
		if st := waitCompare(tb); !st.Open {
			t.Fatalf("%s: the compare view did not open", v.name)
		}
		// The folds open: the last change of each file, the fork entry.
		eval[bool](tb, `(() => { document.querySelectorAll("#compare details").forEach((d) => d.open = true); return true; })()`)
		tb.settle()
		for _, f := range runAxe(tb, src) {
			t.Errorf("%s: %s (%s) on %d elements: %s\n  %s", v.name, f.ID, f.Impact, f.Count, f.Help, strings.Join(f.Examples, "\n  "))
		}
		tb.Clean()
	}
}

// leafParam is an id as the view's link writes it.
func leafParam(id string) string {
	return url.QueryEscape(id)
}

// TestBrowserCompareHostile: in the compare view of the hostile sessions
// (payloads in every text, an id with quotes, backticks and markup), no
// payload runs or becomes markup, every fold open; the ids' link
// reopens the view.
func TestBrowserCompareHostile(t *testing.T) {
	t.Parallel()
	for _, f := range []string{"../testdata/hostile/hostile.jsonl", "../testdata/markdown/hostile.jsonl"} {
		s := load(t, f)
		leaves := s.Leaves()
		if len(leaves) < 2 {
			t.Fatalf("%s: %d leaves", f, len(leaves))
		}
		a, b := leaves[0], leaves[len(leaves)-1]
		tb := newTab(t)
		tb.Open(writePage(t, s, t.TempDir(), "hostile-compare") + "?compare=" + leafParam(a.ID) + "," + leafParam(b.ID))
		st := waitCompare(tb)
		if !st.Open || st.LeafA != a.ID || st.LeafB != b.ID {
			t.Fatalf("%s: the view of %q and %q did not open: %+v", f, a.ID, b.ID, st)
		}
		eval[bool](tb, `(() => { document.querySelectorAll("#compare details").forEach((d) => d.open = true); return true; })()`)
		tb.settle()
		safety := eval[hostileSafety](tb, hostileScan(s.Leaf.ID))
		if safety.Pwned {
			t.Errorf("%s: window.__pwned is set in the compare view", f)
		}
		for _, list := range [][]string{safety.Handlers, safety.Links, safety.Scripts, safety.Styles, safety.Images} {
			for _, x := range list {
				t.Errorf("%s: element from session text: %s", f, x)
			}
		}
		// The address bar's link names the same two leaves.
		tb.Open(st.URL)
		if again := waitCompare(tb); again.LeafA != a.ID || again.LeafB != b.ID {
			t.Errorf("%s: the view's own link reopened %q and %q", f, again.LeafA, again.LeafB)
		}
		tb.Clean()
	}
}

// TestBrowserCompareKeys: "c" on a row of the tree compares its branch
// with the active path; Escape goes back, focus where it was.
func TestBrowserCompareKeys(t *testing.T) {
	t.Parallel()
	s, _, row := branchedSession(t)
	tb := newTab(t)
	tb.emulate(1280, 900, false)
	tb.Open(writePage(t, s, t.TempDir(), "compare-keys"))
	if !tb.showRow(row.ID) {
		t.Fatalf("no row for %s", row.ID)
	}
	// Focus the tree and walk down to the row with the arrows.
	eval[bool](tb, `(document.getElementById("tree").focus(), true)`)
	for i := 0; i < len(s.Entries) && !eval[bool](tb, `!!rowOf(`+jsString(row.ID)+`) && rowOf(`+jsString(row.ID)+`).classList.contains("focus")`); i++ {
		tb.key("arrow down", kb.ArrowDown)
	}
	tb.key("pressing c", "c")
	st := waitCompare(tb)
	checkCompare(t, s, st, s.Leaf.ID)
	if eval[string](tb, `document.activeElement.id`) != "compare-title" {
		t.Errorf("focus is on %q, not the view's heading", eval[string](tb, `document.activeElement.id || document.activeElement.tagName`))
	}
	tb.key("pressing Escape", kb.Escape)
	if st := eval[compareState](tb, readCompare); st.Open || !st.Conv {
		t.Errorf("after Escape the view is open (%v), the conversation hidden (%v)", st.Open, !st.Conv)
	}
	if eval[string](tb, `document.activeElement.id`) != "tree" {
		t.Errorf("after Escape, focus is on %q, not the tree", eval[string](tb, `document.activeElement.id || document.activeElement.tagName`))
	}
	tb.Clean()
}

// sharedFilePair is two leaves whose branches both changed a file.
func sharedFilePair(t *testing.T, s *sessiontree.Session) (a, b *sessiontree.Entry) {
	t.Helper()
	leaves := s.Leaves()
	model := cv.New(s)
	for i, x := range leaves {
		for _, y := range leaves[i+1:] {
			fk := cv.ForkOf(s, x, y)
			inX := map[string]bool{}
			for _, f := range model.FilesTouched(fk.A) {
				inX[f.Path] = true
			}
			for _, f := range model.FilesTouched(fk.B) {
				if inX[f.Path] {
					return x, y
				}
			}
		}
	}
	t.Fatalf("%s: no two branches change the same file", s.File)
	return nil, nil
}

// TestBrowserCompareEstimated: a Claude Code session records tokens and
// no price: each side's cost is the estimate Go makes (≈), with the note
// naming the price table.
func TestBrowserCompareEstimated(t *testing.T) {
	t.Parallel()
	s := load(t, "../testdata/claude/session.jsonl")
	leaves := s.Leaves()
	if len(leaves) < 2 {
		t.Fatalf("%d leaves", len(leaves))
	}
	a, b := leaves[len(leaves)-1], leaves[0]
	tb := newTab(t)
	tb.Open(writePage(t, s, t.TempDir(), "compare-claude") + "?compare=" + leafParam(a.ID) + "," + leafParam(b.ID))
	st := waitCompare(tb)
	checkCompare(t, s, st, a.ID)
	t.Logf("figures: %q", st.Figures)
	note := eval[string](tb, `(document.querySelector("#compare .cmp-figures .note") || {}).textContent || ""`)
	estimated := false
	for _, r := range st.Figures {
		if r[0] == "Cost" {
			estimated = strings.HasPrefix(r[1], "≈") || strings.HasPrefix(r[2], "≈")
		}
	}
	if !estimated || !strings.Contains(note, "genai-prices") {
		t.Errorf("no estimated cost with its note: figures %q, note %q", st.Figures, note)
	}
	tb.Clean()
}

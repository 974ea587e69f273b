package htmlpage_test

// Subagents: a Claude Code session's subagents drawn in the cards of the
// calls that ran them. A deep link to a subagent's entry opens the folds
// around it and marks it; the tree has their rows under the call; a
// click on a row of the session's own conversation stays in it; the
// search finds their text.

import (
	"net/url"
	"path/filepath"
	"testing"

	"canopy/htmlpage"
	"canopy/sessiontree"
)

// agentsSession is testdata/claude/agents/s1.jsonl with its subagents
// grafted under their calls.
func agentsSession(t *testing.T) *sessiontree.Session {
	t.Helper()
	path := filepath.Join("..", "testdata", "claude", "agents", "s1.jsonl")
	s, err := sessiontree.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	subs, err := sessiontree.LoadSubagents(s, path)
	if err != nil {
		t.Fatal(err)
	}
	s.GraftSubagents(subs, nil) // agent-bad.jsonl is left out
	if len(s.Grafts()) == 0 {
		t.Fatal("no subagent grafted")
	}
	return s
}

func TestBrowserSubagents(t *testing.T) {
	t.Parallel()
	s := agentsSession(t)
	page := writePage(t, s, t.TempDir(), "agents")
	tb := newTab(t)

	// a4-2: the last entry of a4, which a1 ran, which the session's call
	// m2 ran: two folds deep in m2's card.
	tb.Open(withQuery(page, url.Values{"leafId": {"a4-2"}, "targetId": {"a4-2"}}))
	tb.settle() // the folds open, then the target is scrolled to
	type linkState struct {
		Exists, Target, InView, FoldsOpen, RowSelected, NoticeHidden bool
		Folds                                                        int
		Call, After                                                  bool
	}
	st := eval[linkState](tb, `(() => {
  const el = entryOf("a4-2"), row = rowOf("a4-2");
  const r = el ? el.getBoundingClientRect() : null;
  let folds = 0, open = true;
  for (let d = el && el.parentElement; d; d = d.parentElement) if (d.tagName === "DETAILS") { folds++; open = open && d.open; }
  return {
    Exists: !!el, Target: !!el && el.classList.contains("target"),
    InView: !!r && r.top >= -1 && r.top < innerHeight && r.bottom > 0,
    FoldsOpen: open, Folds: folds,
    RowSelected: !!row && row.getAttribute("aria-selected") === "true",
    NoticeHidden: document.getElementById("notice").hidden,
    Call: !!entryOf("m2"), After: !!entryOf("m3") && !document.getElementById("entry-m2").contains(entryOf("m3")),
  };
})()`)
	switch {
	case !st.Exists:
		t.Fatal("#entry-a4-2 is not in #conversation")
	case !st.Target:
		t.Error("#entry-a4-2 is not marked as the target")
	case st.Folds != 2 || !st.FoldsOpen:
		t.Errorf("#entry-a4-2 is in %d folds, open: %v; want 2, open", st.Folds, st.FoldsOpen)
	case !st.InView:
		t.Error("#entry-a4-2 is not in the viewport")
	}
	if !st.RowSelected || !st.NoticeHidden {
		t.Errorf("row selected %v, notice hidden %v", st.RowSelected, st.NoticeHidden)
	}
	if !st.Call || st.After {
		t.Errorf("the call m2 shown: %v; the entry after it, m3, on its own: %v (the path ends in the subagent)", st.Call, st.After)
	}

	// The tree: the subagents' rows under their calls, a click on a row
	// of the session's own goes on in its own conversation.
	tb.Open(page)
	tb.clickFilter("all")
	type treeState struct {
		Rows         int
		A1, A4       bool
		Level1, LvA1 string
	}
	tr := eval[treeState](tb, `(() => {
  const lv = (id) => { const r = rowOf(id); return r ? r.getAttribute("aria-level") : ""; };
  return { Rows: document.querySelectorAll("#tree .row").length, A1: !!rowOf("a1-1"), A4: !!rowOf("a4-1"), Level1: lv("m1"), LvA1: lv("a1-1") };
})()`)
	if !tr.A1 || !tr.A4 || tr.LvA1 <= tr.Level1 {
		t.Errorf("tree: rows a1-1 %v (level %s, its call's %s), a4-1 %v", tr.A1, tr.LvA1, tr.Level1, tr.A4)
	}
	if n, _ := tb.status(); n != htmlpage.FilterCounts(s, nil)["all"] {
		t.Errorf("%d rows in All, want %d", n, htmlpage.FilterCounts(s, nil)["all"])
	}
	// m1's newest child is m2 (the call, hidden: it has no text), whose
	// newest is a1-1, a subagent's first entry (by time): the click goes
	// on in the session's own conversation.
	tb.clickRow("m1")
	tb.settle()
	if got := eval[string](tb, `new URLSearchParams(location.search).get("leafId") || ""`); got != s.Leaf.ID {
		t.Errorf("a click on m1 shows the path to %s, want the session's %s", got, s.Leaf.ID)
	}
	tb.clickRow("a1-3")
	tb.settle()
	if !eval[bool](tb, `(() => { const el = entryOf("a1-3"); return !!el && el.classList.contains("target") && el.closest("details.subagent").open; })()`) {
		t.Error("a click on a subagent's result does not open its conversation and mark its card")
	}

	// The search finds a subagent's text, with the search workers and
	// without (the page's own index).
	checkAgentSearch(t, tb, "workers")
	tb.Clean()
	tb = newTab(t)
	tb.noWorkers()
	tb.Open(page)
	tb.clickFilter("all")
	checkAgentSearch(t, tb, "page")
	tb.Clean()
}

func checkAgentSearch(t *testing.T, tb *tab, index string) {
	t.Helper()
	if got := tb.searchIndex(); got != index {
		t.Errorf("the search index is the %s's, want the %s's", got, index)
	}
	// a4's prompt is its first entry, and in the arguments of the call
	// that ran it, drawn in the card of its result a1-5.
	for q, want := range map[string][]string{"how it calls parse": {"a4-1", "a1-5"}, "12 passed": {"a2-2"}} {
		hits := evalAsync[[]string](tb, `(async () => {
  await searchFor(`+jsString(q)+`);
  return [...document.querySelectorAll("#tree .row")].map((r) => r.getAttribute("data-entry-id"));
})()`)
		found := map[string]bool{}
		for _, h := range hits {
			found[h] = true
		}
		for _, w := range want {
			if !found[w] {
				t.Errorf("%s index: search %q: rows %v lack %s", index, q, hits, w)
			}
		}
	}
}

// TestBrowserSubagentsAxe: the folds of subagents' conversations, open
// (a deep link into the deepest), pass axe in both themes.
func TestBrowserSubagentsAxe(t *testing.T) {
	t.Parallel()
	src := axeScript(t)
	page := a11yPage{"subagents", withQuery(writePage(t, agentsSession(t), t.TempDir(), "agents"),
		url.Values{"leafId": {"a4-2"}, "targetId": {"a4-2"}}), false}
	for _, v := range a11yViews {
		if v.name == "desktop" || v.name == "desktop-dark" {
			checkAxe(t, src, page, v)
		}
	}
}

package htmlpage_test

// Deep links and clicks on rows: the conversation shows the path asked
// for, and the address bar says which.

import (
	"net/url"
	"strings"
	"testing"

	"canopy/sessiontree"
)

// ---- Deep links -----------------------------------------------------------

func TestBrowserDeepLink(t *testing.T) {
	t.Parallel()
	s, a, b := branchedSession(t)
	t.Logf("%s: leaf %s, target %s", s.File, a.ID, b.ID)
	page := writePage(t, s, t.TempDir(), "deep")
	tb := newTab(t)

	tb.Open(withQuery(page, url.Values{"leafId": {a.ID}, "targetId": {b.ID}}))
	type targetState struct {
		Exists, Target, InView, RowSelected, NoticeHidden bool
	}
	st := eval[targetState](tb, `(() => {
  const el = entryOf(`+jsString(b.ID)+`), row = rowOf(`+jsString(b.ID)+`);
  const r = el ? el.getBoundingClientRect() : null;
  return {
    Exists: !!el,
    Target: !!el && el.classList.contains("target"),
    InView: !!r && r.top >= -1 && r.top < innerHeight && r.bottom > 0,
    RowSelected: !!row && row.getAttribute("aria-selected") === "true",
    NoticeHidden: document.getElementById("notice").hidden,
  };
})()`)
	if !st.Exists {
		t.Fatalf("#entry-%s is not in #conversation", b.ID)
	}
	if !st.Target {
		t.Errorf("#entry-%s does not have class target", b.ID)
	}
	if !st.InView {
		t.Errorf("#entry-%s is not in the viewport", b.ID)
	}
	if !st.RowSelected {
		t.Errorf("the row of %s is not drawn with aria-selected=true", b.ID)
	}
	if !st.NoticeHidden {
		t.Errorf("a notice is shown for a valid link: %q", eval[string](tb, `document.getElementById("notice").textContent`))
	}
	for _, e := range s.Path(a) {
		if !eval[bool](tb, `!!entryOf(`+jsString(e.ID)+`)`) {
			t.Errorf("entry %s of the path to %s is not in #conversation", e.ID, a.ID)
		}
	}
	if eval[bool](tb, `!!entryOf(`+jsString(s.Leaf.ID)+`)`) {
		t.Errorf("the session's leaf %s is shown, though the link asked for the path to %s", s.Leaf.ID, a.ID)
	}

	tb.Open(withQuery(page, url.Values{"leafId": {"nope"}}))
	type noticeState struct {
		Visible bool
		Text    string
		Leaf    bool
	}
	ns := eval[noticeState](tb, `(() => {
  const n = document.getElementById("notice");
  return {
    Visible: !n.hidden && getComputedStyle(n).display !== "none" && n.getBoundingClientRect().height > 0,
    Text: n.textContent,
    Leaf: !!entryOf(`+jsString(s.Leaf.ID)+`),
  };
})()`)
	if !ns.Visible {
		t.Error("?leafId=nope: #notice is not visible")
	}
	if !strings.Contains(ns.Text, "nope") {
		t.Errorf("?leafId=nope: the notice %q does not name the id", ns.Text)
	}
	if !ns.Leaf {
		t.Errorf("?leafId=nope: the session's leaf %s is not shown", s.Leaf.ID)
	}
	tb.Clean()
}

// ---- Clicking a row -------------------------------------------------------

func TestBrowserClickRow(t *testing.T) {
	t.Parallel()
	s, _, c := branchedSession(t)
	leaf := sessiontree.NewestLeaf(c)
	t.Logf("%s: clicking %s, expecting the path to %s", s.File, c.ID, leaf.ID)
	tb := newTab(t)
	tb.Open(writePage(t, s, t.TempDir(), "click"))
	tb.clickFilter("all")
	tb.clickRow(c.ID)
	tb.settle() // the address bar is brought up to date after the frame

	newPath := onPath(s, leaf)
	for _, e := range s.Path(leaf) {
		if !eval[bool](tb, `!!entryOf(`+jsString(e.ID)+`)`) {
			t.Errorf("entry %s of the path to %s is not in #conversation", e.ID, leaf.ID)
		}
	}
	for _, e := range s.Path(s.Leaf) {
		if !newPath[e] && eval[bool](tb, `!!entryOf(`+jsString(e.ID)+`)`) {
			t.Errorf("entry %s of the old path is still in #conversation", e.ID)
		}
	}
	type rowState struct {
		Selected, InPath, Target bool
		Leaf, TargetID           string
	}
	st := eval[rowState](tb, `(() => {
  const row = rowOf(`+jsString(c.ID)+`), el = entryOf(`+jsString(c.ID)+`);
  const q = new URLSearchParams(location.search);
  return {
    Selected: !!row && row.getAttribute("aria-selected") === "true",
    InPath: !!row && row.classList.contains("in-path"),
    Target: !!el && el.classList.contains("target"),
    Leaf: q.get("leafId") || "",
    TargetID: q.get("targetId") || "",
  };
})()`)
	if !st.Selected {
		t.Errorf("the clicked row %s is not aria-selected", c.ID)
	}
	if !st.InPath {
		t.Errorf("the clicked row %s does not have class in-path", c.ID)
	}
	if !st.Target {
		t.Errorf("#entry-%s is not marked as the target", c.ID)
	}
	if st.Leaf != leaf.ID || st.TargetID != c.ID {
		t.Errorf("location.search has leafId=%q targetId=%q, want %q and %q", st.Leaf, st.TargetID, leaf.ID, c.ID)
	}
	tb.Clean()
}

// TestBrowserDeepLinkIntoTurn: a link to a later line of a streamed reply
// lands on its target inside the turn's card, and a link to a record
// folded into a turn opens the fold and lands on the record.
func TestBrowserDeepLinkIntoTurn(t *testing.T) {
	t.Parallel()
	s, err := sessiontree.LoadFile("../testdata/claude/session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	page := writePage(t, s, t.TempDir(), "turn")
	tb := newTab(t)
	for _, c := range []struct{ id, in string }{
		{"a3", `article.k-assistant`},   // a later line of a streamed reply: a target in its card
		{"h1", `details.records[open]`}, // a hook record: in the open fold of its turn
	} {
		tb.Open(withQuery(page, url.Values{"targetId": {c.id}}))
		type state struct{ Exists, Target, InView, Inside bool }
		st := eval[state](tb, `(() => {
  const el = entryOf(`+jsString(c.id)+`);
  const r = el ? el.getBoundingClientRect() : null;
  return {
    Exists: !!el,
    Target: !!el && el.classList.contains("target"),
    InView: !!r && r.top >= -1 && r.top < innerHeight,
    Inside: !!el && !!el.parentElement.closest(`+jsString(c.in)+`),
  };
})()`)
		if !st.Exists || !st.Target || !st.InView || !st.Inside {
			t.Errorf("a link to %s: %+v, want it on the page, marked, in view and inside %s", c.id, st, c.in)
		}
	}
	tb.Clean()
}

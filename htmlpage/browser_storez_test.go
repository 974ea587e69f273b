package htmlpage_test

// The store (every entry off the session's active path) is gzip-compressed
// and in base64 in the page; its script unpacks it once it has arrived.
// What needs an entry of it waits until then: a deep link, a click on a
// row, the search.

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// storeWord is in the text of two entries of the branch of storeSession,
// and nowhere else.
const storeWord = "zebrafinch"

// storeSession writes a session whose active path is r, m0, m1, m2 and
// which has, off it under r, a branch a0 … a699 (more than one store
// chunk: at most 512 entries each), and renders its page: the page's URL.
// a5 and a650 say storeWord; a650 is in the branch's second chunk.
func storeSession(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(`{"type":"session","version":3,"id":"storez","timestamp":"2026-03-01T09:00:00.000Z","cwd":"/w"}` + "\n")
	at := 0
	line := func(id, parent, role, text string) {
		p := "null"
		if parent != "" {
			p = fmt.Sprintf("%q", parent)
		}
		fmt.Fprintf(&b, `{"type":"message","id":%q,"parentId":%s,"timestamp":"2026-03-01T09:%02d:%02d.000Z","message":{"role":%q,"content":[{"type":"text","text":%q}]}}`+"\n",
			id, p, (at/60)%60, at%60, role, text)
		at++
	}
	line("r", "", "user", "the root")
	parent := "r"
	for i := range 700 {
		id := fmt.Sprintf("a%d", i)
		text := fmt.Sprintf("branch entry %d <b> & more", i)
		if i == 5 || i == 650 {
			text += " the " + storeWord + " sings"
		}
		line(id, parent, []string{"assistant", "user"}[i%2], text)
		parent = id
	}
	line("m0", "r", "assistant", "main zero")
	line("m1", "m0", "user", "main one")
	line("m2", "m1", "assistant", "main two")
	dir := t.TempDir()
	file := filepath.Join(dir, "storez.jsonl")
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	s := load(t, file)
	if s.Leaf.ID != "m2" {
		t.Fatalf("the session's leaf is %s, want m2", s.Leaf.ID)
	}
	return writePage(t, s, dir, "storez")
}

// storeShown is what the conversation shows of storeSession.
type storeShown struct {
	Root, A0, A650, A699, M2, Target, NoticeHidden bool
	Notice                                         string
}

const storeShownJS = `(() => {
  const n = document.getElementById("notice"), t = entryOf("a650");
  return {
    Root: !!entryOf("r"), A0: !!entryOf("a0"), A650: !!t, A699: !!entryOf("a699"), M2: !!entryOf("m2"),
    Target: !!t && t.classList.contains("target"),
    NoticeHidden: n.hidden, Notice: n.textContent,
  };
})()`

// TestBrowserStoreDeepLink: a link to an entry off the active path, in the
// store's second chunk, shows the path to its leaf with the entry marked;
// so does a click on its row from the session's own path.
func TestBrowserStoreDeepLink(t *testing.T) {
	t.Parallel()
	page := storeSession(t)
	tb := newTab(t)
	tb.Open(withQuery(page, url.Values{"leafId": {"a699"}, "targetId": {"a650"}}))
	want := storeShown{Root: true, A0: true, A650: true, A699: true, Target: true, NoticeHidden: true}
	if got := eval[storeShown](tb, storeShownJS); got != want {
		t.Errorf("the deep link shows %+v, want %+v", got, want)
	}
	if !eval[bool](tb, `!document.querySelector("#store > script[data-z]")`) {
		t.Error("a store chunk is still compressed")
	}

	tb.Open(page)
	if got, want := eval[storeShown](tb, storeShownJS), (storeShown{Root: true, M2: true, NoticeHidden: true}); got != want {
		t.Errorf("the session's path shows %+v, want %+v", got, want)
	}
	tb.clickRow("a650")
	tb.settle()
	if got := eval[storeShown](tb, storeShownJS); !got.Root || !got.A0 || !got.A650 || !got.A699 || got.M2 || !got.NoticeHidden {
		t.Errorf("a click on a650's row shows %+v, want the path to a699 and no notice", got)
	}
	tb.Clean()
}

// TestBrowserStoreSearch: a word only the store's entries hold is found,
// at once and with the exact index built, by the workers and by the page.
func TestBrowserStoreSearch(t *testing.T) {
	t.Parallel()
	page := storeSession(t)
	want := []string{"a5", "a650"} // not m2, the leaf: a search shows only what it finds
	for _, mode := range indexModes {
		tb := searchTab(t, mode)
		tb.Open(page)
		for _, when := range []string{"at once", "with the index built"} {
			if when != "at once" {
				tb.requireIndex(mode.name)
			}
			if got := tb.rowsFor(storeWord); !slices.Equal(got, want) {
				t.Errorf("%s, %s: searching %q shows rows %v, want %v", mode.name, when, storeWord, got, want)
			}
			if got := tb.rowsFor("branch entry 699"); !slices.Equal(got, []string{"a699"}) {
				t.Errorf("%s, %s: searching %q shows rows %v, want [a699]", mode.name, when, "branch entry 699", got)
			}
		}
		tb.Clean()
	}
}

// TestBrowserStoreNoDecompression: in a browser without
// DecompressionStream, the page shows the session's path as ever and says
// plainly that the other branches cannot be shown, at once and when one
// is asked for.
func TestBrowserStoreNoDecompression(t *testing.T) {
	t.Parallel()
	page := storeSession(t)
	tb := newTab(t)
	tb.BeforePages(`Object.defineProperty(window, "DecompressionStream", { value: undefined, configurable: true });`)
	tb.Open(page)
	got := eval[storeShown](tb, storeShownJS)
	if !got.Root || !got.M2 || got.NoticeHidden || !strings.Contains(got.Notice, "cannot unpack the page's other branches") {
		t.Errorf("without DecompressionStream the page shows %+v, want the session's path and a notice", got)
	}
	tb.Open(withQuery(page, url.Values{"leafId": {"a699"}, "targetId": {"a650"}}))
	got = eval[storeShown](tb, storeShownJS)
	if !got.Root || got.A0 || got.NoticeHidden || !strings.Contains(got.Notice, "other branches") {
		t.Errorf("a deep link into the store without DecompressionStream shows %+v, want the root and a notice", got)
	}
	tb.Clean()
}

// TestBrowserStoreLongPathIntoBranch: on a conversation long enough to be
// shown in a window (over 2,000 entries), a link whose leaf is in a
// branch and whose target is before the fork (what "copy link" makes
// there) shows the target at once, cut at the fork while the store is
// still compressed, and then the branch to its leaf once the store is
// unpacked, without the reader scrolling.
func TestBrowserStoreLongPathIntoBranch(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString(`{"type":"session","version":3,"id":"storelong","timestamp":"2026-03-01T09:00:00.000Z","cwd":"/w"}` + "\n")
	line := func(id, parent, text string) {
		p := "null"
		if parent != "" {
			p = fmt.Sprintf("%q", parent)
		}
		fmt.Fprintf(&b, `{"type":"message","id":%q,"parentId":%s,"timestamp":"2026-03-01T09:00:00.000Z","message":{"role":"user","content":[{"type":"text","text":%q}]}}`+"\n", id, p, text)
	}
	main := func(from, to int) {
		for i := from; i < to; i++ {
			id, parent := fmt.Sprintf("m%d", i), fmt.Sprintf("m%d", i-1)
			if i == 0 {
				parent = ""
			}
			line(id, parent, "main "+id)
		}
	}
	main(0, 2151)     // the session's path: m0 … m2199, its leaf written last
	parent := "m2150" // the branch: b0 … b9, forking after m2150
	for i := range 10 {
		id := fmt.Sprintf("b%d", i)
		line(id, parent, "branch "+id)
		parent = id
	}
	main(2151, 2200)
	dir := t.TempDir()
	file := filepath.Join(dir, "storelong.jsonl")
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	s := load(t, file)
	if s.Leaf.ID != "m2199" {
		t.Fatalf("the session's leaf is %s", s.Leaf.ID)
	}
	page := writePage(t, s, dir, "storelong")
	tb := newTab(t)
	// The store unpacked late, as on a big page: after the conversation
	// has arrived and the target is shown.
	tb.BeforePages(`{ const text = Response.prototype.text; Response.prototype.text = function () { return new Promise((r) => setTimeout(r, 700)).then(() => text.call(this)); }; }`)
	tb.Tab.Open(withQuery(page, url.Values{"leafId": {"b9"}, "targetId": {"m2148"}})) // no wait for the store
	got := evalAsync[string](tb, `(async () => {
  for (const t0 = performance.now(); performance.now() - t0 < 5000; await new Promise((r) => setTimeout(r, 20))) {
    if (entryOf("b9")) return "b9 shown";
  }
  const t = entryOf("m2148");
  return "after 5 s: target " + (t ? "shown" : "not shown") + ", b0 " + (entryOf("b0") ? "shown" : "not shown") + ", store " + (document.getElementById("store").getAttribute("data-ready") || "not ready");
})()`)
	if got != "b9 shown" {
		t.Errorf("a link to b9 through m2148: %s", got)
	}
	if !eval[bool](tb, `!!entryOf("m2148") && entryOf("m2148").classList.contains("target")`) {
		t.Error("the target m2148 is not shown marked")
	}
	tb.Clean()
}

package render_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"canopy/internal/sessiongen"
)

// TestBrowserSearchMarkup: the search finds a word in an entry's text
// whatever its case, and nothing that only the entry's HTML holds (the
// "lt" of "&lt;", the "amp" of "&amp;", a tag's name), both at once (the
// quick search, in the entries' HTML) and once the exact index is built.
// The session has a few thousand filler entries after the ones searched, so
// that the first searches are made before the index is ready.
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
	leaf := ids[len(ids)-1] // always shown
	tb := newTab(t)
	tb.open(writePage(t, s, dir, "markup"))

	cases := []struct {
		query string
		want  []string // besides the leaf
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
	shown := func(query string) []string {
		got := evalAsync[[]string](tb, `new Promise((resolve) => {
  const box = document.getElementById("tree-search");
  box.value = `+jsString(query)+`;
  box.dispatchEvent(new Event("input", {bubbles: true}));
  requestAnimationFrame(() => setTimeout(() => resolve([...document.querySelectorAll("#tree .row")].map((r) => r.getAttribute("data-entry-id"))), 0));
})`)
		slices.Sort(got)
		return got
	}
	for _, when := range []string{"at once", "with the index built"} {
		if when != "at once" {
			evalAsync[bool](tb, `new Promise((resolve) => setTimeout(() => resolve(true), 3000))`)
		}
		for _, c := range cases {
			want := append(slices.Clone(c.want), leaf)
			slices.Sort(want)
			if got := shown(c.query); !slices.Equal(got, want) {
				t.Errorf("%s, searching %q shows rows %v, want %v", when, c.query, got, want)
			}
		}
	}
	tb.clean()
}

// TestBrowserIncrementalSearch: a query typed a letter at a time (each
// keystroke re-asks only the entries the previous one found) and a filter
// changed during a search (the search's answers are kept) show what the
// same query and filter show when made at once, before and after the exact
// index is built.
func TestBrowserIncrementalSearch(t *testing.T) {
	t.Parallel()
	s, dir := generatedSession(t, sessiongen.Config{Entries: 6000, Shape: sessiongen.ShapeBranched, Seed: 11})
	tb := newTab(t)
	tb.open(writePage(t, s, dir, "incremental"))
	// Each step runs in one task (the search runs on the input event), so
	// that the index cannot be completed between the two ways.
	const steps = `(() => {
  const box = document.getElementById("tree-search"), status = () => document.getElementById("tree-status").textContent;
  const type = (v) => { box.value = v; box.dispatchEvent(new Event("input", {bubbles: true})); return status(); };
  const filter = (m) => { document.querySelector('#sidebar button[data-filter="' + m + '"]').click(); return status(); };
  const out = [];
  for (const word of ["the", "cont", "test"]) {
    let inc = "";
    for (let i = 1; i <= word.length; i++) inc = type(word.slice(0, i));
    type("");
    out.push([word, inc, type(word)]);
  }
  type("the");
  out.push(["the test", type("the test"), (type(""), type("the test"))]);
  type("the");
  const a = filter("no-tools");
  filter("default"); type(""); filter("no-tools");
  out.push(["the, then no-tools", a, type("the")]);
  type(""); filter("default");
  return out;
})()`
	for _, when := range []string{"at once", "with the index built"} {
		if when != "at once" {
			evalAsync[bool](tb, `new Promise((resolve) => setTimeout(() => resolve(true), 4000))`)
		}
		for _, r := range eval[[][3]string](tb, steps) {
			if r[1] != r[2] {
				t.Errorf("%s, %q: step by step the tree shows %q, at once %q", when, r[0], r[1], r[2])
			}
		}
	}
	tb.clean()
}

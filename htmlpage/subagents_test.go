package htmlpage

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"canopy/sessiontree"
)

// loadAgents is testdata/claude/agents/s1.jsonl with its subagents
// grafted under the calls that ran them.
func loadAgents(t *testing.T) *sessiontree.Session {
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
	s.GraftSubagents(subs, nil)
	return s
}

// element is the HTML of the element whose id is "entry-"+id in page:
// from its start tag to the end tag that closes it (tag: article or div).
func element(t *testing.T, page, id string) string {
	t.Helper()
	at := strings.Index(page, ` id="entry-`+id+`"`)
	if at < 0 {
		t.Fatalf("no element for %s", id)
	}
	start := strings.LastIndex(page[:at], "<")
	tag := "div"
	if strings.HasPrefix(page[start:], "<article") {
		tag = "article"
	}
	depth := 0
	for i := start; i < len(page); {
		open, end := strings.Index(page[i:], "<"+tag), strings.Index(page[i:], "</"+tag+">")
		if end < 0 {
			break
		}
		if open >= 0 && open < end {
			depth++
			i += open + 1
			continue
		}
		if depth--; depth == 0 {
			return page[start : i+end+len("</"+tag+">")]
		}
		i += end + 1
	}
	t.Fatalf("%s: its element does not end", id)
	return ""
}

// TestSubagentsInCards: each subagent's conversation is drawn in the card
// of the call that ran it, its entries once each, the nested one in its
// parent's; the ones no call ran are entries of their own; every grafted
// entry has its tree row, under its call.
func TestSubagentsInCards(t *testing.T) {
	s := loadAgents(t)
	page := renderPage(t, s)
	for _, c := range []struct {
		call    string
		entries []string // drawn in the call's entry, in order
	}{
		// a1-5 is a1-4's result: its card holds a4's fold.
		{"m2", []string{"a1-1", "a1-2", "a1-3", "a1-4", "a1-5", "a4-1", "a4-2", "a1-6"}},
		{"m4", []string{"a2-1", "a2-2", "a3-1", "a3-2"}},
		{"a1-4", []string{"a4-1", "a4-2"}},
	} {
		el := element(t, page, c.call)
		last := -1
		for _, id := range c.entries {
			at := strings.Index(el, `id="entry-`+id+`"`)
			if at < 0 || !strings.Contains(el[:max(at, 0)], `<details class="subagent"><summary>`) {
				t.Errorf("%s is not in a subagent's fold in %s's card", id, c.call)
				continue
			}
			if at < last {
				t.Errorf("%s is drawn before the entry above it in %s", id, c.call)
			}
			last = at
		}
	}
	if !strings.Contains(element(t, page, "m2"), "Explore subagent: Find callers · 6 messages · 5 s</summary>") {
		t.Error("a1's fold does not say what it was")
	}
	for _, e := range s.Entries {
		if n := strings.Count(page, `id="entry-`+e.ID+`"`); s.GraftOf(e) != nil && n != 1 {
			t.Errorf("entry %s: %d elements", e.ID, n)
		}
	}
	for _, id := range []string{"o-1", "w1-1"} { // no call ran them: entries of the store
		if strings.Contains(element(t, page, "m2"), id) || !strings.Contains(page, `<article class="entry k-user" id="entry-`+id+`"`) {
			t.Errorf("%s is not an entry of its own", id)
		}
	}

	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	ec := r.gather(s, nil)
	for _, g := range s.Grafts() {
		for e := g.Leaf; e != nil && e != g.Call; e = e.Parent {
			if ec.rows[e.Index].text == "" {
				t.Errorf("entry %s of %s has no tree row", e.ID, g.AgentID)
			}
			if (ec.rows[e.Index].flags&flagEmbedded != 0) != (g.Call != nil) {
				t.Errorf("entry %s of %s: embedded %v", e.ID, g.AgentID, g.Call != nil)
			}
		}
	}
	var tree bytes.Buffer
	if err := treeJSON(&tree, s, treeOrder(s), ec.rows, s.Leaf, nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(tree.String(), `"c":[0,0,0,0,0,0,`) {
		t.Errorf("the tree does not tell the conversations apart: %s", tree.String())
	}
	if want, err := marshalTree(s, treeOrder(s), ec.rows, s.Leaf, nil); err != nil || !bytes.Equal(tree.Bytes(), want) {
		t.Errorf("the tree of a session with subagents is not json's encoding of its data (%v):\n%s\n%s", err, tree.Bytes(), want)
	}
	plain, err := sessiontree.LoadFile(filepath.Join("..", "testdata", "claude", "agents", "s1.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	if p := renderPage(t, plain); strings.Contains(p, `"c":[`) || strings.Contains(p, "a1-1") {
		t.Error("a page without subagents grafted has their conversations")
	}
}

// TestSidechainsInCards: the sidechains of a session's own file are
// drawn in the cards of the calls that ran them, as subagents' files are.
func TestSidechainsInCards(t *testing.T) {
	s, err := sessiontree.LoadFile(filepath.Join("..", "testdata", "claude", "sidechains.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if errs := s.GraftSubagents(nil, nil); errs != nil {
		t.Fatal(errs)
	}
	page := renderPage(t, s)
	el := element(t, page, "a1")
	for _, id := range []string{"s1", "s2", "s3", "s4", "t1", "t2"} {
		if !strings.Contains(el, `id="entry-`+id+`"`) {
			t.Errorf("sidechain entry %s is not in the card of a1", id)
		}
	}
	if strings.Count(el, `<details class="subagent">`) != 2 {
		t.Errorf("a1 draws %d subagents, want 2", strings.Count(el, `<details class="subagent">`))
	}
}

// TestSubagentsNestedDeep: conversations nested past maxNesting are not
// drawn in their calls' cards (which say so) but as entries of their own.
func TestSubagentsNestedDeep(t *testing.T) {
	const levels = maxNesting + 3
	conv := func(k int, call bool) string {
		id := func(n int) string { return fmt.Sprintf("%d-%d", k, n) }
		line := func(typ, uuid, parent, msg string) string {
			p := "null"
			if parent != "" {
				p = `"` + parent + `"`
			}
			return `{"type":"` + typ + `","uuid":"` + uuid + `","parentUuid":` + p + `,"sessionId":"s","isSidechain":` + fmt.Sprint(k > 0) +
				`,"timestamp":"2026-01-01T00:00:0` + fmt.Sprint(k%10) + `.000Z","version":"2.1.0","message":` + msg + `}`
		}
		lines := []string{line("user", id(1), "", `{"role":"user","content":"level `+fmt.Sprint(k)+`"}`)}
		last := id(1)
		if call {
			lines = append(lines, line("assistant", id(2), id(1), `{"id":"m`+id(2)+`","role":"assistant","model":"m","content":[{"type":"tool_use","id":"call`+
				fmt.Sprint(k)+`","name":"Task","input":{"description":"go deeper","prompt":"level `+fmt.Sprint(k+1)+`"}}]}`))
			last = id(2)
		}
		lines = append(lines, line("assistant", id(3), last, `{"id":"m`+id(3)+`","role":"assistant","model":"m","content":[{"type":"text","text":"done `+fmt.Sprint(k)+`"}]}`))
		return strings.Join(lines, "\n") + "\n"
	}
	s, err := sessiontree.Load([]byte(conv(0, true)), "main.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for k := 1; k <= levels; k++ {
		sub, err := sessiontree.Load([]byte(conv(k, k < levels)), fmt.Sprintf("agent-%d.jsonl", k))
		if err != nil {
			t.Fatal(err)
		}
		call := s.Entry(fmt.Sprintf("%d-2", k-1))
		if g, err := s.Graft(sub, sessiontree.GraftPoint{Call: call, CallID: fmt.Sprint("call", k-1)}); err != nil || g.Depth != k {
			t.Fatalf("level %d: %v %v", k, g, err)
		}
	}
	page := renderPage(t, s)
	deepest := element(t, page, fmt.Sprintf("%d-2", maxNesting))
	if !strings.Contains(deepest, fmt.Sprintf("Run more than %d subagents deep", maxNesting)) {
		t.Errorf("the call at level %d does not say its subagent is not drawn there", maxNesting)
	}
	for k := 0; k <= levels; k++ {
		id := fmt.Sprintf("%d-3", k)
		if n := strings.Count(page, `id="entry-`+id+`"`); n != 1 {
			t.Errorf("%s: %d elements", id, n)
		}
		if inCard := strings.Contains(element(t, page, "0-2"), `id="entry-`+id+`"`); inCard != (k >= 1 && k <= maxNesting) {
			t.Errorf("%s drawn in the session's call's card: %v", id, inCard)
		}
	}
}

// TestSubagentTwins: the markup of a page with subagents is the template's.
func TestSubagentTwins(t *testing.T) {
	s := loadAgents(t)
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	ec := newEntryContext(s, treeOrder(s))
	for i, e := range s.Entries {
		if ec.rows[i].flags&flagEmbedded != 0 {
			continue
		}
		b, err := e.Decode()
		v := r.view(ec, e, b, err)
		var got bytes.Buffer
		writeEntry(&got, v)
		if want := templateEntry(t, r, v); got.String() != want {
			t.Errorf("entry %s:\nwriter:   %q\ntemplate: %q", e.ID, got.String(), want)
		}
	}
}

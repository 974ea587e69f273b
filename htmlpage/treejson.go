package htmlpage

import (
	"io"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"canopy/sessiontree"
)

// treeData is the sidebar's description of the tree, positions in tree
// order: parallel arrays keep it compact for 100,000 entries. The JSON
// names are what the page's script reads.
type treeData struct {
	IDs     treeColumn     `json:"id"`
	Parents treeColumn     `json:"p"` // position of the parent, -1 for a root
	Flags   treeColumn     `json:"f"`
	Text    treeColumn     `json:"t"`
	Kinds   treeColumn     `json:"k"`
	Labels  map[int]string `json:"l"`
	// Figures: what the subtree under the first row of each branch did
	// and spent, by position (figuresOf): a short form for the row's
	// badge, and the whole line.
	Figures map[int][2]string `json:"g,omitzero"`
	Leaf    int               `json:"leaf"` // -1 when there is none
	// Convs: the conversation of each entry, 0 for the session's own,
	// k for its k-th grafted one (a subagent's); only for a session with
	// grafted conversations.
	Convs *treeColumn `json:"c,omitzero"`
	// Records: some entries' cards hold others' (bookkeeping folded into
	// the turn it belongs to, markRecords), so the page's script finds
	// entries as it does on a page with subagents: only top-level
	// articles start one.
	Records bool `json:"r,omitzero"`
	// Compare: what the compare view needs (compare.go).
	Compare *compareData `json:"x,omitzero"`
}

// treeColumn is one of treeData's arrays: n items, made as they are
// encoded rather than gathered first (at 100,000 entries the tree's JSON
// is tens of MB, and its text columns as slices a few more).
type treeColumn struct {
	n    int
	item func(p int) jsontext.Token
}

func (c treeColumn) MarshalJSONTo(enc *jsontext.Encoder) error {
	if err := enc.WriteToken(jsontext.BeginArray); err != nil {
		return err
	}
	for p := range c.n {
		if err := enc.WriteToken(c.item(p)); err != nil {
			return err
		}
	}
	return enc.WriteToken(jsontext.EndArray)
}

// treeJSONOptions are how the tree's JSON is encoded. EscapeForHTML and
// EscapeForJS: the JSON sits in a <script> element; "</script>" in session
// text must not end it.
var treeJSONOptions = json.JoinOptions(json.Deterministic(true), jsontext.EscapeForHTML(true), jsontext.EscapeForJS(true))

// treeJSON writes the tree's JSON to w, as it is encoded. Through the
// JSON encoder, token by token: measured against the hand-written encoder
// it replaces (on the corpus sessions, code-10MB, chain-50k and gen-100k),
// the export took the same CPU time to within 1-3%, in the same memory.
func treeJSON(w io.Writer, s *sessiontree.Session, order []int, rows []rowInfo, leaf *sessiontree.Entry,
	figs map[*sessiontree.Entry][2]string) error {
	pos := positions(s, order)
	return writeTree(w, s, order, pos, rows, leaf, figs, newCompareData(s, order, pos, rows))
}

// positions is each entry's position in tree order, by index.
func positions(s *sessiontree.Session, order []int) []int {
	pos := make([]int, len(s.Entries))
	for p, i := range order {
		pos[i] = p
	}
	return pos
}

// writeTree is treeJSON, given the positions and the compare view's data
// (newCompareData), which Render makes while it makes the page's figures.
func writeTree(w io.Writer, s *sessiontree.Session, order, pos []int, rows []rowInfo, leaf *sessiontree.Entry,
	figs map[*sessiontree.Entry][2]string, compare *compareData) error {
	column := func(item func(e *sessiontree.Entry) jsontext.Token) treeColumn {
		return treeColumn{len(order), func(p int) jsontext.Token { return item(s.Entries[order[p]]) }}
	}
	t := treeData{
		IDs: column(func(e *sessiontree.Entry) jsontext.Token { return jsontext.String(e.ID) }),
		Parents: column(func(e *sessiontree.Entry) jsontext.Token {
			if e.Parent == nil {
				return jsontext.Int(-1)
			}
			return jsontext.Int(int64(pos[e.Parent.Index]))
		}),
		Flags:  column(func(e *sessiontree.Entry) jsontext.Token { return jsontext.Int(int64(rows[e.Index].flags)) }),
		Text:   column(func(e *sessiontree.Entry) jsontext.Token { return jsontext.String(rows[e.Index].text) }),
		Kinds:  column(func(e *sessiontree.Entry) jsontext.Token { return jsontext.String(rowKind(e)) }),
		Labels: map[int]string{},
		Leaf:   -1,
	}
	for p, i := range order {
		if l := s.Labels[s.Entries[i].ID]; l != "" {
			t.Labels[p] = l
		}
	}
	if leaf != nil {
		t.Leaf = pos[leaf.Index]
	}
	for e, f := range figs {
		if t.Figures == nil {
			t.Figures = map[int][2]string{}
		}
		t.Figures[pos[e.Index]] = f
	}
	if grafts := s.Grafts(); len(grafts) > 0 {
		conv := make(map[*sessiontree.Graft]int64, len(grafts))
		for k, g := range grafts {
			conv[g] = int64(k) + 1
		}
		c := column(func(e *sessiontree.Entry) jsontext.Token { return jsontext.Int(conv[s.GraftOf(e)]) })
		t.Convs = &c
	}
	for i, e := range s.Entries {
		if e.Bookkeeping && rows[i].flags&flagEmbedded != 0 {
			t.Records = true
			break
		}
	}
	t.Compare = compare
	return json.MarshalWrite(w, &t, treeJSONOptions)
}

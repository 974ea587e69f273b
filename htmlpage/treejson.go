package htmlpage

import (
	"fmt"
	"io"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"canopy/sessiontree"
)

// The tree's JSON is the sidebar's description of the tree, positions in
// tree order: one object whose members are parallel arrays, compact for
// 100,000 entries. Its members, in their order, by the names the page's
// script reads:
const (
	memberIDs     = iota // "id"
	memberParents        // "p": the position of the parent, -1 for a root
	memberFlags          // "f"
	memberText           // "t"
	memberKinds          // "k"
	memberLabels         // "l": by position
	// "g": what the subtree under the first row of each branch did and
	// spent, by position (figuresOf): a short form for the row's badge,
	// and the whole line. Left out when there is none.
	memberFigures
	memberLeaf // "leaf": -1 when there is none
	// "c": the conversation of each entry, 0 for the session's own, k for
	// its k-th grafted one (a subagent's); only for a session with grafted
	// conversations.
	memberConvs
	// "r": some entries' cards hold others' (bookkeeping folded into the
	// turn it belongs to, markRecords), so the page's script finds entries
	// as it does on a page with subagents: only top-level articles start
	// one. Only when true.
	memberRecords
	// "x": what the compare view needs (compare.go), for a session with
	// two leaves or more.
	memberCompare
	treeMembers
)

var treeMemberNames = [treeMembers]string{"id", "p", "f", "t", "k", "l", "g", "leaf", "c", "r", "x"}

// treeColumn is one of the tree's arrays: n items, made as they are
// encoded rather than gathered in slices first (at 100,000 entries the
// text column as a slice of strings was a few MB more than its JSON).
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

// treeJSON writes the tree's JSON to w, figs being the sidebar's figures.
// Through the JSON encoder, token by token: measured against the
// hand-written encoder it replaced (on the corpus sessions, code-10MB,
// chain-50k and gen-100k), the export took the same CPU time to within
// 1-3%, in the same memory. (Since encodeTree, the object is held
// encoded until it is written: 11 MB of code-100k's page.)
func treeJSON(w io.Writer, s *sessiontree.Session, order []int, rows []rowInfo, leaf *sessiontree.Entry,
	figs map[*sessiontree.Entry][2]string) error {
	t, err := encodeTree(s, order, positions(s, order), rows, leaf, func() map[*sessiontree.Entry][2]string { return figs })
	if err != nil {
		return err
	}
	return t.writeTo(w)
}

// positions is each entry's position in tree order, by index.
func positions(s *sessiontree.Session, order []int) []int {
	pos := make([]int, len(s.Entries))
	for p, i := range order {
		pos[i] = p
	}
	return pos
}

// encodedTree is the tree's JSON object, its members' values encoded
// (nil: the member is left out). In blocks: a bytes.Buffer grown to a
// column's 5 MB copied and cleared twice as much, 50 ms of the export's
// end on 100,000 entries.
type encodedTree [treeMembers]blocks

// encodeTree encodes the tree's members, each on its own and all at once
// on every core, beside side: the page's figures, which give the
// sidebar's (member "g") and take as long as the columns. Made one after
// the other (the figures and the compare view's data, then the JSON) they
// were 100 ms of gen-100k's export with one core idle half of it; this
// way, 75-90 ms with both busy.
// TestTreeJSONMatchesMarshal holds the object to json's encoding of the
// data it stands for.
func encodeTree(s *sessiontree.Session, order, pos []int, rows []rowInfo, leaf *sessiontree.Entry,
	side func() map[*sessiontree.Entry][2]string) (*encodedTree, error) {
	var t encodedTree
	var errs [treeMembers]error
	encode := func(m int, v any) {
		if err := json.MarshalWrite(&t[m], v, treeJSONOptions); err != nil {
			errs[m] = fmt.Errorf("the tree's JSON, member %q: %w", treeMemberNames[m], err)
		}
	}
	column := func(m int, item func(e *sessiontree.Entry) jsontext.Token) func() {
		return func() {
			encode(m, treeColumn{len(order), func(p int) jsontext.Token { return item(s.Entries[order[p]]) }})
		}
	}
	var figs map[*sessiontree.Entry][2]string
	// The longest first: the figures, the compare view's, the text.
	tasks := []func(){
		func() { figs = side() },
		func() {
			if c := newCompareData(s, order, pos, rows); c != nil {
				encode(memberCompare, c)
			}
		},
		column(memberText, func(e *sessiontree.Entry) jsontext.Token { return jsontext.String(rows[e.Index].text) }),
		column(memberIDs, func(e *sessiontree.Entry) jsontext.Token { return jsontext.String(e.ID) }),
		column(memberParents, func(e *sessiontree.Entry) jsontext.Token {
			if e.Parent == nil {
				return jsontext.Int(-1)
			}
			return jsontext.Int(int64(pos[e.Parent.Index]))
		}),
		column(memberFlags, func(e *sessiontree.Entry) jsontext.Token { return jsontext.Int(int64(rows[e.Index].flags)) }),
		column(memberKinds, func(e *sessiontree.Entry) jsontext.Token { return jsontext.String(rowKind(e)) }),
	}
	if grafts := s.Grafts(); len(grafts) > 0 {
		conv := make(map[*sessiontree.Graft]int64, len(grafts))
		for k, g := range grafts {
			conv[g] = int64(k) + 1
		}
		tasks = append(tasks, column(memberConvs, func(e *sessiontree.Entry) jsontext.Token { return jsontext.Int(conv[s.GraftOf(e)]) }))
	}
	parallel(len(tasks), func(i int) { tasks[i]() })

	labels := map[int]string{}
	for p, i := range order {
		if l := s.Labels[s.Entries[i].ID]; l != "" {
			labels[p] = l
		}
	}
	encode(memberLabels, labels)
	if len(figs) > 0 {
		byPos := make(map[int][2]string, len(figs))
		for e, f := range figs {
			byPos[pos[e.Index]] = f
		}
		encode(memberFigures, byPos)
	}
	at := -1
	if leaf != nil {
		at = pos[leaf.Index]
	}
	encode(memberLeaf, at)
	for i, e := range s.Entries {
		if e.Bookkeeping && rows[i].flags&flagEmbedded != 0 {
			encode(memberRecords, true)
			break
		}
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return &t, nil
}

// writeTo writes the object: {"name":value,...}, in the members' order.
func (t *encodedTree) writeTo(w io.Writer) error {
	sep := "{"
	for m, v := range t {
		if v == nil {
			continue
		}
		if _, err := io.WriteString(w, sep+`"`+treeMemberNames[m]+`":`); err != nil {
			return err
		}
		for _, b := range v {
			if _, err := w.Write(b); err != nil {
				return err
			}
		}
		sep = ","
	}
	_, err := io.WriteString(w, "}")
	return err
}

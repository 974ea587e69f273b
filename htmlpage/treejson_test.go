package htmlpage

import (
	"bytes"
	"io"
	"os"
	"testing"
	"unicode/utf8"

	"github.com/go-json-experiment/json"

	"canopy/sessiontree"
)

// plainTree is the tree's JSON object (treejson.go's members) with its
// columns gathered in slices.
type plainTree struct {
	IDs     []string          `json:"id"`
	Parents []int             `json:"p"`
	Flags   []int             `json:"f"`
	Text    []string          `json:"t"`
	Kinds   []string          `json:"k"`
	Labels  map[int]string    `json:"l"`
	Figures map[int][2]string `json:"g,omitzero"`
	Leaf    int               `json:"leaf"`
	Convs   []int64           `json:"c,omitzero"`
	Records bool              `json:"r,omitzero"`
	Compare *compareData      `json:"x,omitzero"` // compare.go's, held to Session.Stats by TestCompareFiguresSum
}

// marshalTree is the reference encoding of the tree: the data that
// treeJSON stands for, gathered first, through json.MarshalWrite.
func marshalTree(s *sessiontree.Session, order []int, rows []rowInfo, leaf *sessiontree.Entry, figs map[*sessiontree.Entry][2]string) ([]byte, error) {
	pos := make([]int, len(s.Entries))
	for p, i := range order {
		pos[i] = p
	}
	t := plainTree{Labels: map[int]string{}, Leaf: -1}
	for p, i := range order {
		e := s.Entries[i]
		parent := -1
		if e.Parent != nil {
			parent = pos[e.Parent.Index]
		}
		t.IDs = append(t.IDs, e.ID)
		t.Parents = append(t.Parents, parent)
		t.Flags = append(t.Flags, rows[i].flags)
		t.Text = append(t.Text, rows[i].text)
		t.Kinds = append(t.Kinds, rowKind(e))
		t.Records = t.Records || e.Bookkeeping && rows[i].flags&flagEmbedded != 0
		if l := s.Labels[e.ID]; l != "" {
			t.Labels[p] = l
		}
	}
	if t.IDs == nil { // as make([]string, 0) encodes: []
		t.IDs, t.Parents, t.Flags, t.Text, t.Kinds = []string{}, []int{}, []int{}, []string{}, []string{}
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
		conv := map[*sessiontree.Graft]int64{}
		for k, g := range grafts {
			conv[g] = int64(k) + 1
		}
		for _, i := range order {
			t.Convs = append(t.Convs, conv[s.GraftOf(s.Entries[i])])
		}
	}
	t.Compare = newCompareData(s, order, pos, rows)
	var buf bytes.Buffer
	err := json.MarshalWrite(&buf, &t, treeJSONOptions)
	return buf.Bytes(), err
}

// TestTreeJSONMatchesMarshal checks treeJSON against json.MarshalWrite of
// the data it stands for, byte for byte, on every session in testdata
// (its rows filled in as a page fills them) and on one whose ids, labels
// and rows hold everything the encoder escapes.
func TestTreeJSONMatchesMarshal(t *testing.T) {
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	files := testdataSessions(t)
	withFigures := 0
	check := func(name string, s *sessiontree.Session, ec *entryContext) {
		t.Helper()
		order := treeOrder(s)
		figs := figuresOf(s, s.Leaf, ec.rows).rows // the sidebar's, as Render gives them
		if len(figs) > 0 {
			withFigures++
		}
		var got bytes.Buffer
		if err := treeJSON(&got, s, order, ec.rows, s.Leaf, figs); err != nil {
			t.Fatalf("%s: treeJSON: %v", name, err)
		}
		want, err := marshalTree(s, order, ec.rows, s.Leaf, figs)
		if err != nil {
			t.Fatalf("%s: MarshalWrite: %v", name, err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("%s:\ntreeJSON: %s\nMarshal:  %s", name, got.Bytes(), want)
		}
	}
	n := 0
	for _, f := range files {
		s, err := sessiontree.LoadFile(f)
		if err != nil {
			continue // not a session (a broken fixture)
		}
		check(f, s, r.gather(s, nil))
		n++
	}
	if n < 30 || withFigures < 10 {
		t.Fatalf("checked %d sessions of testdata, %d with branch figures", n, withFigures)
	}

	// Every character class the encoder treats apart, in ids, labels and
	// row text; and a session with no entries at all.
	const nasty = "a\"b\\c&d<e>f'g\x00h\x01\x1f\b\f\n\r\t\u2028\u2029\u00e9\U0001F600</script><!--"
	src := `{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/"}
{"type":"message","id":"` + jsonText(nasty) + `","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":"` + jsonText(nasty) + `"}}
{"type":"label","id":"l1","parentId":"` + jsonText(nasty) + `","timestamp":"2026-01-01T00:00:02Z","targetId":"` + jsonText(nasty) + `","label":"` + jsonText(nasty) + `"}
`
	s, err := sessiontree.Load([]byte(src), "nasty.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	ec := r.gather(s, nil)
	ec.rows[0].text = nasty // every escape in a row, not just what flatten leaves
	check("nasty", s, ec)
	empty, err := sessiontree.Load([]byte(`{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/"}`+"\n"), "empty.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	check("empty", empty, r.gather(empty, nil))

	// Invalid UTF-8 fails, as it does for json (no row can hold any).
	ec.rows[0].text = "bad \xff"
	if err := treeJSON(new(bytes.Buffer), s, treeOrder(s), ec.rows, s.Leaf, nil); err == nil {
		t.Error("treeJSON accepted invalid UTF-8")
	}
}

// jsonText is s escaped for a JSON string.
func jsonText(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b[1 : len(b)-1])
}

// FuzzTreeJSON holds treeJSON to json's encoding of the gathered data
// for any text in a row, and to failing on invalid UTF-8.
func FuzzTreeJSON(f *testing.F) {
	for _, s := range []string{"", "plain", "a\"b\\c", "<&>", "\x00\x1f\x7f", "\u2028\u2029", "é😀", "\xff", "a\xed\xa0\x80b"} {
		f.Add(s)
	}
	s, err := sessiontree.Load([]byte(`{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/"}`+"\n"+
		`{"type":"message","id":"u1","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":"go"}}`+"\n"), "f.jsonl")
	if err != nil {
		f.Fatal(err)
	}
	order := treeOrder(s)
	f.Fuzz(func(t *testing.T, text string) {
		rows := []rowInfo{{text: text}}
		var got bytes.Buffer
		gotErr := treeJSON(&got, s, order, rows, s.Leaf, nil)
		want, err := marshalTree(s, order, rows, s.Leaf, nil)
		if !utf8.ValidString(text) {
			if gotErr == nil || err == nil {
				t.Fatalf("%q: invalid UTF-8 accepted (treeJSON: %v, json: %v)", text, gotErr, err)
			}
			return
		}
		if err != nil || gotErr != nil {
			t.Fatalf("%q: treeJSON: %v, json: %v", text, gotErr, err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Fatalf("%q:\ntreeJSON: %s\njson:     %s", text, got.Bytes(), want)
		}
	})
}

// BenchmarkTreeJSON measures the tree's JSON of a session (CANOPY_TREE_BENCH,
// default: the larger real session of the corpus), streamed column by
// column and with its columns gathered first.
func BenchmarkTreeJSON(b *testing.B) {
	path := os.Getenv("CANOPY_TREE_BENCH")
	if path == "" {
		path = sharedFile(b, "corpus/before-compaction.jsonl")
	}
	s, err := sessiontree.LoadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	r, err := New()
	if err != nil {
		b.Fatal(err)
	}
	ec := r.gather(s, nil)
	order := treeOrder(s)
	b.Run("treeJSON", func(b *testing.B) {
		for b.Loop() {
			if err := treeJSON(io.Discard, s, order, ec.rows, s.Leaf, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("MarshalWrite", func(b *testing.B) {
		for b.Loop() {
			if _, err := marshalTree(s, order, ec.rows, s.Leaf, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}

package render

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"canopy/sessiontree"
)

// treeData is the sidebar's description of the tree, positions in tree
// order: parallel arrays keep it compact for 100,000 entries. treeJSON
// writes it; the JSON names are what the page's script reads.
type treeData struct {
	IDs     []string       `json:"id"`
	Parents []int          `json:"p"` // position of the parent, -1 for a root
	Flags   []int          `json:"f"`
	Text    []string       `json:"t"`
	Kinds   []string       `json:"k"`
	Labels  map[int]string `json:"l"`
	Leaf    int            `json:"leaf"` // -1 when there is none
}

// treeJSONOptions are how the tree's JSON is encoded. EscapeForHTML and
// EscapeForJS: the JSON sits in a <script> element; "</script>" in session
// text must not end it.
var treeJSONOptions = json.JoinOptions(json.Deterministic(true), jsontext.EscapeForHTML(true), jsontext.EscapeForJS(true))

// treeJSON writes the tree's JSON to w, as it is encoded: at 100,000
// entries it is tens of MB. The bytes are those json.MarshalWrite writes
// for a treeData with treeJSONOptions (TestTreeJSONMatchesMarshal holds it
// to that), written by hand: at 100,000 entries, encoding the treeData
// through reflection took 50 ms, at the end of the export when one core
// has nothing else to do.
func treeJSON(w io.Writer, s *sessiontree.Session, order []int, rows []rowInfo, leaf *sessiontree.Entry) error {
	pos := make([]int, len(s.Entries))
	for p, i := range order {
		pos[i] = p
	}
	tw := treeWriter{w: w}
	tw.list(`{"id":[`, len(order), func(p int) { tw.quote(s.Entries[order[p]].ID) })
	tw.list(`],"p":[`, len(order), func(p int) {
		parent := -1
		if e := s.Entries[order[p]]; e.Parent != nil {
			parent = pos[e.Parent.Index]
		}
		tw.int(parent)
	})
	tw.list(`],"f":[`, len(order), func(p int) { tw.int(rows[order[p]].flags) })
	tw.list(`],"t":[`, len(order), func(p int) { tw.quote(rows[order[p]].text) })
	tw.list(`],"k":[`, len(order), func(p int) { tw.quote(rowKind(s.Entries[order[p]])) })
	if tw.err != nil {
		return tw.err
	}
	// The labels (a few) through json itself, which orders the members.
	labels := map[int]string{}
	for p, i := range order {
		if l := s.Labels[s.Entries[i].ID]; l != "" {
			labels[p] = l
		}
	}
	tw.buf = append(tw.buf, `],"l":`...)
	l, err := json.Marshal(labels, treeJSONOptions)
	if err != nil {
		return err
	}
	tw.buf = append(tw.buf, l...)
	tw.buf = append(tw.buf, `,"leaf":`...)
	at := -1
	if leaf != nil {
		at = pos[leaf.Index]
	}
	tw.int(at)
	tw.buf = append(tw.buf, '}')
	tw.flush()
	return tw.err
}

// treeWriter appends the tree's JSON to buf, written to w every 32 KB.
type treeWriter struct {
	w   io.Writer
	buf []byte
	err error
}

func (t *treeWriter) list(open string, n int, item func(int)) {
	t.buf = append(t.buf, open...)
	for p := 0; p < n && t.err == nil; p++ {
		if p > 0 {
			t.buf = append(t.buf, ',')
		}
		item(p)
		if len(t.buf) >= 32<<10 {
			t.flush()
		}
	}
}

func (t *treeWriter) flush() {
	if t.err == nil {
		_, t.err = t.w.Write(t.buf)
	}
	t.buf = t.buf[:0]
}

func (t *treeWriter) int(n int) { t.buf = strconv.AppendInt(t.buf, int64(n), 10) }

// quote appends s as a JSON string, escaped as jsontext escapes it with
// EscapeForHTML and EscapeForJS: the short escapes for '"', '\\' and
// control characters that have one, \u00xx for the other control
// characters and for '<', '>' and '&', \u2028 and \u2029. Invalid UTF-8
// fails, as it does in jsontext (no row holds any: their text is decoded
// JSON, or made from it).
func (t *treeWriter) quote(s string) {
	b := append(t.buf, '"')
	last := 0
	for i := 0; i < len(s); {
		// Most bytes need nothing: skip them a table lookup each.
		for i < len(s) && !quoteStop[s[i]] {
			i++
		}
		if i == len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			b = append(b, s[last:i-1]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, `\b`...)
			case '\f':
				b = append(b, `\f`...)
			case '\n':
				b = append(b, `\n`...)
			case '\r':
				b = append(b, `\r`...)
			case '\t':
				b = append(b, `\t`...)
			default:
				b = appendUTF16Escape(b, rune(c))
			}
			last = i
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch {
		case r == utf8.RuneError && n == 1:
			if t.err == nil {
				t.err = fmt.Errorf("the tree's JSON: invalid UTF-8 in %q", s)
			}
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[last:i-n]...)
			b = appendUTF16Escape(b, r)
			last = i
		}
	}
	b = append(b, s[last:]...)
	t.buf = append(b, '"')
}

// quoteStop marks the bytes at which quote stops to look: the ASCII it
// escapes, and the first bytes of non-ASCII characters (U+2028 and U+2029
// are escaped, invalid UTF-8 fails).
var quoteStop = func() (t [256]bool) {
	for c := 0; c < 256; c++ {
		t[c] = c < 0x20 || c >= utf8.RuneSelf || strings.IndexByte(`"\\<>&`, byte(c)) >= 0
	}
	return t
}()

// appendUTF16Escape appends \uXXXX (lower-case hex) for a rune of the
// Basic Multilingual Plane.
func appendUTF16Escape(b []byte, r rune) []byte {
	const hex = "0123456789abcdef"
	return append(b, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
}

package mdpage

import (
	"bufio"
	"bytes"
	"html"
	"strconv"
	"strings"

	"canopy/internal/mdcost"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	gmhtml "github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// sanitizer turns Markdown written by a model (or an extension) into
// Markdown that shows the same text with the same structure and can hold
// no markup of its own.
//
// Why rebuild rather than escape the source: escaping "<" in the source
// needs to know where code is, and that depends on the parser; one that
// disagrees with ours about a single code span would see raw HTML we left
// alone. Instead the text is parsed (goldmark, with GitHub's extensions)
// and written out again from the tree, so that the only markup in the
// result is what this file writes:
//
//   - all text is written escaped (textWriter): every ASCII character that
//     can start inline markup carries a backslash, which CommonMark reads
//     as that character in any context but code, and characters that could
//     start a block where a line starts are escaped too; so are the "." of
//     "www." and the ":" of a scheme, and an address's "@" is followed by
//     a word joiner, so that GitHub's extended autolinks find nothing;
//   - code spans and fenced blocks get delimiters longer than any run
//     inside them (codeSpan, fence), so their text is text;
//   - raw HTML and HTML blocks are shown as text (escaped) and as code;
//   - links keep their target only when it is http, https or mailto, and
//     written so it stays one (destination); images become links or
//     text, never images; autolinks become explicit links;
//   - code blocks GitHub would draw (mermaid, geojson, topojson, stl,
//     math) are shown as text (fenceInfo);
//   - emphasis inside emphasis of its kind, and spans of a kind side by
//     side, are written as one span, and a list right after another
//     takes another marker, so the structure read back is the one parsed.
//
// So no "<" of the session reaches the output outside code, and no
// parser can read a tag, a comment or an entity from it; the structure
// (lists, quotes, tables, headings) is ours, written from the tree.
type sanitizer struct {
	parser parser.Parser
	text   gmhtml.Writer
	cost   mdcost.Scratch // for mdcost.TooCostly, reused text to text
}

func newSanitizer() *sanitizer {
	md := goldmark.New(goldmark.WithExtensions(extension.GFM))
	return &sanitizer{parser: md.Parser(), text: gmhtml.NewWriter()}
}

// Bounds on nesting: each level of a list or quote is written again on
// every line inside it, so a few kilobytes of "> > > ..." followed by lazy
// lines could make gigabytes. Past these depths, or when the prefixes
// grow out of proportion to the text, the text is shown as its Markdown
// source, as code.
const (
	maxBlockDepth  = 24
	maxInlineDepth = 48
)

// markdown returns src as safe Markdown lines (none when src holds nothing
// to show). src is clean (see clean).
func (z *sanitizer) markdown(src string) []string {
	if strings.TrimSpace(src) == "" {
		return nil
	}
	// goldmark's parser costs the square of some texts' length ("[a("
	// repeated); past the bounds the page keeps too, the text is shown
	// as its source, as code, as it is for deep nesting.
	if len(src) > mdcost.MaxBytes || mdcost.TooCostly(&z.cost, src) {
		return strings.Split(fence(src, "markdown"), "\n")
	}
	b := []byte(src)
	doc := z.parser.Parse(text.NewReader(b))
	w := &mdWriter{z: z, src: b, budget: 4*len(src) + 4096}
	w.bw = bufio.NewWriter(&w.buf)
	lines := w.blocks(doc, false)
	if w.failed {
		return strings.Split(fence(src, "markdown"), "\n")
	}
	return lines
}

type mdWriter struct {
	z      *sanitizer
	src    []byte
	depth  int  // containers (lists, quotes) around the block being written
	budget int  // bytes of container prefixes left to write
	failed bool // past maxBlockDepth or the budget: show the source
	buf    bytes.Buffer
	bw     *bufio.Writer
}

// literal is the text a Markdown text segment stands for: backslash
// escapes and entities resolved, exactly as goldmark's HTML writer
// resolves them (it escapes for HTML, which html.UnescapeString undoes).
func (w *mdWriter) literal(seg []byte) string {
	if bytes.IndexAny(seg, "\\&\x00") < 0 {
		return string(seg)
	}
	w.buf.Reset()
	w.z.text.Write(w.bw, seg)
	_ = w.bw.Flush()
	return html.UnescapeString(w.buf.String())
}

// destinationText is a link's target as goldmark's HTML renderer reads it
// (util.URLEscape resolves the same, then percent-encodes).
func destinationText(dest []byte) string {
	dest = util.UnescapePunctuations(dest)
	dest = util.ResolveNumericReferences(dest)
	dest = util.ResolveEntityNames(dest)
	return clean(string(dest))
}

// blocks writes the children of parent, a blank line between them. In a
// tight list item, a paragraph may be followed by a block that can
// interrupt it with no blank line (so the list stays tight).
func (w *mdWriter) blocks(parent ast.Node, tight bool) []string {
	if w.depth > maxBlockDepth {
		w.failed = true
	}
	if w.failed {
		return nil
	}
	w.depth++
	defer func() { w.depth-- }()
	var out []string
	var prev ast.Node
	var marker byte // of the list last written
	for c := parent.FirstChild(); c != nil; c = c.NextSibling() {
		var lines []string
		if l, ok := c.(*ast.List); ok {
			// Two lists one after the other stay two only if their
			// markers differ: the second takes another one.
			avoid := byte(0)
			if prev != nil && prev.Kind() == ast.KindList {
				avoid = marker
			}
			lines, marker = w.list(l, avoid)
		} else {
			lines = w.block(c)
		}
		if len(lines) == 0 {
			continue
		}
		if prev != nil && !(tight && interrupts(prev, c)) {
			out = append(out, "")
		}
		out = append(out, lines...)
		prev = c
	}
	return out
}

// interrupts reports whether next, as we write it, may directly follow
// the paragraph prev with no blank line between and start a block of its
// own. A table may not (it would take the paragraph's line as its header).
func interrupts(prev, next ast.Node) bool {
	switch prev.Kind() {
	case ast.KindParagraph, ast.KindTextBlock:
	default:
		return false
	}
	switch n := next.(type) {
	case *ast.FencedCodeBlock, *ast.CodeBlock, *ast.HTMLBlock, *ast.Heading:
		return true
	case *ast.List:
		// Only a list whose first item is not empty, and an ordered one
		// only when it starts at 1.
		first := n.FirstChild()
		return first != nil && first.HasChildren() && (!n.IsOrdered() || n.Start == 1)
	}
	return false
}

func (w *mdWriter) block(n ast.Node) []string {
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		s := w.inline(n, false, false)
		if strings.TrimSpace(s) == "" {
			return nil
		}
		return strings.Split(s, "\n")
	case *ast.Heading:
		// Below the headings of our own messages (####).
		mark := "######"
		if n.Level <= 2 {
			mark = "#####"
		}
		s := w.inline(n, true, false)
		if s == "" {
			return []string{mark}
		}
		return []string{mark + " " + s}
	case *ast.ThematicBreak:
		// Not "---": after a line of text that is a setext heading's
		// underline.
		return []string{"***"}
	case *ast.FencedCodeBlock:
		lang := ""
		if n.Info != nil {
			lang = fenceInfo(w.literal(n.Language(w.src)))
		}
		return strings.Split(fence(w.lines(n), lang), "\n")
	case *ast.CodeBlock:
		return strings.Split(fence(w.lines(n), ""), "\n")
	case *ast.HTMLBlock:
		// Shown as the text it is, as code.
		s := w.lines(n)
		if n.HasClosure() {
			s += string(n.ClosureLine.Value(w.src))
		}
		return strings.Split(fence(s, "html"), "\n")
	case *ast.Blockquote:
		inner := w.blocks(n, false)
		if !w.spend(2 * len(inner)) {
			return nil
		}
		for i, l := range inner {
			if l == "" {
				inner[i] = ">"
			} else {
				inner[i] = "> " + l
			}
		}
		return inner
	case *extast.Table:
		return w.table(n)
	}
	if n.Type() == ast.TypeBlock {
		// A block we do not know: its blocks, or its text as text.
		if n.HasChildren() {
			return w.blocks(n, false)
		}
		s := w.lines(n)
		if strings.TrimSpace(s) == "" {
			return nil
		}
		t := textWriter{lineStart: true}
		t.text(strings.TrimRight(s, "\n"))
		return strings.Split(t.sb.String(), "\n")
	}
	return nil
}

// spend takes n bytes of container prefixes from the budget.
func (w *mdWriter) spend(n int) bool {
	w.budget -= n
	if w.budget < 0 {
		w.failed = true
	}
	return !w.failed
}

// lines is a block's lines as written (code, HTML).
func (w *mdWriter) lines(n ast.Node) string {
	var sb strings.Builder
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		sb.Write(seg.Value(w.src))
	}
	return sb.String()
}

// list writes l with a marker other than avoid, and says which: "-" or
// "+" for a bullet list ("*" could make an item starting with "**" a
// thematic break), "." or ")" for an ordered one.
func (w *mdWriter) list(l *ast.List, avoid byte) ([]string, byte) {
	var out []string
	num := l.Start
	m, other := byte('-'), byte('+')
	if l.IsOrdered() {
		m, other = '.', ')'
	}
	if m == avoid {
		m = other
	}
	for item := l.FirstChild(); item != nil; item = item.NextSibling() {
		marker := string(m)
		if l.IsOrdered() {
			marker = strconv.Itoa(num) + marker
			num++
		}
		if item != l.FirstChild() && !l.IsTight {
			out = append(out, "")
		}
		inner := w.blocks(item, l.IsTight)
		if len(inner) == 0 {
			out = append(out, marker)
			continue
		}
		pad := strings.Repeat(" ", len(marker)+1)
		if !w.spend(len(pad) * len(inner)) {
			return nil, m
		}
		for i, line := range inner {
			switch {
			case i == 0:
				out = append(out, marker+" "+line)
			case line == "":
				out = append(out, "")
			default:
				out = append(out, pad+line)
			}
		}
	}
	return out, m
}

func (w *mdWriter) table(t *extast.Table) []string {
	var out []string
	for row := t.FirstChild(); row != nil; row = row.NextSibling() {
		var cells []string
		for c := row.FirstChild(); c != nil; c = c.NextSibling() {
			cells = append(cells, w.inline(c, true, true))
		}
		out = append(out, "| "+strings.Join(cells, " | ")+" |")
		if row.Kind() == extast.KindTableHeader {
			var delims []string
			for i := range cells {
				a := extast.AlignNone
				if i < len(t.Alignments) {
					a = t.Alignments[i]
				}
				switch a {
				case extast.AlignLeft:
					delims = append(delims, ":---")
				case extast.AlignRight:
					delims = append(delims, "---:")
				case extast.AlignCenter:
					delims = append(delims, ":---:")
				default:
					delims = append(delims, "---")
				}
			}
			out = append(out, "| "+strings.Join(delims, " | ")+" |")
		}
	}
	return out
}

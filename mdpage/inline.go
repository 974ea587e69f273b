package mdpage

import (
	"strings"

	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
)

// inlineWriter writes the inline content of one block.
type inlineWriter struct {
	w        *mdWriter
	t        *textWriter
	inTable  bool
	inLink   bool // inside a link's text: no link, no image link
	inStrike bool
	inEm     bool
	inStrong bool
	depth    int // emphasis and strikethrough around the node being written
}

// inline writes the inline children of n. flat: a heading or a table
// cell, on one line.
func (w *mdWriter) inline(n ast.Node, flat, inTable bool) string {
	iw := &inlineWriter{w: w, t: &textWriter{lineStart: true, flat: flat}, inTable: inTable}
	iw.children(n)
	return strings.TrimRight(iw.t.sb.String(), " \n")
}

func (iw *inlineWriter) children(n ast.Node) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		iw.node(c)
	}
}

// sub writes the children of n on their own, to see what they make before
// putting delimiters around them.
func (iw *inlineWriter) sub(n ast.Node) string {
	t := &textWriter{lineStart: iw.t.lineStart, flat: iw.t.flat, link: iw.inLink}
	saved := iw.t
	iw.t = t
	iw.children(n)
	iw.t = saved
	return t.sb.String()
}

// node writes the inline node n, by its kind.
func (iw *inlineWriter) node(n ast.Node) {
	switch n := n.(type) {
	case *ast.Text:
		iw.textNode(n)
	case *ast.String:
		if n.IsRaw() || n.IsCode() {
			iw.t.text(string(n.Value))
		} else {
			iw.t.text(iw.w.literal(n.Value))
		}
	case *ast.CodeSpan:
		iw.codeSpan(n)
	case *ast.Emphasis:
		iw.emphasis(n)
	case *extast.Strikethrough:
		if iw.inStrike {
			iw.children(n)
			return
		}
		iw.inStrike = true
		iw.delimited(n, "~~")
		iw.inStrike = false
	case *ast.Link:
		iw.link(n)
	case *ast.AutoLink:
		iw.autoLink(n)
	case *ast.Image:
		iw.image(n)
	case *ast.RawHTML:
		var sb strings.Builder
		for i := 0; i < n.Segments.Len(); i++ {
			seg := n.Segments.At(i)
			sb.Write(seg.Value(iw.w.src))
		}
		iw.t.text(sb.String())
	case *extast.TaskCheckBox:
		if n.IsChecked {
			iw.t.raw("[x] ")
		} else {
			iw.t.raw("[ ] ")
		}
	default:
		iw.children(n)
	}
}

// textNode writes a text and the line break that ends it, if any.
func (iw *inlineWriter) textNode(n *ast.Text) {
	w, t := iw.w, iw.t
	seg := n.Segment.Value(w.src)
	if n.IsRaw() {
		t.text(string(seg))
	} else {
		t.text(w.literal(seg))
	}
	switch {
	case n.HardLineBreak() && !t.flat:
		// A backslash at the end of a line: a break, in every
		// CommonMark parser (trailing spaces are easily lost).
		t.raw("\\")
		t.newline()
	case n.SoftLineBreak() || n.HardLineBreak():
		t.newline()
	}
}

// codeSpan writes a code span with delimiters its content cannot close.
func (iw *inlineWriter) codeSpan(n *ast.CodeSpan) {
	var sb strings.Builder
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if tx, ok := c.(*ast.Text); ok {
			sb.Write(tx.Segment.Value(iw.w.src))
		} else if s, ok := c.(*ast.String); ok {
			sb.Write(s.Value)
		}
	}
	iw.t.raw(codeSpan(sb.String(), iw.inTable))
}

// emphasis writes emphasis (one level) or strong emphasis (two or more).
func (iw *inlineWriter) emphasis(n *ast.Emphasis) {
	// Emphasis inside emphasis of its kind looks the same as the
	// outer alone, and written with the same delimiters it would
	// not be read back as it was ("_*a*_" as "**a**", strong):
	// only the outer is written.
	inside := &iw.inEm
	if n.Level >= 2 {
		inside = &iw.inStrong
	}
	if *inside {
		iw.children(n)
		return
	}
	*inside = true
	iw.delimited(n, strings.Repeat("*", min(n.Level, 2)))
	*inside = false
}

// link writes a link to a safe target (see safeDestination) as a link,
// and any other as its text followed by the target shown as code.
func (iw *inlineWriter) link(n *ast.Link) {
	t := iw.t
	dest, ok := safeDestination(destinationText(n.Destination))
	if !ok || iw.inLink {
		iw.children(n)
		if raw := strings.TrimSpace(destinationText(n.Destination)); raw != "" && !iw.inLink {
			t.text(" (")
			t.raw(codeSpan(shorten(raw, 200), iw.inTable))
			t.text(")")
		}
		return
	}
	iw.inLink = true
	label := iw.sub(n)
	iw.inLink = false
	if strings.TrimSpace(label) == "" {
		label = linkText(dest)
	}
	t.raw("[" + label + "](" + destination(dest) + ")")
}

// autoLink writes an autolink (<https://…>, <a@b.c>) as an inline link,
// or as its text when its target is not safe.
func (iw *inlineWriter) autoLink(n *ast.AutoLink) {
	label := string(n.Label(iw.w.src))
	url := string(n.URL(iw.w.src))
	if n.AutoLinkType == ast.AutoLinkEmail && !strings.HasPrefix(strings.ToLower(url), "mailto:") {
		url = "mailto:" + url
	}
	dest, ok := safeDestination(url)
	if !ok || iw.inLink {
		iw.t.text(label)
		return
	}
	iw.t.raw("[" + linkText(label) + "](" + destination(dest) + ")")
}

// image writes an image as a link to it, or as a note saying what it was.
func (iw *inlineWriter) image(n *ast.Image) {
	t := iw.t
	alt := strings.TrimSpace(flat(iw.plain(n)))
	what := "image"
	if alt != "" {
		what = "image: " + alt
	}
	raw := strings.TrimSpace(destinationText(n.Destination))
	dest, ok := safeDestination(raw)
	switch {
	case ok && !iw.inLink:
		// A link to the picture: GitHub would fetch an image when
		// the page is opened.
		t.raw("[" + linkText(what) + "](" + destination(dest) + ")")
	case strings.HasPrefix(strings.ToLower(raw), "data:"):
		t.text("[" + what + ", embedded data not shown]")
	case raw == "" || iw.inLink:
		t.text("[" + what + "]")
	default:
		t.text("[" + what + "] (")
		t.raw(codeSpan(shorten(raw, 200), iw.inTable))
		t.text(")")
	}
}

// delimited writes n's children between mark and mark, or without them
// when the children make nothing or start or end with white space, where
// the delimiters would not be read as emphasis (and "* " would start a
// list).
func (iw *inlineWriter) delimited(n ast.Node, mark string) {
	if iw.depth >= maxInlineDepth {
		iw.children(n)
		return
	}
	iw.depth++
	inner := iw.sub(n)
	iw.depth--
	if inner == "" {
		return
	}
	if strings.TrimSpace(inner) != inner {
		iw.t.raw(inner)
		iw.t.lineStart = strings.HasSuffix(inner, "\n")
		return
	}
	// Right after a span of the same kind ("*a*" then "*b*", from
	// "*a*_b_"), the delimiters would make one run ("*a**b*") read
	// otherwise: the two are written as one span, which looks the same.
	t := iw.t
	if t.closeMark == mark && t.closeAt == t.sb.Len() {
		t.sb.Truncate(t.sb.Len() - len(mark))
		t.raw(inner + mark)
	} else {
		t.raw(mark + inner + mark)
	}
	t.closeMark, t.closeAt = mark, t.sb.Len()
}

// plain is the text under n (an image's description).
func (iw *inlineWriter) plain(n ast.Node) string {
	var sb strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch c := c.(type) {
		case *ast.Text:
			sb.WriteString(iw.w.literal(c.Segment.Value(iw.w.src)))
			if c.SoftLineBreak() || c.HardLineBreak() {
				sb.WriteByte(' ')
			}
		case *ast.String:
			sb.Write(c.Value)
		}
		return ast.WalkContinue, nil
	})
	return sb.String()
}

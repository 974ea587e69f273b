package htmlpage

import (
	"bytes"
	"encoding/base64"
	"html/template"
	"io"
	"strings"

	"canopy/internal/mdcost"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer"
	gmhtml "github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/util"
)

// newMarkdown returns the Markdown converter for session text: GitHub
// flavoured (tables, strikethrough, task lists, autolinks), code fenced
// with a language highlighted by chroma into CSS classes, and safe for
// text written by models and web pages: raw HTML is shown as text, links
// keep only harmless schemes, and images that are not embedded `data:`
// pictures become links, so that opening the page fetches nothing.
func newMarkdown(hl *highlighter) goldmark.Markdown {
	return goldmark.New(
		goldmark.WithExtensions(
			extension.Strikethrough, extension.Linkify, extension.TaskList,
			// Alignment as an attribute: a style attribute would break the
			// page's Content-Security-Policy.
			extension.NewTable(extension.WithTableCellAlignMethod(extension.TableCellAlignAttribute)),
		),
		goldmark.WithRendererOptions(
			gmhtml.WithHardWraps(), // agents and users write line breaks they mean
			renderer.WithNodeRenderers(util.Prioritized(safeRenderer{hl}, 1)),
		),
	)
}

// markdown converts src to HTML. The result is safe to insert as is.
// Texts past the bounds of mdcost.go are shown as plain text, with a note.
func (r *Renderer) markdown(src string) template.HTML {
	if strings.TrimSpace(src) == "" {
		return ""
	}
	if len(src) > mdcost.MaxBytes {
		return plainText(src, "shown as plain text: "+sizeText(len(src))+" is over the "+sizeText(mdcost.MaxBytes)+" limit for Markdown")
	}
	if html, ok := plainMarkdown(src, r.hl); ok {
		return template.HTML(html)
	}
	return r.convert(src)
}

// convert converts src with goldmark, or shows it as plain text when that
// would take too long (mdcost.TooCostly).
func (r *Renderer) convert(src string) template.HTML {
	sc, _ := r.costs.Get().(*mdcost.Scratch)
	if sc == nil {
		sc = new(mdcost.Scratch)
	}
	tooCostly := mdcost.TooCostly(sc, src)
	if sc.Reusable() {
		r.costs.Put(sc)
	}
	if tooCostly {
		return plainText(src, "shown as plain text: laid out as Markdown, this text would take too long")
	}
	buf, _ := r.mdBufs.Get().(*mdBuffer)
	if buf == nil {
		buf = new(mdBuffer)
	}
	defer func() {
		buf.Reset()
		if buf.Cap() <= 1<<20 {
			r.mdBufs.Put(buf)
		}
	}()
	if err := r.md.Convert([]byte(src), buf); err != nil {
		// goldmark does not fail on any input; if it ever does, show text.
		return template.HTML("<pre class=\"plain\">" + template.HTMLEscapeString(src) + "</pre>")
	}
	return template.HTML(buf.String())
}

// plainText shows src as it is, preformatted, and why after it.
func plainText(src, note string) template.HTML {
	var b strings.Builder
	b.Grow(len(src) + len(note) + 64)
	b.WriteString(`<pre class="plain">`)
	textEscaper.WriteString(&b, src)
	b.WriteString("</pre>\n")
	writeNote(&b, note)
	return template.HTML(b.String())
}

// writeNote writes, after a block of code, why it is not highlighted
// (tooBig), if it is not: as the entry's notes are written.
func writeNote(w io.StringWriter, note string) {
	if note != "" {
		_, _ = w.WriteString(`<p class="note note-info">`)
		_, _ = w.WriteString(textEscape(note))
		_, _ = w.WriteString("</p>\n")
	}
}

// mdBuffer is a bytes.Buffer that goldmark takes as its buffered writer
// (util.BufWriter): given a plain io.Writer, it wraps it in a new 4 KB
// bufio.Writer on every call, 230 MB of garbage on a 100,000-entry
// session. Buffers are reused (Renderer.mdBufs) for the same reason.
type mdBuffer struct{ bytes.Buffer }

func (b *mdBuffer) Buffered() int { return b.Len() }
func (b *mdBuffer) Flush() error  { return nil }

// safeRenderer replaces goldmark's renderers for the nodes through which
// session text could reach the page as markup or make it load something.
type safeRenderer struct{ hl *highlighter }

func (sr safeRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindFencedCodeBlock, sr.renderFencedCode)
	reg.Register(ast.KindRawHTML, renderRawHTML)
	reg.Register(ast.KindHTMLBlock, renderHTMLBlock)
	reg.Register(ast.KindLink, renderLink)
	reg.Register(ast.KindAutoLink, renderAutoLink)
	reg.Register(ast.KindImage, renderImage)
}

// renderFencedCode highlights a fenced block by its info string's
// language, through the same highlighter (and cache) as tool output.
func (sr safeRenderer) renderFencedCode(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	b := n.(*ast.FencedCodeBlock)
	var code strings.Builder
	lines := b.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		code.Write(seg.Value(source))
	}
	lang := ""
	if b.Info != nil {
		lang, _, _ = strings.Cut(strings.TrimSpace(string(b.Info.Segment.Value(source))), " ")
	}
	_, _ = w.WriteString(`<pre class="chroma"><code>`)
	note := ""
	if lang == "" {
		_, _ = w.WriteString(textEscape(code.String()))
	} else {
		var html template.HTML
		html, note = sr.hl.code(code.String(), lang, "")
		_, _ = w.WriteString(string(html))
	}
	_, _ = w.WriteString("</code></pre>\n")
	writeNote(w, note)
	return ast.WalkSkipChildren, nil
}

// renderRawHTML writes inline HTML as the text it is.
func renderRawHTML(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	raw := n.(*ast.RawHTML)
	for i := 0; i < raw.Segments.Len(); i++ {
		seg := raw.Segments.At(i)
		template.HTMLEscape(w, seg.Value(source))
	}
	return ast.WalkSkipChildren, nil
}

// renderHTMLBlock writes an HTML block as a paragraph of its text.
func renderHTMLBlock(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	b := n.(*ast.HTMLBlock)
	_, _ = w.WriteString(`<p class="raw-html">`)
	lines := b.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		template.HTMLEscape(w, seg.Value(source))
	}
	if b.HasClosure() {
		template.HTMLEscape(w, b.ClosureLine.Value(source))
	}
	_, _ = w.WriteString("</p>\n")
	return ast.WalkSkipChildren, nil
}

// safeURL reports whether a link target may be followed: web and mail
// links, and links within the page. Everything else (javascript:, data:,
// file:, vbscript:, and schemes we do not know) is shown as text.
func safeURL(u string) bool {
	u = strings.TrimSpace(strings.ToLower(u))
	if strings.HasPrefix(u, "#") {
		return true
	}
	for _, scheme := range []string{"https://", "http://", "mailto:"} {
		if strings.HasPrefix(u, scheme) {
			return true
		}
	}
	return false
}

func writeLinkOpen(w util.BufWriter, dest []byte, title []byte) {
	_, _ = w.WriteString(`<a href="`)
	template.HTMLEscape(w, util.URLEscape(dest, true))
	_, _ = w.WriteString(`"`)
	if len(title) > 0 {
		_, _ = w.WriteString(` title="`)
		template.HTMLEscape(w, title)
		_, _ = w.WriteString(`"`)
	}
	// Links leave the page in a new tab and tell the target nothing.
	_, _ = w.WriteString(` rel="nofollow noopener noreferrer" target="_blank">`)
}

func renderLink(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	l := n.(*ast.Link)
	if !safeURL(string(l.Destination)) {
		// Keep the link text; drop the target, and show it so the reader
		// knows what the link was.
		if !entering {
			_, _ = w.WriteString(`<span class="unsafe-link"> (`)
			template.HTMLEscape(w, l.Destination)
			_, _ = w.WriteString(`)</span>`)
		}
		return ast.WalkContinue, nil
	}
	if entering {
		writeLinkOpen(w, l.Destination, l.Title)
	} else {
		_, _ = w.WriteString("</a>")
	}
	return ast.WalkContinue, nil
}

func renderAutoLink(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	l := n.(*ast.AutoLink)
	url, label := l.URL(source), l.Label(source)
	if l.AutoLinkType == ast.AutoLinkEmail && !bytes.HasPrefix(bytes.ToLower(url), []byte("mailto:")) {
		url = append([]byte("mailto:"), url...)
	}
	if !safeURL(string(url)) {
		template.HTMLEscape(w, label)
		return ast.WalkContinue, nil
	}
	writeLinkOpen(w, url, nil)
	template.HTMLEscape(w, label)
	_, _ = w.WriteString("</a>")
	return ast.WalkContinue, nil
}

// embeddedImage reports whether an image source is a raster picture in
// the page itself: a base64 data: URL whose data is base64 and nothing
// else (the browser reports a malformed URL as an error when it tries to
// load it). SVG is excluded: it is a document.
func embeddedImage(src string) bool {
	s := strings.TrimSpace(src)
	for _, t := range []string{"data:image/png;base64,", "data:image/jpeg;base64,", "data:image/gif;base64,", "data:image/webp;base64,"} {
		if len(s) > len(t) && strings.EqualFold(s[:len(t)], t) {
			_, err := base64.StdEncoding.DecodeString(s[len(t):])
			return err == nil
		}
	}
	return false
}

// renderImage shows embedded pictures; any other image becomes a link
// (never fetched when the page opens).
func renderImage(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	img := n.(*ast.Image)
	alt := nodeText(img, source)
	if embeddedImage(string(img.Destination)) {
		_, _ = w.WriteString(`<img src="`)
		template.HTMLEscape(w, img.Destination)
		_, _ = w.WriteString(`" alt="`)
		template.HTMLEscape(w, alt)
		_, _ = w.WriteString(`">`)
		return ast.WalkSkipChildren, nil
	}
	if len(alt) == 0 {
		alt = []byte("image")
	}
	if safeURL(string(img.Destination)) {
		_, _ = w.WriteString(`<span class="remote-image">🖼 `)
		writeLinkOpen(w, img.Destination, img.Title)
		template.HTMLEscape(w, alt)
		_, _ = w.WriteString("</a></span>")
	} else {
		_, _ = w.WriteString(`<span class="remote-image">🖼 `)
		template.HTMLEscape(w, alt)
		_, _ = w.WriteString(` (`)
		template.HTMLEscape(w, img.Destination)
		_, _ = w.WriteString(`)</span>`)
	}
	return ast.WalkSkipChildren, nil
}

// nodeText is the plain text under n (an image's alt text).
func nodeText(n ast.Node, source []byte) []byte {
	var buf bytes.Buffer
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering && c.Kind() == ast.KindText {
			buf.Write(c.(*ast.Text).Segment.Value(source))
		}
		return ast.WalkContinue, nil
	})
	return buf.Bytes()
}

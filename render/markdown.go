package render

import (
	"bytes"
	"encoding/base64"
	"html/template"
	"io"
	"strings"
	"unicode/utf8"

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

// plainMarkdown writes src as goldmark writes it when src is only
// paragraphs of plain text, lists of one-line items ("- text", "- [x]
// text"), each a block of its own or right after a paragraph's lines, and
// code fenced with three backticks, a block of its own: no character that
// Markdown (with our extensions) could read as markup, no line that could
// open another block. ok is false for anything else, which goldmark
// converts. hl highlights fenced code, as renderFencedCode does.
//
// Why: about half the texts of an agent session are a line or two of plain
// prose ("Running the tests to see the current state."), and goldmark's
// parser costs the same 20 µs for those as for a page of Markdown: a fifth
// of its time on a generated 100,000-entry session. Of the texts left to
// goldmark there, most were plain but for a list, a fenced block of code,
// a name_with underscores or an index in brackets (rows[len(rows)-1]).
// FuzzPlainMarkdown holds this to goldmark's output for every text it
// accepts.
func plainMarkdown(src string, hl *highlighter) (html string, ok bool) {
	src = strings.TrimRight(src, "\n")
	// The characters first: most texts that are not plain show it early,
	// and the passes over the whole text below are for those that are.
	// prose is where src is not fenced code.
	colon, bracket, link := false, false, false // link: "http" or "ftp:"
	lineStart := true
	var prose [][2]int
	from := 0
	for i := 0; i < len(src); i++ {
		c := src[i]
		if lineStart {
			if c == '\n' {
				continue // blank lines
			}
			if strings.HasPrefix(src[i:], "```") {
				end := fenceEnd(src, i)
				if end < 0 {
					return "", false
				}
				prose = append(prose, [2]int{from, i})
				from = end
				i = end - 1 // at the "\n" after the fence, or the end
				lineStart = true
				continue
			}
			// A list item: its text starts as a line of text would,
			// after a task's box if it has one.
			if c == '-' && i+2 < len(src) && src[i+1] == ' ' {
				i += 2
				if taskBox(src[i:]) != "" && i+4 < len(src) {
					i += 4
				}
				c = src[i]
			}
			switch {
			case c == ' ', c == '\t', c == '\n', c == '-', c == '+', c == '=', c == ':', c >= '0' && c <= '9':
				// Indented code, a list item, a setext underline, an
				// ordered list item, a table's delimiter row (":--"
				// makes a table of one column, with no "|"); an empty
				// or indented list item.
				return "", false
			case c == '[':
				return "", false // a task ("- [x]") or a link definition
			case c == '`':
				if n, _ := codeSpan(src[i:]); n >= 3 {
					return "", false // a code fence in a list item
				}
			}
			lineStart = false
		}
		if textByte[c] {
			// Where linkify's links start.
			switch c | 0x20 {
			case 'w':
				if hasPrefixFold(src[i:], "www.") {
					return "", false
				}
			case 'h':
				link = link || hasPrefixFold(src[i:], "http")
			case 'f':
				link = link || hasPrefixFold(src[i:], "ftp:")
			}
			continue
		}
		switch {
		case c == '\n':
			if src[i-1] == ' ' || src[i-1] == '\t' {
				return "", false // trailing spaces: a hard break; or cut
			}
			lineStart = true
		case c == ':':
			colon = true
		case c == '[', c == ']':
			bracket = true
		case c == '_':
			// Within a word (snake_case) "_" can neither open nor close
			// emphasis.
			j := i
			for j < len(src) && src[j] == '_' {
				j++
			}
			if i == 0 || !isAlnum(src[i-1]) || j == len(src) || !isAlnum(src[j]) {
				return "", false
			}
			i = j - 1
		case c == '\t': // within a line (at its start, it indents)
		case c == '`':
			_, end := codeSpan(src[i:])
			if end < 0 {
				return "", false
			}
			span := src[i : i+end]
			if containsFold(span, "www.") {
				return "", false
			}
			link = link || containsFold(span, "http") || containsFold(span, "ftp:")
			i += end - 1
		default:
			return "", false
		}
	}
	prose = append(prose, [2]int{from, len(src)})
	if src == "" || src[len(src)-1] == ' ' || src[len(src)-1] == '\t' {
		return "", false
	}
	if !utf8.ValidString(src) {
		return "", false // broken UTF-8
	}
	// ":" is markup only in linkify's links (http://, https://, ftp://;
	// the other links that hold one start with "<" or "["): it is in a
	// third of the texts goldmark was given ("The plan:").
	if colon && link {
		return "", false
	}
	// Brackets are text unless they make a link: "[text](url)", or
	// "[text]" with a definition ("[text]: url") somewhere.
	for _, p := range prose {
		if text := src[p[0]:p[1]]; bracket && (strings.Contains(text, "](") || strings.Contains(text, "]:")) {
			return "", false
		}
	}
	var b strings.Builder
	b.Grow(len(src) + 16)
	list := false // the block before was a list (blank lines between)
	lines := strings.Split(src, "\n")
	fence := 0 // fence k is from the end of prose[k] to the start of prose[k+1]
	for i := 0; i < len(lines); {
		if lines[i] == "" {
			i++
			continue
		}
		j := i + 1
		if strings.HasPrefix(lines[i], "```") {
			for lines[j] != "```" {
				j++
			}
			list = false
			// The code: its lines, each with its "\n", as they are in src.
			start, end := prose[fence][1], prose[fence+1][0]
			code := src[start+len(lines[i])+1 : end-len("```")]
			fence++
			writeFence(&b, lines[i][3:], code, hl)
			i = j + 1
			continue
		}
		for j < len(lines) && lines[j] != "" {
			j++
		}
		block := lines[i:j]
		i = j
		// first is the block's first list item, after the lines of a
		// paragraph if any: a list item with text interrupts a
		// paragraph ("Changes:\n- one\n- two").
		first, items := -1, 0
		for k, line := range block {
			if strings.HasPrefix(line, "- ") {
				items++
				if first < 0 {
					first = k
				}
			}
		}
		switch {
		case items == 0:
			list = false
			writeParagraph(&b, block)
		case first > 0 && items == len(block)-first:
			writeParagraph(&b, block[:first])
			list = true
			writeList(&b, block[first:])
		case items == len(block) && !list:
			// A tight list. Two lists with only blank lines between them
			// are one loose list, and a line of text after a list item
			// continues it: goldmark's.
			list = true
			writeList(&b, block)
		default:
			return "", false
		}
	}
	return b.String(), true
}

// writeParagraph writes lines of prose as one paragraph, with a hard break
// between lines (WithHardWraps).
func writeParagraph(b *strings.Builder, lines []string) {
	b.WriteString("<p>")
	for k, line := range lines {
		if k > 0 {
			b.WriteString("<br>\n")
		}
		writePlainLine(b, line)
	}
	b.WriteString("</p>\n")
}

// writeList writes lines "- text" as a tight list.
func writeList(b *strings.Builder, lines []string) {
	b.WriteString("<ul>\n")
	for _, line := range lines {
		b.WriteString("<li>")
		text := line[2:]
		if box := taskBox(text); box != "" {
			b.WriteString(box)
			text = text[4:]
		}
		writePlainLine(b, text)
		b.WriteString("</li>\n")
	}
	b.WriteString("</ul>\n")
}

// taskBox is the check box TaskList writes for a list item whose text
// starts with "[ ] ", "[x] " or "[X] ", or "".
func taskBox(text string) string {
	if len(text) < 4 || text[0] != '[' || text[2] != ']' || text[3] != ' ' {
		return ""
	}
	switch text[1] {
	case ' ':
		return `<input disabled="" type="checkbox"> `
	case 'x', 'X':
		return `<input checked="" disabled="" type="checkbox"> `
	}
	return ""
}

// fenceEnd reads the fenced code block that starts at src[i], a line's
// start, when plainMarkdown can write it: a blank line (or the text's
// start) before it, "```" and a plain language name (or none), lines of
// code with no control character but tabs and none that could close or
// open a fence but the last, "```", and then a blank line or the text's
// end. It returns where the block ends (its closing fence's end), or -1.
func fenceEnd(src string, i int) int {
	if i > 0 && (i < 2 || src[i-2] != '\n') {
		return -1 // right after a line of text
	}
	nl := strings.IndexByte(src[i:], '\n')
	if nl < 0 {
		return -1 // unclosed
	}
	for _, c := range []byte(src[i+3 : i+nl]) {
		if !isAlnum(c) && strings.IndexByte("_+#.-", c) < 0 {
			return -1
		}
	}
	for at := i + nl + 1; at < len(src); {
		line := src[at:]
		if k := strings.IndexByte(line, '\n'); k >= 0 {
			line = line[:k]
		}
		end := at + len(line)
		if line == "```" {
			if end < len(src) && (end+1 >= len(src) || src[end+1] != '\n') {
				return -1 // right before a line of text
			}
			return end
		}
		if strings.HasPrefix(strings.TrimLeft(line, " "), "```") || strings.HasPrefix(strings.TrimLeft(line, " "), "~~~") {
			return -1
		}
		for _, c := range []byte(line) {
			if c < ' ' && c != '\t' || c == 0x7f {
				return -1
			}
		}
		at = end + 1
	}
	return -1 // unclosed
}

// writeFence writes a fenced block as renderFencedCode does.
func writeFence(b *strings.Builder, lang, code string, hl *highlighter) {
	b.WriteString(`<pre class="chroma"><code>`)
	note := ""
	if lang == "" {
		textEscaper.WriteString(b, code)
	} else {
		var html template.HTML
		html, note = hl.code(code, lang, "")
		b.WriteString(string(html))
	}
	b.WriteString("</code></pre>\n")
	writeNote(b, note)
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

// textByte: the bytes that are text wherever they are in a line of prose
// (past its start).
var textByte = func() (t [256]bool) {
	for c := range t {
		t[c] = c >= 0x80 || isAlnum(byte(c)) || strings.IndexByte(" .,;?'\"%/()-!=+{}^$", byte(c)) >= 0
	}
	return t
}()

// hasPrefixFold reports whether s starts with prefix, an ASCII word of
// lower-case letters and punctuation, in any case.
func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		if c := s[i]; c != prefix[i] && !(c|0x20 == prefix[i] && 'a' <= prefix[i] && prefix[i] <= 'z') {
			return false
		}
	}
	return true
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// codeSpan reads the run of backticks that s starts with: its length, and
// where the code span it opens ends on the same line (past its closing
// run, as long as the opening one), or -1 if it does not end there or
// holds what plainMarkdown leaves to goldmark: a control character (a
// carriage return ends a line), or "@" (linkify may read "`a@b.c" as an
// address before it reads a code span).
func codeSpan(s string) (n, end int) {
	for n < len(s) && s[n] == '`' {
		n++
	}
	for j := n; j < len(s); {
		switch c := s[j]; {
		case c == '`':
			k := j
			for k < len(s) && s[k] == '`' {
				k++
			}
			if k-j == n {
				return n, k
			}
			j = k
		case c < ' ' && c != '\t', c == '@':
			return n, -1
		default:
			j++
		}
	}
	return n, -1
}

// writePlainLine writes one line of a text plainMarkdown accepts, as
// goldmark does: text with its quotes escaped, and code spans.
func writePlainLine(b *strings.Builder, line string) {
	for line != "" {
		i := strings.IndexByte(line, '`')
		if i < 0 {
			b.WriteString(strings.ReplaceAll(line, `"`, "&quot;"))
			return
		}
		b.WriteString(strings.ReplaceAll(line[:i], `"`, "&quot;"))
		n, end := codeSpan(line[i:])
		code := line[i+n : i+end-n]
		// One space is cut at each end when both ends have one and the
		// code is not all white space (goldmark's IsBlank).
		if len(code) >= 2 && code[0] == ' ' && code[len(code)-1] == ' ' && strings.Trim(code, " \t") != "" {
			code = code[1 : len(code)-1]
		}
		b.WriteString("<code>")
		b.WriteString(codeEscaper.Replace(code))
		b.WriteString("</code>")
		line = line[i+end:]
	}
}

// codeEscaper escapes code as goldmark's RawWrite does.
var codeEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")

// containsFold reports whether s contains sub, an ASCII word of lower-case
// letters and punctuation, in any case.
func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if hasPrefixFold(s[i:], sub) {
			return true
		}
	}
	return false
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

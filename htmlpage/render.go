// Package htmlpage turns a loaded session into one self-contained HTML page:
// every entry rendered once, at export time (Markdown by goldmark, code by
// chroma), a compact description of the tree for the sidebar script, and
// the original file for download; minified, with a Content-Security-Policy
// that lets nothing but our own inline script and style run.
//
// Render (page.go) reads as the page is made, a file for each step: the
// header (header.go); the entries, rendered on every core (stream.go,
// pool.go) in tree order (treeorder.go) and written as raw text
// (rawtext.go), which also fills in the tree's rows (rows.go, filter.go,
// treejson.go); and the original file, compressed while they are rendered,
// its pictures replaced by markers (source.go, images.go, spool.go). One
// entry's view (entryview.go) is built in entries.go and tools.go from what
// the whole session tells (context.go, which pairs calls with results
// through sessiontree.PairCalls, and subagents.go, which draws a grafted
// subagent's conversation in the card of the call that ran it); its text
// in markdown.go (plainmd.go), highlight.go, ansi.go, diff.go, json.go and
// escape.go; and it is written as templates/entry.html writes it
// (entrywriter.go).
package htmlpage

import (
	"fmt"
	"html/template"
	"sync"

	"github.com/tdewolff/minify/v2"
	mincss "github.com/tdewolff/minify/v2/css"
	minhtml "github.com/tdewolff/minify/v2/html"
	minjs "github.com/tdewolff/minify/v2/js"
	"github.com/yuin/goldmark"

	"canopy/assets"
	"canopy/sessiontree"
	"canopy/templates"
)

// Options change what a page shows.
type Options struct {
	Leaf     *sessiontree.Entry // the conversation shown; nil means the session's leaf
	Theme    string             // auto (the default), light or dark
	Title    string             // the page title; default: the session name, else its id
	NoSource bool               // leave the original file out of the page
	Version  string             // the canopy version, written into the page

	// When the session rendered was cut down or redacted from another
	// file: what was left out (shown in the header), and that file's hash.
	Omitted        []string
	OriginalSHA256 string

	// Nav places the page among others (an archive's): breadcrumbs and
	// links to related sessions. nil for a page on its own.
	Nav *Nav

	// Decoded, when set, is called with each entry of the session as the
	// page decodes it, from the goroutines that draw the entries, so that
	// a caller that needs the bodies too (an archive's search text) does
	// not decode them again. A result drawn in several cards comes more
	// than once.
	Decoded func(*sessiontree.Entry, *sessiontree.Body)
}

// Nav is a page's place in an archive. Hrefs are relative to the page, so
// that the archive works from any directory and from file://.
type Nav struct {
	Trail   []Link    // breadcrumbs: from the archive's index down to this page's parent
	Related []Related // forks, parents, child tasks, topics
}

// Link is one link of a Nav. A link with no Href is shown as text: a
// related session that is not in the archive.
type Link struct {
	Href, Text string
}

// Related is a kind of relation and the sessions it links to.
type Related struct {
	Name  string // "Forked from", "Forks", "Child tasks", …
	Links []Link
}

// Renderer renders pages. It is safe for concurrent use; make one and
// reuse it (building it compiles templates and minifies the assets).
type Renderer struct {
	md   goldmark.Markdown
	hl   *highlighter
	page *template.Template
	// mdBufs holds *mdBuffer: Markdown is converted into reused buffers.
	mdBufs sync.Pool
	costs  sync.Pool // *mdcost.Scratch, for mdcost.TooCostly
	css    string    // minified stylesheet, chroma's included
	js     string    // minified script
	csp    string
}

// New builds a Renderer.
func New() (*Renderer, error) {
	hl := newHighlighter()
	r := &Renderer{md: newMarkdown(hl), hl: hl}
	// Everything is minified once, here: the stylesheet, the script, and
	// the templates as Go templates, so that what they produce needs no
	// minifying and the page is written straight out, without a second
	// pass over it.
	m := minify.New()
	m.AddFunc("text/css", mincss.Minify)
	m.AddFunc("application/javascript", minjs.Minify)
	// The templates get a minifier of their own, for HTML only: with CSS
	// and JS registered it would also "minify" the {{.CSS}} and {{.JS}}
	// actions inside <style> and <script>.
	tm := minify.New()
	tm.Add("text/html", &minhtml.Minifier{KeepDocumentTags: true, KeepEndTags: true, KeepQuotes: true,
		TemplateDelims: minhtml.GoTemplateDelims})
	t, err := templates.Parse(func(_, text string) (string, error) { return tm.String("text/html", text) },
		"page.html", "entry.html")
	if err != nil {
		return nil, err
	}
	r.page = t
	if r.css, err = m.String("text/css", assets.CSS+"\n"+chromaStylesheet); err != nil {
		return nil, fmt.Errorf("minifying page.css: %w", err)
	}
	if r.js, err = m.String("application/javascript", assets.JS); err != nil {
		return nil, fmt.Errorf("minifying the page's script (assets/page/*.js): %w", err)
	}
	// The inline script and style are written as they are: their hashes
	// are in the CSP. Workers may run only from blob: URLs, which only the
	// page's own script can make: its search workers (startFinder in
	// assets/page/workers.js).
	r.csp = "default-src 'none'; script-src '" + assets.CSPHash(r.js) + "'; style-src '" + assets.CSPHash(r.css) +
		"'; img-src data: blob:; worker-src blob:; base-uri 'none'; form-action 'none'"
	return r, nil
}

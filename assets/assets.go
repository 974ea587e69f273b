// Package assets holds the page's stylesheet and script, embedded and
// minified into every page (a page loads nothing from anywhere).
package assets

import (
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"fmt"
	"io/fs"
	"strings"
)

// CSS is the page's stylesheet: page.css with the dark palette put in
// each place that names it (see withPalette).
var CSS = mustPalette(pageCSS, darkCSS)

//go:embed page.css
var pageCSS string

// darkCSS is the dark theme's palette, declared once: the page takes it
// when the reader chose dark, and when they chose auto on a dark system.
//
//go:embed dark.css
var darkCSS string

// paletteMarker stands in page.css where the dark palette goes.
const paletteMarker = "/* dark.css */"

// JS is the page's script: the sidebar tree, filters, search, deep links.
// It is one closure, kept in parts by concern (page/*.js) and joined in
// the order of pageParts (see joinParts).
var JS = mustJoin(pageFS, pageParts)

// IndexCSS and IndexJS style and script an archive's index page.
//
//go:embed index.css
var IndexCSS string

//go:embed index.js
var IndexJS string

// UsageCSS styles an archive's usage page (it has no script).
//
//go:embed usage.css
var UsageCSS string

// IndexSearchCSS and IndexSearchJS are the index page's full-text search
// (package searchindex), added to IndexCSS and IndexJS.
//
//go:embed indexsearch.css
var IndexSearchCSS string

//go:embed indexsearch.js
var IndexSearchJS string

//go:embed page/*.js
var pageFS embed.FS

// pageParts are the files in page/ that make the page's script, in the
// order they are joined. The script is one closure: its variables and
// functions are shared by every part, so the order is the order of the
// script's statements (the var initializers run in it; the function
// declarations are hoisted, and are called from any part). prologue.js
// opens the closure and start.js closes it. Each part begins with a
// header, a block comment saying what it holds and what it relies on
// from the others; the header is for the part's readers and is not
// joined. A file in page/ that is not listed here fails the package's
// tests.
var pageParts = []string{
	"prologue.js",      // the closure's opening; the tree data, ids, the page's elements
	"store.js",         // the entries' HTML as it arrives; their elements, built once
	"conversation.js",  // the shared state; the conversation's window and path; pump
	"navigation.js",    // going to an entry: marking it, the address bar, navigate
	"filter.js",        // the row arrays; the filter's flags; the search's hits
	"search.js",        // the quick and the exact search text; searchTexts
	"workers.js",       // the search workers
	"tree.js",          // the tree's layout, virtual list and events
	"controls.js",      // the filter buttons, the search box, highlighting
	"toolbar.js",       // the copy-link buttons, the toolbar, the theme
	"download.js",      // the download button, pictures put back
	"keys-indexing.js", // the page's keys; the search text made in the background
	"compare.js",       // the compare view: two branches side by side from their fork
	"hits.js",          // the archive search's words, highlighted in the entry it opened
	"start.js",         // the deep link or the leaf, shown; the closure's end
}

// partHeaderEnd ends a part's header: a part starts with "/*" and its
// header runs through the first "*/" and the line break after it.
const partHeaderEnd = "*/\n"

// joinParts joins the named parts of dir page/ in fsys: each part's body
// (what follows its header), end to end, nothing added between them.
func joinParts(fsys fs.FS, names []string) (string, error) {
	var b strings.Builder
	for _, name := range names {
		body, err := partBody(fsys, name)
		if err != nil {
			return "", err
		}
		b.WriteString(body)
	}
	return b.String(), nil
}

// partBody is the part's text after its header.
func partBody(fsys fs.FS, name string) (string, error) {
	src, err := fs.ReadFile(fsys, "page/"+name)
	if err != nil {
		return "", err
	}
	s := string(src)
	end := strings.Index(s, partHeaderEnd)
	if !strings.HasPrefix(s, "/*") || end < 0 {
		return "", fmt.Errorf("page/%s: no header (a block comment saying what the part holds)", name)
	}
	body := s[end+len(partHeaderEnd):]
	if strings.TrimSpace(body) == "" || !strings.HasSuffix(body, "\n") {
		return "", fmt.Errorf("page/%s: empty, or its last line unfinished", name)
	}
	return body, nil
}

func mustJoin(fsys fs.FS, names []string) string {
	s, err := joinParts(fsys, names)
	if err != nil {
		panic("assets: " + err.Error())
	}
	return s
}

// CSPHash is the Content-Security-Policy source that allows exactly the
// inline script or style s.
func CSPHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}

// withPalette puts the palette's declarations in place of each marker in
// css. CSS cannot name a block of declarations to reuse in two rules, so
// the one palette is put in both at build time, as the script's parts are
// joined.
func withPalette(css, palette string) (string, error) {
	if n := strings.Count(css, paletteMarker); n != 2 {
		return "", fmt.Errorf("page.css names the dark palette %d times, want 2 (%s)", n, paletteMarker)
	}
	return strings.ReplaceAll(css, paletteMarker, palette), nil
}

func mustPalette(css, palette string) string {
	s, err := withPalette(css, palette)
	if err != nil {
		panic("assets: " + err.Error())
	}
	return s
}

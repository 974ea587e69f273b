// Package assets holds the page's stylesheet and script, embedded and
// minified into every page (a page loads nothing from anywhere).
package assets

import _ "embed"

// CSS is the page's stylesheet.
//
//go:embed page.css
var CSS string

// JS is the page's script: the sidebar tree, filters, search, deep links.
//
//go:embed page.js
var JS string

// IndexCSS and IndexJS style and script an archive's index page.
//
//go:embed index.css
var IndexCSS string

//go:embed index.js
var IndexJS string

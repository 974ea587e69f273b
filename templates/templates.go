// Package templates holds the page's html/template files, embedded so that
// the canopy binary carries everything a page needs.
package templates

import "embed"

// FS holds page.html and entry.html.
//
//go:embed *.html
var FS embed.FS

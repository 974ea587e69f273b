// Package templates holds the page's html/template files, embedded so that
// the canopy binary carries everything a page needs.
package templates

import "embed"

// FS holds page.html and entry.html (a session's page) and index.html
// (an archive's index).
//
//go:embed *.html
var FS embed.FS

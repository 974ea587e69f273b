// Package templates holds the page's html/template files, embedded so that
// the canopy binary carries everything a page needs.
package templates

import (
	"embed"
	"fmt"
	"html/template"
)

// FS holds page.html and entry.html (a session's page), index.html (an
// archive's index) and head.html (the <head> both share).
//
//go:embed *.html
var FS embed.FS

// Parse parses head.html and the named files into one template set named
// after the first. When min is not nil each file's text goes through it
// first: the session page's templates are minified once, when they are
// parsed, so that what they write needs no second pass.
func Parse(min func(name, text string) (string, error), names ...string) (*template.Template, error) {
	var t *template.Template
	for _, name := range append(names, "head.html") {
		src, err := FS.ReadFile(name)
		if err != nil {
			return nil, err
		}
		text := string(src)
		if min != nil {
			if text, err = min(name, text); err != nil {
				return nil, fmt.Errorf("minifying %s: %w", name, err)
			}
		}
		if t == nil {
			t = template.New(name)
		} else {
			t = t.New(name)
		}
		if _, err := t.Parse(text); err != nil {
			return nil, fmt.Errorf("parsing %s: %w", name, err)
		}
	}
	return t.Lookup(names[0]), nil
}

// Package chromastyle computes what a page needs of chroma's styles: the
// stylesheet of the light and dark themes, and the token types both draw as
// plain text. It imports chroma's styles package, whose init parses every
// style; the canopy binary does not: render keeps the results, generated.
package chromastyle

import (
	"bytes"
	"slices"
	"strings"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/styles"
)

// The styles of the two themes.
const (
	Light = "github"
	Dark  = "github-dark"
)

// PlainTypes lists, sorted, the token types that both styles draw exactly
// like plain text.
func PlainTypes() []chroma.TokenType {
	m := plainTypes(styles.Get(Light), styles.Get(Dark))
	out := make([]chroma.TokenType, 0, len(m))
	for tt := range m {
		out = append(out, tt)
	}
	slices.Sort(out)
	return out
}

// plainTypes lists the token types that both styles draw exactly like
// plain text. Their spans would change nothing on screen, yet they are
// most of a highlighted block's markup (identifiers, punctuation, spaces).
// Whitespace is always plain: its colour cannot be seen.
func plainTypes(light, dark *chroma.Style) map[chroma.TokenType]bool {
	same := func(st *chroma.Style, tt chroma.TokenType) bool {
		a, text := st.Get(tt), st.Get(chroma.Text)
		colour := a.Colour
		if !colour.IsSet() {
			colour = textColour(st)
		}
		return colour == textColour(st) && a.Background == text.Background && a.Bold == text.Bold &&
			a.Italic == text.Italic && a.Underline == text.Underline
	}
	plain := map[chroma.TokenType]bool{chroma.TextWhitespace: true}
	for tt := range chroma.StandardTypes {
		if tt != chroma.Background && same(light, tt) && same(dark, tt) {
			plain[tt] = true
		}
	}
	return plain
}

// textColour is the colour of plain code text in a style. Styles that
// leave it unset get GitHub's text colour, which CSS also writes
// into the stylesheet, so that nothing is left to inheritance.
func textColour(st *chroma.Style) chroma.Colour {
	if c := st.Get(chroma.Text).Colour; c.IsSet() {
		return c
	}
	return chroma.MustParseColour("#1f2328")
}

// CSS returns the stylesheet for highlighted code: the light and
// the dark style, each scoped to the theme that uses it, so that a token
// class one style defines and the other does not cannot leak across.
func CSS() (string, error) {
	f := chromahtml.New(chromahtml.WithClasses(true))
	var light, dark bytes.Buffer
	if err := f.WriteCSS(&light, styles.Get(Light)); err != nil {
		return "", err
	}
	if err := f.WriteCSS(&dark, styles.Get(Dark)); err != nil {
		return "", err
	}
	// Plain code text gets its colour from the style, never from the page
	// (plainTypes relies on it).
	light.WriteString(".chroma{color:" + textColour(styles.Get(Light)).String() + "}")
	dark.WriteString(".chroma{color:" + textColour(styles.Get(Dark)).String() + "}")
	scoped := func(css, root string) string {
		return strings.ReplaceAll(css, ".chroma", root+" .chroma")
	}
	var out strings.Builder
	out.WriteString(scoped(light.String(), ":root[data-theme=light]"))
	out.WriteString(scoped(dark.String(), ":root[data-theme=dark]"))
	// auto: follow the system.
	out.WriteString("@media not all and (prefers-color-scheme: dark){")
	out.WriteString(scoped(light.String(), ":root[data-theme=auto]"))
	out.WriteString("}@media (prefers-color-scheme: dark){")
	out.WriteString(scoped(dark.String(), ":root[data-theme=auto]"))
	out.WriteString("}")
	return out.String(), nil
}

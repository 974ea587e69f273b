package render

import (
	"bytes"
	"html/template"
	"path"
	"strings"
	"sync"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
)

// Chroma styles for the two themes.
const (
	lightStyle = "github"
	darkStyle  = "github-dark"
)

// highlighter turns code into HTML with chroma's CSS classes. Lexer
// lookups by file name are cached: chroma matches names against every
// lexer's globs, which is slow next to the highlighting itself.
type highlighter struct {
	formatter *chromahtml.Formatter
	plain     map[chroma.TokenType]bool // types both themes draw as plain text
	mu        sync.Mutex
	byName    map[string]chroma.Lexer // key: lower-cased extension or language
	done      sync.Map                // highlightKey -> template.HTML: the same text is highlighted once
}

type highlightKey struct {
	lexer chroma.Lexer
	src   string
}

func newHighlighter() *highlighter {
	return &highlighter{
		formatter: chromahtml.New(chromahtml.WithClasses(true), chromahtml.PreventSurroundingPre(true)),
		byName:    map[string]chroma.Lexer{},
		plain:     plainTypes(styles.Get(lightStyle), styles.Get(darkStyle)),
	}
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
// leave it unset get GitHub's text colour, which chromaCSS also writes
// into the stylesheet, so that nothing is left to inheritance.
func textColour(st *chroma.Style) chroma.Colour {
	if c := st.Get(chroma.Text).Colour; c.IsSet() {
		return c
	}
	return chroma.MustParseColour("#1f2328")
}

// lexerFor finds a lexer by language name or by file name; nil when none.
func (h *highlighter) lexerFor(language, filename string) chroma.Lexer {
	key := strings.ToLower(language)
	if key == "" {
		ext := strings.ToLower(path.Ext(filename))
		base := strings.ToLower(path.Base(filename))
		if ext == "" {
			key = "file:" + base // Makefile, Dockerfile
		} else {
			key = "ext:" + ext
		}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if l, ok := h.byName[key]; ok {
		return l
	}
	var l chroma.Lexer
	switch {
	case language != "":
		l = lexers.Get(language)
	case filename != "":
		l = lexers.Match(path.Base(filename))
	}
	if l != nil {
		l = chroma.Coalesce(l)
	}
	h.byName[key] = l
	return l
}

// code returns highlighted HTML for src, or escaped plain text when no
// lexer fits. The caller wraps it in <pre><code>.
func (h *highlighter) code(src, language, filename string) template.HTML {
	l := h.lexerFor(language, filename)
	if l == nil {
		return template.HTML(textEscape(src))
	}
	key := highlightKey{l, src}
	if v, ok := h.done.Load(key); ok {
		return v.(template.HTML)
	}
	out := h.tokenise(l, src)
	h.done.Store(key, out)
	return out
}

func (h *highlighter) tokenise(l chroma.Lexer, src string) template.HTML {
	it, err := l.Tokenise(nil, src)
	if err != nil {
		return template.HTML(textEscape(src))
	}
	it = h.plainer(it)
	var buf bytes.Buffer
	if err := h.formatter.Format(&buf, styles.Get(lightStyle), it); err != nil {
		return template.HTML(textEscape(src))
	}
	// The formatter writes only spans with a class around escaped text:
	// the quotes it escapes are in text, where they need no reference.
	return template.HTML(unquoter.Replace(buf.String()))
}

var unquoter = strings.NewReplacer("&#34;", `"`, "&#39;", "'", "&quot;", `"`)

// plainer turns the tokens that would be drawn as plain text anyway into
// plain text, so that the formatter writes them without a span.
func (h *highlighter) plainer(it chroma.Iterator) chroma.Iterator {
	return func() chroma.Token {
		t := it()
		if h.plain[t.Type] {
			t.Type = chroma.Text
		}
		return t
	}
}

// chromaCSS returns the stylesheet for highlighted code: the light and
// the dark style, each scoped to the theme that uses it, so that a token
// class one style defines and the other does not cannot leak across.
func chromaCSS() (string, error) {
	f := chromahtml.New(chromahtml.WithClasses(true))
	var light, dark bytes.Buffer
	if err := f.WriteCSS(&light, styles.Get(lightStyle)); err != nil {
		return "", err
	}
	if err := f.WriteCSS(&dark, styles.Get(darkStyle)); err != nil {
		return "", err
	}
	// Plain code text gets its colour from the style, never from the page
	// (plainTypes relies on it).
	light.WriteString(".chroma{color:" + textColour(styles.Get(lightStyle)).String() + "}")
	dark.WriteString(".chroma{color:" + textColour(styles.Get(darkStyle)).String() + "}")
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

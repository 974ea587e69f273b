package htmlpage

import (
	"html/template"
	"path"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"

	"canopy/internal/fastlex"
)

// The code's colours come from chroma's "github" and "github-dark" styles,
// by CSS classes. Reading those styles means importing chroma's styles
// package, whose init parses every style chroma has (10-15 ms of every
// canopy command); so what the page needs of them, its stylesheet and the
// token types both draw as plain text, is computed by internal/chromastyle
// and kept in chroma_gen.go (go test ./htmlpage -run TestChromaStyles -update
// rewrites it; the test fails when it is stale).

func plainSet() map[chroma.TokenType]bool {
	m := make(map[chroma.TokenType]bool, len(chromaPlainTypes))
	for _, tt := range chromaPlainTypes {
		m[tt] = true
	}
	return m
}

// highlighter turns code into HTML with chroma's CSS classes. Lexer
// lookups by file name are cached: chroma matches names against every
// lexer's globs, which is slow next to the highlighting itself. Lexers
// run in fastlex's engine, which gives chroma's very tokens at a fraction
// of chroma's cost (internal/fastlex says how).
type highlighter struct {
	plain     map[chroma.TokenType]bool // types both themes draw as plain text
	engine    *fastlex.Engine
	mu        sync.Mutex
	byName    map[string]chroma.Lexer // key: lower-cased extension or language
	indexOnce sync.Once
	index     *lexerIndex  // file names to lexers, as lexers.Match would
	done      sync.Map     // highlightKey -> template.HTML: the same text is highlighted once
	doneBytes atomic.Int64 // what done holds, roughly: it is emptied past maxDone
	maxDone   int64
}

// maxDoneBytes bounds the cache of highlighted texts. A Renderer lives as
// long as its user wants (canopy archive renders a thousand sessions with
// one): without a bound, the cache would keep every block of code of every
// session ever rendered.
const maxDoneBytes = 64 << 20

type highlightKey struct {
	lexer chroma.Lexer
	src   string
}

func newHighlighter() *highlighter {
	return &highlighter{
		byName:  map[string]chroma.Lexer{},
		engine:  fastlex.New(),
		maxDone: maxDoneBytes,
		plain:   plainSet(),
	}
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
		h.indexOnce.Do(func() { h.index = newLexerIndex(lexers.GlobalLexerRegistry) })
		l = h.index.match(filename)
	}
	if l != nil {
		l = chroma.Coalesce(h.engine.Lexer(l))
	}
	h.byName[key] = l
	return l
}

// Bounds on what is highlighted: they keep ordinary text, however long, to
// about a second a block, while code files, which are normally under a few
// hundred KB, are highlighted in full. Past them the text is shown plain
// (escaped, in the same markup) with a note saying so. Within them, text
// on which chroma's lexers cost the square of its length is told by
// lexCostTooHigh (lexcost.go) and shown plain too.
const (
	// MaxHighlightBytes is the most text one block may hold to be
	// highlighted. Measured (2-core Xeon, chroma v2.27): Go source and
	// indented JSON highlight at 0.8-1 MB/s, dense code (minified
	// JavaScript, one short token after another) at 0.25-0.3 MB/s; 512 KB
	// is then half a second for ordinary code and two at worst, where a
	// 4 MB JSON string took 8.8 s and 10 MB 89 s. (Those are chroma's own
	// speeds; through fastlex, code goes 6-15 times as fast, and
	// the bounds, unchanged, leave room.)
	MaxHighlightBytes = 512 << 10
	// MaxHighlightLineBytes is the longest line a block may hold to be
	// highlighted, as editors bound the lines they colour. A line that
	// long is data (minified code, a JSON response, a base64 string), not
	// code anyone reads by colour, and it is where chroma is slowest: on
	// dense short tokens its cost grows with the line's length (64 KB of
	// YAML flow mappings, "{\"a\":" repeated: 0.24 s in lines of 1 KB,
	// 0.50 s in lines of 4 KB, 1.8 s in lines of 16 KB), and every rule
	// has a 250 ms time limit, past which chroma colours the token
	// character by character as an error (what made a 4 MB JSON string
	// 39 MB of HTML), so that how a long token is highlighted would
	// depend on the machine's speed. At 4 KB the worst text measured
	// costs about 8 s a MB; no line of the sessions in testdata and
	// ../shared comes near it.
	MaxHighlightLineBytes = 4 << 10
)

// tooBig says why src is not highlighted although a lexer fits ("" when
// it is within the bounds): the note shown with the plain text.
func tooBig(src string) string {
	if len(src) > MaxHighlightBytes {
		return "shown without highlighting: " + sizeText(len(src)) + " is over the " + sizeText(MaxHighlightBytes) + " limit"
	}
	if n := longestLine(src); n > MaxHighlightLineBytes {
		return "shown without highlighting: a line of " + sizeText(n) + " is over the " + sizeText(MaxHighlightLineBytes) + " limit for one line"
	}
	if lexCostTooHigh(src) {
		return "shown without highlighting: highlighting this text would take too long"
	}
	return ""
}

// longestLine is the length in bytes of src's longest line.
func longestLine(src string) int {
	most := 0
	for src != "" {
		i := strings.IndexByte(src, '\n')
		if i < 0 {
			return max(most, len(src))
		}
		most = max(most, i)
		src = src[i+1:]
	}
	return most
}

// sizeText writes a size for a note: "4.2 MB", "512.0 KB", and a whole
// number of units without decimals, as limits are: "512 KB".
func sizeText(n int) string {
	if n%(1<<20) == 0 || n < 1<<20 && n%(1<<10) == 0 {
		return strings.Replace(byteSize(n), ".0 ", " ", 1)
	}
	return byteSize(n)
}

// code returns highlighted HTML for src, or escaped plain text when no
// lexer fits. The caller wraps it in <pre><code>. note is not "" when a
// lexer fits but src is past the bounds above: src is then escaped plain
// text, and note says why, for the page to show by the block.
func (h *highlighter) code(src, language, filename string) (html template.HTML, note string) {
	l := h.lexerFor(language, filename)
	if l == nil {
		return template.HTML(textEscape(src)), ""
	}
	if note := tooBig(src); note != "" {
		return template.HTML(textEscape(src)), note
	}
	return h.highlight(l, src), ""
}

// highlight is src highlighted by l, from the cache when it was before.
func (h *highlighter) highlight(l chroma.Lexer, src string) template.HTML {
	key := highlightKey{l, src}
	if v, ok := h.done.Load(key); ok {
		return v.(template.HTML)
	}
	out := h.tokenise(l, src)
	if h.doneBytes.Add(int64(len(src)+len(out))) > h.maxDone {
		h.done.Clear()
		h.doneBytes.Store(0)
	}
	h.done.Store(key, out)
	return out
}

// tokenise highlights src with l, the types both themes draw as plain
// text written without a span (hlwriter.go).
func (h *highlighter) tokenise(l chroma.Lexer, src string) template.HTML {
	it, err := l.Tokenise(nil, src)
	if err != nil {
		return template.HTML(textEscape(src))
	}
	var b strings.Builder
	b.Grow(2 * len(src))
	writeTokens(&b, it, h.plain)
	return template.HTML(b.String())
}

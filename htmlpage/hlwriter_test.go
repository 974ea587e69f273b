package htmlpage

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
)

// spanClass is a span chroma's formatter opens, its class quoted.
var spanClass = regexp.MustCompile(`<span class="([a-z0-9-]+)">`)

// formatterHTML is what canopy wrote before writeTokens: chroma's HTML
// formatter with classes and no <pre>, over the tokens with the plain
// types made Text, the quotes and ">" it escapes turned back and the classes
// unquoted (chroma's class names are letters, digits and hyphens).
// writeTokens is held to it.
func formatterHTML(t *testing.T, tokens []chroma.Token, plain map[chroma.TokenType]bool) string {
	t.Helper()
	out, err := formatterString(tokens, plain)
	if err != nil {
		t.Fatalf("format: %v", err)
	}
	return out
}

var (
	formatter      = chromahtml.New(chromahtml.WithClasses(true), chromahtml.PreventSurroundingPre(true))
	formatterStyle = chroma.MustNewStyle("canopy", chroma.StyleEntries{})
	formatterUndo  = strings.NewReplacer("&#34;", `"`, "&#39;", "'", "&quot;", `"`, "&gt;", ">")
)

func formatterString(tokens []chroma.Token, plain map[chroma.TokenType]bool) (string, error) {
	toks := make([]chroma.Token, 0, len(tokens))
	for _, tok := range tokens {
		if plain[tok.Type] {
			tok.Type = chroma.Text
		}
		toks = append(toks, tok)
	}
	var buf bytes.Buffer
	if err := formatter.Format(&buf, formatterStyle, chroma.Literator(toks...)); err != nil {
		return "", err
	}
	unquoted := spanClass.ReplaceAllString(buf.String(), "<span class=$1>")
	return formatterUndo.Replace(unquoted), nil
}

func writerHTML(tokens []chroma.Token, plain map[chroma.TokenType]bool) string {
	var b strings.Builder
	writeTokens(&b, chroma.Literator(tokens...), plain)
	return b.String()
}

// tokenTypes are the types the synthetic streams draw from: plain ones,
// classed ones, a subtype whose class is its parent's, and none.
var tokenTypes = []chroma.TokenType{
	chroma.Text, chroma.TextWhitespace, chroma.Punctuation, chroma.Name, chroma.Keyword,
	chroma.CommentMultiline, chroma.LiteralStringDouble, chroma.GenericDeleted, chroma.Error,
	chroma.NameBuiltinPseudo, chroma.LiteralNumberIntegerLong, chroma.TokenType(3333),
}

// synthTokens makes a token stream from data: each byte pair picks a type
// and a value (empty ones included, and values with line ends inside).
func synthTokens(data []byte) []chroma.Token {
	values := []string{"", "\n", "a", "a\n", "\nb", "x\n\ny", `<&>"'`, "if", " \t", "é\n"}
	var out []chroma.Token
	for i := 0; i+1 < len(data); i += 2 {
		out = append(out, chroma.Token{
			Type:  tokenTypes[int(data[i])%len(tokenTypes)],
			Value: values[int(data[i+1])%len(values)],
		})
	}
	return out
}

var fuzzLexers = []string{"go", "python", "tsx", "typescript", "json", "markdown", "bash", "yaml", "diff", "html", "rust"}

func TestTokenWriterMatchesFormatter(t *testing.T) {
	plain := plainSet()
	streams := map[string][]byte{
		"empty":                  nil,
		"one empty classed":      {4, 0},
		"empty last line":        {4, 3, 4, 0},
		"two empty on last line": {4, 3, 4, 0, 5, 0},
		"empty mid line":         {4, 2, 4, 0, 5, 2},
		"empty plain last":       {4, 3, 0, 0},
		"multi-line comment":     {5, 5, 5, 4, 6, 6},
		"escapes":                {0, 6, 4, 6},
		"unknown type":           {11, 3, 11, 0},
	}
	for name, data := range streams {
		toks := synthTokens(data)
		if got, want := writerHTML(toks, plain), formatterHTML(t, toks, plain); got != want {
			t.Errorf("%s: writeTokens = %q, formatter = %q", name, got, want)
		}
	}
	srcs := []string{
		"package main\n\n/* a\n b */\nfunc f() string { return \"<a href='x'>&amp;\" }\n",
		"def f():\n    \"\"\"doc\n\n    more\"\"\"\n    return 'x' < 2\n",
		"const x = <div className=\"a\">{y && z}</div>;\n",
		"{\"a\": [1, 2.5, true, null], \"b\": \"<\"}",
		"# T\n\n```go\nx := 1\n```\n- *a* `b`\n",
		"echo \"$HOME\" && cat <<EOF\nx\nEOF\n",
		"@@ -1 +1 @@\n-a\n+b\n",
		"",
		"\n\n",
	}
	for _, name := range fuzzLexers {
		for _, src := range srcs {
			checkLexed(t, name, src, plain)
		}
	}
}

// checkLexed compares the two writers on src lexed by the named lexer.
func checkLexed(t *testing.T, lexer, src string, plain map[chroma.TokenType]bool) {
	t.Helper()
	l := chroma.Coalesce(lexers.Get(lexer))
	it, err := l.Tokenise(nil, src)
	if err != nil {
		return
	}
	toks := it.Tokens()
	if got, want := writerHTML(toks, plain), formatterHTML(t, toks, plain); got != want {
		t.Errorf("%s on %q:\nwriteTokens = %q\nformatter   = %q", lexer, src, got, want)
	}
}

func FuzzTokenWriter(f *testing.F) {
	f.Add([]byte{4, 3, 4, 0}, "package main\nfunc f() {}\n", uint8(0))
	f.Add([]byte{5, 5, 0, 6}, "def f():\n    return '<'\n", uint8(1))
	f.Add([]byte{}, "x = `a\n\nb` // c\n", uint8(3))
	plain := plainSet()
	f.Fuzz(func(t *testing.T, data []byte, src string, lexer uint8) {
		toks := synthTokens(data)
		if got, want := writerHTML(toks, plain), formatterHTML(t, toks, plain); got != want {
			t.Fatalf("tokens %v: writeTokens = %q, formatter = %q", toks, got, want)
		}
		if len(src) > 4<<10 {
			return
		}
		checkLexed(t, fuzzLexers[int(lexer)%len(fuzzLexers)], src, plain)
	})
}

// BenchmarkTokenWriter writes the tokens of real code (plainmd.go, the
// page's index.js, lexed by chroma) with writeTokens and with
// chroma's HTML formatter turned into the same bytes (formatterString).
func BenchmarkTokenWriter(b *testing.B) {
	plain := plainSet()
	for _, f := range []struct{ name, lexer string }{{"plainmd.go", "go"}, {"../assets/index.js", "javascript"}} {
		src, err := os.ReadFile(f.name)
		if err != nil {
			b.Skip(err)
		}
		it, err := chroma.Coalesce(lexers.Get(f.lexer)).Tokenise(nil, string(src))
		if err != nil {
			b.Fatal(err)
		}
		toks := it.Tokens()
		if w, _ := formatterString(toks, plain); w != writerHTML(toks, plain) {
			b.Fatal("the two differ")
		}
		b.Run(f.lexer+"/writeTokens", func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				writerHTML(toks, plain)
			}
		})
		b.Run(f.lexer+"/formatter", func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				formatterString(toks, plain)
			}
		})
	}
}

package htmlpage

import (
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2/lexers"
)

// The index answers as chroma's registry does, for names made from every
// glob of every lexer (with and without backup suffixes) and for others.
func TestLexerIndexMatchesChroma(t *testing.T) {
	x := newLexerIndex(lexers.GlobalLexerRegistry)
	names := []string{"Makefile", "Dockerfile", "main.go", "x.ts", "README.md", "a.tar.gz", "noext", ".bashrc", "CMakeLists.txt", "x.min.js", "dir/x.py", "x.h.in", "x.go~", "x.yaml.bak", "weird[1].c"}
	fill := strings.NewReplacer("*", "abc", "?", "z", "[", "", "]", "", `\`, "")
	// A name for every glob; backup suffixes and near misses for every
	// tenth (chroma's Match takes 3 ms a name: all of them would take a
	// minute).
	for i, l := range lexers.GlobalLexerRegistry.Lexers {
		cfg := l.Config()
		for _, g := range append(append([]string{}, cfg.Filenames...), cfg.AliasFilenames...) {
			n := fill.Replace(g)
			names = append(names, n)
			if i%10 == 0 {
				names = append(names, n+"~", n+".orig", n+".in", "x"+n, n+"x")
			}
		}
	}
	for _, n := range names {
		want, got := lexers.Match(n), x.match(n)
		if want != got {
			wn, gn := "nil", "nil"
			if want != nil {
				wn = want.Config().Name
			}
			if got != nil {
				gn = got.Config().Name
			}
			t.Errorf("%q: chroma matches %s, the index %s", n, wn, gn)
		}
	}
	t.Logf("%d names checked", len(names))
}

package htmlpage

import (
	"path"
	"strings"

	"github.com/alecthomas/chroma/v2"
)

// lexerIndex answers chroma's Match(filename) the way the registry does,
// but without trying each of its ~650 file-name globs (with a dozen
// backup suffixes each) through filepath.Match: 3 ms a call. A glob can
// only match a name that contains the glob's literal tail (".ts" of
// "*.ts"), with or without a backup suffix after it; the lexers with such
// a glob, in registry order, are handed to chroma's own Match, so the
// answer, priorities and ties included, is the registry's.
type lexerIndex struct {
	rules []globRule // every lexer's globs, lexer by lexer, in registry order
}

type globRule struct {
	lexer chroma.Lexer
	tail  string // the glob's text after its last wildcard: in every name it matches
}

func newLexerIndex(reg *chroma.LexerRegistry) *lexerIndex {
	x := &lexerIndex{}
	for _, l := range reg.Lexers {
		cfg := l.Config()
		for _, globs := range [][]string{cfg.Filenames, cfg.AliasFilenames} {
			for _, g := range globs {
				x.rules = append(x.rules, globRule{l, g[strings.LastIndexAny(g, `*?[]\`)+1:]})
			}
		}
	}
	return x
}

// match returns the lexer chroma's registry would match filename to, or nil.
func (x *lexerIndex) match(filename string) chroma.Lexer {
	base := path.Base(filename)
	var cands chroma.Lexers
	for _, r := range x.rules {
		if strings.Contains(base, r.tail) && (len(cands) == 0 || cands[len(cands)-1] != r.lexer) {
			cands = append(cands, r.lexer) // each lexer once: its rules are together
		}
	}
	if len(cands) == 0 {
		return nil
	}
	sub := chroma.LexerRegistry{Lexers: cands}
	return sub.Match(base)
}

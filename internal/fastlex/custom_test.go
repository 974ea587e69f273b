package fastlex

import (
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// customLexer uses what the session lexers hardly do: emitters and
// mutators of its own that read and change the lexer's state (groups,
// named groups, the stack, the position, the rules), ByGroupNames,
// Combined, Default, #pop, nested lexers by name and by UsingLexer, an
// Ignore token, a rule that matches nothing, and EnsureNL.
func customLexer() *chroma.RegexLexer {
	jsonLexer := lexers.Get("json")
	l := chroma.MustNewLexer(&chroma.Config{Name: "custom", EnsureNL: true}, func() chroma.Rules {
		return chroma.Rules{
			"root": {
				rule(`(?<word>[a-z]+)(?<sep>=)(?<val>\d+)`, chroma.ByGroupNames(map[string]chroma.Emitter{
					`word`: chroma.NameAttribute, `sep`: chroma.Operator, `val`: chroma.Number,
				}), nil),
				rule(`json:`, chroma.Keyword, chroma.Push("json")),
				rule(`\{`, chroma.Punctuation, chroma.Combined("inner", "words")),
				rule(`(\()([^)]*)(\))`, chroma.ByGroups(chroma.Punctuation, chroma.UsingSelf("words"), chroma.Punctuation), nil),
				rule(`<([^>]*)>`, chroma.UsingLexer(jsonLexer), nil),
				rule(`@(\w+)`, chroma.EmitterFunc(func(groups []string, s *chroma.LexerState) chroma.Iterator {
					return func() chroma.Token { // reads the state late, when drained
						if s.Groups == nil {
							return chroma.EOF
						}
						t := chroma.Token{Type: chroma.NameDecorator, Value: s.Groups[0]}
						s.Groups = nil
						return t
					}
				}), chroma.MutatorFunc(func(s *chroma.LexerState) error {
					s.Set("at", s.Groups[1])
					return nil
				})),
				rule(`!skip`, chroma.Ignore, nil),
				rule(`\$`, chroma.Keyword, chroma.MutatorFunc(func(s *chroma.LexerState) error {
					if v, _ := s.Get("at").(string); v != "" {
						s.Pos += min(len(v), len(s.Text)-s.Pos) // jump ahead by the last @name's length
					}
					return nil
				})),
				rule(`%`, chroma.Operator, chroma.MutatorFunc(func(s *chroma.LexerState) error {
					rules := chroma.CompiledRules{}
					for k, v := range s.Rules {
						rules[k] = append([]*chroma.CompiledRule(nil), v...)
					}
					s.Rules = rules // from here on, rules the engine has no tables for
					return nil
				})),
				rule(`"`, chroma.LiteralString, chroma.Push("string")),
				rule(`\s+`, chroma.TextWhitespace, nil),
				rule(`\w+`, chroma.Name, nil),
			},
			"string": {
				rule(`\\.`, chroma.LiteralStringEscape, nil),
				rule(`"`, chroma.LiteralString, chroma.Pop(1)),
				rule(`[^"\\\n]+`, chroma.LiteralString, nil),
			},
			"json": {
				rule(`[^;\n]+`, chroma.Using("JSON"), nil),
				rule(`;`, chroma.Punctuation, chroma.Pop(1)),
			},
			"inner": {
				rule(`\}`, chroma.Punctuation, chroma.Pop(1)),
				rule(`\s+`, chroma.TextWhitespace, nil),
			},
			"words": {
				rule(`\d+`, chroma.Number, nil),
				rule(`[a-z]+`, chroma.Name, nil),
				chroma.Default(chroma.Pop(1)),
			},
		}
	})
	l.SetRegistry(lexers.GlobalLexerRegistry)
	return l
}

// rule is a chroma.Rule, its fields named.
func rule(pattern string, emitter chroma.Emitter, mutator chroma.Mutator) chroma.Rule {
	return chroma.Rule{Pattern: pattern, Type: emitter, Mutator: mutator}
}

var customTexts = []string{
	"", "a=1 b=2\n", "json:{\"k\": [1, 2]};x\n", "{ 12 ab }", "f(12 ab) g()\n", "<[1, true]> <{>",
	"@name $abcdef", "!skip x !skip", "% a=1 \"s\\\"t\" json:1; (x)", "\"open\nnext", "é=1 {\n}",
	strings.Repeat("(a 1) % ", 20),
}

func TestCustomLexer(t *testing.T) {
	l := customLexer()
	e := New()
	if !Driven(e.Lexer(l)) {
		t.Fatal("the custom lexer is not driven")
	}
	for _, text := range append(customTexts, cornerTexts...) {
		sameTokens(t, e, l, text)
	}
}

func FuzzCustomLexer(f *testing.F) {
	for _, text := range customTexts {
		f.Add(text)
	}
	l := customLexer()
	e := New()
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) <= 2<<10 {
			sameTokens(t, e, l, text)
		}
	})
}

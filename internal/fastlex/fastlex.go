// Package fastlex runs chroma's regular-expression lexers faster, giving
// the very token stream chroma's own Tokenise gives.
//
// Why it exists: on sessions heavy with code, chroma's lexing was most of
// an export's CPU (code-100k: 30 CPU-s of which 26 highlighting), and most
// of that was regexp2's cost per call, for rules that cannot match where
// they are tried. A chroma lexer tries, at each position, every rule of
// the current state in turn, each a regexp2 search anchored there (`\G`);
// a state has tens of rules, and each try takes a runner from a pool,
// sets up and allocates a match, however soon it fails.
//
// fastlex drives the same compiled rules (chroma's own regexp2 objects,
// emitters and mutators, in the same order) with its own copy of chroma's
// loop (LexerState.Iterator, in run.go), and:
//   - per state, keeps a table from ASCII rune to the rules that can start
//     a match with it (table.go): the others are not tried at all;
//   - matches most rules itself (native.go, nmatch.go), on regexp2's own
//     parse of the expression, without a regexp2 call; the rest go to
//     regexp2 without allocating a Match (FindRunesMatches), after a
//     prefilter from regexp2's own analysis (prefilter.go);
//   - queues the tokens a match emits instead of an iterator per token,
//     and gives groups as slices of the text (emit.go);
//   - runs the nested lexing chroma's emitters start (Using, UsingSelf,
//     UsingByGroup, as parts of ByGroups) through itself.
//
// What it cannot drive exactly is left to chroma: a lexer that is not a
// *chroma.RegexLexer (but for Markdown's front-matter wrapper, whose
// RegexLexer it drives when the text has no front matter), one whose rules
// do not compile, one with tracing on; a state whose rules a mutator has
// replaced is tried rule by rule. Emitters and mutators see the same
// *chroma.LexerState chroma would give them: its exported fields are kept
// as chroma keeps them; its unexported ones are read only by chroma's own
// loop, which fastlex replaces. It reads three unexported fields of
// chroma.RegexLexer (readInternals); TestDriven fails when chroma changes
// them. FuzzTokens, FuzzCustomLexer, TestRealText and FuzzNative hold it
// to chroma and regexp2; FuzzTables holds the first-character tables and
// the prefilter to regexp2's matches.
//
// What each part pays (issue 34's rule: a hand-written replacement stays
// only where it pays more than about 15% on realistic input). Lexing real
// code alone (go test ./internal/fastlex -run X -bench RealCode), ms for
// chroma / the tables and loop without the native matcher / all of it:
// net/http/server.go 60.6 / 10.4 / 5.9, go/parser 63.3 / 9.8 / 5.1,
// argparse.py 77.1 / 12.0 / 4.8, a TypeScript file 25.2 / 6.9 / 3.3. Of a
// whole export (canopy export, medians of alternating runs), the native
// matcher saves 13% on code-10MB and 13-19% on code-100k, 2-6% on the
// corpus and Claude Code sessions, nothing on gen-100k: it was measured
// out of the code and put back, because without it the code-heavy
// benchmark exports 13-19% slower and no benchmark input may export slower.
package fastlex

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"unsafe"

	"github.com/alecthomas/chroma/v2"
)

// Engine wraps chroma lexers and keeps what it learned about each (its
// rule tables) for as long as it lives. It is safe for concurrent use.
type Engine struct {
	tables sync.Map // *chroma.RegexLexer -> *tableEntry
}

type tableEntry struct {
	once sync.Once
	t    *table // nil when the lexer cannot be driven
}

// New returns an empty Engine.
func New() *Engine { return &Engine{} }

// Lexer returns a lexer giving the tokens l gives, through the engine
// when l is a *chroma.RegexLexer it can drive (or chroma's Markdown
// lexer, which wraps one), else l itself.
func (e *Engine) Lexer(l chroma.Lexer) chroma.Lexer {
	switch rl := l.(type) {
	case *chroma.RegexLexer:
		if t := e.table(rl); t != nil {
			return &Lexer{Lexer: rl, t: t}
		}
	case *Lexer, *frontMatterLexer:
		return l
	default:
		if inner := markdownInner(l); inner != nil {
			if t := e.table(inner); t != nil {
				return &frontMatterLexer{Lexer: l, inner: t}
			}
		}
	}
	return l
}

// frontMatterLexer is chroma's Markdown lexer (lexers.markdownLexer): a
// RegexLexer wrapped to lex a leading YAML front matter block with the
// YAML lexer first. Text that cannot start with front matter goes to the
// RegexLexer as the wrapper sends it, through the engine; text that can
// is left to the wrapper.
type frontMatterLexer struct {
	chroma.Lexer
	inner *table
}

func (l *frontMatterLexer) Tokenise(options *chroma.TokeniseOptions, text string) (chroma.Iterator, error) {
	if strings.HasPrefix(text, "---\n") || strings.HasPrefix(text, "---\r\n") {
		return l.Lexer.Tokenise(options, text)
	}
	return l.inner.tokenise(options, text), nil
}

// markdownInner is the RegexLexer inside chroma's Markdown lexer, nil
// when l is not that lexer.
func markdownInner(l chroma.Lexer) *chroma.RegexLexer {
	if reflect.TypeOf(l).String() != "*lexers.markdownLexer" {
		return nil
	}
	inner, _ := exportedField[chroma.Lexer](l, "Lexer")
	rl, _ := inner.(*chroma.RegexLexer)
	return rl
}

// Driven reports whether l is a lexer the engine drives (one Lexer returned).
func Driven(l chroma.Lexer) bool {
	switch l.(type) {
	case *Lexer, *frontMatterLexer:
		return true
	}
	return false
}

// Lexer is a chroma lexer whose Tokenise runs in the engine. Everything
// else (its configuration, analyser, registry) is the wrapped lexer's.
type Lexer struct {
	chroma.Lexer
	t *table
}

// Tokenise returns the tokens chroma's Tokenise would, in the same order.
func (l *Lexer) Tokenise(options *chroma.TokeniseOptions, text string) (chroma.Iterator, error) {
	return l.t.tokenise(options, text), nil
}

// table returns rl's rule tables, built on first use; nil when rl cannot
// be driven.
func (e *Engine) table(rl *chroma.RegexLexer) *table {
	v, ok := e.tables.Load(rl)
	if !ok {
		v, _ = e.tables.LoadOrStore(rl, &tableEntry{})
	}
	te := v.(*tableEntry)
	te.once.Do(func() {
		t, err := newTable(e, rl)
		if err == nil {
			te.t = t
		}
	})
	return te.t
}

// internals are the fields of a chroma.RegexLexer that chroma's own loop
// reads and that chroma does not export: its compiled rules (the same
// map, whose regexp2 objects and emitters fastlex runs), the registry
// nested lexers are looked up in, and whether tracing is on.
type internals struct {
	rules    chroma.CompiledRules
	registry *chroma.LexerRegistry
	trace    bool
}

var errInternals = errors.New("chroma.RegexLexer's fields are not as fastlex knows them")

// readInternals reads rl's unexported fields by reflection, after its
// rules are compiled (Rules compiles them; from then on chroma changes
// neither the map nor its rules). When chroma renames or retypes them,
// the lexer is not driven (TestDriven then fails).
func readInternals(rl *chroma.RegexLexer) (internals, error) {
	if _, err := rl.Rules(); err != nil {
		return internals{}, fmt.Errorf("compiling %s: %w", rl.Config().Name, err)
	}
	v := reflect.ValueOf(rl).Elem()
	rules := v.FieldByName("rules")
	registry := v.FieldByName("registry")
	trace := v.FieldByName("trace")
	if !rules.IsValid() || !registry.IsValid() || !trace.IsValid() ||
		rules.Type() != reflect.TypeFor[map[string][]*chroma.CompiledRule]() ||
		registry.Type() != reflect.TypeFor[*chroma.LexerRegistry]() ||
		trace.Kind() != reflect.Bool {
		return internals{}, errInternals
	}
	return internals{
		rules:    *(*map[string][]*chroma.CompiledRule)(unsafe.Pointer(rules.UnsafeAddr())),
		registry: *(**chroma.LexerRegistry)(unsafe.Pointer(registry.UnsafeAddr())),
		trace:    trace.Bool(),
	}, nil
}

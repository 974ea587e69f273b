package fastlex

import (
	"fmt"
	"reflect"

	"github.com/alecthomas/chroma/v2"
)

// A plan is how the engine emits a rule's groups. chroma's emitters that
// lex a group with another lexer (Using, UsingSelf, UsingByGroup, also as
// one of ByGroups's emitters) would call that lexer's own Tokenise, and so
// chroma's loop: the engine does what they do, in the same order, but
// lexes through itself. Every other emitter is called as chroma calls it.
type plan struct {
	kind     planKind
	e        chroma.Emitter
	children chroma.Emitters // ByGroups, UsingByGroup: an emitter per group
	sub      []*plan         // the children's plans (nil where the child is nil)
	name     string          // Using: the lexer's name; UsingSelf: the state
	nameAt   int             // UsingByGroup: the group naming the lexer
	codeAt   int             // UsingByGroup: the group lexed with it
}

type planKind int

const (
	planCall         planKind = iota // call e.Emit
	planToken                        // a token type: e.Emit, known to read only groups[0]
	planByGroups                     // chroma.ByGroups
	planUsing                        // chroma.Using
	planUsingSelf                    // chroma.UsingSelf
	planUsingByGroup                 // chroma.UsingByGroup
)

// newPlan studies e; any emitter it does not know exactly is a planCall.
func newPlan(e chroma.Emitter) *plan {
	p := &plan{kind: planCall, e: e}
	se, ok := e.(chroma.SerialisableEmitter)
	if !ok {
		return p
	}
	var fieldsOK bool
	switch se.EmitterKind() {
	case "token":
		_, fieldsOK = e.(chroma.TokenType)
		p.kind = planToken
	case "bygroups":
		p.children, fieldsOK = exportedField[chroma.Emitters](e, "Emitters")
		p.kind = planByGroups
	case "using":
		p.name, fieldsOK = exportedField[string](e, "Lexer")
		p.kind = planUsing
	case "usingself":
		p.name, fieldsOK = exportedField[string](e, "State")
		p.kind = planUsingSelf
	case "usingbygroup":
		var ok1, ok2 bool
		p.children, fieldsOK = exportedField[chroma.Emitters](e, "Emitters")
		p.nameAt, ok1 = exportedField[int](e, "SublexerNameGroup")
		p.codeAt, ok2 = exportedField[int](e, "CodeGroup")
		fieldsOK = fieldsOK && ok1 && ok2
		p.kind = planUsingByGroup
	}
	if !fieldsOK {
		return &plan{kind: planCall, e: e}
	}
	for _, c := range p.children {
		var cp *plan
		if c != nil {
			cp = newPlan(c)
		}
		p.sub = append(p.sub, cp)
	}
	return p
}

// known reports whether the plan, children included, is made only of
// emitters that do not read LexerState.NamedGroups.
func (p *plan) known() bool {
	if p.kind == planCall {
		return false
	}
	for _, c := range p.sub {
		if c != nil && !c.known() {
			return false
		}
	}
	return true
}

// exportedField reads the exported field name of the struct v points to
// (chroma's emitters and mutators are unexported types with exported
// fields, which chroma serialises).
func exportedField[T any](v any, name string) (T, bool) {
	var zero T
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.Elem().Kind() != reflect.Struct {
		return zero, false
	}
	f := rv.Elem().FieldByName(name)
	if !f.IsValid() || !f.CanInterface() {
		return zero, false
	}
	out, ok := f.Interface().(T)
	return out, ok
}

// emit queues what p's emitter applied to groups gives, as chroma's Emit
// would: tokens of token types directly, ByGroups flattened to its
// parts, everything else as the iterator its emitter returns.
func (r *run) emit(p *plan, groups []string) {
	switch p.kind {
	case planToken: // chroma's TokenType.Emit
		r.queue = append(r.queue, queued{tok: chroma.Token{Type: p.e.(chroma.TokenType), Value: groups[0]}})
	case planByGroups: // chroma's byGroupsEmitter.Emit
		if len(p.children) != len(groups)-1 {
			r.queue = append(r.queue, queued{tok: chroma.Token{Type: chroma.Error, Value: groups[0]}})
			return
		}
		for i, group := range groups[1:] {
			if c := p.sub[i]; c != nil {
				if c.kind == planCall {
					r.emit(c, []string{group})
				} else {
					r.emit(c, groups[i+1:i+2])
				}
			}
		}
	default:
		if it := r.emitIter(p, groups); it != nil {
			r.queue = append(r.queue, queued{it: it})
		}
	}
}

// emitIter is p's emitter applied to groups, as chroma's Emit would be;
// nil for a nested lex of no text, which emits nothing.
func (r *run) emitIter(p *plan, groups []string) chroma.Iterator {
	l := r.l
	switch p.kind {
	case planUsing: // chroma's usingEmitter.Emit
		if l.Registry == nil {
			panic(fmt.Sprintf("no LexerRegistry available for Using(%q)", p.name))
		}
		lexer := l.Registry.Get(p.name)
		if lexer == nil {
			panic(fmt.Sprintf("no such lexer %q", p.name))
		}
		return r.nested(lexer, &chroma.TokeniseOptions{State: "root", Nested: true}, groups[0])
	case planUsingSelf: // chroma's usingSelfEmitter.Emit
		return r.nested(l.Lexer, &chroma.TokeniseOptions{State: p.name, Nested: true}, groups[0])
	case planUsingByGroup:
		return r.emitUsingByGroup(p, groups)
	}
	return p.e.Emit(groups, l)
}

// emitUsingByGroup is chroma's usingByGroup.Emit.
func (r *run) emitUsingByGroup(p *plan, groups []string) chroma.Iterator {
	if len(p.children) != len(groups)-1 {
		panic("UsingByGroup expects number of emitters to be the same as len(groups)-1")
	}
	sublexer := r.l.Registry.Get(groups[p.nameAt])
	iterators := make([]chroma.Iterator, len(groups)-1)
	for i, group := range groups[1:] {
		if i == p.codeAt-1 && sublexer != nil {
			iterators[i] = r.nested(sublexer, nil, groups[p.codeAt])
		} else if p.sub[i] != nil {
			iterators[i] = r.iterOf(p.sub[i], []string{group})
		}
	}
	return chroma.Concaterator(iterators...)
}

// iterOf is p's emitter applied to groups as an iterator, as chroma's
// Emit returns it (UsingByGroup's parts, which chroma concatenates with
// what is nil included).
func (r *run) iterOf(p *plan, groups []string) chroma.Iterator {
	switch p.kind {
	case planToken:
		return p.e.Emit(groups, r.l)
	case planByGroups:
		var parts []chroma.Iterator
		saved, at := r.queue, r.queueAt
		r.queue, r.queueAt = nil, 0
		r.emit(p, groups)
		for _, q := range r.queue {
			if q.it != nil {
				parts = append(parts, q.it)
			} else {
				parts = append(parts, chroma.Literator(q.tok))
			}
		}
		r.queue, r.queueAt = saved, at
		return chroma.Concaterator(parts...)
	}
	if it := r.emitIter(p, groups); it != nil {
		return it
	}
	return chroma.Literator()
}

// nested lexes text with lexer, panicking on error as chroma's emitters
// do; nil when the engine drives lexer and there is no text to lex (a
// nested lex, without EnsureNL, of no text emits nothing).
func (r *run) nested(lexer chroma.Lexer, options *chroma.TokeniseOptions, text string) chroma.Iterator {
	var it chroma.Iterator
	var err error
	if lexer == chroma.Lexer(r.t.lexer) {
		if text == "" && options != nil && options.Nested {
			return nil
		}
		it = r.t.tokenise(options, text)
	} else {
		driven := r.t.e.Lexer(lexer)
		if text == "" && options != nil && options.Nested && Driven(driven) {
			return nil
		}
		it, err = driven.Tokenise(options, text)
	}
	if err != nil {
		panic(err)
	}
	return it
}

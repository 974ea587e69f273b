package fastlex

import (
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/chroma/v2"
	"github.com/dlclark/regexp2/v2"
)

// run is one lex of one text: chroma's LexerState, and what chroma keeps
// in its unexported fields.
type run struct {
	t            *table
	l            *chroma.LexerState
	initial      string   // options.State: where an error at a newline returns to
	queue        []queued // what the last match emitted: chroma's iteratorStack
	queueAt      int
	scratch      []string // the groups of rules whose emitters are known (ruleInfo.known)
	newlineAdded bool
	m            matcher // for the rules the engine matches itself

	// text is l.Text as a string, and offsets (when it is not ASCII) the
	// byte offset of each rune and of the end: a group is a slice of text.
	runes   []rune
	text    string
	offsets []int32
}

// tokenise starts a lex of text, as chroma.RegexLexer.Tokenise does.
func (t *table) tokenise(options *chroma.TokeniseOptions, text string) chroma.Iterator {
	if options == nil {
		options = &chroma.TokeniseOptions{State: "root", EnsureLF: true} // chroma's defaultOptions
	}
	if options.EnsureLF && strings.IndexByte(text, '\r') >= 0 {
		text = ensureLF(text) // (a copy, in chroma, even when there is no \r)
	}
	newlineAdded := false
	if !options.Nested && t.lexer.Config().EnsureNL && !strings.HasSuffix(text, "\n") {
		text += "\n"
		newlineAdded = true
	}
	runes := []rune(text)
	if !utf8.ValidString(text) {
		text = string(runes) // chroma's tokens hold U+FFFD where text's bytes were not UTF-8
	}
	r := &run{
		t: t,
		l: &chroma.LexerState{
			Registry:       t.registry,
			Lexer:          t.lexer,
			Text:           runes,
			Stack:          []string{options.State},
			Rules:          t.rules,
			MutatorContext: map[any]any{},
		},
		initial:      options.State,
		newlineAdded: newlineAdded,
		runes:        runes,
		text:         text,
	}
	if len(runes) != len(text) {
		r.offsets = make([]int32, 0, len(runes)+1)
		for i := range text {
			r.offsets = append(r.offsets, int32(i))
		}
		r.offsets = append(r.offsets, int32(len(text)))
	}
	return r.next
}

// next is chroma's LexerState.Iterator, with matchRules replaced by match.
func (r *run) next() chroma.Token {
	l := r.l
	end := len(l.Text)
	if r.newlineAdded {
		end--
	}
	for l.Pos < end && len(l.Stack) > 0 {
		if t, ok := r.drain(); ok {
			return t
		}
		l.State = l.Stack[len(l.Stack)-1]
		selected, ok := l.Rules[l.State]
		if !ok {
			panic("unknown state " + l.State)
		}
		ri, index, groups, named := r.match(selected)
		if ri == nil {
			// No match: from Pygments, as chroma does. An error at a newline
			// empties the stack and goes on in the initial state.
			if l.Text[l.Pos] == '\n' && l.State != r.initial {
				l.Stack = []string{r.initial}
				continue
			}
			l.Pos++
			return chroma.Token{Type: chroma.Error, Value: r.slice(l.Pos-1, l.Pos)}
		}
		rule := ri.rule
		l.Rule = index
		l.Groups = groups
		l.NamedGroups = named
		l.Pos += utf8.RuneCountInString(groups[0])
		if rule.Mutator != nil {
			if err := rule.Mutator.Mutate(l); err != nil {
				panic(err)
			}
		}
		if rule.Type != nil {
			r.emit(ri.emit, l.Groups)
		}
	}
	if t, ok := r.drain(); ok {
		return t
	}
	// Text left with an empty stack is an error token.
	if l.Pos != len(l.Text) && len(l.Stack) == 0 {
		value := r.slice(l.Pos, len(l.Text))
		l.Pos = len(l.Text)
		return chroma.Token{Type: chroma.Error, Value: value}
	}
	return chroma.EOF
}

// queued is a token, or an iterator of tokens, a match emitted. chroma
// pushes one iterator a match (a Concaterator of ByGroups's) and drains
// it before the next match; the engine queues the same tokens, in the
// same order, without an iterator for each.
type queued struct {
	tok chroma.Token
	it  chroma.Iterator
}

// drain returns the next token of what the last match emitted, if any is
// left: as chroma drains its iterators, ignoring Ignore tokens, and
// taking an EOF from an iterator for its end.
func (r *run) drain() (chroma.Token, bool) {
	for r.queueAt < len(r.queue) {
		q := &r.queue[r.queueAt]
		if q.it == nil {
			r.queueAt++
			if q.tok.Type == chroma.Ignore || q.tok == chroma.EOF {
				continue
			}
			return q.tok, true
		}
		t := q.it()
		if t.Type == chroma.Ignore {
			continue
		}
		if t == chroma.EOF {
			r.queueAt++
			continue
		}
		return t, true
	}
	clear(r.queue)
	r.queue, r.queueAt = r.queue[:0], 0
	return chroma.EOF, false
}

// match is chroma's matchRules at l.Pos over the state's rules selected,
// trying only the rules that can match at the rune there: the rule that
// matched (nil when none did), its index in the state, its groups.
func (r *run) match(selected []*chroma.CompiledRule) (*ruleInfo, int, []string, map[string]string) {
	l := r.l
	st := r.t.states[l.State]
	if st == nil || len(st.rules) != len(selected) || len(selected) > 0 && &st.rules[0] != &selected[0] {
		return r.matchAll(selected) // a mutator changed the rules: try them all
	}
	c := l.Text[l.Pos]
	if c < 128 {
		for _, i := range st.ascii[st.at[c]:st.at[c+1]] {
			if groups, named, ok := r.try(st.info[i]); ok {
				return st.info[i], int(i), groups, named
			}
		}
		return nil, 0, nil, nil
	}
	for i, ri := range st.info {
		if !ri.mayStart(c) {
			continue
		}
		if groups, named, ok := r.try(ri); ok {
			return ri, i, groups, named
		}
	}
	return nil, 0, nil, nil
}

// matchAll tries every rule, as chroma does.
func (r *run) matchAll(selected []*chroma.CompiledRule) (*ruleInfo, int, []string, map[string]string) {
	for i, rule := range selected {
		ri := r.t.infos[rule]
		if ri == nil {
			ri = newRuleInfo(rule, false)
		}
		if groups, named, ok := r.try(ri); ok {
			return ri, i, groups, named
		}
	}
	return nil, 0, nil, nil
}

// try matches ri's rule at l.Pos: its groups in chroma's order (each the
// last capture of its group, "" when the group took no part), and the
// same by name when the rule's emitter or mutator may read them.
func (r *run) try(ri *ruleInfo) (groups []string, named map[string]string, ok bool) {
	l := r.l
	pos := l.Pos
	if !ri.pre.ok(l.Text, pos) {
		return nil, nil, false
	}
	if ri.nat != nil {
		matched, known := r.m.match(ri.nat, l.Text, pos)
		if known && !matched {
			return nil, nil, false
		}
		if known {
			groups = r.groups(ri)
			for s := range groups {
				if from := r.m.caps[2*s]; from >= 0 {
					groups[s] = r.slice(from, r.m.caps[2*s+1])
				}
			}
			return groups, r.named(ri, groups), true
		}
	}
	err := ri.rule.Regexp.FindRunesMatches(l.Text, pos, func(m regexp2.MatchView) bool {
		if at, _, found := m.GroupRange(0); !found || at != pos {
			return false
		}
		groups = r.groups(ri)
		for s, num := range ri.slots {
			if at, n, found := m.GroupRange(num); found {
				groups[s] = r.slice(at, at+n)
			}
		}
		return false
	})
	if err != nil || groups == nil {
		return nil, nil, false // a timeout is no match, as in chroma
	}
	return groups, r.named(ri, groups), true
}

// groups is where to put ri's groups: emitters and mutators other than
// chroma's own may keep the slice, and get a new one; chroma's own read
// what they need when they are called, and share one.
func (r *run) groups(ri *ruleInfo) []string {
	if !ri.known {
		return make([]string, len(ri.slots))
	}
	if cap(r.scratch) < len(ri.slots) {
		r.scratch = make([]string, len(ri.slots))
	}
	r.scratch = r.scratch[:len(ri.slots)]
	clear(r.scratch)
	return r.scratch
}

// named is groups by name, as chroma gives them in LexerState.NamedGroups,
// when the rule's emitter or mutator may read them (they are not chroma's
// own); else nil.
func (r *run) named(ri *ruleInfo, groups []string) map[string]string {
	if ri.known {
		return nil
	}
	named := make(map[string]string, len(groups))
	for s, g := range groups {
		named[ri.names[s]] = g
	}
	return named
}

// slice is l.Text[from:to] as a string: a slice of the text when l.Text
// is still the text the run started with.
func (r *run) slice(from, to int) string {
	l := r.l
	if len(l.Text) != len(r.runes) || len(l.Text) > 0 && &l.Text[0] != &r.runes[0] {
		return string(l.Text[from:to])
	}
	if r.offsets == nil {
		return r.text[from:to]
	}
	return r.text[r.offsets[from]:r.offsets[to]]
}

// ensureLF is chroma's: \r\n and \r become \n.
func ensureLF(text string) string {
	buf := make([]byte, len(text))
	var j int
	for i := range len(text) {
		c := text[i]
		if c == '\r' {
			if i < len(text)-1 && text[i+1] == '\n' {
				continue
			}
			c = '\n'
		}
		buf[j] = c
		j++
	}
	return string(buf[:j])
}

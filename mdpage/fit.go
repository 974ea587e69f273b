package mdpage

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"canopy/internal/text"
	"canopy/sessiontree"
)

// How Limit is met. The output is blocks: the header, then each entry's
// blocks, joined by blank lines; a run of entries left out is one note.
// Each block's length is known, so the length of the whole is a sum, and
// it can be computed for any choice of cuts without writing the output.
//
// The entries are ranked, most important first (see rank): the leaf, and
// the user prompt that began its turn, are always kept; then the path's
// first prompt (what the session was about); then the leaf's turn, back
// from the leaf; then each earlier turn, newest first, its prompt before
// the rest of it, which is ranked back from its end. What is kept is
// always the first entries of this ranking, so the end of the
// conversation stays whole the longest, a turn cut short keeps its
// prompt, and what is left out makes few runs, each one note saying how
// many entries, and how many prompts, it stands for.
//
// The cuts are chosen in this order, each step only when the ones before
// it were not enough:
//
//  1. Every entry is kept; its parts are cut, class by class: tool calls'
//     arguments and tool output, then thinking, down to nothing; then
//     texts (assistant text, summaries, extension messages) down to
//     keepFloor, then prompts down to keepFloor. The parts of a class are
//     cut to a common length, the largest that fits (a binary search), so
//     short parts stay whole and long ones keep their start; a cut part
//     ends with a note saying how much was cut. Then the classes cut get
//     back what room is left, the last cut first.
//  2. Entries are left out, the fewest of the ranking's last (a binary
//     search), with the parts of those kept cut to omitFloor; then each
//     class gets back what room is left, prompts first, then texts,
//     thinking and tool output.
//  3. When even the leaf and its prompt do not fit so, their parts are cut
//     further, tool output first and prompts last, down to nothing.
//
// The header lists what was cut; the room it takes is reserved for its
// longest form (every count at its largest), so the result fits whatever
// the header finally says. Everything depends only on the session and
// the options: the result is deterministic.
//
// Cost: an entry is built (read, its Markdown parsed) only when the
// fitter needs it: all of them when a cheap bound (a line with its id
// per entry) says they might all fit, else only as the ranking reaches
// them. A length is computed from the ranking's first entries on, and
// stops as soon as it is over the limit, so an entry's parts are drawn
// only when what ranks above it fits; a part remembers its length at the
// last cut asked. Each step of a search scans the path once for its runs
// left out (a bool per entry). Cut to 65,536 characters, a path of 91,000
// generated entries has 128 of them built, and is fitted in 15 ms.
type fitter struct {
	x      *exporter
	docs   []*entryDoc     // by index on the path; nil until built (see doc)
	built  int             // docs built
	prompt []bool          // by index: a user message (from the session's index, without reading the entry)
	caps   [numClasses]int // longest part kept, by class; -1: not cut
	order  []int           // docs by rank, most important first
	must   int             // the first must of order are always kept
	m      int             // the first m of order are kept
	kept   []bool          // by doc: in order[:m]

	limit  int
	header int // Length of the header reserved

	maxSize [numClasses]int // longest part, by class, of the docs built
	parts   [numClasses]int // parts, by class, of the docs built
	prompts int
}

// The shortest a class is cut to while every entry is kept (keepFloor),
// and once entries are left out (omitFloor): a prompt or a text cut to
// a few hundred characters to keep one more entry of tool calls helps no
// reader. Tool output and thinking can go entirely while every entry
// stays; once entries are left out, each kept one shows the start of its
// output (about 15 lines).
var (
	keepFloor = [numClasses]int{classTool: 0, classThinking: 0, classText: 1500, classPrompt: 3000}
	omitFloor = [numClasses]int{classTool: 1000, classThinking: 500, classText: 1500, classPrompt: 3000}
)

func (x *exporter) writeFitted(w io.Writer) error {
	f := x.newFitter()
	c, err := f.fit()
	if err != nil {
		return err
	}
	out := f.assemble(x.header(c))
	if n := Length(out); n > f.limit {
		// fit reserved room for the longest header: this cannot happen.
		return fmt.Errorf("markdown: the output has %d characters, over the limit of %d", n, f.limit)
	}
	if _, err := io.WriteString(w, out); err != nil {
		return fmt.Errorf("markdown: writing: %w", err)
	}
	return nil
}

// newFitter ranks the entries of the path. It builds none: see doc.
func (x *exporter) newFitter() *fitter {
	n := len(x.path)
	f := &fitter{x: x, limit: x.o.Limit, docs: make([]*entryDoc, n), prompt: make([]bool, n)}
	for i := range f.caps {
		f.caps[i] = -1
	}
	for i, e := range x.path {
		if e.Type == sessiontree.TypeMessage && e.Role == sessiontree.RoleUser {
			f.prompt[i] = true
			f.prompts++
		}
	}
	f.rank()
	return f
}

// doc is the entry at index i of the path, built the first time it is
// asked for. On a long path only the entries the fitter may keep are
// built: those ranked first, until they are over the limit.
func (f *fitter) doc(i int) *entryDoc {
	if d := f.docs[i]; d != nil {
		return d
	}
	d := f.x.entry(i)
	for _, b := range d.blocks {
		if b.p != nil {
			f.parts[b.p.class]++
			f.maxSize[b.p.class] = max(f.maxSize[b.p.class], b.p.size)
		} else {
			d.fixedLen += Length(b.text)
		}
	}
	f.docs[i] = d
	f.built++
	return d
}

// lowerBound is less than the length of any output that keeps every
// entry: each has a heading or a line with its id after " · ", as code,
// after a blank line. It needs no entry built.
func (f *fitter) lowerBound() int {
	n := f.header + 2
	for _, e := range f.x.path {
		n += 10 + min(utf8.RuneCountInString(e.ID), 200)
	}
	return n
}

// rank orders the docs, most important first, and sets what is always
// kept (see the comment at the top).
func (f *fitter) rank() {
	n := len(f.docs)
	f.kept = make([]bool, n)
	f.order = make([]int, 0, n)
	if n == 0 {
		return
	}
	added := make([]bool, n)
	add := func(i int) {
		if i >= 0 && !added[i] {
			added[i] = true
			f.order = append(f.order, i)
		}
	}
	prevPrompt := func(i int) int { // the last prompt before i, or -1
		for i--; i >= 0 && !f.prompt[i]; i-- {
		}
		return i
	}
	leaf := n - 1
	turn := leaf // the prompt that began the leaf's turn, or -1
	if !f.prompt[leaf] {
		turn = prevPrompt(leaf)
	}
	add(leaf)
	add(turn)
	f.must = len(f.order)
	for i, p := range f.prompt {
		if p {
			add(i)
			break
		}
	}
	// Turn by turn from the leaf's: its prompt, then the rest back from
	// its end. Entries before the first prompt are a turn without one.
	end := leaf
	for {
		add(turn)
		for i := end - 1; i > turn; i-- {
			add(i)
		}
		if turn < 0 {
			break
		}
		end, turn = turn, prevPrompt(turn)
	}
}

// keep keeps the first m docs of the ranking.
func (f *fitter) keep(m int) {
	f.m = m
	clear(f.kept)
	for _, i := range f.order[:m] {
		f.kept[i] = true
	}
}

// fit chooses the cuts and says what they are.
func (f *fitter) fit() (cuts, error) {
	f.keep(len(f.docs))
	f.header = Length(f.x.header(cuts{}))
	classes := []class{classTool, classThinking, classText, classPrompt}

	// 1. Every entry kept, parts cut. On a path too long for that, no
	// entry is built here.
	if f.lowerBound() <= f.limit {
		if f.fits() {
			return cuts{}, nil
		}
		for i := range f.docs {
			f.doc(i)
		}
		f.header = f.worstHeader(f.limit)
	}
	if f.built == len(f.docs) && f.fixedTotal() <= f.limit {
		for _, c := range classes {
			if f.parts[c] == 0 {
				continue
			}
			f.caps[c] = keepFloor[c]
			if f.fits() {
				f.refill()
				return f.cuts(), nil
			}
		}
	}

	// 2. Entries left out.
	f.header = f.worstHeader(f.limit)
	for _, c := range classes {
		f.caps[c] = omitFloor[c]
	}
	if f.keep(f.must); f.fits() {
		lo, hi := f.must, len(f.docs)+1 // lo fits, hi does not
		for hi-lo > 1 {
			mid := lo + (hi-lo)/2
			if f.keep(mid); f.fits() {
				lo = mid
			} else {
				hi = mid
			}
		}
		f.keep(lo)
		f.refill()
		return f.cuts(), nil
	}

	// 3. The leaf and its prompt, cut further.
	for _, i := range f.order[:f.must] {
		f.doc(i)
	}
	for _, c := range classes {
		if f.parts[c] == 0 {
			continue
		}
		f.caps[c] = 0
		if f.fits() {
			f.refill()
			return f.cuts(), nil
		}
	}
	return cuts{}, &LimitError{Limit: f.limit, Need: f.need()}
}

// need is the smallest limit that holds what is always kept, cut as far
// as it goes (every class at 0, entries but the leaf and its prompt left
// out): its length with the longest header for that limit.
func (f *fitter) need() int {
	n := f.total(-1)
	for {
		h := f.worstHeader(n)
		next := n - f.header + h
		f.header = h
		if next <= n {
			return n
		}
		n = next
	}
}

// worstHeader is the length of the header's longest form for a limit.
// Until every entry is built, the parts of a class are not counted; each
// part cut has a note of its own, so no more than limit can be cut.
func (f *fitter) worstHeader(limit int) int {
	n := len(f.docs)
	parts := f.parts
	if f.built < n {
		for c := range parts {
			parts[c] = max(parts[c], limit)
		}
	}
	return Length(f.x.header(cuts{
		limit:          limit,
		tool:           parts[classTool],
		thinking:       parts[classThinking],
		text:           parts[classText],
		prompts:        parts[classPrompt],
		entries:        n,
		gaps:           (n + 1) / 2,
		promptsLeftOut: f.prompts,
		promptsTotal:   f.prompts,
		entriesTotal:   n,
	}))
}

func (f *fitter) fits() bool { return f.total(f.limit) <= f.limit }

// fixedTotal is the length of the output with every entry kept and every
// part left out: less than any output that keeps them all.
func (f *fitter) fixedTotal() int {
	n := f.header + 2
	for _, d := range f.docs {
		n += d.fixedLen + 4*len(d.blocks)
	}
	return n
}

// total is the length of the output for the cuts chosen; once it is over
// stop (when stop >= 0), it may return any length over stop.
func (f *fitter) total(stop int) int {
	n := f.header + 2 // the header, and the line break at the end
	for _, i := range f.order[:f.m] {
		d := f.doc(i)
		n += d.fixedLen + 4*len(d.blocks) // each block after a blank line
		for _, b := range d.blocks {
			if b.p != nil {
				n += f.partLen(b.p)
			}
		}
		if stop >= 0 && n > stop {
			return n
		}
	}
	if f.m == len(f.docs) {
		return n
	}
	run, prompts := 0, 0
	for i, kept := range f.kept {
		if !kept {
			run++
			if f.prompt[i] {
				prompts++
			}
			continue
		}
		if run > 0 {
			n += 4 + Length(gapNote(run, prompts))
			run, prompts = 0, 0
		}
	}
	if run > 0 {
		n += 4 + Length(gapNote(run, prompts))
	}
	return n
}

// partLen is the length of a part with the cuts chosen. A part remembers
// its length at the last limit asked: a search over one class asks the
// others' parts again and again at the same limit.
func (f *fitter) partLen(p *part) int {
	limit := f.caps[p.class]
	if limit < 0 || p.size <= limit {
		f.x.drawFull(p)
		return p.fullLen
	}
	if p.memoSet && p.memoLimit == limit {
		return p.memoLen
	}
	p.memoLimit, p.memoLen, p.memoSet = limit, Length(f.x.draw(block{p: p}, limit)), true
	return p.memoLen
}

// raise gives class c's parts as much length as fits, from its present
// cut, which fits.
func (f *fitter) raise(c class) {
	if f.caps[c] < 0 || f.parts[c] == 0 {
		return
	}
	lo, hi := f.caps[c], f.maxSize[c]
	f.caps[c] = hi
	if f.fits() {
		f.caps[c] = -1
		return
	}
	// lo fits, hi does not.
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		f.caps[c] = mid
		if f.fits() {
			lo = mid
		} else {
			hi = mid
		}
	}
	f.caps[c] = lo
}

// refill gives the classes cut the room that is left: prompts first, then
// texts, thinking and tool output.
func (f *fitter) refill() {
	for _, c := range []class{classPrompt, classText, classThinking, classTool} {
		f.raise(c)
	}
}

// cuts says what the chosen cuts shorten and leave out.
func (f *fitter) cuts() cuts {
	c := cuts{limit: f.limit, promptsTotal: f.prompts, entriesTotal: len(f.docs)}
	run := 0
	for i, d := range f.docs {
		if !f.kept[i] {
			c.entries++
			if f.prompt[i] {
				c.promptsLeftOut++
			}
			if run == 0 {
				c.gaps++
			}
			run++
			continue
		}
		run = 0
		for _, b := range d.blocks {
			if p := b.p; p != nil && f.partLen(p) < p.fullLen {
				switch p.class {
				case classTool:
					c.tool++
				case classThinking:
					c.thinking++
				case classText:
					c.text++
				case classPrompt:
					c.prompts++
				}
			}
		}
	}
	return c
}

// assemble writes the output with the chosen cuts.
func (f *fitter) assemble(header string) string {
	var sb strings.Builder
	sb.WriteString(header)
	run, prompts := 0, 0
	for i, d := range f.docs {
		if !f.kept[i] {
			run++
			if f.prompt[i] {
				prompts++
			}
			continue
		}
		if run > 0 {
			sb.WriteString("\n\n" + gapNote(run, prompts))
			run, prompts = 0, 0
		}
		for _, b := range d.blocks {
			sb.WriteString("\n\n")
			if b.p == nil {
				sb.WriteString(b.text)
			} else {
				sb.WriteString(f.x.draw(b, f.caps[b.p.class]))
			}
		}
	}
	if run > 0 {
		sb.WriteString("\n\n" + gapNote(run, prompts))
	}
	sb.WriteString("\n")
	return sb.String()
}

// gapNote stands for a run of n entries left out, prompts of them user
// prompts.
func gapNote(n, prompts int) string {
	s := "*… " + text.Count(n, "entry", "entries") + " left out here to fit the length limit"
	switch {
	case prompts == 1 && n == 1:
		s += " (a user prompt)"
	case prompts > 0:
		s += " (" + text.Count(prompts, "user prompt", "user prompts") + " among them)"
	}
	return s + "; see the full session.*"
}

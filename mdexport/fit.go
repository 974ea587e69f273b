package mdexport

import (
	"fmt"
	"io"
	"strings"
)

// How Limit is met. The output is blocks: the header, then each entry's
// blocks, joined by blank lines. Each block's length is known, so the
// length of the whole is a sum, and it can be computed for any choice of
// cuts without writing the output. The cuts are chosen in this order,
// each step only when the ones before it were not enough:
//
//  1. Tool calls' arguments and tool output (class classTool), then
//     thinking, then long texts (assistant text, summaries, extension
//     messages): the parts of a class are cut to a common length, the
//     largest that fits (a binary search), so short parts stay whole and
//     long ones keep their start. A cut part ends with a note that says how
//     much was cut. A class cut to nothing leaves only its notes.
//  2. The oldest entries that are not user prompts are left out (the
//     leaf last), as few as fit; each run of them leaves a one-line note.
//     Then the classes of step 1 get back what room is left, texts first.
//  3. Only then user prompts are cut to a common length, and as a very
//     last resort the oldest are left out. The header says so.
//
// The header lists what was cut; the room it takes is reserved for its
// longest form (every class cut, every count at its largest), so the
// result fits whatever the header finally says. Everything depends only
// on the session and the options: the result is deterministic.
type fitter struct {
	x       *exporter
	docs    []*entryDoc
	caps    [numClasses]int // longest part kept, by class; -1: not cut
	omitted []bool          // by doc
	limit   int
	header  int // Length of the header reserved

	maxSize [numClasses]int // longest part, by class
	parts   [numClasses]int // parts, by class
	prompts int
}

func (x *exporter) writeFitted(w io.Writer) error {
	f := &fitter{x: x, limit: x.o.Limit, omitted: make([]bool, len(x.path))}
	for i := range f.caps {
		f.caps[i] = -1
	}
	for _, e := range x.path {
		d := x.entry(e)
		f.docs = append(f.docs, d)
		if d.prompt {
			f.prompts++
		}
		for _, b := range d.blocks {
			if b.p != nil {
				f.parts[b.p.class]++
				f.maxSize[b.p.class] = max(f.maxSize[b.p.class], b.p.size)
			}
		}
	}
	c, err := f.fit()
	if err != nil {
		return err
	}
	out := f.assemble(x.header(c))
	if n := Length(out); n > f.limit {
		// fit reserved room for the longest header: this cannot happen.
		return fmt.Errorf("mdexport: the output has %d characters, over the limit of %d", n, f.limit)
	}
	if _, err := io.WriteString(w, out); err != nil {
		return fmt.Errorf("mdexport: writing: %w", err)
	}
	return nil
}

// fit chooses the cuts and says what they are.
func (f *fitter) fit() (cuts, error) {
	f.header = Length(f.x.header(cuts{}))
	if f.fits() {
		return cuts{}, nil
	}
	f.header = Length(f.x.header(f.worst()))
	for c := classTool; c <= classText; c++ {
		if f.cutClass(c) {
			return f.cuts(), nil
		}
	}
	var others, prompts []int
	last := len(f.docs) - 1
	for i, d := range f.docs {
		if d.prompt {
			prompts = append(prompts, i)
		} else if i != last {
			others = append(others, i)
		}
	}
	if last >= 0 && !f.docs[last].prompt {
		others = append(others, last) // the leaf, last
	}
	if f.omit(others) {
		f.refill()
		return f.cuts(), nil
	}
	if f.cutClass(classPrompt) || f.omit(prompts) {
		return f.cuts(), nil
	}
	return cuts{}, fmt.Errorf("mdexport: %w: %d characters do not hold the header and a note of what was left out (%d)",
		ErrLimitTooSmall, f.limit, f.total())
}

func (f *fitter) fits() bool { return f.total() <= f.limit }

// total is the length of the output for the cuts chosen so far.
func (f *fitter) total() int {
	n, blocks, gap := f.header, 1, 0
	for i, d := range f.docs {
		if f.omitted[i] {
			gap++
			continue
		}
		if gap > 0 {
			n += Length(gapNote(gap))
			blocks++
			gap = 0
		}
		for _, b := range d.blocks {
			n += f.blockLen(b)
			blocks++
		}
	}
	if gap > 0 {
		n += Length(gapNote(gap))
		blocks++
	}
	return n + 4*(blocks-1) + 2 // "\n\n" between blocks, "\n" at the end
}

func (f *fitter) limitOf(b block) int {
	if b.p == nil {
		return -1
	}
	return f.caps[b.p.class]
}

// blockLen is the length of a block with the cuts chosen. A part
// remembers its length at the last limit asked: a search over one class
// asks the others' parts again and again at the same limit.
func (f *fitter) blockLen(b block) int {
	p, limit := b.p, f.limitOf(b)
	if p == nil {
		return Length(b.text)
	}
	if limit < 0 || p.size <= limit {
		f.x.draw(b, -1)
		return p.fullLen
	}
	if p.memoSet && p.memoLimit == limit {
		return p.memoLen
	}
	p.memoLimit, p.memoLen, p.memoSet = limit, Length(f.x.draw(b, limit)), true
	return p.memoLen
}

// cutClass cuts class c's parts to the largest common length that fits;
// false (with the class cut to nothing) when none does.
func (f *fitter) cutClass(c class) bool {
	if f.parts[c] == 0 {
		return false
	}
	f.caps[c] = 0
	if !f.fits() {
		return false
	}
	f.raise(c)
	return true
}

// raise gives class c's parts as much length as fits, from its present
// cut, which fits.
func (f *fitter) raise(c class) {
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

// omit leaves out the fewest entries of order, from its start, for the
// output to fit; false (with all of them left out) when even that is not
// enough.
func (f *fitter) omit(order []int) bool {
	set := func(k int) {
		for j, i := range order {
			f.omitted[i] = j < k
		}
	}
	set(len(order))
	if !f.fits() {
		return false
	}
	lo, hi := 0, len(order) // lo does not fit (else we would not be here), hi does
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		set(mid)
		if f.fits() {
			hi = mid
		} else {
			lo = mid
		}
	}
	set(hi)
	return true
}

// refill gives the parts cut in step 1 the room that leaving entries out
// made: texts first, then thinking, then tool output.
func (f *fitter) refill() {
	for _, c := range []class{classText, classThinking, classTool} {
		if f.caps[c] >= 0 {
			f.raise(c)
		}
	}
}

// cuts says what the chosen cuts shorten and leave out.
func (f *fitter) cuts() cuts {
	c := cuts{limit: f.limit, promptsTotal: f.prompts}
	for i, d := range f.docs {
		if f.omitted[i] {
			c.entries++
			if d.prompt {
				c.promptsLeftOut++
			}
			continue
		}
		for _, b := range d.blocks {
			if p := b.p; p != nil && f.blockLen(b) < p.fullLen {
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

// worst is the longest the header's account of the cuts can be: every
// count at its largest.
func (f *fitter) worst() cuts {
	return cuts{
		limit:          f.limit,
		tool:           f.parts[classTool],
		thinking:       f.parts[classThinking],
		text:           f.parts[classText],
		prompts:        f.parts[classPrompt],
		entries:        len(f.docs),
		promptsLeftOut: f.prompts,
		promptsTotal:   f.prompts,
	}
}

// assemble writes the output with the chosen cuts.
func (f *fitter) assemble(header string) string {
	var sb strings.Builder
	sb.WriteString(header)
	gap := 0
	for i, d := range f.docs {
		if f.omitted[i] {
			gap++
			continue
		}
		if gap > 0 {
			sb.WriteString("\n\n" + gapNote(gap))
			gap = 0
		}
		for _, b := range d.blocks {
			sb.WriteString("\n\n")
			sb.WriteString(f.x.draw(b, f.limitOf(b)))
		}
	}
	if gap > 0 {
		sb.WriteString("\n\n" + gapNote(gap))
	}
	sb.WriteString("\n")
	return sb.String()
}

// gapNote stands for a run of entries left out.
func gapNote(n int) string {
	return "*… " + plural(n, "entry", "entries") + " left out here to fit the length limit; see the full session.*"
}

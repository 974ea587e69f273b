// Package mdcost tells, before goldmark parses a text, whether parsing it
// would cost far more than its length: goldmark's parser is linear on
// ordinary Markdown but not on every text. Both the page (htmlpage) and the
// Markdown export (mdpage) show such a text plainly instead.
package mdcost

import (
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark/util"
)

// Bounds on the Markdown given to goldmark. Its parser is linear on
// ordinary text but not on every text: some shapes make it read the same
// bytes again and again, and cost the square of their length (measured on
// goldmark v1.8.7, 2-core Xeon: 256 KB of "[a](" took 30 s, of "*a_ " 61 s,
// of "a**b" then "c* " 117 s; 32 KB of table header cells with one-cell
// rows made 168 MB of HTML in 26 s). A text past these bounds is shown as
// plain preformatted text, with a note that says why.
const (
	// MaxBytes is the longest text laid out as Markdown. Agents'
	// and users' messages are a few KB, and rarely over 100 KB; goldmark
	// lays out ordinary Markdown at 2-50 MB/s, and the superlinear paths
	// that Cost does not count (link reference definitions, nested
	// lists) cost at most about half a second at this size.
	MaxBytes = 256 << 10

	// CostBase and CostPerByte bound Cost: a text
	// of n bytes whose estimated cost is over CostBase +
	// CostPerByte*n is shown plain. The cost is in about
	// nanoseconds of goldmark's time: 50 ms for any text, plus a
	// microsecond a byte (2 to 50 times what goldmark takes for ordinary
	// Markdown), so that a session of fifty 64 KB texts shaped to be slow
	// costs seconds, not the 28 s it did, while ordinary texts are far
	// under it (every text of testdata and ../shared: under 0.5% of it).
	CostBase    = 50_000_000
	CostPerByte = 1_000
)

// What each step that Cost counts costs goldmark, in about
// nanoseconds (measured on the texts of TestMarkdownCostModels, where each
// step dominates).
const (
	costDestByte  = 4    // a byte read for a link destination ("[a](" then no space)
	costDelimStep = 32   // an emphasis delimiter walked past, looking for an opener
	costLabelByte = 1    // a byte of a link text walked, looking for a link in it
	costLabelLine = 5    // a line walked back to find where a link text is
	costNestByte  = 1    // a byte of a line read again for a container opened on it
	costNestLine  = 4    // a container (quote, list item) checked for a line
	costTableCell = 2000 // a table cell, written even when the row has fewer
)

// TooCostly reports whether goldmark would spend more than the
// budget on src (Cost). sc is scratch space, reused.
func TooCostly(sc *Scratch, src string) bool {
	return sc.cost(src) > CostBase+CostPerByte*int64(len(src))
}

// Scratch is what Cost works with, kept from one text to the
// next (the renderer keeps one per worker): it allocated for every text given to goldmark.
type Scratch struct {
	opens, openAt []int32 // the "[" not yet closed: positions, lines
	em            emphasisCost
}

// Reusable reports whether sc is worth keeping for the next text: not
// the room a text of 100,000 "[" needed.
func (sc *Scratch) Reusable() bool {
	return cap(sc.opens) <= 1<<14 && cap(sc.em.list) <= 1<<12
}

// Cost is Scratch.cost with scratch space of its own.
func Cost(src string) int64 {
	var sc Scratch
	return sc.cost(src)
}

// cost estimates, in about nanoseconds, what goldmark spends on src along
// the paths of its parser whose cost is superlinear, and nothing else.
// Each estimate is an upper bound of what that path does: it counts every
// place where goldmark might take it (it does not know which brackets make
// a link, or which lines are code), and as far as goldmark might read from
// there; only emphasis that surely matches is counted as cheap
// (emphasisCost). Computed in one pass over src.
//
// The paths, in goldmark v1.8.7's parser:
//   - a link destination, after "](", is read to the first white space
//     or the end of the line (parseLinkDestination), for each "](";
//   - each emphasis delimiter (a run of "*", "_" or "~") that can close
//     walks back over every delimiter before it in its paragraph, looking
//     for an opener (ProcessDelimiters);
//   - each "]" that closes a "[" walks the nodes since it (containsLink)
//     and, unless it makes a link, the paragraph's lines back from its
//     last to the "]" (blockReader.Value);
//   - each container marker (">", "-", "1.") re-reads its line, and each
//     line is checked against every container open (a line of 60,000 "> "
//     or "- " then lazy lines);
//   - a table writes as many cells in every row as its header has.
//
// A paragraph is taken to run from a blank line to the next, or to a line
// that starts a list item or a heading (which always starts a new block):
// goldmark's paragraphs are never longer, so the estimate is never lower.
func (sc *Scratch) cost(src string) int64 {
	var total int64
	segStart, segLines := -1, 0
	depth := 0 // containers open, as far as lazy lines keep them
	afterBlank := false
	flush := func(end int) {
		if segStart >= 0 {
			total += sc.segmentCost(src[segStart:end], segLines)
			segStart, segLines = -1, 0
		}
	}
	for pos := 0; pos < len(src); {
		end := strings.IndexByte(src[pos:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += pos
		}
		line := src[pos:end]
		if strings.TrimLeft(line, " \t\r") == "" {
			flush(pos)
			afterBlank = true
			pos = end + 1
			continue
		}
		k := containerMarkers(line)
		switch {
		case k > 0:
			depth = k
		case afterBlank && indentWidth(line) < 2:
			depth = 0 // an unindented line after a blank one closes them all
		}
		afterBlank = false
		total += costNestByte*int64(k)*int64(len(line)) + costNestLine*int64(depth)
		if startsBlock(line) {
			flush(pos)
		}
		if segStart < 0 {
			segStart = pos
		}
		segLines++
		pos = end + 1
	}
	flush(len(src))
	return total
}

// segmentCost is Cost's estimate for the inline paths of one
// paragraph (seg, of lines lines): link destinations, emphasis, link texts
// and tables.
func (sc *Scratch) segmentCost(seg string, lines int) int64 {
	var total int64
	var d dests
	opens, openAt := sc.opens[:0], sc.openAt[:0]
	em := &sc.em
	em.list, em.openable = em.list[:0], [3]int{}
	defer func() { sc.opens, sc.openAt = opens[:0], openAt[:0] }()
	sawDest := false  // a "](" was seen: a link title may follow
	line := int32(0)  // the line of seg at i
	delimRow := false // a table's delimiter row was seen: the lines after are its rows
	for i := 0; i < len(seg); i++ {
		c := seg[i]
		if !costBytes[c] && (d.wsCount == 0 || !spaceBytes[c]) {
			continue // most bytes: nothing to count
		}
		switch {
		case c == '\n':
			total += d.endWS(i) + d.endAngle(i)
			line++
			var rows int64
			rows, delimRow = tableCost(nextLine(seg, i+1), line, int32(lines), delimRow)
			total += rows
		case spaceBytes[c]:
			total += d.endWS(i)
		case c == '>':
			total += d.endAngle(i)
		case c == '[':
			opens = append(opens, int32(i))
			openAt = append(openAt, line)
		case c == ']':
			if n := len(opens); n > 0 {
				total += costLabelByte*int64(i-int(opens[n-1])) + costLabelLine*int64(int32(lines)-openAt[n-1])
				opens, openAt = opens[:n-1], openAt[:n-1]
			}
			if i+1 < len(seg) && seg[i+1] == '(' {
				sawDest = true
				var cost int64
				cost, i = d.open(seg, i)
				total += cost
			}
		case c == '*' || c == '_' || c == '~':
			j := i
			for j < len(seg) && seg[j] == c {
				j++
			}
			if c != '~' || j-i <= 2 { // longer runs of "~" are text
				total += em.run(seg, i, j, sawDest)
			}
			i = j - 1
		}
	}
	return total + d.endWS(len(seg)) + d.endAngle(len(seg))
}

// dests are the link destinations of a paragraph not yet ended: each
// "](" is read to the next white space (or ">" after "](<"), or the
// line's end. Pending ones are summed when that comes: count*at - sum of
// their starts.
type dests struct {
	wsCount, wsSum, angleCount, angleSum int64
}

// endWS ends the pending destinations read to white space, at at, and
// returns their cost.
func (d *dests) endWS(at int) int64 {
	c := costDestByte * (d.wsCount*int64(at) - d.wsSum)
	d.wsCount, d.wsSum = 0, 0
	return c
}

// endAngle ends the pending destinations read to ">", at at, and returns
// their cost.
func (d *dests) endAngle(at int) int64 {
	c := costDestByte * (d.angleCount*int64(at) - d.angleSum)
	d.angleCount, d.angleSum = 0, 0
	return c
}

// open starts the destination of the "](" at seg[i]: it returns the cost
// of the destinations the spaces after it end, and the index of the last
// of those spaces (where the scan goes on).
func (d *dests) open(seg string, i int) (cost int64, last int) {
	j := i + 2
	for j < len(seg) && (seg[j] == ' ' || seg[j] == '\t') {
		j++
	}
	if j > i+2 {
		cost = d.endWS(i + 2) // the destinations before end there
	}
	// This one is read from j, after the spaces.
	if j < len(seg) && seg[j] == '<' {
		d.angleCount++
		d.angleSum += int64(j)
	} else {
		d.wsCount++
		d.wsSum += int64(j)
	}
	return cost, j - 1
}

// tableCost is the cost of a table's cells when next, the line after the
// line-th of a paragraph of lines lines, is a table's delimiter row, and
// whether the lines after next are a table's rows (delimRow: they were
// before next).
func tableCost(next string, line, lines int32, delimRow bool) (int64, bool) {
	if !delimRow {
		if cols := tableDelimCells(next); cols > 0 {
			// Every row from the header on has cols cells.
			return costTableCell * int64(cols) * int64(lines-line+1), true
		}
		return 0, false
	}
	if t := strings.TrimLeft(next, " \t"); t != "" && strings.IndexByte(">`~<*_-", t[0]) >= 0 {
		// What may end the table's paragraph: a quote, a fence, an
		// HTML block, a thematic break. Another table may follow.
		return 0, false
	}
	return 0, true
}

// costBytes are the bytes segmentCost looks at; spaceBytes end link
// destinations (it looks at them only while one is pending).
var costBytes, spaceBytes = func() (cost, space [256]bool) {
	for _, c := range []byte("\n>[]*_~") {
		cost[c] = true
	}
	for _, c := range []byte(" \t\r\f\v") {
		space[c] = true
	}
	return cost, space
}()

// emphasisCost follows goldmark's list of emphasis delimiters through a
// paragraph (ProcessDelimiters) to count the steps its closers take. Each
// closer walks back through the list for an opener of its character, and
// walks all of it when there is none: a paragraph of 60,000 "*a_ " walks
// 60,000 × 60,000 delimiters. The list kept here holds every delimiter
// goldmark's may hold (and maybe more: runs in code spans, links, URLs,
// which goldmark does not take for delimiters); a closer is counted as a
// walk of all of it, unless it surely finds its opener near the top
// (matchNear), as the closers of ordinary emphasis do.
type emphasisCost struct {
	list     []delimRun
	openable [3]int // how many in list can open, by character (runIndex)
}

// delimRun is a run of "*", "_" or "~" at seg[at:end] (n of them left),
// whether it can open and close emphasis, and whether it is intact: it
// surely matched nothing (it only opens, or it closes and there was no
// opener of its character when it came).
type delimRun struct {
	at, end, n          int
	open, close, intact bool
}

// maxNear is how far below the top of the list matchNear looks.
const maxNear = 8

func runIndex(c byte) int { return strings.IndexByte("*_~", c) }

// run takes the run seg[i:j] and returns the cost of goldmark's steps for
// it, in nanoseconds.
func (em *emphasisCost) run(seg string, i, j int, sawDest bool) int64 {
	r := delimRun{at: i, end: j, n: j - i}
	r.open, r.close = flanking(seg, i, j)
	c := runIndex(seg[i])
	if !r.close {
		r.intact = true
		em.push(r, c)
		return 0
	}
	if k := em.matchNear(seg, r, sawDest); k >= 0 {
		// Found after walking the runs above it, which goldmark then
		// drops, as it drops the opener when r uses it up.
		steps := int64(len(em.list) - k)
		for _, d := range em.list[k+1:] {
			em.drop(seg, d)
		}
		em.list = em.list[:k+1]
		if o := &em.list[k]; o.n == r.n {
			em.drop(seg, *o)
			em.list = em.list[:k]
		} else {
			o.n -= r.n
		}
		return costDelimStep * (steps + 1) // one more turn when it takes two
	}
	cost := costDelimStep * int64(len(em.list))
	if em.openable[c] == 0 {
		// No opener of its character anywhere: it matches nothing, and
		// goldmark drops it unless it can open.
		r.intact = true
		if !r.open {
			return cost
		}
	}
	em.push(r, c)
	return cost
}

func (em *emphasisCost) push(r delimRun, c int) {
	em.list = append(em.list, r)
	if r.open {
		em.openable[c]++
	}
}

func (em *emphasisCost) drop(seg string, d delimRun) {
	if d.open {
		em.openable[runIndex(seg[d.at])]--
	}
}

// matchNear is the index in the list of the opener that goldmark surely
// matches the closer r with, or -1 when that is not sure. Sure: within
// maxNear of the top; the first run of r's character from the top, and
// one that can open with it (the rule of three) and that r uses up or
// not (r is no longer); it and every run above it intact, so that the
// list above it is goldmark's; and it surely one of goldmark's
// delimiters where r is one: not in a code span, a link destination or
// title, a URL, an HTML tag, a block of code or another paragraph than
// r: plainWordBefore it, and nothing between them that could end such a
// thing.
func (em *emphasisCost) matchNear(seg string, r delimRun, sawDest bool) int {
	for k := len(em.list) - 1; k >= 0 && k >= len(em.list)-maxNear; k-- {
		o := em.list[k]
		if !o.intact {
			return -1
		}
		if seg[o.at] != seg[r.at] {
			continue
		}
		if !o.open || r.n > o.n || (o.close || r.open) && (o.end-o.at+r.end-r.at)%3 == 0 && (r.end-r.at)%3 != 0 {
			return -1
		}
		between := seg[o.end:r.at]
		if strings.ContainsAny(between, "`<>\\[]\n") || strings.Contains(between, "~~~") ||
			sawDest && strings.ContainsAny(between, "\"')") {
			return -1
		}
		if !plainWordBefore(seg, o.at) {
			return -1
		}
		return k
	}
	return -1
}

// plainWordBefore reports whether the word before seg[k] (back to white
// space, a table's "|" or seg's start, and at most 64 bytes) holds nothing
// that could start a URL, an address, a link or a tag around seg[k]: no
// ":@.<>`\[]()\"'/", but for one of "([\"'" that starts the word.
func plainWordBefore(seg string, k int) bool {
	for m := k - 1; m >= 0; m-- {
		c := seg[m]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '|':
			return true
		case m < k-64:
			return false
		case strings.IndexByte(":@.<>`\\[]()\"'/", c) >= 0:
			return m == k-1 && strings.IndexByte("([\"'", c) >= 0 && plainWordBefore(seg, m)
		}
	}
	return true
}

// flanking reports whether the delimiter run seg[i:j] can open and close
// emphasis, by the rules of goldmark's ScanDelimiter.
func flanking(seg string, i, j int) (open, close bool) {
	before, after := '\n', ' '
	if i > 0 {
		before, _ = utf8.DecodeLastRuneInString(seg[:i])
	}
	if j < len(seg) {
		after, _ = utf8.DecodeRuneInString(seg[j:])
	}
	beforePunct, beforeSpace := util.IsPunctRune(before), util.IsSpaceRune(before)
	afterPunct, afterSpace := util.IsPunctRune(after), util.IsSpaceRune(after)
	left := !afterSpace && (!afterPunct || beforeSpace || beforePunct)
	right := !beforeSpace && (!beforePunct || afterSpace || afterPunct)
	if seg[i] == '_' {
		return left && (!right || beforePunct), right && (!left || afterPunct)
	}
	return left, right
}

// nextLine is the line of s that starts at i, without its "\n".
func nextLine(s string, i int) string {
	s = s[i:]
	if k := strings.IndexByte(s, '\n'); k >= 0 {
		return s[:k]
	}
	return s
}

// tableDelimCells is the number of cells of line when it could be a
// table's delimiter row ("| --- | :-: |", as goldmark's isTableDelim
// reads one), else 0.
func tableDelimCells(line string) int {
	if indentWidth(line) > 3 || strings.Trim(line, "-") == "" {
		return 0
	}
	for k := 0; k < len(line); k++ {
		switch line[k] {
		case ' ', '\t', '\r', '\f', '\v', '-', '|', ':':
		default:
			return 0
		}
	}
	cols := strings.Split(strings.TrimSpace(line), "|")
	n := len(cols)
	if n > 0 && strings.TrimSpace(cols[0]) == "" {
		n--
	}
	if n > 0 && len(cols) > 1 && strings.TrimSpace(cols[len(cols)-1]) == "" {
		n--
	}
	return n
}

// indentWidth is the width of line's leading spaces and tabs (a tab to the
// next multiple of 4, as goldmark counts).
func indentWidth(line string) int {
	w := 0
	for k := 0; k < len(line); k++ {
		switch line[k] {
		case ' ':
			w++
		case '\t':
			w += 4 - w%4
		default:
			return w
		}
	}
	return w
}

// containerMarkers counts the block quote and list item markers that
// start line ("> - > 1. text" has four), each after any white space.
func containerMarkers(line string) int {
	k := 0
	for i := 0; i < len(line); {
		switch c := line[i]; {
		case c == ' ' || c == '\t':
			i++
		case c == '>':
			k++
			i++
		case c == '-' || c == '+' || c == '*':
			if i+1 < len(line) && (line[i+1] == ' ' || line[i+1] == '\t') {
				k++
				i += 2
				continue
			}
			return k
		case c >= '0' && c <= '9':
			j := i
			for j < len(line) && j-i < 9 && line[j] >= '0' && line[j] <= '9' {
				j++
			}
			if j+1 < len(line) && (line[j] == '.' || line[j] == ')') && (line[j+1] == ' ' || line[j+1] == '\t') {
				k++
				i = j + 2
				continue
			}
			return k
		default:
			return k
		}
	}
	return k
}

// startsBlock reports whether line always starts a block of its own, ending
// the paragraph before it: a list item with text ("- x", "1. x"; other
// numbers may continue a paragraph) or a heading ("# x"), indented by
// three spaces at most.
func startsBlock(line string) bool {
	if indentWidth(line) > 3 {
		return false
	}
	s := strings.TrimLeft(line, " \t")
	hasText := func(rest string) bool {
		return (strings.HasPrefix(rest, " ") || strings.HasPrefix(rest, "\t")) && strings.TrimSpace(rest) != ""
	}
	switch {
	case s == "":
		return false
	case s[0] == '-' || s[0] == '+' || s[0] == '*':
		return hasText(s[1:])
	case strings.HasPrefix(s, "1.") || strings.HasPrefix(s, "1)"):
		return hasText(s[2:])
	case s[0] == '#':
		n := len(s) - len(strings.TrimLeft(s, "#"))
		return n <= 6 && (n == len(s) || s[n] == ' ' || s[n] == '\t')
	}
	return false
}

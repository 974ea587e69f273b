package htmlpage

import "strings"

// Chroma's lexers are regular expressions tried at each place in turn. A
// rule for a comment or a string opens at a delimiter and reads ahead for
// its closer; where there is none, it fails at the end of the text (or the
// line), and the next opener a few bytes on reads the same text again.
// Text made of openers without closers ("/*a/*a…" as Go: 1 s for 8 KB,
// 65 s for 64 KB; "//a…" on one JSON line; "r#\"" in Rust) costs the
// square of its length, within the size bounds of highlight.go.
//
// lexCostTooHigh tells such text in one pass over it, before any lexer
// runs, by the work those rules would do: for each opener, the bytes up to
// its closer, or to the end when it has none. In code, the spans from an
// opener to its closer hardly overlap (a string ends before the next one
// starts), so each delimiter's sum stays under the text's length; it is
// the square of it only where openers pile up on one missing closer.

// lexDelim is a delimiter of a comment or a string and its closer.
type lexDelim struct {
	open, close string
	escaped     bool // a closer after a backslash does not close
}

// lexDelims are the delimiters whose rules read ahead in chroma's lexers
// for the languages sessions show (C-like comments and strings, shell and
// Python quotes, HTML and XML comments, Rust raw strings).
var lexDelims = [...]lexDelim{
	{"/*", "*/", false},
	{"<!--", "-->", false},
	{"//", "\n", false},
	{`r#"`, `"#`, false},
	{`"""`, `"""`, false},
	{"'''", "'''", false},
	{"`", "`", true},
	{`"`, `"`, true},
	{"'", "'", true},
}

// lexCostSlack is the reading each delimiter may cost beyond the text's
// length times lexCostFactor: room for the odd long overlap (a URL's "//"
// inside a "//" comment) in a small text.
const (
	lexCostFactor = 4
	lexCostSlack  = 64 << 10
)

// lexCostTooHigh reports whether highlighting src would read far more
// than src: past lexCostFactor times its length, plus lexCostSlack, for
// any one delimiter. On the texts of testdata and ../shared no delimiter
// came near: every page is as it was.
func lexCostTooHigh(src string) bool {
	budget := lexCostFactor*len(src) + lexCostSlack
	for i := range lexDelims {
		if lexCost(src, &lexDelims[i], budget) > budget {
			return true
		}
	}
	return false
}

// lexCost sums, over d's openers in src, the distance from each to the
// first closer after it (to the end of src when there is none), stopping
// once past budget. Openers and closers are each found once, left to
// right: linear in src.
func lexCost(src string, d *lexDelim, budget int) int {
	cost := 0
	closeAt := -1 // the first closer at or after the current opener's end
	for from := 0; ; {
		i := strings.Index(src[from:], d.open)
		if i < 0 {
			return cost
		}
		open := from + i
		end := open + len(d.open)
		if closeAt < end {
			closeAt = nextCloser(src, d, end)
		}
		if closeAt < 0 {
			closeAt = len(src) // none: every later opener reads to the end
		}
		cost += closeAt - open
		if cost > budget {
			return cost
		}
		from = open + 1
	}
}

// nextCloser is the index of d's first closer in src at or after from,
// or -1.
func nextCloser(src string, d *lexDelim, from int) int {
	for from <= len(src) {
		i := strings.Index(src[from:], d.close)
		if i < 0 {
			return -1
		}
		at := from + i
		if !d.escaped || at == 0 || src[at-1] != '\\' {
			return at
		}
		from = at + 1
	}
	return -1
}

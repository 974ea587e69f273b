package htmlpage

import (
	"html/template"
	"strings"
)

// diffFromDetails draws the diff an edit result carries in details.diff:
// lines of "+", "-" or " ", then a line number, then the text.
func diffFromDetails(diff string) template.HTML {
	diff = strings.TrimRight(diff, "\n")
	var b strings.Builder
	// The table's size, about: each line's text and its row's markup.
	// Grown from nothing, the builder allocated twice as much.
	b.Grow(len(diff) + 40*(strings.Count(diff, "\n")+1) + 32)
	b.WriteString(`<table class="diff">`)
	for left, more := diff, true; more; {
		var line string
		line, left, more = strings.Cut(left, "\n")
		kind, rest := "ctx", line
		if line != "" {
			switch line[0] {
			case '+':
				kind, rest = "add", line[1:]
			case '-':
				kind, rest = "del", line[1:]
			case ' ':
				rest = line[1:]
			}
		}
		num, text := rest, ""
		if i := strings.IndexByte(rest, ' '); i >= 0 {
			num, text = rest[:i], rest[i+1:]
		}
		if strings.Trim(num, "0123456789") != "" {
			// Not "number text": show the whole line (e.g. "..." markers).
			num, text = "", rest
		}
		diffRow(&b, kind, num, text)
	}
	b.WriteString(`</table>`)
	return template.HTML(b.String())
}

func diffRow(b *strings.Builder, kind, num, text string) {
	// Context rows and cells have no class: the stylesheet tells the
	// cells apart by their place (a diff row is ~40 bytes smaller).
	switch kind {
	case "add":
		b.WriteString(`<tr class="d-add"><td>`)
	case "del":
		b.WriteString(`<tr class="d-del"><td>`)
	default:
		b.WriteString(`<tr><td>`)
	}
	textEscaper.WriteString(b, num)
	switch kind {
	case "add":
		b.WriteString(`</td><td>+</td><td>`)
	case "del":
		b.WriteString(`</td><td>-</td><td>`)
	case "ctx":
		b.WriteString(`</td><td> </td><td>`)
	default:
		b.WriteString(`</td><td></td><td>`)
	}
	textEscaper.WriteString(b, text)
	b.WriteString("</td></tr>")
}

// maxDiffCells bounds the line-diff table (old lines × new lines) so that
// a huge edit cannot stall the export; beyond it, old and new are shown
// whole, one after the other.
const maxDiffCells = 4_000_000

// diffFromTexts draws a line diff of an edit's old and new text (longest
// common subsequence of lines).
func diffFromTexts(oldText, newText string) template.HTML {
	if oldText == "" && newText == "" {
		return ""
	}
	a := strings.Split(oldText, "\n")
	bl := strings.Split(newText, "\n")
	var b strings.Builder
	b.WriteString(`<table class="diff">`)
	if len(a)*len(bl) > maxDiffCells {
		for _, l := range a {
			diffRow(&b, "del", "", l)
		}
		for _, l := range bl {
			diffRow(&b, "add", "", l)
		}
	} else {
		// Lines as numbers, equal for equal lines: the table compares each
		// line with every other, and comparing strings cost their common
		// prefix each time (lines of 1 KB that differ at the end made 4M
		// cells 4 GB of comparisons).
		ia, ib := internLines(a, bl)
		// lcs[i][j]: length of the LCS of a[i:] and bl[j:].
		w := len(bl) + 1
		lcs := make([]int32, (len(a)+1)*w)
		for i := len(a) - 1; i >= 0; i-- {
			for j := len(bl) - 1; j >= 0; j-- {
				if ia[i] == ib[j] {
					lcs[i*w+j] = lcs[(i+1)*w+j+1] + 1
				} else {
					lcs[i*w+j] = max(lcs[(i+1)*w+j], lcs[i*w+j+1])
				}
			}
		}
		i, j := 0, 0
		for i < len(a) || j < len(bl) {
			switch {
			case i < len(a) && j < len(bl) && ia[i] == ib[j]:
				diffRow(&b, "ctx", "", a[i])
				i, j = i+1, j+1
			case j < len(bl) && (i == len(a) || lcs[i*w+j+1] >= lcs[(i+1)*w+j]):
				diffRow(&b, "add", "", bl[j])
				j++
			default:
				diffRow(&b, "del", "", a[i])
				i++
			}
		}
	}
	b.WriteString(`</table>`)
	return template.HTML(b.String())
}

// internLines numbers the lines of a and b: equal lines, equal numbers.
func internLines(a, b []string) (ia, ib []int32) {
	ids := make(map[string]int32, len(a)+len(b))
	number := func(lines []string) []int32 {
		out := make([]int32, len(lines))
		for k, l := range lines {
			id, ok := ids[l]
			if !ok {
				id = int32(len(ids))
				ids[l] = id
			}
			out[k] = id
		}
		return out
	}
	return number(a), number(b)
}

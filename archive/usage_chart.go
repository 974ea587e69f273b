package archive

import (
	"html"
	"html/template"
	"strconv"
	"strings"

	"canopy/internal/text"
	"canopy/usage"
)

// The usage charts: a row of two bars for each day, project, agent or
// model, cost above (its figure beside it) and tokens below (their count
// beside them), drawn as SVG when the archive is made, so that they need
// no script. Every bar's figure is written beside it, with its unit: no
// meaning rests on colour alone. The SVG is an image with a title and a
// description; the table under it holds every figure for every reader.
const (
	chartWidth  = 820
	chartLabel  = 210 // the label column, in px of the viewBox
	chartBar    = 380 // the longest bar
	chartRow    = 34  // a row's height
	chartTop    = 6
	labelRunes  = 30 // a longer label is clipped (its title holds it whole)
	chartMaxDay = 90 // days drawn: the last ones (the table lists all)
	chartMaxRow = 25 // other rows drawn: the costliest
)

// drawChart draws the report's rows (the last chartMaxDay days, or the
// chartMaxRow costliest others) and says what it shows.
func drawChart(rep *usage.Report) (template.HTML, string) {
	rows := rep.Rows
	what := map[usage.By]string{usage.ByDay: "day", usage.ByProject: "project", usage.ByAgent: "agent", usage.ByModel: "model"}[rep.By]
	caption := "Cost (upper bar, ≈ when estimated, — when no price is known) and tokens (lower bar) per " + what + "."
	switch {
	case rep.By == usage.ByDay && len(rows) > chartMaxDay:
		rows = rows[len(rows)-chartMaxDay:]
		caption += " The last " + strconv.Itoa(chartMaxDay) + " days drawn; the table lists all " + strconv.Itoa(len(rep.Rows)) + "."
	case rep.By != usage.ByDay && len(rows) > chartMaxRow:
		rows = rows[:chartMaxRow]
		caption += " The " + strconv.Itoa(chartMaxRow) + " costliest drawn; the table lists all " + strconv.Itoa(len(rep.Rows)) + "."
	}
	if len(rows) == 0 {
		return "", "Nothing was spent."
	}
	var maxCost, maxTokens float64
	for i := range rows {
		if c := rows[i].Cost; c != nil {
			maxCost = max(maxCost, *c)
		}
		maxTokens = max(maxTokens, rows[i].Tokens)
	}
	id := "chart-" + string(rep.By)
	height := chartTop*2 + len(rows)*chartRow
	var b strings.Builder
	b.WriteString(`<svg class="chart" role="img" aria-labelledby="` + id + `-t ` + id + `-d" viewBox="0 0 ` + strconv.Itoa(chartWidth) + ` ` + strconv.Itoa(height) +
		`" width="` + strconv.Itoa(chartWidth) + `" height="` + strconv.Itoa(height) + `">`)
	b.WriteString(`<title id="` + id + `-t">Cost and tokens per ` + what + `</title>`)
	b.WriteString(`<desc id="` + id + `-d">` + html.EscapeString(caption) + ` The table below gives every figure.</desc>`)
	for i := range rows {
		drawRow(&b, &rows[i], text.Or(rows[i].Key, rep.By.None()), chartTop+i*chartRow, maxCost, maxTokens)
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String()), caption
}

// drawRow draws one row's label and bars at y.
func drawRow(b *strings.Builder, r *usage.Row, label string, y int, maxCost, maxTokens float64) {
	tokens := text.Thousands(r.Tokens) + " tokens"
	b.WriteString(`<g><title>` + html.EscapeString(label+": "+r.CostText()+", "+tokens) + `</title>`)
	b.WriteString(`<text x="0" y="` + strconv.Itoa(y+17) + `">` + html.EscapeString(text.Clip(label, labelRunes)) + `</text>`)
	x := chartLabel
	if r.Cost != nil && maxCost > 0 {
		w := barWidth(*r.Cost, maxCost)
		b.WriteString(`<rect class="cost" x="` + strconv.Itoa(chartLabel) + `" y="` + strconv.Itoa(y+5) + `" width="` + px(w) + `" height="12"/>`)
		x += int(w) + 6
	}
	b.WriteString(`<text class="v" x="` + strconv.Itoa(x) + `" y="` + strconv.Itoa(y+15) + `">` + html.EscapeString(r.CostText()) + `</text>`)
	x = chartLabel
	if maxTokens > 0 {
		w := barWidth(r.Tokens, maxTokens)
		b.WriteString(`<rect class="tokens" x="` + strconv.Itoa(chartLabel) + `" y="` + strconv.Itoa(y+20) + `" width="` + px(w) + `" height="8"/>`)
		x += int(w) + 6
	}
	b.WriteString(`<text class="v" x="` + strconv.Itoa(x) + `" y="` + strconv.Itoa(y+29) + `">` + html.EscapeString(tokens) + `</text></g>`)
}

// barWidth is a bar's length for v of most: at least a pixel for
// anything above zero.
func barWidth(v, most float64) float64 {
	if v > 0 {
		return max(1, v/most*chartBar)
	}
	return 0
}

// px writes a length to one decimal place: the same bytes on every machine.
func px(f float64) string { return strconv.FormatFloat(f, 'f', 1, 64) }

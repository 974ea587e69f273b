package htmlpage

import (
	"bytes"
	"html/template"
)

// writeEntry writes one entry's markup: exactly the bytes the "entry"
// template (templates/entry.html, minified in New) writes for v, escaping
// included, which TestEntryWriterMatchesTemplate checks on every fixture
// and on hostile text.
//
// Why not execute the template: text/template evaluates every field and
// every escaper through reflection, 25-45 times this writer's time on the
// same views (BenchmarkRenderTwins). Measured (canopy export, CPU time,
// medians of 5-21 runs, against the same binary executing "entry"): it
// saves 6-8% of the export of the corpus sessions, 3.5% of code-10MB, 30%
// of gen-10k and 44-48% of gen-100k. The template stays the reference for
// the markup, and html/template still writes the rest of the page. (It
// stays in htmlpage, not internal/fastpath: it writes htmlpage's entryView.)
//
// Every string of the view is written with htmlEscape, the escaping
// html/template applies in text and in quoted attributes alike; only
// template.HTML values (goldmark's and chroma's output, our own markup)
// are written as they are, as the template would.
func writeEntry(w *bytes.Buffer, v *entryView) {
	w.WriteString(`<article class="entry k-`)
	htmlEscape(w, v.Kind)
	if v.Silent {
		w.WriteString(` silent`)
	}
	w.WriteString(`" id="entry-`)
	htmlEscape(w, v.ID)
	w.WriteString(`"><header><b>`)
	htmlEscape(w, v.Heading)
	w.WriteString(`</b>`)
	if v.Label != "" {
		w.WriteString(` <span class="label">`)
		htmlEscape(w, v.Label)
		w.WriteString(`</span>`)
	}
	w.WriteString(` <time>`)
	htmlEscape(w, v.Time)
	w.WriteString(`</time></header>`)
	for i := range v.Parts {
		writePart(w, &v.Parts[i])
	}
	w.WriteByte('\n')
	for _, n := range v.Notes {
		w.WriteString(`<p class="note note-`)
		htmlEscape(w, n.Kind)
		w.WriteString(`">`)
		htmlEscape(w, n.Text)
		w.WriteString(`</p>`)
	}
	if v.Meta != "" {
		w.WriteString(`<footer class="meta">`)
		htmlEscape(w, v.Meta)
		w.WriteString(`</footer>`)
	}
	if r := v.Records; r != nil {
		w.WriteString(`<details class="records"><summary>`)
		htmlEscape(w, r.Summary)
		w.WriteString(`</summary>`)
		for _, e := range r.Entries {
			writeEntry(w, e)
		}
		w.WriteString(`</details>`)
	}
	w.WriteString(`</article>`)
}

// writePart writes the "part" template: each set field in the template's
// order (one is set).
func writePart(w *bytes.Buffer, p *part) {
	if p.Anchor != "" {
		w.WriteString(`<span class="anchor" id="entry-`)
		htmlEscape(w, p.Anchor)
		w.WriteString(`"></span>`)
	}
	if p.Markdown != "" {
		wrapHTML(w, `<div class="md">`, p.Markdown, `</div>`)
	}
	if p.Code != "" {
		wrapHTML(w, `<pre class="chroma code">`, p.Code, `</pre>`)
	}
	if p.Tool != nil {
		writeTool(w, p.Tool)
	}
	if f := p.More; f != nil {
		writeFold(w, "more", false, f, `<pre class="chroma code">`, `</pre>`)
	}
	if f := p.Thinking; f != nil {
		writeFold(w, "thinking", f.Open, f, `<div class="md">`, `</div>`)
	}
	if p.Command != "" {
		wrapHTML(w, `<pre class="command"><span class="prompt">$ </span>`, p.Command, `</pre>`)
	}
	if p.Image != "" {
		wrapHTML(w, "", p.Image, "\n")
	}
	if f := p.JSON; f != nil {
		writeFold(w, "json", f.Open, f, `<pre class="chroma code">`, `</pre>`)
	}
	if p.Diff != "" {
		wrapHTML(w, `<div class="diff-wrap">`, p.Diff, `</div>`)
	}
	if p.Text != "" {
		wrapHTML(w, `<p class="text">`, p.Text, `</p>`)
	}
	if p.Note != "" {
		w.WriteString(`<p class="note note-info">`)
		htmlEscape(w, p.Note)
		w.WriteString(`</p>`)
	}
}

// writeTool writes the "tool" template.
func writeTool(w *bytes.Buffer, t *toolView) {
	w.WriteString(`<div class="tool `)
	htmlEscape(w, t.Class)
	if t.IsError {
		w.WriteString(` is-error`)
	}
	w.WriteByte('"')
	if t.ResultID != "" {
		w.WriteString(` id="entry-`)
		htmlEscape(w, t.ResultID)
		w.WriteByte('"')
	}
	w.WriteString(`><div class="tool-head"><b>`)
	htmlEscape(w, t.Name)
	w.WriteString(`</b> <span>`)
	htmlEscape(w, t.Summary)
	w.WriteString(`</span></div>`)
	for i := range t.Input {
		writePart(w, &t.Input[i])
	}
	for i := range t.Output {
		writePart(w, &t.Output[i])
	}
	if t.IsError {
		w.WriteString(`<p class="note note-error">the tool reported an error</p>`)
	}
	if t.Pending {
		w.WriteString(`<p class="note note-info">no result recorded</p>`)
	}
	for _, a := range t.Agents {
		writeSubagent(w, a)
	}
	w.WriteString(`</div>`)
}

// writeSubagent writes a subagent's conversation in its call's card: a
// <details class="subagent"> of its entries, as the "tool" template does.
func writeSubagent(w *bytes.Buffer, a *subagentView) {
	w.WriteString(`<details class="subagent"><summary>`)
	htmlEscape(w, a.Summary)
	w.WriteString(`</summary>`)
	for _, v := range a.Entries {
		writeEntry(w, v)
	}
	if a.Note != "" {
		w.WriteString(`<p class="note note-info">`)
		htmlEscape(w, a.Note)
		w.WriteString(`</p>`)
	}
	w.WriteString(`</details>`)
}

// writeFold writes a fold as a <details> of the class: open when open is
// set (the template writes the attribute for thinking and JSON folds, never
// for the rest of an output), its HTML between body and end.
func writeFold(w *bytes.Buffer, class string, open bool, f *fold, body, end string) {
	w.WriteString(`<details class="`)
	w.WriteString(class)
	w.WriteByte('"')
	if open {
		w.WriteString(` open`)
	}
	w.WriteString(`><summary>`)
	htmlEscape(w, f.Summary)
	w.WriteString(`</summary>`)
	wrapHTML(w, body, f.HTML, end)
	w.WriteString(`</details>`)
}

func wrapHTML(w *bytes.Buffer, open string, h template.HTML, close string) {
	w.WriteString(open)
	w.WriteString(string(h))
	w.WriteString(close)
}

// htmlEscape writes s escaped as html/template escapes a string in element
// text and in a quoted attribute value (its htmlEscaper and attrEscaper):
// NUL becomes U+FFFD; " & ' + < > become character references. Every byte
// it replaces is ASCII, so a byte loop gives the same result as html/template's
// rune loop, broken UTF-8 included.
func htmlEscape(w *bytes.Buffer, s string) {
	last := 0
	for i := 0; i < len(s); i++ {
		var repl string
		switch s[i] {
		case 0:
			repl = "\uFFFD"
		case '"':
			repl = "&#34;"
		case '&':
			repl = "&amp;"
		case '\'':
			repl = "&#39;"
		case '+':
			repl = "&#43;"
		case '<':
			repl = "&lt;"
		case '>':
			repl = "&gt;"
		default:
			continue
		}
		w.WriteString(s[last:i])
		w.WriteString(repl)
		last = i + 1
	}
	w.WriteString(s[last:])
}

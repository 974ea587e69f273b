package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

type results struct {
	Started       string `json:"started"`
	Finished      string `json:"finished,omitempty"`
	Command       string `json:"command"`
	Revision      string `json:"revision"` // of the working tree that was built
	CPUs          int    `json:"cpus"`
	Runs          int    `json:"runs"`
	BrowserRuns   int    `json:"browserRuns"`
	SearchWord    string `json:"searchWord"`
	InteractAfter string `json:"interactAfter"`
	Reference     string `json:"reference"`
	Browser       string `json:"browser"`
	Rows          []*row `json:"rows"`
}

type row struct {
	Input        string      `json:"input"`
	Path         string      `json:"path,omitempty"`
	SizeBytes    int64       `json:"sizeBytes,omitempty"`
	Entries      int         `json:"entries,omitempty"`
	LoadAvg      string      `json:"loadAvgBefore,omitempty"`
	LoadAvgAfter string      `json:"loadAvgAfter,omitempty"`
	Err          string      `json:"error,omitempty"`
	Ours         *toolResult `json:"ours,omitempty"`
	Ref          *toolResult `json:"ref,omitempty"`
}

var header = []string{
	"input", "size MB", "entries",
	"ours wall s", "ref wall s", "speedup",
	"ours RSS MB", "ref RSS MB", "RSS/input",
	"ours out MB", "ref out MB",
	"ours readable ms", "ref readable ms",
	"ours loaded ms", "ref loaded ms",
	"ours search ms", "ref search ms",
	"ours filter ms", "ref filter ms",
	"ours click ms", "ref click ms",
	"ours ERR", "ref ERR", "other CPU %",
}

func cellMS(m measure) string {
	if !m.ok() {
		return m.Note
	}
	return fmt.Sprintf("%.0f", m.MS)
}

// cells is the row's cells, one per column of header.
func (r *row) cells() []string {
	c := []string{r.Input, "", ""}
	if r.SizeBytes > 0 {
		c[1] = fmt.Sprintf("%.1f", mb(r.SizeBytes))
	}
	if r.Entries > 0 {
		c[2] = fmt.Sprint(r.Entries)
	}
	if r.Ours == nil {
		for len(c) < len(header) {
			c = append(c, "")
		}
		if r.Err != "" {
			c[3] = "fail"
		}
		return c
	}
	o, f := r.Ours, r.Ref
	if f == nil {
		f = &toolResult{Status: "n/a"}
	}
	c = append(c, r.exportCells(o, f)...)
	c = append(c, pageCells(o, f)...)
	if share := r.otherCPU(); share >= 0 {
		c = append(c, fmt.Sprintf("%.0f", 100*share))
	} else {
		c = append(c, "")
	}
	return c
}

// exportCells are the export's columns, ours (o) beside the reference's
// (f): wall time, peak memory, output size.
func (r *row) exportCells(o, f *toolResult) []string {
	both := o.Status == "ok" && f.Status == "ok"
	return []string{
		toolCell(o, fmt.Sprintf("%.2f", o.Wall)), toolCell(f, fmt.Sprintf("%.2f", f.Wall)), ratioCell(f.Wall, o.Wall, both),
		toolCell(o, fmt.Sprintf("%.0f", mb(o.RSSKB*1024))), toolCell(f, fmt.Sprintf("%.0f", mb(f.RSSKB*1024))),
		ratioCell(float64(o.RSSKB*1024), float64(r.SizeBytes), o.Status == "ok" && o.RSSKB > 0),
		toolCell(o, fmt.Sprintf("%.1f", mb(o.OutBytes))), toolCell(f, fmt.Sprintf("%.1f", mb(f.OutBytes))),
	}
}

// pageCells are the page's columns, ours (o) beside the reference's (f):
// readable, loaded, search, filter, click, errors.
func pageCells(o, f *toolResult) []string {
	readable := func(p *pageResult) measure { return p.Readable }
	c := []string{pageCell(o, readable), pageCell(f, readable), loadCell(o), loadCell(f)}
	for _, get := range []func(*pageResult) measure{
		func(p *pageResult) measure { return p.Search },
		func(p *pageResult) measure { return p.Filter },
		func(p *pageResult) measure { return p.Click },
	} {
		c = append(c, pageCell(o, get), pageCell(f, get))
	}
	return append(c, errCell(o), errCell(f))
}

// toolCell is v, or the tool's status when it failed.
func toolCell(t *toolResult, v string) string {
	if t.Status != "ok" {
		return t.Status
	}
	return v
}

// ratioCell is a/b, when both are known.
func ratioCell(a, b float64, ok bool) string {
	if !ok || b == 0 {
		return ""
	}
	return fmt.Sprintf("%.1fx", a/b)
}

// pageCell is one measurement of a page, in milliseconds.
func pageCell(t *toolResult, get func(*pageResult) measure) string {
	if t.Status != "ok" {
		return "n/a"
	}
	if t.Page == nil {
		return ""
	}
	return cellMS(get(t.Page))
}

// loadCell is when the page's load event came, in milliseconds.
func loadCell(t *toolResult) string {
	if t.Status != "ok" {
		return "n/a"
	}
	if t.Page == nil || t.Page.Load <= 0 {
		return ""
	}
	return fmt.Sprintf("%.0f", t.Page.Load)
}

// errCell says whether the page reported errors.
func errCell(t *toolResult) string {
	switch {
	case t.Page == nil:
		return ""
	case len(t.Page.Errors) > 0:
		return "ERR"
	}
	return "-"
}

// otherCPU is the largest share of the CPUs that other processes used
// during any of the row's exports and page measurements (-1: unknown).
func (r *row) otherCPU() float64 {
	share := -1.0
	for _, t := range []*toolResult{r.Ours, r.Ref} {
		if t == nil {
			continue
		}
		for _, x := range t.OtherCPU {
			share = max(share, x)
		}
		if t.Page != nil {
			share = max(share, t.Page.OtherCPU)
		}
	}
	return share
}

// textTable is the aligned plain-text table.
func textTable(res *results) string {
	rows := [][]string{header}
	for _, r := range res.Rows {
		rows = append(rows, r.cells())
	}
	w := make([]int, len(header))
	for _, r := range rows {
		for i, c := range r {
			w[i] = max(w[i], len([]rune(c)))
		}
	}
	var sb strings.Builder
	for _, r := range rows {
		for i, c := range r {
			pad := strings.Repeat(" ", w[i]-len([]rune(c)))
			if i == 0 {
				sb.WriteString(c + pad)
			} else {
				sb.WriteString("  " + pad + c)
			}
		}
		sb.WriteString("\n")
	}
	sb.WriteString(notes(res))
	return sb.String()
}

func markdown(res *results) string {
	var sb strings.Builder
	sb.WriteString("# canopybench results\n\n")
	fmt.Fprintf(&sb, "`%s` at %s, started %s, %d CPUs, runs %d (browser %d); reference: %s; browser: %s\n\n",
		res.Command, res.Revision, res.Started, res.CPUs, res.Runs, res.BrowserRuns, res.Reference, res.Browser)
	sb.WriteString("| " + strings.Join(header, " | ") + " |\n|")
	for i := range header {
		if i == 0 {
			sb.WriteString("---|")
		} else {
			sb.WriteString("---:|")
		}
	}
	sb.WriteString("\n")
	for _, r := range res.Rows {
		cells := r.cells()
		for i, c := range cells {
			cells[i] = strings.ReplaceAll(c, "|", `\|`)
		}
		sb.WriteString("| " + strings.Join(cells, " | ") + " |\n")
	}
	sb.WriteString("\n")
	sb.WriteString(notes(res))
	return sb.String()
}

// notes explains the failures, page errors and the load of the machine.
func notes(res *results) string {
	var sb strings.Builder
	sb.WriteString("\nMB = 10^6 bytes; speedup = ref wall / ours wall; RSS/input = ours peak RSS / input size; other CPU % = the largest share of the machine's CPUs used by other processes during the row's exports or page measurements (high: the row may be disturbed); page times are ms, from navigation start (readable: the conversation shown; loaded: the load event) or from the action to the next drawn frame after the change; search, filter and click start 300 ms after the page has loaded (--interact-after load) or after it is readable (--interact-after readable).\n")
	for _, r := range res.Rows {
		var ns []string
		if r.LoadAvg != "" {
			ns = append(ns, "load avg "+r.LoadAvg+" -> "+r.LoadAvgAfter)
		}
		if r.Err != "" {
			ns = append(ns, r.Err)
		}
		for _, t := range []struct {
			name string
			tr   *toolResult
		}{{"ours", r.Ours}, {"ref", r.Ref}} {
			if t.tr == nil {
				continue
			}
			if t.tr.Status != "ok" && t.tr.Err != "" {
				ns = append(ns, t.name+" export "+t.tr.Status+": "+t.tr.Err)
			}
			if p := t.tr.Page; p != nil {
				for _, m := range []struct {
					what string
					m    measure
				}{{"readable", p.Readable}, {"search", p.Search}, {"filter", p.Filter}, {"click", p.Click}} {
					if !m.m.ok() && m.m.Note != "n/a" {
						ns = append(ns, fmt.Sprintf("%s %s: %s %s", t.name, m.what, m.m.Note, m.m.Detail))
					}
				}
				if len(p.Errors) > 0 {
					ns = append(ns, t.name+" page errors: "+strings.Join(p.Errors, "; "))
				}
			}
		}
		if len(ns) > 0 {
			fmt.Fprintf(&sb, "- %s: %s\n", r.Input, strings.Join(ns, "; "))
		}
	}
	return sb.String()
}

func writeResults(o *options, res *results) error {
	// Not HTML-escaped: the command it records reads "cd bench && ...".
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(res); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(o.out, "results.json"), b.Bytes(), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(o.out, "results.md"), []byte(markdown(res)), 0o644)
}

package htmlpage

import (
	"fmt"
	"html/template"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	cv "canopy/conversation"
	"canopy/internal/text"
	"canopy/sessiontree"
)

// Preview lengths, in lines, before the rest of an output is folded away.
const (
	previewBash  = 5
	previewFile  = 10
	previewOther = 12
)

// toolView draws a tool call: its arguments as the tool's renderer shows
// them, and its result (res may be nil when no result was recorded).
func (r *Renderer) toolView(name string, a args, res *sessiontree.Message, resultID string) *toolView {
	if a == nil {
		a = args{}
	}
	tv := &toolView{ResultID: domID(resultID), Name: text.Or(name, "tool"), Class: toolClass(name)}
	tv.Summary = strings.TrimPrefix(toolSummary(name, a), name+": ")
	out := ""
	if res != nil {
		out = blocksText(res.Content, "\n")
		tv.IsError = res.IsError
	}
	path := a.str("path", "file_path")
	switch name {
	case "bash":
		tv.Input = []part{{Command: escape(a.str("command"))}}
		tv.Output = r.outputParts(ansiHTML, out, "", "", previewBash)
	case "read":
		tv.Output = r.outputParts(r.codeHTML, out, "", path, previewFile)
	case "write":
		tv.Input = r.outputParts(r.codeHTML, a.str("content"), "", path, previewFile)
		tv.Output = r.outputParts(plainHTML, out, "", "", previewOther)
	case "edit":
		var d template.HTML
		if res != nil {
			if diff := cv.EditDiff(res.Details); diff != "" {
				d = diffFromDetails(diff)
			}
		}
		if d == "" {
			d = diffFromTexts(a.str("oldText", "old_string"), a.str("newText", "new_string"))
		}
		tv.Input = []part{{Diff: d}}
		if tv.IsError || d == "" {
			tv.Output = r.outputParts(plainHTML, out, "", "", previewOther)
		}
	case "ls", "find", "grep":
		tv.Output = r.outputParts(plainHTML, out, "", "", previewFile)
	default:
		if len(a) > 0 {
			raw, _ := json.Marshal(map[string]any(a), json.Deterministic(true))
			tv.Input = r.appendJSON(nil, raw, "arguments", true)
		}
		tv.Output = r.outputParts(plainHTML, out, "", "", previewOther)
	}
	if res != nil {
		for _, blk := range res.Content {
			if blk.Type == "image" {
				if src := imageSrc(blk.MimeType, blk.Data); src != "" {
					tv.Output = append(tv.Output, part{Image: src})
				}
			}
		}
	}
	return tv
}

// knownTools are the tools whose cards carry a class of their own
// ("tool-read"): pi's built-in tools and the gateway's common ones. Any
// other name gets "tool-other": a tool's name is session text, and a name
// in the class attribute could give its card any class of the page's
// ("x is-error", "head").
var knownTools = map[string]bool{
	"bash": true, "read": true, "write": true, "edit": true, "ls": true, "find": true, "grep": true,
	"exec": true, "process": true, "apply_patch": true, "web_search": true, "web_fetch": true, "browser": true,
}

// toolClass is the class of a tool's card, after "tool".
func toolClass(name string) string {
	if knownTools[name] {
		return "tool-" + name
	}
	return "tool-other"
}

// lineRenderer turns text into HTML for a <pre>; note is not "" when the
// text is shown plain for a reason the page should give (see tooBig).
type lineRenderer func(text, language, filename string) (html template.HTML, note string)

func plainHTML(text, _, _ string) (template.HTML, string) { return escape(text), "" }

func (r *Renderer) codeHTML(text, language, filename string) (template.HTML, string) {
	return r.hl.code(text, language, filename)
}

// outputParts shows the first `preview` lines of text and folds the rest
// into a <details> that says how many lines it holds: readable without
// JavaScript, and cheap to open.
func (r *Renderer) outputParts(render lineRenderer, text, language, filename string, preview int) []part {
	text = strings.TrimRight(text, "\n")
	if text == "" {
		return nil
	}
	head, rest, restLines := splitLines(text, preview)
	html, note := render(head, language, filename)
	parts := []part{{Code: html}}
	if note != "" {
		parts = append(parts, part{Note: note}) // right under the block
	}
	if rest != "" {
		restHTML := escape(rest)
		if len(rest) <= highlightRestLimit {
			restHTML, _ = render(rest, language, filename)
		}
		parts = append(parts, part{More: &fold{HTML: restHTML,
			Summary: fmt.Sprintf("%d more lines", restLines)}})
	}
	return parts
}

// highlightRestLimit is the size up to which the folded part of an output
// is highlighted too. chroma runs at about 1 MB/s; sessions hold megabytes
// of file contents that readers mostly leave folded, so longer rests are
// plain text. The preview is always highlighted.
const highlightRestLimit = 0

// splitLines cuts text after n lines.
func splitLines(text string, n int) (head, rest string, restLines int) {
	i, count := 0, 0
	for count < n {
		j := strings.IndexByte(text[i:], '\n')
		if j < 0 {
			return text, "", 0
		}
		i += j + 1
		count++
	}
	rest = text[i:]
	return text[:i-1], rest, strings.Count(rest, "\n") + 1
}

// shortenPath writes home directories as ~, as the reference does.
func shortenPath(p string) string {
	for _, home := range []string{"/Users/", "/home/"} {
		if strings.HasPrefix(p, home) {
			if i := strings.IndexByte(p[len(home):], '/'); i >= 0 {
				return "~" + p[len(home)+i:]
			}
		}
	}
	return p
}

// args decodes a tool call's arguments into a map of strings and numbers.
type args map[string]any

func decodeArgs(raw jsontext.Value) args {
	if len(raw) == 0 {
		return args{}
	}
	a, err := sessiontree.DecodeArguments(raw)
	if err != nil {
		return args{}
	}
	return a
}

func (a args) str(keys ...string) string {
	for _, k := range keys {
		switch v := a[k].(type) {
		case string:
			return v
		case float64:
			return strconv.FormatFloat(v, 'f', -1, 64)
		}
	}
	return ""
}

func (a args) num(key string) (int, bool) {
	if v, ok := a[key].(float64); ok {
		return int(v), true
	}
	return 0, false
}

// toolSummary is the short form of a tool call used in tree rows and in the
// header of a tool card: "[read: path:from-to]" without the brackets.
func toolSummary(name string, a args) string {
	switch name {
	case "read":
		p := shortenPath(a.str("path", "file_path"))
		off, hasOff := a.num("offset")
		lim, hasLim := a.num("limit")
		if !hasOff && !hasLim {
			return "read: " + p
		}
		if !hasOff {
			off = 1
		}
		if hasLim && off+lim-1 != 0 {
			return fmt.Sprintf("read: %s:%d-%d", p, off, off+lim-1)
		}
		return fmt.Sprintf("read: %s:%d", p, off)
	case "write":
		return "write: " + shortenPath(a.str("path", "file_path"))
	case "edit":
		return "edit: " + shortenPath(a.str("path", "file_path"))
	case "bash":
		return "bash: " + flatten(a.str("command"), 50)
	case "grep":
		return "grep: /" + a.str("pattern") + "/ in " + text.Or(shortenPath(a.str("path")), ".")
	case "find":
		return "find: " + a.str("pattern") + " in " + text.Or(shortenPath(a.str("path")), ".")
	case "ls":
		p := a.str("path")
		if p == "" {
			p = "."
		}
		return "ls: " + p
	}
	js, _ := json.Marshal(map[string]any(a), json.Deterministic(true))
	return name + ": " + cut(string(js), 40)
}

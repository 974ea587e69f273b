package htmlpage

import (
	"canopy/internal/jsonindent"
	"canopy/sessiontree"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// MaxIndentDepth is the deepest level of nested JSON a page indents
// (jsonindent.MaxDepth, shared with the Markdown export).
const MaxIndentDepth = jsonindent.MaxDepth

// rawJSON is the entry's JSON as written, or nil when it cannot be read
// again from its file. The session's Err then tells why, and Render fails
// with it: the page is not made of what the file holds now.
func rawJSON(e *sessiontree.Entry) jsontext.Value {
	raw, _ := e.Raw()
	return raw
}

// appendJSON appends to parts JSON indented and highlighted, folded unless
// open; and, after the fold, why it is not highlighted, if it is not.
func (r *Renderer) appendJSON(parts []part, raw jsontext.Value, summary string, open bool) []part {
	html, note := r.hl.code(jsonindent.Indent(raw), "json", "")
	parts = append(parts, part{JSON: &fold{HTML: html, Summary: summary, Open: open}})
	if note != "" {
		parts = append(parts, part{Note: note})
	}
	return parts
}

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v, json.Deterministic(true)) }

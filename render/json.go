package render

import (
	"canopy/sessiontree"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// MaxIndentDepth is the deepest level of nested JSON that prettyJSON
// indents; what is nested deeper is written compactly, on the line of the
// value it is in. Each indented line holds two spaces a level: indenting
// every level made the page's size the square of the nesting (20 KB of
// 9,990 nested arrays was a 200 MB page, 11 s), while sessions nest five
// levels deep at most (every session in testdata and ../shared). Past 16
// levels a line holds at most 32 spaces, so the page grows with the JSON,
// not its square.
const MaxIndentDepth = 16

// prettyJSON indents raw JSON for display, two spaces a level down to
// MaxIndentDepth; invalid JSON is returned as is.
func prettyJSON(raw jsontext.Value) string {
	if len(raw) == 0 {
		return ""
	}
	v := jsontext.Value(append([]byte(nil), raw...))
	if !deeperThan(raw, MaxIndentDepth) {
		if err := v.Indent(jsontext.WithIndent("  ")); err != nil {
			return string(raw)
		}
		return string(v)
	}
	// Compact, with the same options as Indent: strings are written the
	// same way, and the same JSON is refused. Then indented down to the
	// bound (FuzzIndentCompact holds indentCompact to Indent above it).
	if err := v.Compact(); err != nil {
		return string(raw)
	}
	return string(indentCompact(v, MaxIndentDepth))
}

// deeperThan reports whether raw (JSON, or what is taken for it) nests
// arrays and objects more than depth levels deep.
func deeperThan(raw []byte, depth int) bool {
	d := 0
	for i := 0; i < len(raw); i++ {
		switch raw[i] {
		case '"':
			// Skip the string: to its closing quote, past escapes.
			for i++; i < len(raw) && raw[i] != '"'; i++ {
				if raw[i] == '\\' {
					i++
				}
			}
		case '[', '{':
			if d++; d > depth {
				return true
			}
		case ']', '}':
			d--
		}
	}
	return false
}

// indentCompact indents compact JSON (jsontext's Compact) as Indent with
// two spaces does, but only the values within depth levels: a value nested
// deeper is written compactly.
func indentCompact(v []byte, depth int) []byte {
	out := make([]byte, 0, len(v)+len(v)/2)
	newline := func(level int) {
		out = append(out, '\n')
		for range level {
			out = append(out, "  "...)
		}
	}
	d := 0
	for i := 0; i < len(v); i++ {
		switch c := v[i]; c {
		case '"':
			j := i + 1
			for j < len(v) && v[j] != '"' {
				if v[j] == '\\' {
					j++
				}
				j++
			}
			out = append(out, v[i:j+1]...)
			i = j
		case '[', '{':
			out = append(out, c)
			if i+1 < len(v) && (v[i+1] == ']' || v[i+1] == '}') {
				out = append(out, v[i+1]) // empty: "[]", "{}"
				i++
				continue
			}
			if d++; d <= depth {
				newline(d)
			}
		case ']', '}':
			if d <= depth {
				newline(d - 1)
			}
			d--
			out = append(out, c)
		case ',':
			out = append(out, c)
			if d <= depth {
				newline(d)
			}
		case ':':
			out = append(out, c)
			if d <= depth {
				out = append(out, ' ')
			}
		default:
			out = append(out, c)
		}
	}
	return out
}

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
	html, note := r.hl.code(prettyJSON(raw), "json", "")
	parts = append(parts, part{JSON: &fold{HTML: html, Summary: summary, Open: open}})
	if note != "" {
		parts = append(parts, part{Note: note})
	}
	return parts
}

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v, json.Deterministic(true)) }

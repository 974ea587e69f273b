// Package jsonindent indents JSON for people to read, at a cost that
// grows with the JSON and not its square, whatever its nesting.
package jsonindent

import "github.com/go-json-experiment/json/jsontext"

// MaxDepth is the deepest level of nested JSON that Indent indents; what is nested deeper is written compactly, on the line of the
// value it is in. Each indented line holds two spaces a level: indenting
// every level made the page's size the square of the nesting (20 KB of
// 9,990 nested arrays was a 200 MB page, 11 s), while sessions nest five
// levels deep at most (every session in testdata and ../shared). Past 16
// levels a line holds at most 32 spaces, so the page grows with the JSON,
// not its square.
const MaxDepth = 16

// Indent indents raw JSON for display, two spaces a level down to
// MaxDepth; invalid JSON is returned as is. The page and the Markdown
// export both show JSON through it: the Markdown, which indented every
// level, made 20 KB of nested tool arguments a 200 MB file.
func Indent(raw jsontext.Value) string {
	if len(raw) == 0 {
		return ""
	}
	v := jsontext.Value(append([]byte(nil), raw...))
	if !deeperThan(raw, MaxDepth) {
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
	return string(indentCompact(v, MaxDepth))
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

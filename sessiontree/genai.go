package sessiontree

import (
	"bytes"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// What Gemini CLI and Qwen Code (a fork of it) share: messages written as
// the Gemini API's Content (a list of parts: text, thoughts, function
// calls and responses, inline data) and its usage metadata. Both readers
// decode them here, the one way.

// lobjs is a list of objects that tolerates any JSON value: anything but
// an array reads as empty, and an element that is not an object is
// skipped, as lobj does for one object.
type lobjs[T any] []T

func (l *lobjs[T]) UnmarshalJSONFrom(d *jsontext.Decoder) error {
	*l = nil
	if d.PeekKind() != '[' {
		return d.SkipValue()
	}
	if _, err := d.ReadToken(); err != nil {
		return err
	}
	for d.PeekKind() != ']' {
		if d.PeekKind() != '{' {
			if err := d.SkipValue(); err != nil {
				return err
			}
			continue
		}
		var v T
		if err := json.UnmarshalDecode(d, &v, jsonOpts); err != nil {
			return err
		}
		*l = append(*l, v)
	}
	_, err := d.ReadToken()
	return err
}

// nonNull records that a member was there, and not null.
type nonNull bool

func (p *nonNull) UnmarshalJSONFrom(d *jsontext.Decoder) error {
	*p = d.PeekKind() != 'n'
	return d.SkipValue()
}

// genaiPart is one part of a Gemini API Content.
type genaiPart struct {
	Text             lstr                    `json:"text"`
	Thought          lbool                   `json:"thought"`
	FunctionCall     lobj[genaiFunctionCall] `json:"functionCall"`
	FunctionResponse lobj[genaiFunctionResp] `json:"functionResponse"`
	InlineData       lobj[genaiBlob]         `json:"inlineData"`
	FileData         lobj[genaiFile]         `json:"fileData"`
}

type genaiFunctionCall struct {
	ID   lstr           `json:"id"`
	Name lstr           `json:"name"`
	Args jsontext.Value `json:"args"`
}

type genaiFunctionResp struct {
	ID       lstr           `json:"id"`
	Name     lstr           `json:"name"`
	Response jsontext.Value `json:"response"`
}

type genaiBlob struct {
	MimeType lstr `json:"mimeType"`
	Data     lstr `json:"data"`
}

type genaiFile struct {
	MimeType lstr `json:"mimeType"`
	FileURI  lstr `json:"fileUri"`
}

// genaiMaxNest is how deep genaiParts follows lists inside lists: the API
// nests a PartListUnion once at most; what a file nests deeper is not
// parts.
const genaiMaxNest = 8

// genaiParts reads a PartListUnion: a string, one part, or a list of
// parts and strings (a list inside the list is read in place, to
// genaiMaxNest levels; deeper lists are skipped). Anything else is no
// parts. It does not recurse: a file nesting a million arrays costs no
// stack.
func genaiParts(raw jsontext.Value) []genaiPart {
	type item struct {
		v     jsontext.Value
		depth int
	}
	var out []genaiPart
	stack := []item{{raw, 0}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		v := it.v
		switch {
		case len(v) == 0:
		case v[0] == '"':
			out = append(out, genaiPart{Text: lstr(jsonText(v))})
		case v[0] == '{':
			var p genaiPart
			if json.Unmarshal(v, &p, jsonOpts) == nil {
				out = append(out, p)
			}
		case v[0] == '[' && it.depth < genaiMaxNest:
			var items []jsontext.Value
			if json.Unmarshal(v, &items, jsonOpts) != nil {
				continue
			}
			for i := len(items) - 1; i >= 0; i-- {
				stack = append(stack, item{items[i], it.depth + 1})
			}
		}
	}
	return out
}

// genaiBlocks are the parts as pi's blocks: text, thinking (a thought
// part), tool calls, pictures; a function response as the text the model
// was given.
func genaiBlocks(parts []genaiPart) Blocks {
	var out Blocks
	for _, p := range parts {
		switch {
		case p.FunctionCall.Set:
			c := &p.FunctionCall.V
			out = append(out, Block{Type: "toolCall", ID: string(c.ID), Name: genaiToolName(string(c.Name)),
				Arguments: argsOrEmpty(c.Args)})
		case p.FunctionResponse.Set:
			out = append(out, Block{Type: "text", Text: genaiResponseText(p.FunctionResponse.V.Response)})
		case p.InlineData.Set:
			out = append(out, Block{Type: "image", MimeType: string(p.InlineData.V.MimeType), Data: string(p.InlineData.V.Data)})
		case p.FileData.Set:
			out = append(out, Block{Type: "text", Text: "[file: " + string(p.FileData.V.FileURI) + "]"})
		case bool(p.Thought):
			out = append(out, Block{Type: "thinking", Thinking: string(p.Text)})
		case p.Text != "":
			out = append(out, Block{Type: "text", Text: string(p.Text)})
		}
	}
	return out
}

// argsOrEmpty is a call's arguments as a JSON object: {} when absent.
func argsOrEmpty(v jsontext.Value) jsontext.Value {
	if len(v) == 0 || v[0] != '{' {
		return jsontext.Value("{}")
	}
	return bytes.Clone(v)
}

// genaiResponseText is what a function response gave the model: its
// "output" (or "error", or "content") when that is text, else the
// response as JSON.
func genaiResponseText(resp jsontext.Value) string {
	if t := jsonText(resp); t != "" {
		return t
	}
	var r struct {
		Output  jsontext.Value `json:"output"`
		Error   jsontext.Value `json:"error"`
		Content jsontext.Value `json:"content"`
	}
	if len(resp) > 0 && resp[0] == '{' && json.Unmarshal(resp, &r, jsonOpts) == nil {
		for _, v := range []jsontext.Value{r.Output, r.Error, r.Content} {
			if t := jsonText(v); t != "" {
				return t
			}
		}
	}
	if len(resp) == 0 {
		return ""
	}
	return string(resp)
}

// genaiToolName is the name canopy shows a Gemini CLI or Qwen Code tool
// by: pi's bash for the shell tool, whose arguments are pi's ({command}),
// else its own.
func genaiToolName(name string) string {
	switch name {
	case "run_shell_command":
		return "bash"
	case "":
		return "tool"
	}
	return name
}

// genaiUsage is the Gemini API's usage metadata (promptTokenCount,
// candidatesTokenCount, ...; Gemini CLI writes the same counts as input,
// output, cached, thoughts, tool, total), as pi records usage: the
// prompt's tokens less those read from the cache, and the thoughts billed
// as output.
func genaiUsage(prompt, candidates, cached, thoughts, tool, total lnum) *Usage {
	in := max(0, float64(prompt)+float64(tool)-float64(cached))
	return &Usage{Input: in, Output: float64(candidates) + float64(thoughts), CacheRead: float64(cached),
		TotalTokens: float64(total)}
}

// genaiText joins the text parts of a Content, for a summary or a notice.
func genaiText(parts []genaiPart) string {
	var b strings.Builder
	for _, p := range parts {
		if p.Text != "" && !p.Thought {
			if b.Len() > 0 {
				b.WriteString("\n\n")
			}
			b.WriteString(string(p.Text))
		}
	}
	return b.String()
}

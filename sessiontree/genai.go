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

// genaiParts reads a PartListUnion: a string, one part, or a list of
// parts and strings. Anything else is no parts.
func genaiParts(raw jsontext.Value) []genaiPart {
	switch {
	case len(raw) == 0:
		return nil
	case raw[0] == '"':
		return []genaiPart{{Text: lstr(jsonText(raw))}}
	case raw[0] == '{':
		var p genaiPart
		if json.Unmarshal(raw, &p, jsonOpts) != nil {
			return nil
		}
		return []genaiPart{p}
	case raw[0] != '[':
		return nil
	}
	var items []jsontext.Value
	if json.Unmarshal(raw, &items, jsonOpts) != nil {
		return nil
	}
	out := make([]genaiPart, 0, len(items))
	for _, it := range items {
		out = append(out, genaiParts(it)...)
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

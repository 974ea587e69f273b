package sessiontree

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// claudeBlock is one content block of an Anthropic message, read leniently.
type claudeBlock struct {
	Type      lstr               `json:"type"`
	Text      lstr               `json:"text"`
	Thinking  lstr               `json:"thinking"`
	ID        lstr               `json:"id"`
	Name      lstr               `json:"name"`
	Input     jsontext.Value     `json:"input"`
	Source    lobj[claudeSource] `json:"source"`
	Content   jsontext.Value     `json:"content"` // a tool_result's
	ToolUseID lstr               `json:"tool_use_id"`
	IsError   lbool              `json:"is_error"`
}

type claudeSource struct {
	Type      lstr `json:"type"`
	MediaType lstr `json:"media_type"`
	Data      lstr `json:"data"`
	URL       lstr `json:"url"`
}

// maxShownBlock is the largest block of a kind canopy does not know that
// is kept whole, as JSON, for the page to show; a bigger one (a PDF in
// base64) is named with its size.
const maxShownBlock = 16 << 10

// claudeBlocks decodes message content, a string or an array of blocks,
// into pi's blocks: text, thinking, image and toolCall (its tool named as
// pi's). A tool_result is not a block of pi's: see toolResult. Blocks of
// other kinds keep their JSON, in Arguments.
func claudeBlocks(raw jsontext.Value) (Blocks, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	switch raw[0] {
	case '"':
		var s lstr
		if err := json.Unmarshal(raw, &s, jsonOpts); err != nil {
			return nil, err
		}
		return Blocks{{Type: "text", Text: string(s)}}, nil
	case '[':
	default:
		return nil, nil
	}
	var items []jsontext.Value
	if err := json.Unmarshal(raw, &items, jsonOpts); err != nil {
		return nil, err
	}
	out := make(Blocks, 0, len(items))
	for _, it := range items {
		var b claudeBlock
		if len(it) == 0 || it[0] != '{' {
			continue
		}
		if err := json.Unmarshal(it, &b, jsonOpts); err != nil {
			return nil, err
		}
		out = append(out, b.block(it))
	}
	return out, nil
}

// block is b as pi's block; raw is its JSON.
func (b *claudeBlock) block(raw jsontext.Value) Block {
	switch b.Type {
	case "text":
		return Block{Type: "text", Text: string(b.Text)}
	case "thinking":
		return Block{Type: "thinking", Thinking: string(b.Thinking)}
	case "redacted_thinking":
		return Block{Type: "thinking", Redacted: true}
	case "tool_use", "server_tool_use":
		args := b.Input
		if len(args) == 0 {
			args = jsontext.Value("{}")
		}
		return Block{Type: "toolCall", ID: string(b.ID), Name: claudeToolName(string(b.Name)), Arguments: args}
	case "image":
		if s := &b.Source.V; b.Source.Set && s.Data != "" {
			return Block{Type: "image", MimeType: string(s.MediaType), Data: string(s.Data)}
		} else if s.URL != "" {
			return Block{Type: "text", Text: "[image: " + string(s.URL) + "]"}
		}
	}
	if len(raw) > maxShownBlock {
		return Block{Type: string(b.Type), Text: fmt.Sprintf("(%d bytes not shown)", len(raw))}
	}
	return Block{Type: string(b.Type), Arguments: raw}
}

// toolResult decodes a user line that answers tool calls: its first
// tool_result is the result of the call the entry names (e.ToolCallID),
// shown in that call's card. Its text is a read file's content without
// Claude Code's line numbers, and an edit's diff comes from the
// structured patch Claude Code records (toolUseResult.structuredPatch).
// What else the line holds (text, pictures) follows. A line with several
// tool_results answers several calls: each is also in m.Results, for its
// own call's card (Message.ResultFor).
func toolResult(e *Entry, r *claudeRecord, m *Message) error {
	m.ToolCallID, m.ToolName = e.ToolCallID, e.ToolName
	var items []jsontext.Value
	if c := r.Message.V.Content; len(c) > 0 && c[0] == '[' {
		if err := json.Unmarshal(c, &items, jsonOpts); err != nil {
			return err
		}
	}
	var parts []ToolResult
	for _, it := range items {
		var b claudeBlock
		if len(it) == 0 || it[0] != '{' || json.Unmarshal(it, &b, jsonOpts) != nil {
			continue
		}
		if b.Type != "tool_result" {
			m.Content = append(m.Content, b.block(it))
			continue
		}
		inner, err := claudeBlocks(b.Content)
		if err != nil {
			return err
		}
		if len(parts) == 0 {
			m.IsError = bool(b.IsError)
		}
		parts = append(parts, ToolResult{ToolCallID: string(b.ToolUseID), Content: inner, IsError: bool(b.IsError)})
		m.Content = append(m.Content, inner...)
	}
	if len(parts) > 1 {
		m.Results = parts
	}
	useResult(e, r, m)
	return nil
}

// useResult applies what Claude Code records of the first call's result
// (toolUseResult): a read file's text, an edit's diff.
func useResult(e *Entry, r *claudeRecord, m *Message) {
	var res struct {
		Type            lstr           `json:"type"`
		File            jsontext.Value `json:"file"`
		StructuredPatch jsontext.Value `json:"structuredPatch"`
	}
	if u := r.ToolUseResult; len(u) == 0 || u[0] != '{' || json.Unmarshal(u, &res, jsonOpts) != nil {
		return
	}
	switch {
	case e.ToolName == "read" && res.Type == "text":
		var f struct {
			Content jsontext.Value `json:"content"`
		}
		if json.Unmarshal(res.File, &f, jsonOpts) == nil && len(f.Content) > 0 && f.Content[0] == '"' {
			var s lstr
			json.Unmarshal(f.Content, &s, jsonOpts)
			if len(m.Results) > 0 {
				m.Results[0].Content = textBlock(string(s)) // the others' text stays in Content
			} else {
				m.Content = textBlock(string(s))
			}
		}
	case e.ToolName == "edit":
		if diff := patchDiff(res.StructuredPatch); diff != "" {
			d, _ := json.Marshal(struct {
				Diff string `json:"diff"`
			}{diff})
			m.Details = d
			if len(m.Results) > 0 {
				m.Results[0].Details = d
			}
		}
	}
}

// patchDiff writes a structured patch (hunks of lines starting "+", "-"
// or " ", with where they start) as pi writes an edit's diff: each line
// its sign, its line number (the new file's, the old one's for a removed
// line), a space and its text; "..." between hunks and before one that
// does not start the file.
func patchDiff(raw jsontext.Value) string {
	var hunks []struct {
		OldStart lnum   `json:"oldStart"`
		NewStart lnum   `json:"newStart"`
		Lines    []lstr `json:"lines"`
	}
	if len(raw) == 0 || raw[0] != '[' || json.Unmarshal(raw, &hunks, jsonOpts) != nil {
		return ""
	}
	var b strings.Builder
	for i, h := range hunks {
		o, n := int(h.OldStart), int(h.NewStart)
		if i > 0 || o > 1 || n > 1 {
			b.WriteString(" ...\n")
		}
		for _, l := range h.Lines {
			s := string(l)
			switch {
			case strings.HasPrefix(s, "+"):
				b.WriteString("+" + strconv.Itoa(n) + " " + s[1:])
				n++
			case strings.HasPrefix(s, "-"):
				b.WriteString("-" + strconv.Itoa(o) + " " + s[1:])
				o++
			case strings.HasPrefix(s, " "):
				b.WriteString(" " + strconv.Itoa(n) + " " + s[1:])
				o, n = o+1, n+1
			default: // "\ No newline at end of file"
				b.WriteString(" " + s)
			}
			b.WriteByte('\n')
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

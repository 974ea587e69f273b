package sessiontree

import (
	"bytes"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"canopy/internal/jsonobj"
)

// Decoding a Gemini CLI entry into pi's shapes, and cutting a session in
// its format.

// geminiDecoder decodes a session's entries. Read-only once loaded.
type geminiDecoder struct {
	// results holds, for each toolResult entry, the place of its call
	// among its message's tool calls.
	results map[*Entry]int
	doc     bool // the session is a .json document
}

// geminiRecord is what decoding reads of a message, leniently.
type geminiRecord struct {
	Content   jsontext.Value        `json:"content"`
	Thoughts  lobjs[geminiThought]  `json:"thoughts"`
	ToolCalls lobjs[geminiToolCall] `json:"toolCalls"`
}

// geminiThought is a thought summary: a subject and its description.
type geminiThought struct {
	Subject     lstr `json:"subject"`
	Description lstr `json:"description"`
}

// geminiToolCall is a tool call as the CLI records it, with its result.
type geminiToolCall struct {
	Name          lstr           `json:"name"`
	Args          jsontext.Value `json:"args"`
	Result        jsontext.Value `json:"result"`
	ResultDisplay jsontext.Value `json:"resultDisplay"`
	Status        lstr           `json:"status"`
}

func (d *geminiDecoder) decode(e *Entry, raw []byte) (*Body, error) {
	switch e.Type {
	case TypeCustom:
		return &Body{Data: bytes.Clone(raw)}, nil
	case TypeMessage:
	default:
		return &Body{}, nil // a name: in the entry
	}
	var r geminiRecord
	if err := json.Unmarshal(raw, &r, jsonOpts); err != nil {
		return nil, err
	}
	m := &Message{Role: e.Role, StopReason: e.StopReason}
	switch {
	case e.Role == RoleToolResult:
		m.ToolCallID, m.ToolName = e.ToolCallID, e.ToolName
		if k, ok := d.results[e]; ok && k < len(r.ToolCalls) {
			c := &r.ToolCalls[k]
			m.Content = textBlock(geminiResultText(c))
			m.IsError = c.Status == "error" || c.Status == "cancelled"
		}
	case e.Role == RoleAssistant && e.StopReason == "error":
		m.ErrorMessage = genaiText(genaiParts(r.Content))
	case e.Role == RoleAssistant:
		m.Provider, m.Model = e.Provider, e.Model
		if e.Usage != nil {
			u := *e.Usage
			m.Usage = &u
		}
		m.Content = geminiReply(e, &r)
	case e.Role == RoleCustom:
		m.CustomType, m.Display = e.CustomType, e.Display
		m.Content = genaiBlocks(genaiParts(r.Content))
	default:
		m.Content = genaiBlocks(genaiParts(r.Content))
	}
	return &Body{Message: m}, nil
}

// geminiReply is a gemini message's blocks: its thoughts, its text, its
// calls.
func geminiReply(e *Entry, r *geminiRecord) Blocks {
	var out Blocks
	for _, t := range r.Thoughts {
		text := string(t.Description)
		if t.Subject != "" {
			text = "**" + string(t.Subject) + "**\n\n" + text
		}
		out = append(out, Block{Type: "thinking", Thinking: text})
	}
	out = append(out, genaiBlocks(genaiParts(r.Content))...)
	for k, c := range r.ToolCalls {
		id := ""
		if k < len(e.CallIDs) {
			id = e.CallIDs[k]
		}
		out = append(out, Block{Type: "toolCall", ID: id, Name: genaiToolName(string(c.Name)), Arguments: argsOrEmpty(c.Args)})
	}
	return out
}

// geminiResultText is what a call gave: the function response the model
// was sent, else what the user was shown (resultDisplay: text, or a
// file's diff).
func geminiResultText(c *geminiToolCall) string {
	var texts []string
	for _, b := range genaiBlocks(genaiParts(c.Result)) {
		if b.Type == "text" && b.Text != "" {
			texts = append(texts, b.Text)
		}
	}
	if len(texts) > 0 {
		return joinParagraphs(texts)
	}
	if t := jsonText(c.ResultDisplay); t != "" {
		return t
	}
	var diff struct {
		FileDiff lstr `json:"fileDiff"`
	}
	if len(c.ResultDisplay) > 0 && c.ResultDisplay[0] == '{' && json.Unmarshal(c.ResultDisplay, &diff, jsonOpts) == nil && diff.FileDiff != "" {
		return string(diff.FileDiff)
	}
	if c.Status != "" && c.Status != "success" {
		return "[" + string(c.Status) + "]"
	}
	return ""
}

// joinParagraphs joins texts with a blank line between them.
func joinParagraphs(texts []string) string {
	var b bytes.Buffer
	for k, t := range texts {
		if k > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(t)
	}
	return b.String()
}

// geminiCut cuts a Gemini CLI session in its format: the JSONL log, each
// line kept at its place. A message's results are on its line: the line
// is written once, when the message or one of its results is kept. A cut
// of a .json document is written as the JSONL the CLI writes today (it
// converts its documents so itself): the header line, then each message
// kept on a line of its own. Rewinds are always kept (they shape the
// tree); a session name is kept as session_info entries are.
type geminiCut struct{ s *Session }

func (geminiReader) cut(s *Session) Cut { return geminiCut{s} }

func (geminiCut) Thinking(*Entry) (bool, int) { return false, 0 }

func (geminiCut) Needed(e *Entry) bool { return e.CustomType == "rewind" }

func (geminiCut) Names([]bool, *Entry) {}

func (f geminiCut) Write(keep []bool, _ *Entry, o CutOptions, c *CutCounts) ([]byte, error) {
	doc := false
	if d, ok := f.s.src.body.(*geminiDecoder); ok {
		doc = d.doc
	}
	// A line is written when any entry on it is kept: the line's first
	// entry stands for all.
	write := make([]bool, len(f.s.Entries))
	var prev *Entry
	for _, e := range f.s.Entries {
		if prev == nil || prev.Line != e.Line || prev.off != e.off {
			prev = e
		}
		write[prev.Index] = write[prev.Index] || keep[e.Index]
	}
	lines, err := cutLines(f.s, write, true, func(e *Entry) ([]byte, error) { return geminiRewrite(e, o, c, doc) })
	if err != nil {
		return nil, err
	}
	if doc {
		for k := range lines {
			lines[k].line = k + 1
		}
	}
	return writeCutLines(lines), nil
}

// geminiRewrite cuts one line: a message's thoughts, its calls' results.
func geminiRewrite(e *Entry, o CutOptions, c *CutCounts, doc bool) ([]byte, error) {
	raw, err := e.Raw()
	if err != nil {
		return nil, err
	}
	if doc {
		raw = raw.Clone()
		if err := raw.Compact(); err != nil {
			return nil, err
		}
	}
	if e.Role != RoleAssistant || !o.NoThinking && !o.NoToolOutput {
		return raw, nil
	}
	obj, err := jsonobj.Parse(raw)
	if err != nil {
		return nil, err
	}
	changed := false
	var thoughts []jsontext.Value
	if o.NoThinking && json.Unmarshal(obj.Get("thoughts"), &thoughts) == nil && len(thoughts) > 0 {
		obj.Del("thoughts")
		c.Thinking += len(thoughts)
		changed = true
	}
	var calls []jsontext.Value
	if o.NoToolOutput && json.Unmarshal(obj.Get("toolCalls"), &calls) == nil {
		for k, call := range calls {
			co, err := jsonobj.Parse(call)
			if err != nil || co.Get("result") == nil && co.Get("resultDisplay") == nil {
				continue
			}
			co.Set("result", jsonobj.Quote(OutputLeftOut))
			if co.Get("resultDisplay") != nil {
				co.Set("resultDisplay", jsonobj.Quote(OutputLeftOut))
			}
			calls[k] = co.Encode()
			c.Outputs++
			changed = true
		}
		if changed {
			list, err := json.Marshal(calls)
			if err != nil {
				return nil, err
			}
			obj.Set("toolCalls", list)
		}
	}
	if !changed {
		return raw, nil
	}
	return obj.Encode(), nil
}

package sessiontree

import (
	"strconv"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"canopy/internal/jsonobj"
)

// Messages of Anthropic's shape (role, content blocks: text, thinking,
// tool_use, tool_result), as Amp, Cline and Cursor CLI write them: what
// load reads of them, how they decode into pi's shapes, and how a cut
// leaves out their thinking and tool output.

// anthBlock is what load reads of a content block of Anthropic's shape
// (Amp, Cline, Cursor): its type and the ids that pair calls and results.
type anthBlock struct {
	Type      lstr `json:"type"`
	ID        lstr `json:"id"`
	Name      lstr `json:"name"`
	ToolUseID lstr `json:"tool_use_id"`
	AmpUseID  lstr `json:"toolUseID"` // Amp's tool_result
}

// anthHead reads an Anthropic-shaped message's content at load: its
// calls (ids, "" for a call written without one, and tools) and the calls
// its results answer.
func anthHead(content jsontext.Value) (calls, names, results []string) {
	if len(content) == 0 || content[0] != '[' {
		return nil, nil, nil
	}
	var blocks []anthBlock
	if json.Unmarshal(content, &blocks, jsonOpts) != nil {
		return nil, nil, nil
	}
	for _, b := range blocks {
		switch b.Type {
		case "tool_use", "server_tool_use":
			calls = append(calls, string(b.ID))
			names = append(names, claudeToolName(string(b.Name)))
		case "tool_result":
			if id := firstOf(string(b.ToolUseID), string(b.AmpUseID)); id != "" {
				results = append(results, id)
			}
		}
	}
	return calls, names, results
}

// anthMessageEntry sets what an Anthropic-shaped message is at load: a
// user message that answers calls is their results, one that holds only
// text is a prompt; an assistant message counts its calls.
func anthMessageEntry(e *Entry, role string, content jsontext.Value, names map[string]string) {
	calls, callNames, results := anthHead(content)
	switch role {
	case "assistant":
		e.Role = RoleAssistant
		e.CallIDs, e.ToolCalls = callIDs(e, calls), len(calls)
		for k, id := range e.CallIDs {
			names[id] = callNames[k]
		}
	case "user":
		e.Role = RoleUser
		if len(results) > 0 {
			e.Role, e.ToolCallID, e.ToolName = RoleToolResult, results[0], names[results[0]]
			if len(results) > 1 {
				more := results[1:]
				e.Detail = &Detail{moreResults: &more}
			}
		}
	default: // system and the like: context the harness gave
		e.Role = RoleCustom
		e.Detail = &Detail{CustomType: firstOf(role, "system")}
	}
}

// callIDs are a message's call ids, a call written without one (Cursor
// writes none) named <entry id>#<k>, k its place among the calls, as
// anthMessage names its block: every call can be linked to.
func callIDs(e *Entry, calls []string) []string {
	for k, id := range calls {
		if id == "" {
			calls[k] = e.ID + "#" + strconv.Itoa(k)
		}
	}
	return calls
}

// anthResult is a tool_result block, read leniently: Anthropic's content
// and error flag, or Amp's run.
type anthResult struct {
	Type      lstr           `json:"type"`
	Text      lstr           `json:"text"`
	ToolUseID lstr           `json:"tool_use_id"`
	AmpUseID  lstr           `json:"toolUseID"`
	Content   jsontext.Value `json:"content"`
	IsError   lbool          `json:"is_error"`
	Run       lobj[struct {
		Status lstr           `json:"status"`
		Result jsontext.Value `json:"result"`
		Error  jsontext.Value `json:"error"`
	}] `json:"run"`
}

// anthMessage decodes an Anthropic-shaped message's content for e. A
// message that answers calls holds each result (Message.Results) and,
// after them, what else it says; text is passed through prompt first,
// for a format that wraps its prompts.
func anthMessage(e *Entry, content jsontext.Value, prompt func(string) string) (*Message, error) {
	m := &Message{Role: e.Role}
	if e.Role == RoleCustom {
		m.CustomType, m.Display = e.CustomType, e.Display
	}
	if e.Role != RoleToolResult {
		blocks, err := claudeBlocks(content)
		if err != nil {
			return nil, err
		}
		k := 0
		for i := range blocks {
			b := &blocks[i]
			switch {
			case b.Type == "text" && prompt != nil && e.Role == RoleUser:
				b.Text = prompt(b.Text)
			case b.Type == "toolCall":
				if b.ID == "" {
					b.ID = e.ID + "#" + strconv.Itoa(k)
				}
				k++
			}
		}
		m.Content = blocks
		return m, nil
	}
	var items []jsontext.Value
	if err := json.Unmarshal(content, &items, jsonOpts); err != nil {
		return nil, err
	}
	var rest Blocks
	for _, it := range items {
		var r anthResult
		if len(it) == 0 || it[0] != '{' || json.Unmarshal(it, &r, jsonOpts) != nil {
			continue
		}
		if r.Type != "tool_result" {
			if bs, err := claudeBlocks(jsontext.Value("[" + string(it) + "]")); err == nil {
				for i := range bs {
					if bs[i].Type == "text" && prompt != nil {
						bs[i].Text = prompt(bs[i].Text)
					}
				}
				rest = append(rest, bs...)
			}
			continue
		}
		tr := ToolResult{ToolCallID: firstOf(string(r.ToolUseID), string(r.AmpUseID)), IsError: bool(r.IsError)}
		switch {
		case len(r.Content) > 0:
			tr.Content, _ = claudeBlocks(r.Content)
		case r.Run.Set:
			run := &r.Run.V
			tr.IsError = run.Status == "error"
			tr.Content = textBlock(resultText(run.Result, run.Error, string(run.Status)))
		}
		m.Results = append(m.Results, tr)
	}
	for _, r := range m.Results {
		m.Content = append(m.Content, r.Content...)
		m.IsError = m.IsError || r.IsError
	}
	m.Content = append(m.Content, rest...)
	if len(m.Results) > 0 {
		m.ToolCallID, m.ToolName = e.ToolCallID, e.ToolName
		if len(m.Results) == 1 {
			m.Results = nil
		}
	}
	return m, nil
}

// resultText is what a tool's result, as JSON an agent recorded, says as
// text: a string as it is, an object's output, content or diff, else the
// JSON itself; an error's message when there is no result.
func resultText(result, errv jsontext.Value, status string) string {
	if len(result) > 0 && string(result) != "null" {
		if t := jsonText(result); t != "" || result[0] == '"' {
			return t
		}
		var o struct {
			Output  jsontext.Value `json:"output"`
			Content jsontext.Value `json:"content"`
			Diff    jsontext.Value `json:"diff"`
		}
		if result[0] == '{' && json.Unmarshal(result, &o, jsonOpts) == nil {
			for _, v := range []jsontext.Value{o.Output, o.Content, o.Diff} {
				if t := jsonText(v); t != "" {
					return t
				}
			}
		}
		return string(result)
	}
	var e struct {
		Message lstr `json:"message"`
	}
	if json.Unmarshal(errv, &e, jsonOpts) == nil && e.Message != "" {
		return string(e.Message)
	}
	if t := jsonText(errv); t != "" {
		return t
	}
	return "[" + firstOf(status, "no result") + "]"
}

// anthCut cuts the content of an Anthropic-shaped message, its member
// named member of obj: thinking blocks, and tool results' content (or
// Amp's run). It reports whether it changed obj.
func anthCut(obj *jsonobj.Object, e *Entry, o CutOptions, c *CutCounts) bool {
	n := 0
	switch {
	case o.NoThinking && e.Role == RoleAssistant:
		n = cutContent(obj, func(b jsontext.Value) (jsontext.Value, bool) {
			return nil, isBlock(b, "thinking", "redacted_thinking")
		})
		c.Thinking += n
	case o.NoToolOutput && e.Role == RoleToolResult:
		n = cutContent(obj, func(b jsontext.Value) (jsontext.Value, bool) {
			if !isBlock(b, "tool_result") {
				return nil, false
			}
			r, err := jsonobj.Parse(b)
			if err != nil {
				return nil, false
			}
			if r.Get("run") != nil {
				r.Set("run", jsontext.Value(`{"status":"done","result":`+string(jsonobj.Quote(OutputLeftOut))+`}`))
			} else {
				r.Set("content", leftOutBlocks())
			}
			return r.Encode(), true
		})
		c.Outputs += n
	}
	return n > 0
}

// anthRewrite cuts a record whose Anthropic-shaped content is its own
// "content", or, with holder, its member holder's (Cursor's "message").
func anthRewrite(holder string) func(e *Entry, o CutOptions, c *CutCounts) ([]byte, error) {
	return func(e *Entry, o CutOptions, c *CutCounts) ([]byte, error) {
		raw, err := e.Raw()
		if err != nil || (!o.NoThinking && !o.NoToolOutput) {
			return raw, err
		}
		obj, err := jsonobj.Parse(raw)
		if err != nil {
			return nil, err
		}
		if holder == "" {
			if !anthCut(&obj, e, o, c) {
				return raw, nil
			}
			return obj.Encode(), nil
		}
		msg, err := jsonobj.Parse(obj.Get(holder))
		if err != nil || !anthCut(&msg, e, o, c) {
			return raw, nil
		}
		obj.Set(holder, msg.Encode())
		return obj.Encode(), nil
	}
}

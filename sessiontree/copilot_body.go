package sessiontree

import (
	"bytes"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"canopy/internal/jsonobj"
)

// Decoding a Copilot CLI event into pi's shapes, and cutting a log in its
// format.

// copilotDecoder decodes a log's events. Read-only once loaded.
type copilotDecoder struct {
	kinds map[*Entry]string // each entry's event type
}

// copilotEvent is what decoding reads of an event's data, leniently.
type copilotEvent struct {
	Data lobj[struct {
		Content       jsontext.Value            `json:"content"`
		ReasoningText lstr                      `json:"reasoningText"`
		ToolRequests  lobjs[copilotRequestBody] `json:"toolRequests"`
		ToolName      lstr                      `json:"toolName"`
		Arguments     jsontext.Value            `json:"arguments"`
		Result        jsontext.Value            `json:"result"`
		Error         jsontext.Value            `json:"error"`
		Success       optBool                   `json:"success"`
		Message       lstr                      `json:"message"`
		Reason        lstr                      `json:"reason"`
		Attachments   lobjs[copilotAttachment]  `json:"attachments"`
	}] `json:"data"`
}

type copilotRequestBody struct {
	Name      lstr           `json:"name"`
	Arguments jsontext.Value `json:"arguments"`
}

type copilotAttachment struct {
	Type        lstr `json:"type"`
	Path        lstr `json:"path"`
	DisplayName lstr `json:"displayName"`
}

func (d *copilotDecoder) decode(e *Entry, raw []byte) (*Body, error) {
	switch e.Type {
	case TypeCustom:
		return &Body{Data: bytes.Clone(raw)}, nil
	case TypeMessage:
	default:
		return &Body{}, nil // a compaction, a model change: in the entry
	}
	var ev copilotEvent
	if err := json.Unmarshal(raw, &ev, jsonOpts); err != nil {
		return nil, err
	}
	v := &ev.Data.V
	m := &Message{Role: e.Role, StopReason: e.StopReason}
	if e.Role == RoleAssistant {
		m.Provider, m.Model = e.Provider, e.Model
		if e.Usage != nil {
			u := *e.Usage
			m.Usage = &u
		}
	}
	switch d.kinds[e] {
	case "user.message":
		m.Content = textBlock(copilotText(v.Content))
		for _, a := range v.Attachments {
			m.Content = append(m.Content, Block{Type: "text", Text: "[attachment: " + firstOf(string(a.Path), string(a.DisplayName)) + "]"})
		}
	case "assistant.message":
		if v.ReasoningText != "" {
			m.Content = append(m.Content, Block{Type: "thinking", Thinking: string(v.ReasoningText)})
		}
		if t := copilotText(v.Content); t != "" {
			m.Content = append(m.Content, Block{Type: "text", Text: t})
		}
		for k, r := range v.ToolRequests {
			id := ""
			if k < len(e.CallIDs) {
				id = e.CallIDs[k]
			}
			m.Content = append(m.Content, Block{Type: "toolCall", ID: id, Name: copilotToolName(string(r.Name)), Arguments: copilotArgs(r.Arguments)})
		}
	case "assistant.reasoning":
		m.Content = Blocks{{Type: "thinking", Thinking: copilotText(v.Content)}}
	case "tool.execution_start":
		m.Content = Blocks{{Type: "toolCall", ID: e.CallIDs[0], Name: copilotToolName(string(v.ToolName)), Arguments: copilotArgs(v.Arguments)}}
	case "tool.execution_complete":
		m.ToolCallID, m.ToolName = e.ToolCallID, e.ToolName
		m.IsError = v.Success.Set && !v.Success.V
		m.Content = textBlock(copilotResult(v.Result, v.Error))
	case "session.error":
		m.ErrorMessage = string(v.Message)
	case "abort":
		m.ErrorMessage = firstOf(string(v.Reason), "aborted")
	}
	return &Body{Message: m}, nil
}

// copilotToolName is the name canopy shows a Copilot tool by: its own
// (its shell tool is already called bash).
func copilotToolName(name string) string {
	if name == "" {
		return "tool"
	}
	return name
}

// copilotText is the text of a content: a string, or parts with text.
func copilotText(raw jsontext.Value) string {
	if t := jsonText(raw); t != "" {
		return t
	}
	var texts []string
	for _, b := range codexContent(raw) {
		if b.Type == "text" && b.Text != "" {
			texts = append(texts, b.Text)
		}
	}
	return joinParagraphs(texts)
}

// copilotArgs are a call's arguments as a JSON object: written as one, or
// as a string of JSON.
func copilotArgs(raw jsontext.Value) jsontext.Value {
	if t := jsonText(raw); t != "" && jsontext.Value(t).IsValid() && t[0] == '{' {
		return jsontext.Value(t)
	}
	return argsOrEmpty(raw)
}

// copilotResult is what a call gave: its result's content (the text the
// model was sent), else its detailed content, else its error.
func copilotResult(result, errv jsontext.Value) string {
	if t := jsonText(result); t != "" {
		return t
	}
	var r struct {
		Content         lstr `json:"content"`
		DetailedContent lstr `json:"detailedContent"`
		Message         lstr `json:"message"`
	}
	if len(result) > 0 && result[0] == '{' && json.Unmarshal(result, &r, jsonOpts) == nil {
		if t := firstOf(string(r.Content), string(r.DetailedContent)); t != "" {
			return t
		}
	}
	if t := jsonText(errv); t != "" {
		return t
	}
	r = struct {
		Content         lstr `json:"content"`
		DetailedContent lstr `json:"detailedContent"`
		Message         lstr `json:"message"`
	}{}
	if len(errv) > 0 && errv[0] == '{' && json.Unmarshal(errv, &r, jsonOpts) == nil {
		return string(r.Message)
	}
	return ""
}

// copilotCut cuts a Copilot CLI log in its format, each event kept at its
// place, its parentId rewritten when its parent was left out. An
// assistant.reasoning event is thinking only.
type copilotCut struct {
	s   *Session
	dec *copilotDecoder
}

func (copilotReader) cut(s *Session) Cut {
	d, _ := s.src.body.(*copilotDecoder)
	if d == nil {
		d = &copilotDecoder{}
	}
	return copilotCut{s, d}
}

func (f copilotCut) Thinking(e *Entry) (bool, int) {
	if f.dec.kinds[e] != "assistant.reasoning" {
		return false, 0
	}
	if e.Type == TypeMessage {
		return true, 1
	}
	return true, 0
}

// Needed: session.start, the header, is kept when hidden things are left
// out.
func (f copilotCut) Needed(e *Entry) bool { return f.dec.kinds[e] == "session.start" }

func (copilotCut) Names([]bool, *Entry) {}

func (f copilotCut) Write(keep []bool, _ *Entry, o CutOptions, c *CutCounts) ([]byte, error) {
	lines, err := cutLines(f.s, keep, false, func(e *Entry) ([]byte, error) { return f.rewrite(e, keep, o, c) })
	if err != nil {
		return nil, err
	}
	return writeCutLines(lines), nil
}

// rewrite cuts one event: its parent, a reply's reasoning, a result.
func (f copilotCut) rewrite(e *Entry, keep []bool, o CutOptions, c *CutCounts) ([]byte, error) {
	raw, err := e.Raw()
	if err != nil {
		return nil, err
	}
	kind := f.dec.kinds[e]
	reparent := e.Parent != nil && !keep[e.Parent.Index]
	thinking := o.NoThinking && e.Type == TypeMessage && kind == "assistant.message"
	result := o.NoToolOutput && e.Type == TypeMessage && kind == "tool.execution_complete"
	if !reparent && !thinking && !result {
		return raw, nil
	}
	obj, err := jsonobj.Parse(raw)
	if err != nil {
		return nil, err
	}
	changed := false
	if reparent {
		v := jsontext.Value("null")
		if p := KeptParent(e, keep); p != "" {
			v = jsonobj.Quote(p)
		}
		obj.Set("parentId", v)
		changed = true
	}
	if data, err := jsonobj.Parse(obj.Get("data")); err == nil && (thinking || result) {
		cut := false
		if thinking && data.Get("reasoningText") != nil && jsonobj.StringOf(data.Get("reasoningText")) != "" {
			data.Del("reasoningText")
			c.Thinking++
			cut = true
		}
		if result && (data.Get("result") != nil || data.Get("error") != nil) {
			left := jsonobj.Quote(OutputLeftOut)
			if data.Get("result") != nil {
				data.Set("result", jsontext.Value(`{"content":`+string(left)+`}`))
			}
			if data.Get("error") != nil {
				data.Set("error", jsontext.Value(`{"message":`+string(left)+`}`))
			}
			c.Outputs++
			cut = true
		}
		if cut {
			obj.Set("data", data.Encode())
			changed = true
		}
	}
	if !changed {
		return raw, nil
	}
	return obj.Encode(), nil
}

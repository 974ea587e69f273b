package sessiontree

import (
	"bytes"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"canopy/internal/jsonobj"
)

// Decoding a Qwen Code record into pi's shapes, and cutting a chat in its
// format.

// qwenDecoder decodes a chat's records.
type qwenDecoder struct{}

// qwenRecord is what decoding reads of a record, leniently.
type qwenRecord struct {
	Message lobj[struct {
		Parts jsontext.Value `json:"parts"`
	}] `json:"message"`
	Result lobj[struct {
		Status        lstr           `json:"status"`
		ResultDisplay jsontext.Value `json:"resultDisplay"`
		Error         jsontext.Value `json:"error"`
	}] `json:"toolCallResult"`
}

func (qwenDecoder) decode(e *Entry, raw []byte) (*Body, error) {
	switch e.Type {
	case TypeCustom:
		return &Body{Data: bytes.Clone(raw)}, nil
	case TypeMessage:
	default:
		return &Body{}, nil // a compaction, a name, a model: in the entry
	}
	var r qwenRecord
	if err := json.Unmarshal(raw, &r, jsonOpts); err != nil {
		return nil, err
	}
	m := &Message{Role: e.Role, Content: genaiBlocks(genaiParts(r.Message.V.Parts))}
	switch e.Role {
	case RoleAssistant:
		m.Provider, m.Model = e.Provider, e.Model
		if e.Usage != nil {
			u := *e.Usage
			m.Usage = &u
		}
		k := 0
		for i := range m.Content {
			if b := &m.Content[i]; b.Type == "toolCall" && k < len(e.CallIDs) {
				b.ID = e.CallIDs[k]
				k++
			}
		}
	case RoleToolResult:
		m.ToolCallID, m.ToolName = e.ToolCallID, e.ToolName
		res := &r.Result.V
		m.IsError = res.Status == "error" || len(res.Error) > 0 && string(res.Error) != "null"
		if len(m.Content) == 0 {
			m.Content = textBlock(firstOf(jsonText(res.ResultDisplay), jsonText(res.Error)))
		}
	}
	return &Body{Message: m}, nil
}

// qwenCut cuts a Qwen Code chat in its format, each record kept at its
// place, its parentUuid rewritten when its parent was left out (as
// Claude Code's).
type qwenCut struct{ s *Session }

func (qwenReader) cut(s *Session) Cut { return qwenCut{s} }

func (qwenCut) Thinking(*Entry) (bool, int) { return false, 0 }

// Needed: a system record is kept when hidden things are left out only
// when it is the session's name (a session_info, never asked).
func (qwenCut) Needed(*Entry) bool { return false }

func (qwenCut) Names([]bool, *Entry) {}

func (f qwenCut) Write(keep []bool, _ *Entry, o CutOptions, c *CutCounts) ([]byte, error) {
	lines, err := cutLines(f.s, keep, false, func(e *Entry) ([]byte, error) { return qwenRewrite(e, keep, o, c) })
	if err != nil {
		return nil, err
	}
	if err := firstLineUp(lines); err != nil {
		return nil, err
	}
	return writeCutLines(lines), nil
}

// qwenRewrite cuts one record: its parent, its thought parts, a tool
// result's output.
func qwenRewrite(e *Entry, keep []bool, o CutOptions, c *CutCounts) ([]byte, error) {
	raw, err := e.Raw()
	if err != nil {
		return nil, err
	}
	reparent := e.Parent != nil && !keep[e.Parent.Index]
	thinking := o.NoThinking && e.Role == RoleAssistant
	result := o.NoToolOutput && e.Role == RoleToolResult
	if !reparent && !thinking && !result {
		return raw, nil
	}
	obj, err := jsonobj.Parse(raw)
	if err != nil {
		return nil, err
	}
	changed := reparent && claudeSetParent(&obj, e, keep)
	msg, err := jsonobj.Parse(obj.Get("message"))
	if err == nil && (thinking || result) {
		if n := cutParts(&msg, thinking); n > 0 {
			obj.Set("message", msg.Encode())
			changed = true
			if thinking {
				c.Thinking += n
			} else {
				c.Outputs += n
			}
		}
	}
	if result {
		if tr, err := jsonobj.Parse(obj.Get("toolCallResult")); err == nil {
			for _, name := range []string{"resultDisplay", "responseParts"} {
				if tr.Get(name) != nil {
					tr.Set(name, jsonobj.Quote(OutputLeftOut))
				}
			}
			obj.Set("toolCallResult", tr.Encode())
			changed = true
		}
	}
	if !changed {
		return raw, nil
	}
	return obj.Encode(), nil
}

// cutParts cuts a Content's parts: its thought parts (thinking), or its
// function responses' output. It returns how many it cut.
func cutParts(msg *jsonobj.Object, thinking bool) int {
	var parts []jsontext.Value
	if json.Unmarshal(msg.Get("parts"), &parts) != nil {
		return 0
	}
	n := 0
	out := parts[:0]
	for _, p := range parts {
		var h struct {
			Thought          bool           `json:"thought"`
			FunctionResponse jsontext.Value `json:"functionResponse"`
		}
		json.Unmarshal(p, &h)
		switch {
		case thinking && h.Thought:
			n++
			continue
		case !thinking && len(h.FunctionResponse) > 0:
			if fr, err := jsonobj.Parse(h.FunctionResponse); err == nil {
				fr.Set("response", jsontext.Value(`{"output":`+string(jsonobj.Quote(OutputLeftOut))+`}`))
				po, _ := jsonobj.Parse(p)
				po.Set("functionResponse", fr.Encode())
				p = po.Encode()
				n++
			}
		}
		out = append(out, p)
	}
	if n > 0 {
		list, _ := json.Marshal(out)
		msg.Set("parts", list)
	}
	return n
}

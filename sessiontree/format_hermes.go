package sessiontree

import (
	"bytes"
	"strconv"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"canopy/internal/jsonobj"
)

// hermesReader reads a Hermes Agent session (~/.hermes/sessions): a
// JSONL transcript whose first line is {"role": "session_meta", "model",
// "platform", "tools", …} and each later line one message of OpenAI's
// shape ({"role": "user"|"assistant"|"tool"|"system", "content",
// "reasoning", "tool_calls", "tool_call_id", "finish_reason",
// "timestamp"}), or a session_*.json snapshot, one document holding the
// same messages ({"session_id", "model", "platform", "session_start",
// "last_updated", …, "messages"}). The store's sessions.json, keyed by
// session key, lists sessions: canopy archive reads the directory.
//
// The rules, as this reader applies them:
//   - Each message is an entry (L<n> in a transcript, m<n> in a
//     snapshot), the child of the one before.
//   - An assistant message's reasoning is its thinking, its tool_calls
//     (function name, arguments as JSON in a string) its calls; a tool
//     message answers the call its tool_call_id names; a system message
//     is context.
//   - The model is the session's ("provider/model" as OpenRouter names
//     them); the transcript records no tokens, so no cost.
type hermesReader struct{}

func (hermesReader) agent() Agent {
	return Agent{Formats: []string{FormatHermes}, StateName: "Hermes record", Dirs: []string{".hermes/sessions"}, EstimateCost: true, Document: true,
		SnapshotPrefix: "session_"}
}

// detect: a transcript's first line is its session_meta; a snapshot is
// a JSON object with messages beside Hermes' session_start or
// last_updated.
func (hermesReader) detect(p *probe) bool {
	line := firstObjectLine(p)
	var h hermesHead
	if len(line) > 0 && line[0] == '{' && h.parse(line) == nil && h.Role == "session_meta" {
		return true
	}
	messages, hermes := false, false
	topMembers(p, func(name string, _ *jsontext.Decoder) (bool, error) {
		switch name {
		case "messages":
			messages = true
		case "session_start", "last_updated":
			hermes = true
		}
		return messages && hermes, nil
	})
	return messages && hermes
}

// hermesHead is what load reads of a message.
type hermesHead struct {
	Role       lstr           `json:"role"`
	Timestamp  lstr           `json:"timestamp"`
	ToolCallID lstr           `json:"tool_call_id"`
	Finish     lstr           `json:"finish_reason"`
	Model      lstr           `json:"model"`
	ToolCalls  jsontext.Value `json:"tool_calls"`
	calls      []string
	names      []string
}

// hermesCall is one of an assistant message's tool_calls.
type hermesCall struct {
	ID       lstr `json:"id"`
	Name     lstr `json:"name"`
	Function lobj[struct {
		Name      lstr           `json:"name"`
		Arguments jsontext.Value `json:"arguments"`
	}] `json:"function"`
	Arguments jsontext.Value `json:"arguments"`
}

func (h *hermesHead) header() bool { return h.Role == "session_meta" }

func (h *hermesHead) parse(text []byte) error {
	*h = hermesHead{}
	if err := json.Unmarshal(text, h, jsonOpts); err != nil {
		return err
	}
	for _, c := range hermesCalls(h.ToolCalls) {
		if c.ID != "" {
			h.calls = append(h.calls, string(c.ID))
			h.names = append(h.names, firstOf(firstOf(string(c.Function.V.Name), string(c.Name)), "tool"))
		}
	}
	h.ToolCalls = nil // the line's bytes
	return nil
}

// hermesCalls reads tool_calls leniently: anything but an array of
// objects is none.
func hermesCalls(raw jsontext.Value) []hermesCall {
	var items []jsontext.Value
	if len(raw) == 0 || raw[0] != '[' || json.Unmarshal(raw, &items, jsonOpts) != nil {
		return nil
	}
	var out []hermesCall
	for _, it := range items {
		var c hermesCall
		if len(it) > 0 && it[0] == '{' && json.Unmarshal(it, &c, jsonOpts) == nil {
			out = append(out, c)
		}
	}
	return out
}

// hermesState reads messages in order.
type hermesState struct {
	s       *Session
	c       *chain
	names   map[string]string
	replies []*Entry
}

// message sets e from its message's head and keeps it.
func (st *hermesState) message(e *Entry, h *hermesHead) {
	e.setTime(string(h.Timestamp), 0)
	switch h.Role {
	case "user":
		e.Role = RoleUser
	case "assistant":
		e.Role, e.CallIDs, e.ToolCalls = RoleAssistant, h.calls, len(h.calls)
		e.StopReason = openAIStop(string(h.Finish))
		for k, id := range h.calls {
			st.names[id] = h.names[k]
		}
		st.replies = append(st.replies, e)
	case "tool":
		e.Role, e.ToolCallID, e.ToolName = RoleToolResult, string(h.ToolCallID), st.names[string(h.ToolCallID)]
	case "system", "developer":
		e.Role, e.Detail = RoleCustom, &Detail{CustomType: "system"}
	default:
		e.Type, e.Bookkeeping = TypeCustom, true
		e.Detail = &Detail{CustomType: firstOf(string(h.Role), "record")}
	}
	st.c.add(e)
	st.c.turn(e, true)
}

// model gives the replies the session's model.
func (st *hermesState) model(model string) {
	provider, model := splitModel(model)
	for _, e := range st.replies {
		e.Provider, e.Model = provider, model
	}
}

// openAIStop is an OpenAI finish reason as pi's stop reason.
func openAIStop(r string) string {
	switch r {
	case "tool_calls", "function_call":
		return "toolUse"
	}
	return r
}

func (hermesReader) read(s *Session, in *input, p *probe) error {
	s.Format, s.Version = FormatHermes, 1
	st := &hermesState{s: s, c: newChain(s), names: map[string]string{}}
	line := firstObjectLine(p)
	var h hermesHead
	if h.parse(line) == nil && h.Role == "session_meta" {
		if err := st.transcript(in, p); err != nil {
			return err
		}
	} else if err := st.snapshot(in, p); err != nil {
		return err
	}
	s.src.body = &listDecoder{groups: st.c.groups, one: hermesDecode}
	return nil
}

// transcript reads a JSONL transcript.
func (st *hermesState) transcript(in *input, p *probe) error {
	s := st.s
	lines, err := readAgentLines[hermesHead](in, p)
	if err != nil {
		return err
	}
	model := ""
	for i := range lines {
		l := &lines[i]
		e := l.entryOf(s)
		if e == nil {
			continue
		}
		if l.h.Role == "session_meta" && s.Header.Line == 0 {
			s.Header.Line, s.Header.Raw, s.Header.Timestamp = int(l.n), l.raw, string(l.h.Timestamp)
			model = string(l.h.Model)
			continue
		}
		st.message(e, &l.h)
	}
	st.model(model)
	return nil
}

// snapshot reads a session_*.json document.
func (st *hermesState) snapshot(in *input, p *probe) error {
	s := st.s
	r, err := newDocReader(s, in, p, "Hermes session")
	if err != nil {
		return err
	}
	model, n := "", 0
	err = r.object(func(name string) error {
		var err error
		switch name {
		case "session_id":
			s.Header.ID, err = r.str()
		case "session_start":
			s.Header.Timestamp, err = r.str()
		case "model":
			model, err = r.str()
		case "messages":
			err = r.records(func(raw []byte, off int64, line int) {
				e := s.newEntry(line, off, raw, "m"+strconv.Itoa(n))
				n++
				var h hermesHead
				if err := h.parse(raw); err != nil {
					s.diag(line, SevError, "message skipped: %s", describe(err))
					return
				}
				st.message(e, &h)
			})
		default:
			err = r.d.SkipValue()
		}
		return err
	})
	st.model(model)
	return err
}

// hermesBody is what decoding reads of a message.
type hermesBody struct {
	Content          jsontext.Value `json:"content"`
	Reasoning        lstr           `json:"reasoning"`
	ReasoningContent lstr           `json:"reasoning_content"`
	ToolCalls        jsontext.Value `json:"tool_calls"`
}

func hermesDecode(e *Entry, raw []byte) (*Body, error) {
	if e.Type == TypeCustom {
		return stateBody(raw), nil
	}
	var b hermesBody
	if err := json.Unmarshal(raw, &b, jsonOpts); err != nil {
		return nil, err
	}
	m := &Message{Role: e.Role, ToolCallID: e.ToolCallID, ToolName: e.ToolName}
	if e.Role == RoleCustom {
		m.CustomType = e.CustomType
	}
	if t := firstOf(string(b.Reasoning), string(b.ReasoningContent)); t != "" && e.Role == RoleAssistant {
		m.Content = append(m.Content, Block{Type: "thinking", Thinking: t})
	}
	content, err := claudeBlocks(b.Content)
	if err != nil {
		return nil, err
	}
	m.Content = append(m.Content, dropEmptyText(content)...)
	for _, c := range hermesCalls(b.ToolCalls) {
		args := c.Function.V.Arguments
		if len(args) == 0 {
			args = c.Arguments
		}
		if t := jsonText(args); t != "" && jsontext.Value(t).IsValid() {
			args = jsontext.Value(t)
		}
		if len(args) == 0 || !args.IsValid() {
			args = jsontext.Value("{}")
		}
		m.Content = append(m.Content, Block{Type: "toolCall", ID: string(c.ID), Name: firstOf(firstOf(string(c.Function.V.Name), string(c.Name)), "tool"), Arguments: bytes.Clone(args)})
	}
	return &Body{Message: m}, nil
}

func (hermesReader) cut(s *Session) Cut {
	f := listCut{s: s, rewrite: hermesRewrite}
	if s.Header.Line == 0 { // a snapshot
		f.write = func(lines []cutLine) ([]byte, error) { return writeDocument(s, "messages", lines) }
	}
	return f
}

// hermesRewrite cuts a message: its reasoning, a tool's output.
func hermesRewrite(e *Entry, o CutOptions, c *CutCounts) ([]byte, error) {
	raw, err := e.Raw()
	if err != nil {
		return nil, err
	}
	thinking := o.NoThinking && e.Role == RoleAssistant
	output := o.NoToolOutput && e.Role == RoleToolResult
	if !thinking && !output {
		return raw, nil
	}
	obj, err := jsonobj.Parse(raw)
	if err != nil {
		return nil, err
	}
	changed := false
	if thinking {
		for _, k := range []string{"reasoning", "reasoning_content", "reasoning_details"} {
			if v := obj.Get(k); v != nil && string(v) != "null" && string(v) != `""` {
				obj.Del(k)
				changed = true
			}
		}
		if changed {
			c.Thinking++
		}
	}
	if output && obj.Get("content") != nil {
		obj.Set("content", jsonobj.Quote(OutputLeftOut))
		c.Outputs++
		changed = true
	}
	if !changed {
		return raw, nil
	}
	return obj.Encode(), nil
}

package sessiontree

import (
	"bytes"
	"path/filepath"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"canopy/internal/jsonobj"
)

// kimiReader reads a Kimi CLI session's wire log
// (~/.kimi/sessions/<project hash>/<session id>/wire.jsonl; Kimi Code's
// ~/.kimi-code/sessions/<workdir>/<session>/agents/<agent>/wire.jsonl): a first line
// {"type": "metadata", "protocol_version"}, then one record per line,
// {"timestamp": seconds, "message": {"type", "payload"}}, the events of
// Kimi's wire: TurnBegin (the prompt: user_input, text or content parts),
// StepBegin, ContentPart (text, think, image_url …), ToolCall (an OpenAI
// function call: id, function.name, function.arguments), ToolCallPart
// (more of the last call's arguments), ToolResult (tool_call_id,
// return_value: is_error, output, message), StatusUpdate (token_usage of
// the step), CompactionBegin and CompactionEnd, approvals, subagent
// events, TurnEnd. Kimi Code's newer records ({"type": "turn.prompt"},
// "context.append_loop_event" with an event of content.part, tool.call,
// tool.result or step.end, "usage.record", "config.update") are read the
// same way.
//
// The rules, as this reader applies them:
//   - Each record is an entry, L<n>, the child of the record before.
//   - The content parts and calls of one step are one reply, one card
//     (chain.turn); a step's token usage (StatusUpdate, step.end) is that
//     reply's. Kimi's wire names no model but in usage.record and
//     config.update: without one, the model is unknown and the cost is
//     not estimated.
//   - Kimi's recorder writes parts merged (a text streamed in pieces is
//     one ContentPart, a call one ToolCall); a ToolCallPart left apart
//     has its arguments shown as part of the call before it.
//   - StepInterrupted is a reply that was aborted; CompactionEnd a
//     compaction (the wire does not record its summary).
//   - Every other record (StepBegin, TurnEnd, StatusUpdate, approvals,
//     hooks, subagent events, notifications) is the agent's bookkeeping,
//     kept as its JSON.
type kimiReader struct{}

func (kimiReader) agent() Agent {
	return Agent{Formats: []string{FormatKimi}, StateName: "Kimi record", Dirs: []string{".kimi/sessions", ".kimi-code/sessions"}, EstimateCost: true,
		DirNamed: "wire.jsonl"}
}

// kimiNoSummary is a compaction's summary: the wire does not record it.
const kimiNoSummary = "(Kimi's wire log does not record the summary.)"

// kimiNewTypes are the records of Kimi Code's newer wire.
var kimiNewTypes = map[string]bool{
	"turn.prompt": true, "turn.steer": true, "context.append_loop_event": true, "usage.record": true, "config.update": true,
}

// detect: the wire's metadata line, or a first record of the wire's
// shape.
func (kimiReader) detect(p *probe) bool {
	line := firstObjectLine(p)
	var h kimiHead
	if len(line) == 0 || line[0] != '{' || h.parse(line) != nil {
		return false
	}
	switch {
	case h.Type == "metadata" && h.Protocol != "":
		return true
	case h.Type == "" && h.Message.Set && h.Message.V.Type != "" && h.Message.V.Payload.Set && h.TS > 0:
		return true
	}
	return kimiNewTypes[string(h.Type)]
}

// kimiPayload is what load reads of a record's payload (or, in the newer
// wire, of its event).
type kimiPayload struct {
	Type       lstr `json:"type"`
	ID         lstr `json:"id"`
	ToolCallID lstr `json:"tool_call_id"`
	CallID     lstr `json:"toolCallId"` // newer wire
	Name       lstr `json:"name"`       // newer wire
	Function   lobj[struct {
		Name lstr `json:"name"`
	}] `json:"function"`
	TokenUsage lobj[kimiUsage] `json:"token_usage"`
	Usage      lobj[kimiUsage] `json:"usage"`
	Finish     lstr            `json:"finishReason"`
	Context    lnum            `json:"context_tokens"` // StatusUpdate
}

// kimiUsage is a step's tokens, as the wire (snake case) or the newer
// wire (camel case) writes them.
type kimiUsage struct {
	InputOther    lnum `json:"input_other"`
	Output        lnum `json:"output"`
	CacheRead     lnum `json:"input_cache_read"`
	CacheCreation lnum `json:"input_cache_creation"`
	InputOther2   lnum `json:"inputOther"`
	CacheRead2    lnum `json:"inputCacheRead"`
	CacheCreate2  lnum `json:"inputCacheCreation"`
}

func (u *kimiUsage) usage() *Usage {
	in := float64(u.InputOther + u.InputOther2)
	r := &Usage{Input: in, Output: float64(u.Output), CacheRead: float64(u.CacheRead + u.CacheRead2), CacheWrite: float64(u.CacheCreation + u.CacheCreate2)}
	r.TotalTokens = r.Input + r.Output + r.CacheRead + r.CacheWrite
	if r.TotalTokens == 0 {
		return nil
	}
	return r
}

// kimiHead is what load reads of a line.
type kimiHead struct {
	Type     lstr `json:"type"`
	Protocol lstr `json:"protocol_version"`
	TS       lnum `json:"timestamp"`
	Time     lnum `json:"time"`
	Message  lobj[struct {
		Type    lstr              `json:"type"`
		Payload lobj[kimiPayload] `json:"payload"`
	}] `json:"message"`
	Event lobj[kimiPayload] `json:"event"`
	Model lstr              `json:"model"`
	Alias lstr              `json:"modelAlias"`
	Usage lobj[kimiUsage]   `json:"usage"`
}

func (h *kimiHead) header() bool { return h.Type == "metadata" }

func (h *kimiHead) parse(text []byte) error {
	*h = kimiHead{}
	return json.Unmarshal(text, h, jsonOpts)
}

// kind is the record's event type and its payload: the wire's message,
// or the newer wire's record (its event's, for a loop event).
func (h *kimiHead) kind() (string, *kimiPayload) {
	if h.Message.Set {
		return string(h.Message.V.Type), &h.Message.V.Payload.V
	}
	if h.Type == "context.append_loop_event" {
		return string(h.Event.V.Type), &h.Event.V
	}
	return string(h.Type), &kimiPayload{Usage: h.Usage}
}

// kimiState reads the records in order.
type kimiState struct {
	s        *Session
	c        *chain
	dec      *kimiDecoder
	names    map[string]string
	lastCall *Entry // the last ToolCall: a ToolCallPart continues it
	model    string // the last named
	reply    *Entry // the last reply, for a usage.record
	context  lnum   // the tokens in the context, as last reported
}

func (kimiReader) read(s *Session, in *input, p *probe) error {
	lines, err := readAgentLines[kimiHead](in, p)
	if err != nil {
		return err
	}
	s.Format, s.Version = FormatKimi, 1
	st := &kimiState{s: s, c: newChain(s), names: map[string]string{}, dec: &kimiDecoder{parts: map[*Entry][]*Entry{}}}
	for i := range lines {
		l := &lines[i]
		e := l.entryOf(s)
		if e == nil {
			continue
		}
		if l.h.Type == "metadata" && s.Header.Line == 0 && len(s.Entries) == 0 {
			s.Header.Line, s.Header.Raw, s.FormatVersion = int(l.n), l.raw, string(l.h.Protocol)
			continue
		}
		e.setTime("", float64(firstNum(l.h.TS, l.h.Time)))
		st.record(e, &l.h)
	}
	if len(s.Entries) == 0 && s.Header.Line == 0 {
		return notSession("a Kimi CLI wire log with no record that could be read")
	}
	s.Header.ID = SessionID(s.Format, s.File)
	if d := filepath.Dir(filepath.Dir(s.File)); s.Header.ID != "" && filepath.Base(d) == "agents" {
		// Kimi Code's <session>/agents/<agent>/wire.jsonl: the session's.
		s.Header.ID = filepath.Base(filepath.Dir(d))
	}
	st.dec.groups = st.c.groups
	s.src.body = &listDecoder{groups: st.c.groups, one: st.dec.decode}
	return nil
}

func firstNum(a, b lnum) lnum {
	if a != 0 {
		return a
	}
	return b
}

// record sets e from its record and keeps it.
func (st *kimiState) record(e *Entry, h *kimiHead) {
	typ, p := h.kind()
	reply := false
	switch typ {
	case "TurnBegin", "SteerInput", "turn.prompt", "turn.steer":
		e.Role = RoleUser
	case "ContentPart", "content.part":
		e.Role, reply = RoleAssistant, true
	case "ToolCall", "tool.call":
		id := firstOf(string(p.ID), string(p.CallID))
		e.Role, reply = RoleAssistant, true
		if id != "" {
			e.CallIDs, e.ToolCalls = []string{id}, 1
			st.names[id] = firstOf(firstOf(string(p.Function.V.Name), string(p.Name)), "tool")
		}
		st.lastCall = e
	case "ToolResult", "tool.result":
		id := firstOf(string(p.ToolCallID), string(p.CallID))
		e.Role, e.ToolCallID, e.ToolName = RoleToolResult, id, st.names[id]
	case "StepInterrupted":
		e.Role, e.StopReason = RoleAssistant, "aborted"
	case "CompactionEnd":
		e.Type, e.Detail = TypeCompaction, &Detail{Summary: kimiNoSummary, TokensBefore: float64(st.context)}
	default:
		st.bookkeeping(e, typ, h, p)
	}
	if e.Type == TypeMessage && e.Role == RoleAssistant {
		e.Provider, e.Model = splitModel(st.model)
		if reply {
			st.reply = e
		}
	}
	st.c.add(e)
	if typ == "StepBegin" || typ == "step.begin" {
		st.c.endTurn()
	}
	st.c.turn(e, reply)
}

// bookkeeping keeps a record of the agent's own: a usage is its reply's.
func (st *kimiState) bookkeeping(e *Entry, typ string, h *kimiHead, p *kimiPayload) {
	e.Type, e.Bookkeeping = TypeCustom, true
	e.Detail = &Detail{CustomType: firstOf(typ, "record")}
	if typ == "ToolCallPart" && st.lastCall != nil {
		st.dec.parts[st.lastCall] = append(st.dec.parts[st.lastCall], e)
	}
	if p.Context > 0 {
		st.context = p.Context
	}
	if m := firstOf(string(h.Model), string(h.Alias)); m != "" {
		st.model = m
	}
	u := p.TokenUsage.V.usage()
	if u == nil {
		u = p.Usage.V.usage()
	}
	target := st.c.head
	if typ == "usage.record" && st.reply != nil {
		target = turnHead(st.s, st.reply)
	}
	if u != nil && target != nil && target.Usage == nil {
		target.Usage = u
		if target.Model == "" {
			target.Provider, target.Model = splitModel(st.model)
		}
	}
	if p.Finish != "" && target != nil {
		target.StopReason = openAIStop(string(p.Finish))
	}
}

// kimiDecoder decodes a wire's records.
type kimiDecoder struct {
	groups map[*Entry][]*Entry
	parts  map[*Entry][]*Entry // a call's ToolCallParts, in order
}

// kimiBody is what decoding reads of a record's payload or event.
type kimiBody struct {
	Type      lstr           `json:"type"`
	UserInput jsontext.Value `json:"user_input"`
	Input     jsontext.Value `json:"input"` // newer wire
	Part      jsontext.Value `json:"part"`  // newer wire's content.part
	Text      lstr           `json:"text"`
	Think     lstr           `json:"think"`
	ImageURL  lobj[struct {
		URL lstr `json:"url"`
	}] `json:"image_url"`
	ID       lstr `json:"id"`
	Function lobj[struct {
		Name      lstr           `json:"name"`
		Arguments jsontext.Value `json:"arguments"`
	}] `json:"function"`
	Name        lstr           `json:"name"`
	Args        jsontext.Value `json:"args"`
	ReturnValue jsontext.Value `json:"return_value"`
	Result      jsontext.Value `json:"result"`
	Arguments   lstr           `json:"arguments_part"`
}

// kimiRecord is a record: the wire's message, or the newer wire's.
type kimiRecord struct {
	Message lobj[struct {
		Payload lobj[kimiBody] `json:"payload"`
	}] `json:"message"`
	Event lobj[kimiBody] `json:"event"`
	kimiBody
}

func (d *kimiDecoder) decode(e *Entry, raw []byte) (*Body, error) {
	switch e.Type {
	case TypeCustom:
		return stateBody(raw), nil
	case TypeMessage:
	default:
		return &Body{}, nil
	}
	var r kimiRecord
	if err := json.Unmarshal(raw, &r, jsonOpts); err != nil {
		return nil, err
	}
	b := &r.kimiBody
	switch {
	case r.Message.Set:
		b = &r.Message.V.Payload.V
	case r.Event.Set:
		b = &r.Event.V
	}
	m := &Message{Role: e.Role, ToolCallID: e.ToolCallID, ToolName: e.ToolName}
	switch e.Role {
	case RoleUser:
		m.Content = kimiParts(firstValue(b.UserInput, b.Input))
	case RoleToolResult:
		m.Content, m.IsError = kimiResult(firstValue(b.ReturnValue, b.Result))
	case RoleAssistant:
		switch {
		case e.StopReason == "aborted" && len(e.CallIDs) == 0 && b.Type == "":
			m.ErrorMessage = "The step was interrupted."
		case len(e.CallIDs) > 0:
			m.Content = Blocks{d.call(e, b)}
		case len(b.Part) > 0:
			m.Content = kimiParts(jsontext.Value("[" + string(b.Part) + "]"))
		default:
			m.Content = kimiPart(b)
		}
	}
	return &Body{Message: m}, nil
}

func firstValue(a, b jsontext.Value) jsontext.Value {
	if len(a) > 0 {
		return a
	}
	return b
}

// call is a ToolCall as pi's block, its arguments with those of the
// ToolCallParts after it.
func (d *kimiDecoder) call(e *Entry, b *kimiBody) Block {
	args := b.Function.V.Arguments
	if len(args) == 0 {
		args = b.Args
	}
	text := jsonText(args)
	for _, p := range d.parts[e] {
		p.withRaw(func(raw jsontext.Value) error {
			var r kimiRecord
			if json.Unmarshal(raw, &r, jsonOpts) == nil {
				text += string(r.Message.V.Payload.V.Arguments)
			}
			return nil
		})
	}
	switch {
	case text != "" && jsontext.Value(text).IsValid():
		args = jsontext.Value(text)
	case text != "":
		args, _ = json.Marshal(map[string]string{"arguments": text})
	case len(args) == 0 || args[0] != '{':
		args = jsontext.Value("{}")
	}
	name := firstOf(firstOf(string(b.Function.V.Name), string(b.Name)), "tool")
	return Block{Type: "toolCall", ID: e.CallIDs[0], Name: name, Arguments: bytes.Clone(args)}
}

// kimiParts decodes a prompt or an output: a string, or content parts.
func kimiParts(raw jsontext.Value) Blocks {
	if t := jsonText(raw); t != "" {
		return textBlock(t)
	}
	var parts []kimiBody
	if len(raw) == 0 || raw[0] != '[' || json.Unmarshal(raw, &parts, jsonOpts) != nil {
		return nil
	}
	var out Blocks
	for i := range parts {
		out = append(out, kimiPart(&parts[i])...)
	}
	return out
}

// kimiPart is one content part: text, thinking, a picture by URL.
func kimiPart(b *kimiBody) Blocks {
	switch b.Type {
	case "text":
		return textBlock(string(b.Text))
	case "think":
		return Blocks{{Type: "thinking", Thinking: firstOf(string(b.Think), string(b.Text))}}
	case "image_url":
		return Blocks{imageBlock(string(b.ImageURL.V.URL))}
	}
	return nil
}

// kimiResult is a tool's return value: its output (text or parts), or
// its message when it has none.
func kimiResult(raw jsontext.Value) (Blocks, bool) {
	var rv struct {
		IsError  lbool          `json:"is_error"`
		IsError2 lbool          `json:"isError"`
		Output   jsontext.Value `json:"output"`
		Message  lstr           `json:"message"`
	}
	if json.Unmarshal(raw, &rv, jsonOpts) != nil {
		return nil, false
	}
	out := kimiParts(rv.Output)
	if len(out) == 0 && rv.Message != "" {
		out = textBlock(string(rv.Message))
	}
	return out, bool(rv.IsError || rv.IsError2)
}

func (kimiReader) cut(s *Session) Cut {
	return listCut{s: s, rewrite: kimiRewrite, thinking: kimiThinking}
}

// kimiThinking: a think part is thinking only.
func kimiThinking(e *Entry) bool {
	if e.Role != RoleAssistant || len(e.CallIDs) > 0 {
		return false
	}
	raw, err := e.Raw()
	if err != nil {
		return false
	}
	return bytes.Contains(raw, []byte(`"think"`)) && kimiIsThink(raw)
}

func kimiIsThink(raw []byte) bool {
	var r kimiRecord
	if json.Unmarshal(raw, &r, jsonOpts) != nil {
		return false
	}
	if r.Message.Set {
		return r.Message.V.Payload.V.Type == "think"
	}
	var part struct {
		Type lstr `json:"type"`
	}
	json.Unmarshal(r.Event.V.Part, &part, jsonOpts)
	return part.Type == "think"
}

// kimiRewrite cuts a tool's output out of a ToolResult.
func kimiRewrite(e *Entry, o CutOptions, c *CutCounts) ([]byte, error) {
	raw, err := e.Raw()
	if err != nil || !o.NoToolOutput || e.Role != RoleToolResult {
		return raw, err
	}
	obj, err := jsonobj.Parse(raw)
	if err != nil {
		return nil, err
	}
	left := jsontext.Value(`{"is_error":false,"output":` + string(jsonobj.Quote(OutputLeftOut)) + `}`)
	if msg := obj.Get("message"); msg != nil {
		m, err := jsonobj.Parse(msg)
		if err != nil {
			return raw, nil
		}
		pl, err := jsonobj.Parse(m.Get("payload"))
		if err != nil {
			return raw, nil
		}
		pl.Set("return_value", left)
		m.Set("payload", pl.Encode())
		obj.Set("message", m.Encode())
	} else if ev := obj.Get("event"); ev != nil {
		evo, err := jsonobj.Parse(ev)
		if err != nil {
			return raw, nil
		}
		evo.Set("result", left)
		obj.Set("event", evo.Encode())
	} else {
		return raw, nil
	}
	c.Outputs++
	return obj.Encode(), nil
}

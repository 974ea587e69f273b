package sessiontree

import (
	"bytes"
	"fmt"
	"strconv"
)

// codexReader reads a Codex rollout
// (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl): one {"timestamp",
// "type", "payload"} object per line. Entries have no ids: as in a pi
// version 1 file, an entry's id is L<n>, n its line, and each entry is
// the child of the one before.
//
// The rules, as this reader applies them:
//   - The first line's session_meta is the header (id, cwd, CLI version).
//     A rollout of before September 2025 names its directory only in the
//     <cwd> of the environment context Codex sends the model.
//   - response_item lines are what the model saw and said: messages,
//     reasoning summaries (thinking), function_call, custom_tool_call,
//     local_shell_call and web_search_call (tool calls, named as pi's
//     tools where one does the same: shell commands as bash, apply_patch
//     as an edit whose diff is the patch), and their outputs (results,
//     paired by call_id). User messages Codex writes itself (the
//     environment context, AGENTS.md) are hidden custom messages.
//   - Each thing is shown once: Codex writes user and agent messages and
//     reasoning both as response items and as events; the events are then
//     kept as extension state, shown only as their JSON. In a rollout
//     without response items of a kind, its events are the messages.
//   - event_msg: token_count is the usage of the reply before it; error
//     and turn_aborted are assistant messages that failed or were aborted;
//     thread_name_updated names the session; web_search_end is the result
//     of its web search (what was searched: the pages are not recorded).
//   - turn_context: a model_change when the model changes, a
//     thinking_level_change when only the reasoning effort does.
//   - compacted: a compaction, its message the summary.
//   - Everything else is kept as extension state (type custom), its line
//     as its data.
//   - Bookkeeping (Entry.Bookkeeping, never a branch): every line kept as
//     extension state (token counts, task_started and task_complete, the
//     events that repeat an item, anything unknown) and every
//     turn_context, even one read as a model or thinking level change.
type codexReader struct{}

func (codexReader) detect(p *probe) bool { return p.classify() == kindCodex }

func (codexReader) agent() Agent {
	return Agent{
		Formats:   []string{FormatCodex},
		StateName: "Codex record",
		// YYYY/MM/DD/rollout-*.jsonl, and the rollouts it archived
		Dirs:         []string{".codex/sessions", ".codex/archived_sessions"},
		EstimateCost: true,
	}
}

// codexKind is what a rollout line is.
type codexKind uint8

const (
	cMeta           codexKind = iota // extension state
	cSessionMeta                     // session_meta
	cTurnContext                     // turn_context
	cUser                            // a message the user typed (response item)
	cInjected                        // a message Codex wrote for the model
	cAssistant                       // the model's text (response item)
	cReasoning                       // its reasoning (response item)
	cCall                            // a tool call
	cResult                          // a tool call's output
	cEventUser                       // event_msg user_message
	cEventAgent                      // event_msg agent_message
	cEventReasoning                  // event_msg agent_reasoning
	cError                           // event_msg error
	cAborted                         // event_msg turn_aborted
	cNotice                          // a warning shown to the user
	cTokenCount                      // event_msg token_count
	cCompaction                      // compacted
	cThreadName                      // event_msg thread_name_updated
	cSearchEnd                       // event_msg web_search_end: a web search's result
)

// codexLine is one line of a rollout and what decoding it gave.
type codexLine struct {
	rawLine
	entry *Entry
	err   error
	blank bool
	kind  codexKind

	custom   string // a custom entry's or message's type
	callName string // a call's tool, as canopy shows it
	cwd      string // the <cwd> of an environment context Codex wrote
	p        *codexPayload
	raw      []byte // a session_meta's line, kept: the header's Raw
}

// decodeRaw decodes a rollout line into l and e, its entry.
func (l *codexLine) decodeRaw(raw rawLine, e *Entry, src *source, it interner) {
	l.rawLine, l.entry = raw, e
	l.decode(src)
	it.entry(e)
	it.str(&l.custom)
	l.text = nil
}

// decode decodes the line and tells what it is; what depends on other
// lines is decided when they are all read (codexState).
func (l *codexLine) decode(src *source) {
	text, lead := trimSpace(l.text)
	if len(text) == 0 {
		l.blank = true
		return
	}
	var h codexHead
	if err := decodeCodexHead(text, &h); err != nil {
		l.err = err
		return
	}
	e := l.entry
	e.start(&l.rawLine, src, lead, text, string(h.Timestamp))
	e.ID = "L" + strconv.Itoa(e.Line)
	e.Type = TypeMessage
	p := &h.P
	switch typ := string(h.Type); {
	case typ == "response_item", h.Bare:
		l.responseItem(p)
	case typ == "event_msg":
		l.event(p)
	case typ == "session_meta":
		l.kind, l.raw = cSessionMeta, bytes.Clone(text)
	case typ == "" && h.Legacy && h.ID != "":
		l.kind, l.raw = cSessionMeta, bytes.Clone(text)
		p.ID = h.ID // the old meta line is its own payload
	case typ == "turn_context":
		l.kind = cTurnContext
	case typ == "compacted":
		l.kind, e.Type = cCompaction, TypeCompaction
	default:
		l.kind = cMeta
	}
	if l.kind == cMeta {
		l.custom = string(h.Type)
		switch {
		case h.RecordType.Seen && h.Type == "":
			l.custom = "record_type" + prefixed(": ", string(h.RecordType.V))
		case p.Type != "" && p.Set:
			l.custom += ": " + string(p.Type)
		}
	}
	switch l.kind {
	case cSessionMeta, cTurnContext, cTokenCount, cCompaction, cThreadName:
		keep := *p
		// The raw members are the line's bytes, gone once it is decoded.
		keep.Content, keep.Message = nil, nil
		if len(p.Message) > 0 && p.Message[0] == '"' {
			keep.Message = []byte(unquote(p.Message))
		}
		l.p = &keep
	}
}

// responseItem reads an item of the model's history.
func (l *codexLine) responseItem(p *codexPayload) {
	e := l.entry
	switch t := string(p.Type); t {
	case "message":
		switch role := string(p.Role); {
		case role == "assistant":
			l.kind, e.Role = cAssistant, RoleAssistant
		case role == "user" && injectedOf(p.Content) == "":
			l.kind, e.Role = cUser, RoleUser
		case role == "user":
			l.kind, e.Role, l.custom = cInjected, RoleCustom, injectedOf(p.Content)
			if l.custom == "environment context" {
				l.cwd = environmentCwd(p.Content)
			}
		default: // developer, system
			l.kind, e.Role, l.custom = cInjected, RoleCustom, role
		}
	case "reasoning":
		l.kind, e.Role = cReasoning, RoleAssistant
	case "function_call", "custom_tool_call", "local_shell_call", "web_search_call":
		l.kind, e.Role = cCall, RoleAssistant
		id := string(p.CallID)
		if id == "" {
			id = firstOf(string(p.ID), e.ID) // a web search has no call id
		}
		e.CallIDs, e.ToolCalls = []string{id}, 1
		l.callName = codexToolName(t, string(p.Name))
	case "function_call_output", "custom_tool_call_output":
		l.kind, e.Role, e.ToolCallID = cResult, RoleToolResult, string(p.CallID)
	default:
		l.kind = cMeta
	}
}

// event reads an event_msg.
func (l *codexLine) event(p *codexPayload) {
	e := l.entry
	switch string(p.Type) {
	case "user_message":
		l.kind, e.Role = cEventUser, RoleUser
	case "agent_message":
		l.kind, e.Role = cEventAgent, RoleAssistant
	case "agent_reasoning", "agent_reasoning_raw_content":
		l.kind, e.Role = cEventReasoning, RoleAssistant
	case "error":
		l.kind, e.Role, e.StopReason = cError, RoleAssistant, "error"
	case "turn_aborted":
		l.kind, e.Role, e.StopReason = cAborted, RoleAssistant, "aborted"
	case "stream_error", "warning", "background_event":
		l.kind, e.Role, l.custom = cNotice, RoleCustom, string(p.Type)
	case "token_count":
		l.kind = cTokenCount
	case "thread_name_updated":
		l.kind, e.Type = cThreadName, TypeSessionInfo
	case "web_search_end":
		// The search's result, as far as the rollout has one: the model
		// received the pages, the rollout keeps only what was searched.
		l.kind, e.Role, e.ToolCallID = cSearchEnd, RoleToolResult, string(p.CallID)
	default:
		l.kind = cMeta
	}
}

// codexToolName is the name canopy shows a Codex tool by: pi's tool that
// does the same, whose card the page knows, else its own. t is the
// item's type, name the function's.
func codexToolName(t, name string) string {
	switch {
	case t == "local_shell_call":
		return "bash"
	case t == "web_search_call":
		return "web_search"
	}
	switch name {
	case "shell", "container.exec", "shell_command", "exec_command", "local_shell":
		return "bash"
	case "apply_patch":
		return "edit"
	}
	if name == "" {
		return "tool"
	}
	return name
}

// read decodes every line, then decides what depends on other lines.
func (codexReader) read(s *Session, in *input, p *probe) error {
	lines, err := decodeRecords(in, p, newSlabDecoder[codexLine](in.src))
	if err != nil {
		return err
	}
	s.Format = FormatCodex
	s.guessParents = true // never needed: each entry is the child of the one before
	c := newCodexState(s, lines)
	for i := range lines {
		c.line(&lines[i], i == c.header)
	}
	if len(s.Entries) == 0 && c.header < 0 {
		return fmt.Errorf("no line of this Codex rollout could be read: %w", ErrNotSession)
	}
	c.finish()
	s.src.body = c.dec
	return nil
}

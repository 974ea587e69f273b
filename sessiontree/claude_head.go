package sessiontree

import (
	"bytes"

	"canopy/internal/fastpath"
)

// What the load reads of a Claude Code line, with the walker (walker.go):
// the line is checked first (fastpath.ScanJSON), so the walk only has to find the
// members. Every member is lenient: a value of the wrong type reads as
// absent, never costs the line.

// claudeHead is what the load reads of one line.
type claudeHead struct {
	image bool // the line holds a picture (fastpath.ScanJSON)

	Type, Subtype, Timestamp, SessionID, Cwd, Version lstr

	UUID, ParentUUID, LogicalParentUUID optStr

	Sidechain, Meta, CompactSummary, APIError lbool

	Summary, LeafUUID, CustomTitle, AITitle, AgentName lstr

	AgentID     lstr // a subagent's lines: the agent's id
	UsedAgentID lstr // toolUseResult.agentId: the subagent a Task/Agent call ran

	PreTokens lnum // compactMetadata.preTokens
	CostUSD   lnum // old versions: the cost of an assistant message

	Content    []byte // "content" of a system line, raw: valid while the line is
	Attachment struct{ Type, HookName, HookEvent lstr }
	Msg        claudeHeadMessage
}

// claudeHeadMessage is what the load reads of a line's "message".
type claudeHeadMessage struct {
	Set                         bool
	ID, Role, Model, StopReason lstr
	Usage                       claudeUsage
	Content                     []byte        // raw: valid while the line is
	Blocks                      claudeContent // what Content holds
}

// claudeUsage is an Anthropic usage object.
type claudeUsage struct {
	Set                                     bool
	Input, Output, CacheRead, CacheCreation lnum
	CacheCreation1h                         lnum // cache_creation.ephemeral_1h_input_tokens
}

// usage is u as pi records it; nil when there was none.
func (u *claudeUsage) usage(costUSD lnum) *Usage {
	if !u.Set {
		return nil
	}
	in, out, cr, cw := float64(u.Input), float64(u.Output), float64(u.CacheRead), float64(u.CacheCreation)
	return &Usage{Input: in, Output: out, CacheRead: cr, CacheWrite: cw, TotalTokens: in + out + cr + cw,
		Cost: UsageCost{Total: float64(costUSD)}, CacheWrite1h: float64(u.CacheCreation1h)}
}

// decodeClaudeHead decodes one trimmed line. An error means it is not JSON,
// or not a JSON object.
func decodeClaudeHead(raw []byte, h *claudeHead) error {
	if len(raw) == 0 || raw[0] != '{' {
		var x head
		return decodeHead(raw, &x) // the same errors as pi's lines
	}
	valid, image := fastpath.ScanJSON(raw)
	if !valid {
		var x head
		return decodeHead(raw, &x)
	}
	h.image = image
	w := walker{b: raw}
	if _, err := w.object(func(name []byte) error { return w.claudeMember(string(name), h) }); err != nil {
		return err
	}
	return w.end()
}

func (w *walker) claudeMember(name string, h *claudeHead) error {
	switch name {
	case "type":
		return w.lstr(&h.Type)
	case "subtype":
		return w.lstr(&h.Subtype)
	case "timestamp":
		return w.lstr(&h.Timestamp)
	case "sessionId":
		return w.lstr(&h.SessionID)
	case "cwd":
		return w.lstr(&h.Cwd)
	case "version":
		return w.lstr(&h.Version)
	case "uuid":
		return w.optStr(&h.UUID)
	case "parentUuid":
		return w.optStr(&h.ParentUUID)
	case "logicalParentUuid":
		return w.optStr(&h.LogicalParentUUID)
	case "isSidechain":
		return w.lbool(&h.Sidechain)
	case "isMeta":
		return w.lbool(&h.Meta)
	case "isCompactSummary":
		return w.lbool(&h.CompactSummary)
	case "isApiErrorMessage":
		return w.lbool(&h.APIError)
	case "summary":
		return w.lstr(&h.Summary)
	case "leafUuid":
		return w.lstr(&h.LeafUUID)
	case "customTitle":
		return w.lstr(&h.CustomTitle)
	case "aiTitle":
		return w.lstr(&h.AITitle)
	case "agentName":
		return w.lstr(&h.AgentName)
	case "costUSD":
		return w.lnum(&h.CostUSD)
	case "agentId":
		return w.lstr(&h.AgentID)
	case "toolUseResult":
		return w.members(func(n string) error {
			if n == "agentId" {
				return w.lstr(&h.UsedAgentID)
			}
			return w.skip()
		})
	case "content":
		raw, err := w.rawValue()
		h.Content = raw
		return err
	case "compactMetadata":
		return w.members(func(n string) error {
			if n == "preTokens" {
				return w.lnum(&h.PreTokens)
			}
			return w.skip()
		})
	case "attachment":
		a := &h.Attachment
		return w.members(func(n string) error {
			switch n {
			case "type":
				return w.lstr(&a.Type)
			case "hookName":
				return w.lstr(&a.HookName)
			case "hookEvent":
				return w.lstr(&a.HookEvent)
			}
			return w.skip()
		})
	case "message":
		return w.claudeMessage(&h.Msg)
	}
	return w.skip()
}

// members reads an object's members with field; any other value is
// skipped.
func (w *walker) members(field func(name string) error) error {
	if w.kind() != '{' {
		return w.skip()
	}
	_, err := w.object(func(name []byte) error { return field(string(name)) })
	return err
}

func (w *walker) claudeMessage(m *claudeHeadMessage) error {
	*m = claudeHeadMessage{Set: w.kind() == '{'}
	return w.members(func(n string) error {
		switch n {
		case "id":
			return w.lstr(&m.ID)
		case "role":
			return w.lstr(&m.Role)
		case "model":
			return w.lstr(&m.Model)
		case "stop_reason":
			return w.lstr(&m.StopReason)
		case "content":
			// Read once: a tool result's text can be most of the line.
			w.ws()
			start := w.i
			c, err := w.content()
			m.Content, m.Blocks = w.b[start:w.i], c
			return err
		case "usage":
			u := &m.Usage
			*u = claudeUsage{Set: w.kind() == '{'}
			return w.members(func(n string) error {
				switch n {
				case "input_tokens":
					return w.lnum(&u.Input)
				case "output_tokens":
					return w.lnum(&u.Output)
				case "cache_read_input_tokens":
					return w.lnum(&u.CacheRead)
				case "cache_creation_input_tokens":
					return w.lnum(&u.CacheCreation)
				case "cache_creation":
					return w.members(func(n string) error {
						if n == "ephemeral_1h_input_tokens" {
							return w.lnum(&u.CacheCreation1h)
						}
						return w.skip()
					})
				}
				return w.skip()
			})
		}
		return w.skip()
	})
}

// claudeContent is what the load reads of a message's content.
type claudeContent struct {
	callIDs   []string    // tool_use blocks' ids (non-empty), in order
	callNames []string    // and their tools' names, as canopy shows them
	calls     int         // tool_use blocks
	result    string      // the first tool_result's tool_use_id
	results   int         // tool_result blocks
	more      []string    // the other tool_results' tool_use_ids, when there are several
	agents    []agentCall // the calls that run a subagent (Task, Agent)
	wrapper   wrapper     // what the text (the first text block) is wrapped in
}

// content reads a message's content: a string or an array of blocks
// (anything else is skipped).
func (w *walker) content() (claudeContent, error) {
	var c claudeContent
	switch w.kind() {
	case '"':
		raw, err := w.rawString()
		c.wrapper = wrapperOf(raw)
		return c, err
	case '[':
	default:
		return c, w.skip()
	}
	sawText := false
	err := w.array(func() error {
		var typ, id, name, useID lstr
		var text, input []byte
		err := w.members(func(n string) error {
			switch n {
			case "type":
				return w.lstr(&typ)
			case "id":
				return w.lstr(&id)
			case "name":
				return w.lstr(&name)
			case "tool_use_id":
				return w.lstr(&useID)
			case "text":
				raw, err := w.rawValue()
				text = raw
				return err
			case "input":
				raw, err := w.rawValue()
				input = raw
				return err
			}
			return w.skip()
		})
		switch typ {
		case "tool_use", "server_tool_use":
			c.calls++
			if id != "" {
				c.callIDs = append(c.callIDs, string(id))
				c.callNames = append(c.callNames, claudeToolName(string(name)))
			}
			if id != "" && isAgentTool(string(name)) {
				c.agents = append(c.agents, agentCall{id: string(id), prompt: inputPrompt(input)})
			}
		case "tool_result":
			if c.results++; c.results == 1 {
				c.result = string(useID)
			} else {
				c.more = append(c.more, string(useID))
			}
		case "text":
			if !sawText {
				sawText, c.wrapper = true, wrapperOf(text)
			}
		}
		return err
	})
	return c, err
}

// agentCall is a call that runs a subagent: its id and the prompt it
// gave the subagent, what the subagent's first message says.
type agentCall struct{ id, prompt string }

// isAgentTool tells the tools that run a subagent: Task, named Agent
// since Claude Code 2.1.
func isAgentTool(name string) bool { return name == "Task" || name == "Agent" }

// inputPrompt is the "prompt" of a call's input (raw JSON), if a string.
func inputPrompt(input []byte) string {
	var p lstr
	w := walker{b: input}
	if w.kind() != '{' {
		return ""
	}
	w.members(func(n string) error {
		if n == "prompt" {
			return w.lstr(&p)
		}
		return w.skip()
	})
	return string(p)
}

// wrapper is what Claude Code wraps some user text in: a slash command
// the user typed, its output, a shell command typed with "!", or the
// caveat it puts before a command's output.
type wrapper int

const (
	wrapNone wrapper = iota
	wrapCommand
	wrapCommandOutput
	wrapBashInput
	wrapBashOutput
	wrapCaveat
)

var wrapperTags = []struct {
	tag string
	w   wrapper
}{
	{"<command-name>", wrapCommand}, {"<command-message>", wrapCommand}, {"<command-args>", wrapCommand},
	{"<local-command-stdout>", wrapCommandOutput}, {"<local-command-stderr>", wrapCommandOutput},
	{"<bash-input>", wrapBashInput},
	{"<bash-stdout>", wrapBashOutput}, {"<bash-stderr>", wrapBashOutput},
	{"<local-command-caveat>", wrapCaveat},
}

// wrapperOf tells what a raw JSON string starts with, past white space.
func wrapperOf(raw []byte) wrapper {
	raw = rawStringText(raw)
	if len(raw) == 0 {
		return wrapNone
	}
	for _, t := range wrapperTags {
		if bytes.HasPrefix(raw, []byte(t.tag)) {
			return t.w
		}
	}
	return wrapNone
}

// claudeToolName is the name canopy shows a Claude Code tool by: the
// name of pi's tool that does the same, whose card the page knows how to
// draw (a read as highlighted code, an edit as a diff), else its own.
func claudeToolName(n string) string {
	switch n {
	case "Bash":
		return "bash"
	case "Read":
		return "read"
	case "Write":
		return "write"
	case "Edit", "MultiEdit":
		return "edit"
	case "Glob":
		return "find"
	case "Grep":
		return "grep"
	case "LS":
		return "ls"
	case "WebFetch":
		return "web_fetch"
	case "WebSearch", "web_search":
		return "web_search"
	}
	return n
}

package sessiontree

import (
	"bytes"

	"canopy/internal/fastpath"
)

// What the load reads of a Claude Code line, with the walker (walker.go):
// the line is checked first (fastpath.ScanJSON), so the walk only has to find the
// members. Every member is lenient: a value of the wrong type reads as
// absent, never costs the line.

// claudeHead is what the load reads of one line. Its fields are declared
// here, once: the walker's switch that reads them is generated from their
// tags (walk_gen.go).
//
//sessiontree:walk
type claudeHead struct {
	image bool // the line holds a picture (fastpath.ScanJSON)

	Type      lstr `json:"type"`
	Subtype   lstr `json:"subtype"`
	Timestamp lstr `json:"timestamp"`
	SessionID lstr `json:"sessionId"`
	Cwd       lstr `json:"cwd"`
	Version   lstr `json:"version"`

	UUID              optStr `json:"uuid"`
	ParentUUID        optStr `json:"parentUuid"`
	LogicalParentUUID optStr `json:"logicalParentUuid"`

	Sidechain      lbool `json:"isSidechain"`
	Meta           lbool `json:"isMeta"`
	CompactSummary lbool `json:"isCompactSummary"`
	APIError       lbool `json:"isApiErrorMessage"`

	Summary     lstr `json:"summary"`
	LeafUUID    lstr `json:"leafUuid"`
	CustomTitle lstr `json:"customTitle"`
	AITitle     lstr `json:"aiTitle"`
	AgentName   lstr `json:"agentName"`
	CostUSD     lnum `json:"costUSD"`               // old versions: the cost of an assistant message
	AgentID     lstr `json:"agentId"`               // a subagent's lines: the agent's id
	UsedAgentID lstr `json:"toolUseResult.agentId"` // the subagent a Task/Agent call ran

	Content   []byte `json:"content"` // of a system line, raw: valid while the line is
	PreTokens lnum   `json:"compactMetadata.preTokens"`

	AttachmentType lstr `json:"attachment.type"`
	HookName       lstr `json:"attachment.hookName"`
	HookEvent      lstr `json:"attachment.hookEvent"`

	Msg claudeHeadMessage `json:"message"`
}

// claudeHeadMessage is what the load reads of a line's "message".
//
//sessiontree:walk
type claudeHeadMessage struct {
	Set        bool
	ID         lstr              `json:"id"`
	Role       lstr              `json:"role"`
	Model      lstr              `json:"model"`
	StopReason lstr              `json:"stop_reason"`
	Usage      claudeUsage       `json:"usage"`
	Content    claudeHeadContent `json:"content"`
}

// claudeUsage is an Anthropic usage object.
//
//sessiontree:walk
type claudeUsage struct {
	Set             bool
	Input           lnum `json:"input_tokens"`
	Output          lnum `json:"output_tokens"`
	CacheRead       lnum `json:"cache_read_input_tokens"`
	CacheCreation   lnum `json:"cache_creation_input_tokens"`
	CacheCreation1h lnum `json:"cache_creation.ephemeral_1h_input_tokens"`
}

// claudeHeadContent is a message's content, raw (valid while the line
// is), and what the load reads of it, read once: a tool result's text can
// be most of the line.
type claudeHeadContent struct {
	Raw    []byte
	Blocks claudeContent
}

func (w *walker) claudeHeadContent(c *claudeHeadContent) error {
	w.ws()
	start := w.i
	blocks, err := w.content()
	c.Raw, c.Blocks = w.b[start:w.i], blocks
	return err
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
	if _, err := w.objectClaudeHead(h); err != nil {
		return err
	}
	return w.end()
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

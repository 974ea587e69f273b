package sessiontree

import (
	"strconv"
	"strings"
)

// claudeReader reads a Claude Code transcript
// (~/.claude/projects/<project>/<session>.jsonl, and a subagent's
// agent-<id>.jsonl): one JSON object per line. The format is itself a
// tree: an entry's id is its "uuid", its parent its "parentUuid".
//
// The rules, as this reader applies them:
//   - A compact_boundary (a system line whose parentUuid is null) is a
//     compaction, the child of its logicalParentUuid, so that the whole
//     history is one tree; its summary is the isCompactSummary user
//     message that follows it (itself a hidden custom message).
//   - An assistant reply streamed over several lines (the same message.id,
//     one content block each) reads as one turn: its first line holds
//     the whole reply (content, calls, usage, stop reason); the others
//     are entries of their own that Continue it, with no content.
//   - The leaf is the last message of the main chain (a user or assistant
//     line that is not isSidechain), what claude --resume continues.
//   - The name is the last custom-title, else ai-title, else agent-name,
//     else the summary line whose leafUuid is an entry of this file.
//   - Lines that are no message (progress, file-history-snapshot,
//     queue-operation, titles, unknown types) are kept as entries of type
//     "custom" (extension state: never sent to the model), the line as
//     their data; those without a uuid are roots, with the id L<n>.
//   - Bookkeeping (Entry.Bookkeeping, never a branch): every line that is
//     no message (progress, file-history-snapshot, queue-operation,
//     titles, summaries, attachments, system records of no text), hook
//     records (hook_* attachments) and system notices (api_error,
//     stop_hook_summary, informational text).
//   - An entry whose parent is not in the file (a compaction's
//     logicalParentUuid, a line lost to an edit or a rewind) follows the
//     entry of the session's conversation before it that is not
//     bookkeeping (Entry.ParentGuessed), rather than becoming a root.
//   - Messages are decoded into pi's shapes (claude_body.go): roles user,
//     assistant, toolResult, bashExecution and custom; blocks text,
//     thinking, image and toolCall, with tools named as pi's
//     (claudeToolName).
type claudeReader struct{}

func (claudeReader) detect(p *probe) bool { return p.classify() == kindClaude }

func (claudeReader) agent() Agent {
	return Agent{
		Formats:   []string{FormatClaude},
		StateName: "Claude Code record",
		// <project>/<session>.jsonl and its subagents (subagents.go)
		Dirs:      []string{".claude/projects"},
		Subagents: true, ProjectDirs: true,
		// "<synthetic>" messages (API errors) have no model
		EstimateCost: true, NoModelUnbilled: true,
		// Write, Edit and MultiEdit are decoded as pi's write and edit
		FileTools: []string{"NotebookEdit"},
	}
}

// claudeLine is one line of a transcript and what decoding it gave.
type claudeLine struct {
	rawLine
	entry   *Entry
	err     error
	blank   bool
	image   bool
	main    bool // a message of the main chain: a leaf candidate
	msgLine bool // a user or assistant line: a message of any chain

	msgID     string   // an assistant line's message.id
	callNames []string // its calls' tools, as entry.CallIDs
	sidechain bool

	agentID string // the subagent the line is of (its agentId)

	custom          string // a custom entry's or message's type
	display, notice bool

	sessionID, cwd, version string
	x                       *claudeExtra // what only a few lines carry
}

// claudeExtra holds what only titles, summaries, compactions and the
// lines that tie subagents and results to their calls carry.
type claudeExtra struct {
	customTitle, aiTitle, agentName string
	summary, leafUUID               string
	compactText                     string // an isCompactSummary message's text
	preTokens                       float64
	compactSummary                  bool

	moreResults []string    // a user line's tool_results after its first
	usedAgent   string      // the subagent a result's call ran (toolUseResult.agentId)
	agents      []agentCall // the calls of an assistant line that run a subagent
	prompt      string      // a sidechain's first message: its text
}

func (l *claudeLine) extra() *claudeExtra {
	if l.x == nil {
		l.x = &claudeExtra{}
	}
	return l.x
}

// decodeRaw decodes a transcript line into l and e, its entry.
func (l *claudeLine) decodeRaw(raw rawLine, e *Entry, src *source, it interner) {
	l.rawLine, l.entry = raw, e
	l.decode(src)
	it.entry(e)
	for _, s := range []*string{&l.sessionID, &l.cwd, &l.version, &l.agentID} {
		it.str(s)
	}
	l.text = nil
}

// decode decodes the line into its entry.
func (l *claudeLine) decode(src *source) {
	text, lead := trimSpace(l.text)
	if len(text) == 0 {
		l.blank = true
		return
	}
	var h claudeHead
	if err := decodeClaudeHead(text, &h); err != nil {
		l.err = err
		return
	}
	e := l.entry
	e.start(&l.rawLine, src, lead, text, string(h.Timestamp))
	e.ID, e.ParentID = h.UUID.V, h.ParentUUID.V
	if e.ID == "" {
		e.ID = "L" + strconv.Itoa(e.Line)
	}
	l.image, l.sidechain = h.image, bool(h.Sidechain)
	l.sessionID, l.cwd, l.version = string(h.SessionID), string(h.Cwd), string(h.Version)
	l.agentID = string(h.AgentID)
	if h.UsedAgentID != "" {
		l.extra().usedAgent = string(h.UsedAgentID)
	}
	switch typ := string(h.Type); {
	case typ == "assistant" && h.Msg.Set:
		l.assistant(&h)
	case typ == "user" && h.Msg.Set:
		l.user(&h)
	case typ == "system":
		l.system(&h)
	case typ == "attachment" && strings.HasPrefix(string(h.AttachmentType), "hook_"):
		name := string(h.HookName)
		if name == "" {
			name = string(h.HookEvent)
		}
		l.message(RoleCustom, "hook"+prefixed(": ", name), false, false)
		e.Bookkeeping = true
	case typ == "attachment":
		l.meta("attachment" + prefixed(": ", string(h.AttachmentType)))
	default:
		l.metaLine(typ, &h)
	}
}

func prefixed(sep, s string) string {
	if s == "" {
		return ""
	}
	return sep + s
}

// message makes the line a message of the role; custom, display and notice
// are a custom message's.
func (l *claudeLine) message(role, custom string, display, notice bool) {
	l.entry.Type, l.entry.Role = TypeMessage, role
	l.custom, l.display, l.notice = custom, display, notice
}

// meta makes the line an entry that is no message: extension state, kept
// to be viewed as it is written.
func (l *claudeLine) meta(what string) {
	l.entry.Type, l.custom = TypeCustom, what
	l.entry.Bookkeeping = true
}

func (l *claudeLine) assistant(h *claudeHead) {
	e := l.entry
	l.message(RoleAssistant, "", false, false)
	l.main, l.msgLine = !l.sidechain, true
	l.msgID = string(h.Msg.ID)
	if m := string(h.Msg.Model); m != "" && m != "<synthetic>" {
		e.Provider, e.Model = "anthropic", m
	}
	e.StopReason = claudeStopReason(string(h.Msg.StopReason))
	if h.APIError {
		e.StopReason = "error"
	}
	e.Usage = h.Msg.Usage.usage(h.CostUSD)
	c := &h.Msg.Content.Blocks
	e.CallIDs, e.ToolCalls, l.callNames = c.callIDs, c.calls, c.callNames
	if len(c.agents) > 0 {
		l.extra().agents = c.agents
	}
}

// claudeStopReason is an Anthropic stop_reason as pi words it.
func claudeStopReason(r string) string {
	switch r {
	case "end_turn", "stop_sequence", "pause_turn":
		return "stop"
	case "tool_use":
		return "toolUse"
	case "max_tokens":
		return "length"
	}
	return r // "" while a reply streams; refusal and what comes next as they are
}

func (l *claudeLine) user(h *claudeHead) {
	l.main, l.msgLine = !l.sidechain, true
	c := &h.Msg.Content.Blocks
	if l.sidechain && l.entry.ParentID == "" {
		// The prompt a subagent was given: what ties a sidechain to the
		// call that ran it when nothing else does (claude_agents.go).
		l.extra().prompt = contentText(h.Msg.Content.Raw)
	}
	switch {
	case bool(h.CompactSummary):
		l.message(RoleCustom, "compact summary", false, true)
		x := l.extra()
		x.compactSummary, x.compactText = true, contentText(h.Msg.Content.Raw)
	case c.results > 0:
		l.message(RoleToolResult, "", false, false)
		l.entry.ToolCallID = c.result
		if len(c.more) > 0 {
			l.extra().moreResults = c.more
		}
	case c.wrapper == wrapCaveat:
		l.message(RoleCustom, "command caveat", false, false)
	case bool(h.Meta):
		l.message(RoleCustom, "meta", false, false)
	case c.wrapper == wrapCommandOutput, c.wrapper == wrapBashOutput:
		l.message(RoleCustom, CustomCommandOutput, true, false)
	case c.wrapper == wrapBashInput:
		l.message(RoleBashExecution, "", false, false)
	default: // typed text, and slash commands (shown as typed)
		l.message(RoleUser, "", false, false)
	}
}

// system reads a system line: a compaction boundary, a command the user
// ran, or a notice (an API error being retried, a hook's summary).
func (l *claudeLine) system(h *claudeHead) {
	sub := string(h.Subtype)
	isText := len(h.Content) > 0 && h.Content[0] == '"'
	switch {
	case sub == "compact_boundary":
		e := l.entry
		e.Type = TypeCompaction
		if e.ParentID == "" {
			e.ParentID = h.LogicalParentUUID.V
		}
		l.extra().preTokens = float64(h.PreTokens)
	case sub == "local_command" && wrapperOf(h.Content) == wrapCommand:
		l.message(RoleUser, "", false, true)
	case sub == "local_command" && isText:
		l.message(RoleCustom, CustomCommandOutput, true, true)
	case isText || sub == "api_error" || sub == "stop_hook_summary":
		if sub == "" {
			sub = "system"
		}
		l.message(RoleCustom, sub, true, true)
		l.entry.Bookkeeping = true
	default:
		l.meta("system" + prefixed(": ", sub))
	}
}

// metaLine reads a line that is no message: a title, a summary, or
// bookkeeping.
func (l *claudeLine) metaLine(typ string, h *claudeHead) {
	l.meta(typ)
	if typ == "" {
		l.custom = "line"
	}
	switch typ {
	case "custom-title":
		l.extra().customTitle = string(h.CustomTitle)
	case "ai-title":
		l.extra().aiTitle = string(h.AITitle)
	case "agent-name":
		l.extra().agentName = string(h.AgentName)
	case "summary":
		x := l.extra()
		x.summary, x.leafUUID = string(h.Summary), string(h.LeafUUID)
	}
}

// contentText is the text of a message's content: a string, or its text
// blocks joined.
func contentText(raw []byte) string {
	b, err := claudeBlocks(raw)
	if err != nil {
		return ""
	}
	var parts []string
	for _, blk := range b {
		if blk.Type == "text" {
			parts = append(parts, blk.Text)
		}
	}
	return strings.Join(parts, "\n\n")
}

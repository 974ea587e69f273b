package sessiontree

// codexState is what reading a rollout's lines in order gathers.
type codexState struct {
	s      *Session
	header int // the index of the line that is the header, -1 when none
	// Whether the rollout has response items of each kind the events
	// repeat: the events are then the repeats.
	hasUser, hasAgent, hasReasoning bool

	prev          *Entry // the entry before, the parent of the next
	model, effort string // the last turn_context's
	provider      string
	replied       *Entry // the last entry the model wrote, for its usage
	// head is the first item of the reply being written (its reasoning,
	// calls and message are one turn of speech: one card), nil when the
	// last entry that is not bookkeeping was no reply item.
	head            *Entry
	total, lastUsed float64
	details         map[detailKey]*Detail
	names           map[string]string // each call's tool, by call id
	searches        []*Entry          // web searches whose result is still to come
	dec             *codexDecoder
}

func newCodexState(s *Session, lines []codexLine) *codexState {
	c := &codexState{s: s, header: -1, provider: "openai", details: map[detailKey]*Detail{},
		names: map[string]string{}, dec: &codexDecoder{calls: map[string]*Entry{}, groups: map[*Entry][]*Entry{}}}
	seen := false // a line that is an object
	for i := range lines {
		l := &lines[i]
		if l.blank || l.err != nil {
			continue
		}
		if !seen && l.kind == cSessionMeta {
			c.header = i
		}
		seen = true
		switch l.kind {
		case cUser:
			c.hasUser = true
		case cAssistant:
			c.hasAgent = true
		case cReasoning:
			c.hasReasoning = true
		}
	}
	return c
}

// line keeps one line's entry (the header's is none), or reports why it
// was skipped.
func (c *codexState) line(l *codexLine, isHeader bool) {
	s := c.s
	switch {
	case s.skipped(&l.rawLine, l.blank, l.err):
		return
	case isHeader:
		c.takeHeader(l)
		return
	}
	e := l.entry
	// A rollout of before September 2025 names its directory only in the
	// environment context Codex sends the model.
	s.Header.Cwd = firstOf(s.Header.Cwd, l.cwd)
	// HasImages stays false: it tells of pi's picture blocks ("type":
	// "image"), which a rollout does not have; its pictures are data URLs.
	c.resolve(l)
	// Bookkeeping: the token counts, task events, the events that repeat
	// an item, everything else kept as extension state, and the turn
	// contexts, even those that change the model.
	e.Bookkeeping = e.Type == TypeCustom || l.kind == cTurnContext
	c.turn(l)
	e.Detail = c.detail(l)
	if c.prev != nil {
		e.ParentID = c.prev.ID
	}
	c.prev = e
	s.keep(e)
}

// takeHeader reads the session_meta that starts the rollout.
func (c *codexState) takeHeader(l *codexLine) {
	h, p := &c.s.Header, l.p
	h.ID, h.Cwd, h.Timestamp, h.Line = string(p.ID), string(p.Cwd), l.entry.Timestamp, int(l.n)
	c.s.FormatVersion = string(p.CLIVersion)
	if p.Provider != "" {
		c.provider = string(p.Provider)
	}
	h.Raw = l.raw // the line, kept at decode: the input cannot be read again during the load
}

// resolve decides what depends on the lines before: whether an event
// repeats a response item, what a turn_context changes, the model of a
// reply, and which reply a token count is the usage of.
func (c *codexState) resolve(l *codexLine) {
	e := l.entry
	switch l.kind {
	case cEventUser, cEventAgent, cEventReasoning:
		if l.kind == cEventUser && c.hasUser || l.kind == cEventAgent && c.hasAgent || l.kind == cEventReasoning && c.hasReasoning {
			l.kind, l.custom = cMeta, "event_msg: "+codexEventName[l.kind]
			e.Type, e.Role, e.StopReason = TypeCustom, "", ""
		}
	case cSessionMeta:
		l.kind, l.custom, e.Type = cMeta, "session_meta", TypeCustom
	case cTurnContext:
		c.turnContext(l)
	case cTokenCount:
		e.Type, l.custom = TypeCustom, "event_msg: token_count"
		c.tokenCount(l.p)
	case cCall:
		c.names[e.CallIDs[0]] = l.callName
		switch l.callName {
		case "edit":
			c.dec.calls[e.CallIDs[0]] = e
		case "web_search":
			c.searches = append(c.searches, e)
		}
	case cResult:
		e.ToolName = c.names[e.ToolCallID]
	case cSearchEnd:
		c.searchEnd(l)
	case cMeta:
		e.Type, e.Role, e.StopReason = TypeCustom, "", ""
	}
	if e.Type == TypeMessage && e.Role == RoleAssistant {
		if c.model != "" { // a rollout of before September 2025 names none
			e.Provider, e.Model = c.provider, c.model
		}
		if l.kind != cError && l.kind != cAborted {
			c.replied = e
		}
	}
}

// turn makes the items of one reply (reasoning, calls, the message, with
// no result or prompt between them) one turn of speech, as a reply Claude
// Code streams over several lines is: the first item holds the turn (its
// calls counted there, its usage given to it), the later ones Continue
// it and are drawn in its card, each keeping its own line, id and calls.
// Bookkeeping between them (token counts, events) does not end a turn.
func (c *codexState) turn(l *codexLine) {
	e := l.entry
	if e.Bookkeeping {
		return
	}
	if e.Type != TypeMessage || e.Role != RoleAssistant || l.kind == cError || l.kind == cAborted {
		c.head = nil
		return
	}
	h := c.head
	if h == nil || h.Model != e.Model {
		c.head = e
		return
	}
	e.Continues = true
	h.ToolCalls += e.ToolCalls
	e.ToolCalls = 0
	if e.StopReason != "" {
		h.StopReason = e.StopReason
	}
	c.replied = h
	c.dec.groups[h] = append(c.dec.groups[h], e)
}

// searchEnd makes a web_search_end event the result of its search: the
// call with its call_id, else the last search not yet answered (a
// web_search_call item often has no id, or not the event's). An event
// that answers no search is extension state.
func (c *codexState) searchEnd(l *codexLine) {
	e := l.entry
	k := -1
	for i, s := range c.searches {
		if s.CallIDs[0] == e.ToolCallID {
			k = i
		}
	}
	if k < 0 && e.ToolCallID != "" && c.names[e.ToolCallID] == "web_search" {
		e.ToolName = "web_search" // an answered search's: a second result, paired as any
		return
	}
	if k < 0 {
		k = len(c.searches) - 1
	}
	if k < 0 {
		l.kind, l.custom = cMeta, "event_msg: web_search_end"
		e.Type, e.Role, e.ToolCallID = TypeCustom, "", ""
		return
	}
	e.ToolCallID, e.ToolName = c.searches[k].CallIDs[0], "web_search"
	c.searches = append(c.searches[:k], c.searches[k+1:]...)
}

var codexEventName = map[codexKind]string{
	cEventUser: "user_message", cEventAgent: "agent_message", cEventReasoning: "agent_reasoning",
}

// turnContext reads a turn's settings: a model_change when its model is
// new, a thinking_level_change when only its effort is, else extension
// state.
func (c *codexState) turnContext(l *codexLine) {
	e, p := l.entry, l.p
	model, effort := string(p.Model), string(p.Effort)
	switch {
	case model != "" && model != c.model:
		e.Type, e.Provider, e.Model = TypeModelChange, c.provider, model
	case effort != "" && effort != c.effort:
		e.Type = TypeThinkingLevelChange
	default:
		e.Type, l.custom = TypeCustom, "turn_context"
	}
	c.model = firstOf(model, c.model)
	c.effort = firstOf(effort, c.effort)
}

// tokenCount gives the last reply the usage of the call that made it:
// Codex counts after each call. A count that adds nothing (repeated,
// rate limits only) is no call's.
func (c *codexState) tokenCount(p *codexPayload) {
	u := p.Last.usage()
	if u == nil || float64(p.Total) <= c.total {
		return
	}
	c.total = float64(p.Total)
	c.lastUsed = u.Input + u.CacheRead + u.Output
	if r := c.replied; r != nil && r.Usage == nil {
		r.Usage = u
	}
}

// detail is the entry's Detail: its own when it says something of its
// own, else shared.
func (c *codexState) detail(l *codexLine) *Detail {
	e := l.entry
	switch {
	case e.Type == TypeCompaction:
		return &Detail{Summary: string(l.p.Message), TokensBefore: c.lastUsed}
	case e.Type == TypeSessionInfo:
		return &Detail{Name: string(l.p.ThreadName)}
	case e.Type == TypeThinkingLevelChange:
		return &Detail{ThinkingLevel: c.effort}
	}
	var k detailKey
	switch l.kind {
	case cMeta, cTokenCount, cTurnContext:
		k.custom = l.custom
	case cInjected:
		k.custom = l.custom
	case cNotice:
		k = detailKey{l.custom, true, true}
	}
	return sharedDetail(c.details, k, c.s.noDetail)
}

// finish sets what needs every line.
func (c *codexState) finish() {
	c.s.Version = majorVersion(c.s.FormatVersion)
}

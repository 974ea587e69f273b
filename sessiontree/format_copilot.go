package sessiontree

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// copilotReader reads a GitHub Copilot CLI session's event log
// (~/.copilot/session-state/<id>.jsonl, or <id>/events.jsonl): one
// {"type", "data", "id", "parentId", "timestamp"} event per line.
//
// The rules, as this reader applies them:
//   - Events form one chronological chain: each names the event before it
//     as its parent. Events the CLI does not save (streamed deltas) leave
//     parents missing: an event whose parent is not in the file, or that
//     names none, follows the event before it in the file.
//   - session.start is the header (session id, directory, CLI version) and
//     bookkeeping; user.message a prompt; assistant.message a reply, its
//     reasoningText thinking and its toolRequests tool calls;
//     assistant.reasoning thinking of its own (bookkeeping when the
//     replies carry their reasoning themselves).
//   - tool.execution_start is bookkeeping when a reply requested the call,
//     else the call itself; tool.execution_complete is its result, paired
//     by toolCallId.
//   - session.model_change is a model change; session.error a reply that
//     failed; abort one the user aborted; a successful
//     session.compaction_complete a compaction (its summaryContent).
//   - Usage: a reply's outputTokens (and inputTokens, when written) are
//     its own. session.shutdown gives each model's tokens for the run it
//     ends (modelMetrics): what the replies did not account for is given
//     to the run's last reply by that model, so that the session's total
//     is the CLI's. The input tokens it counts are taken to include those
//     read from the cache. Cost is estimated at the model's maker's API
//     price (copilotProvider); the premium requests Copilot bills are not
//     costs in dollars.
//   - Events of a subagent (data.parentToolCallId) and every other event
//     (turn boundaries, hooks, info, truncation, shutdown, ...) are
//     bookkeeping, kept as extension state.
type copilotReader struct{}

func (copilotReader) detect(p *probe) bool { return p.classify() == kindCopilot }

func (copilotReader) agent() Agent {
	return Agent{
		Formats:   []string{FormatCopilot},
		StateName: "Copilot CLI event",
		// <id>.jsonl, and <id>/events.jsonl
		Dirs:         []string{".copilot/session-state"},
		EstimateCost: true, NoModelUnbilled: true,
	}
}

// copilotProvider is the provider whose price a Copilot model is
// estimated at: the maker's own API price (Copilot bills premium requests,
// which are no cost in dollars), github-copilot for a model of no maker
// canopy knows.
func copilotProvider(model string) string {
	m := strings.ToLower(model)
	switch {
	case m == "":
		return ""
	case strings.HasPrefix(m, "claude"):
		return "anthropic"
	case strings.HasPrefix(m, "gpt") || len(m) > 1 && m[0] == 'o' && m[1] >= '1' && m[1] <= '9':
		return "openai"
	case strings.HasPrefix(m, "gemini"):
		return "google"
	case strings.HasPrefix(m, "grok"):
		return "xai"
	}
	return "github-copilot"
}

// copilotNamespaces are the namespaces of Copilot CLI's event types
// ("session.start", "tool.execution_complete"): no other format's type
// has a dot.
var copilotNamespaces = []string{"session.", "user.", "assistant.", "tool.", "subagent.", "hook.", "skill.",
	"system.", "permission.", "agent."}

// isCopilot: an event of a Copilot CLI log: a type in one of its
// namespaces (or abort), with its data.
func (sh *shape) isCopilot() bool {
	if !sh.hasAny(fData) {
		return false
	}
	if sh.typ == "abort" {
		return true
	}
	for _, ns := range copilotNamespaces {
		if strings.HasPrefix(sh.typ, ns) {
			return true
		}
	}
	return false
}

// copilotHead is what the load reads of an event.
type copilotHead struct {
	Type      lstr              `json:"type"`
	ID        lstr              `json:"id"`
	ParentID  lstr              `json:"parentId"`
	Timestamp lstr              `json:"timestamp"`
	Data      lobj[copilotData] `json:"data"`
}

type copilotData struct {
	SessionID      lstr                                 `json:"sessionId"`
	Version        lnum                                 `json:"version"`
	CopilotVersion lstr                                 `json:"copilotVersion"`
	StartTime      lstr                                 `json:"startTime"`
	Context        lobj[copilotContext]                 `json:"context"`
	SelectedModel  lstr                                 `json:"selectedModel"`
	NewModel       lstr                                 `json:"newModel"`
	Model          lstr                                 `json:"model"`
	ToolRequests   lobjs[copilotRequest]                `json:"toolRequests"`
	ToolCallID     lstr                                 `json:"toolCallId"`
	ToolName       lstr                                 `json:"toolName"`
	ParentCallID   lstr                                 `json:"parentToolCallId"`
	ReasoningText  nonEmpty                             `json:"reasoningText"`
	InputTokens    lnum                                 `json:"inputTokens"`
	OutputTokens   lnum                                 `json:"outputTokens"`
	Success        optBool                              `json:"success"`
	Summary        lstr                                 `json:"summaryContent"`
	PreTokens      lnum                                 `json:"preCompactionTokens"`
	ModelMetrics   lobj[map[string]lobj[copilotMetric]] `json:"modelMetrics"`
}

type copilotContext struct {
	Cwd lstr `json:"cwd"`
}

type copilotRequest struct {
	ToolCallID lstr `json:"toolCallId"`
	Name       lstr `json:"name"`
}

type copilotMetric struct {
	Usage lobj[struct {
		Input      lnum `json:"inputTokens"`
		Output     lnum `json:"outputTokens"`
		CacheRead  lnum `json:"cacheReadTokens"`
		CacheWrite lnum `json:"cacheWriteTokens"`
	}] `json:"usage"`
}

// nonEmpty records that a member is a string that is not empty.
type nonEmpty bool

func (n *nonEmpty) UnmarshalJSONFrom(d *jsontext.Decoder) error {
	var s lstr
	err := s.UnmarshalJSONFrom(d)
	*n = s != ""
	return err
}

// optBool is a boolean member that may be absent.
type optBool struct {
	Set, V bool
}

func (o *optBool) UnmarshalJSONFrom(d *jsontext.Decoder) error {
	var b lbool
	o.Set = d.PeekKind() == 't' || d.PeekKind() == 'f'
	err := b.UnmarshalJSONFrom(d)
	o.V = bool(b)
	return err
}

// copilotLine is one event and what decoding it gave.
type copilotLine struct {
	rawLine
	entry *Entry
	err   error
	blank bool
	typ   string
	h     *copilotData // the data the reading in order needs
}

func (l *copilotLine) decodeRaw(raw rawLine, e *Entry, src *source, it interner) {
	l.rawLine, l.entry = raw, e
	l.decode(src)
	it.entry(e)
	it.str(&l.typ)
	l.text = nil
}

func (l *copilotLine) decode(src *source) {
	text, lead := trimSpace(l.text)
	if len(text) == 0 {
		l.blank = true
		return
	}
	var h copilotHead
	if text[0] != '{' {
		var x head
		l.err = decodeHead(text, &x)
		return
	}
	if err := json.Unmarshal(text, &h, jsonOpts); err != nil {
		var x head
		if l.err = decodeHead(text, &x); l.err == nil {
			l.err = err
		}
		return
	}
	e := l.entry
	e.start(&l.rawLine, src, lead, text, string(h.Timestamp))
	e.ID, e.ParentID, l.typ = string(h.ID), string(h.ParentID), string(h.Type)
	d := h.Data.V
	l.h = &d
}

// read decodes every event, then reads them in order.
func (copilotReader) read(s *Session, in *input, p *probe) error {
	lines, err := decodeRecords(in, p, newSlabDecoder[copilotLine](in.src))
	if err != nil {
		return err
	}
	s.Format = FormatCopilot
	s.guessParents = true
	c := newCopilotState(s, lines)
	for i := range lines {
		c.line(&lines[i])
	}
	if len(s.Entries) == 0 {
		return fmt.Errorf("no line of this Copilot CLI log could be read: %w", ErrNotSession)
	}
	s.src.body = c.dec
	return nil
}

// copilotState is what reading the events in order gathers.
type copilotState struct {
	s              *Session
	prev           *Entry
	model          string
	reasoningInMsg bool            // some reply carries its reasoning
	requested      map[string]bool // the calls the replies requested
	names          map[string]string
	details        map[detailKey]*Detail
	// The run's replies' own usage, and its last reply, by model: what
	// a shutdown's metrics are shared out over.
	used map[string]*Usage
	last map[string]*Entry
	dec  *copilotDecoder
}

func newCopilotState(s *Session, lines []copilotLine) *copilotState {
	c := &copilotState{s: s, requested: map[string]bool{}, names: map[string]string{}, details: map[detailKey]*Detail{},
		used: map[string]*Usage{}, last: map[string]*Entry{}, dec: &copilotDecoder{kinds: map[*Entry]string{}}}
	for i := range lines {
		if l := &lines[i]; l.h != nil && l.typ == "assistant.message" && bool(l.h.ReasoningText) {
			c.reasoningInMsg = true
		}
	}
	return c
}

// line keeps one event's entry.
func (c *copilotState) line(l *copilotLine) {
	s := c.s
	if s.skipped(&l.rawLine, l.blank, l.err) {
		return
	}
	e, d := l.entry, l.h
	if e.ID == "" {
		e.ID = "L" + strconv.Itoa(e.Line)
	}
	if e.ParentID == "" && c.prev != nil {
		e.ParentID = c.prev.ID
	}
	e.Type, e.Detail = TypeMessage, s.noDetail
	custom := ""
	if d.ParentCallID != "" {
		custom = "subagent: " + l.typ
	} else {
		custom = c.event(l)
	}
	if custom != "" {
		e.Type, e.Role, e.StopReason, e.CallIDs, e.ToolCalls, e.ToolCallID = TypeCustom, "", "", nil, 0, ""
		e.Bookkeeping = true
		e.Detail = sharedDetail(c.details, detailKey{custom: custom}, s.noDetail)
	}
	c.dec.kinds[e] = l.typ
	c.prev = e
	s.keep(e)
}

// event reads an event of the session (not a subagent's): it returns the
// custom type it is kept as, "" when it is a message or a change.
func (c *copilotState) event(l *copilotLine) string {
	e, d := l.entry, l.h
	switch l.typ {
	case "session.start":
		c.start(l)
		return l.typ
	case "user.message":
		e.Role = RoleUser
	case "assistant.message":
		c.reply(e, d)
	case "assistant.reasoning":
		if c.reasoningInMsg {
			return l.typ
		}
		e.Role, e.Provider, e.Model = RoleAssistant, copilotProvider(c.model), c.model
	case "tool.execution_start":
		id := string(d.ToolCallID)
		if c.requested[id] || id == "" {
			return l.typ
		}
		c.names[id] = string(d.ToolName)
		e.Role, e.Provider, e.Model, e.CallIDs, e.ToolCalls = RoleAssistant, copilotProvider(c.model), c.model, []string{id}, 1
	case "tool.execution_complete":
		e.Role, e.ToolCallID = RoleToolResult, string(d.ToolCallID)
		e.ToolName = firstOf(c.names[e.ToolCallID], string(d.ToolName))
	case "session.model_change":
		c.model = firstOf(string(d.NewModel), c.model)
		e.Type, e.Provider, e.Model = TypeModelChange, copilotProvider(c.model), c.model
	case "session.error":
		e.Role, e.StopReason = RoleAssistant, "error"
	case "abort":
		e.Role, e.StopReason = RoleAssistant, "aborted"
	case "session.compaction_complete":
		if d.Success.Set && !d.Success.V || d.Summary == "" {
			return l.typ
		}
		e.Type, e.Detail = TypeCompaction, &Detail{Summary: string(d.Summary), TokensBefore: float64(d.PreTokens)}
	case "session.shutdown":
		c.shutdown(d)
		return l.typ
	default:
		return firstOf(l.typ, "event")
	}
	return ""
}

// start reads session.start: the header.
func (c *copilotState) start(l *copilotLine) {
	s, d := c.s, l.h
	if s.Header.ID == "" {
		s.Header.ID, s.Header.Cwd = string(d.SessionID), string(d.Context.V.Cwd)
		s.Header.Timestamp = firstOf(string(d.StartTime), l.entry.Timestamp)
		s.FormatVersion, s.Version = string(d.CopilotVersion), int(d.Version)
	}
	c.model = firstOf(string(d.SelectedModel), c.model)
}

// reply reads an assistant.message.
func (c *copilotState) reply(e *Entry, d *copilotData) {
	c.model = firstOf(string(d.Model), c.model)
	e.Role, e.Provider, e.Model = RoleAssistant, copilotProvider(c.model), c.model
	for k, r := range d.ToolRequests {
		id := firstOf(string(r.ToolCallID), e.ID+"/"+strconv.Itoa(k+1))
		e.CallIDs = append(e.CallIDs, id)
		c.requested[id] = true
		c.names[id] = string(r.Name)
	}
	e.ToolCalls = len(e.CallIDs)
	if d.InputTokens > 0 || d.OutputTokens > 0 {
		e.Usage = &Usage{Input: float64(d.InputTokens), Output: float64(d.OutputTokens),
			TotalTokens: float64(d.InputTokens) + float64(d.OutputTokens)}
		u := c.used[c.model]
		if u == nil {
			u = &Usage{}
			c.used[c.model] = u
		}
		u.add(e.Usage)
	}
	c.last[c.model] = e
}

// shutdown shares a run's metrics out: what each model's replies did not
// account for goes to its last reply of the run.
func (c *copilotState) shutdown(d *copilotData) {
	if d.ModelMetrics.Set {
		for model, m := range d.ModelMetrics.V {
			r := c.last[model]
			if r == nil || !m.Set || !m.V.Usage.Set {
				continue
			}
			t, used := &m.V.Usage.V, c.used[model]
			if used == nil {
				used = &Usage{}
			}
			cached := float64(t.CacheRead)
			rest := Usage{Input: max(0, float64(t.Input)-cached-used.Input), Output: max(0, float64(t.Output)-used.Output),
				CacheRead: cached, CacheWrite: float64(t.CacheWrite)}
			rest.TotalTokens = rest.Input + rest.Output + rest.CacheRead + rest.CacheWrite
			u := Usage{}
			u.add(r.Usage)
			u.add(&rest)
			r.Usage = &u
		}
	}
	clear(c.used)
	clear(c.last)
}

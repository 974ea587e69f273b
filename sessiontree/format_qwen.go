package sessiontree

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json"
)

// qwenReader reads a Qwen Code chat
// (~/.qwen/projects/<project>/chats/<session id>.jsonl).
//
// The rules, as this reader applies them (from Qwen Code's
// chatRecordingService, which writes them):
//   - Each line is a record with a uuid and a parentUuid: a tree, as
//     Claude Code's, whose branches are rewinds and /branch checkpoints.
//     Records are told from Claude Code's by what only Qwen Code writes:
//     a message that is a Gemini API Content (role and parts), and
//     usageMetadata, toolCallResult or systemPayload members.
//   - type user is a prompt; assistant a reply, its parts text, thoughts
//     (thinking) and function calls (tool calls), with the model and its
//     usageMetadata (usage; cost estimated from the model's price);
//     tool_result the result of a call (its functionResponse), paired by
//     the call's id.
//   - type system records are bookkeeping: a chat_compression is a
//     compaction (the summary the model then saw, the tokens before it);
//     a custom_title names the session; a session_model is a model
//     change; every other subtype is kept as extension state.
//   - A record whose parent is not in the file follows the one before it
//     (as Claude Code's).
type qwenReader struct{}

func (qwenReader) detect(p *probe) bool { return p.classify() == kindQwen }

func (qwenReader) agent() Agent {
	return Agent{
		Formats:   []string{FormatQwen},
		StateName: "Qwen Code record",
		// <project>/chats/<session id>.jsonl
		Dirs:         []string{".qwen/projects"},
		EstimateCost: true, NoModelUnbilled: true,
	}
}

// isQwen: a record of a Qwen Code chat, which has a uuid or parentUuid as
// Claude Code's do, and what only Qwen Code writes.
func (sh *shape) isQwen() bool {
	return sh.hasAny(fUUID|fParentUUID) &&
		(sh.messageParts || sh.hasAny(fQwenMetadata) || sh.typ == "tool_result")
}

// qwenHead is what the load reads of a record.
type qwenHead struct {
	UUID       optStr                `json:"uuid"`
	ParentUUID lstr                  `json:"parentUuid"`
	SessionID  lstr                  `json:"sessionId"`
	Timestamp  lstr                  `json:"timestamp"`
	Type       lstr                  `json:"type"`
	Subtype    lstr                  `json:"subtype"`
	Cwd        lstr                  `json:"cwd"`
	Version    lstr                  `json:"version"`
	Model      lstr                  `json:"model"`
	Message    lobj[qwenMessageHead] `json:"message"`
	Usage      lobj[qwenUsage]       `json:"usageMetadata"`
	Result     lobj[qwenResultHead]  `json:"toolCallResult"`
	Payload    lobj[qwenPayload]     `json:"systemPayload"`
}

type qwenMessageHead struct {
	Parts lobjs[qwenPartHead] `json:"parts"`
}

// qwenPartHead is what the load reads of a part: its calls and results.
type qwenPartHead struct {
	FunctionCall     lobj[qwenFunctionHead] `json:"functionCall"`
	FunctionResponse lobj[qwenFunctionHead] `json:"functionResponse"`
	InlineData       nonNull                `json:"inlineData"`
}

type qwenFunctionHead struct {
	ID   lstr `json:"id"`
	Name lstr `json:"name"`
}

// qwenUsage is the Gemini API's usage metadata.
type qwenUsage struct {
	Prompt     lnum `json:"promptTokenCount"`
	Candidates lnum `json:"candidatesTokenCount"`
	Cached     lnum `json:"cachedContentTokenCount"`
	Thoughts   lnum `json:"thoughtsTokenCount"`
	Tool       lnum `json:"toolUsePromptTokenCount"`
	Total      lnum `json:"totalTokenCount"`
}

type qwenResultHead struct {
	CallID lstr `json:"callId"`
}

// qwenPayload is what the load reads of a system record's payload.
type qwenPayload struct {
	CustomTitle       lstr                   `json:"customTitle"`
	ModelID           lstr                   `json:"modelId"`
	Info              lobj[qwenCompression]  `json:"info"`
	CompressedHistory lobjs[qwenContentHead] `json:"compressedHistory"`
}

type qwenCompression struct {
	Original lnum `json:"originalTokenCount"`
}

type qwenContentHead struct {
	Role  lstr             `json:"role"`
	Parts lobjs[genaiPart] `json:"parts"`
}

// qwenLine is one line and what decoding it gave.
type qwenLine struct {
	rawLine
	entry *Entry
	err   error
	blank bool
	image bool

	sessionID, cwd, version string
	custom, name, summary   string
	tokensBefore            float64
}

func (l *qwenLine) decodeRaw(raw rawLine, e *Entry, src *source, it interner) {
	l.rawLine, l.entry = raw, e
	l.decode(src)
	it.entry(e)
	it.str(&l.custom)
	it.str(&l.version)
	it.str(&l.sessionID)
	it.str(&l.cwd)
	l.text = nil
}

func (l *qwenLine) decode(src *source) {
	text, lead := trimSpace(l.text)
	if len(text) == 0 {
		l.blank = true
		return
	}
	var h qwenHead
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
	e.ID, e.ParentID, e.Type = h.UUID.V, string(h.ParentUUID), TypeMessage
	l.sessionID, l.cwd, l.version = string(h.SessionID), string(h.Cwd), string(h.Version)
	parts := h.Message.V.Parts
	for _, p := range parts {
		l.image = l.image || bool(p.InlineData)
	}
	switch typ := string(h.Type); typ {
	case "user":
		e.Role = RoleUser
	case "assistant":
		e.Role, e.Model = RoleAssistant, string(h.Model)
		e.Provider = qwenProvider(e.Model)
		if u := &h.Usage; u.Set {
			v := &u.V
			e.Usage = genaiUsage(v.Prompt, v.Candidates, v.Cached, v.Thoughts, v.Tool, v.Total)
		}
		for _, p := range parts {
			if c := &p.FunctionCall; c.Set {
				e.CallIDs = append(e.CallIDs, firstOf(string(c.V.ID), e.ID+"/"+strconv.Itoa(len(e.CallIDs)+1)))
			}
		}
		e.ToolCalls = len(e.CallIDs)
	case "tool_result":
		e.Role, e.ToolCallID = RoleToolResult, string(h.Result.V.CallID)
		for _, p := range parts {
			if r := &p.FunctionResponse; r.Set {
				e.ToolCallID = firstOf(e.ToolCallID, string(r.V.ID))
				e.ToolName = genaiToolName(string(r.V.Name))
				break
			}
		}
	case "system":
		l.system(&h)
	default:
		e.Type, l.custom = TypeCustom, firstOf(typ, "record")
	}
	e.Bookkeeping = e.Type != TypeMessage && e.Type != TypeCompaction
}

// system reads a system record.
func (l *qwenLine) system(h *qwenHead) {
	e, p := l.entry, &h.Payload.V
	switch sub := string(h.Subtype); sub {
	case "chat_compression":
		e.Type, l.tokensBefore = TypeCompaction, float64(p.Info.V.Original)
		for _, c := range p.CompressedHistory {
			if t := genaiText(c.Parts); t != "" {
				l.summary = t // the first turn with text: the summary
				break
			}
		}
	case "custom_title":
		e.Type, l.name = TypeSessionInfo, string(p.CustomTitle)
	case "session_model":
		e.Type, e.Model = TypeModelChange, string(p.ModelID)
		e.Provider = qwenProvider(e.Model)
	default:
		e.Type, l.custom = TypeCustom, "system"+prefixed(": ", sub)
	}
}

// read decodes every line, then keeps them in file order.
func (qwenReader) read(s *Session, in *input, p *probe) error {
	lines, err := decodeRecords(in, p, newSlabDecoder[qwenLine](in.src))
	if err != nil {
		return err
	}
	s.Format = FormatQwen
	s.guessParents = true
	details := map[detailKey]*Detail{}
	for i := range lines {
		l := &lines[i]
		if s.skipped(&l.rawLine, l.blank, l.err) {
			continue
		}
		e := l.entry
		if e.ID == "" {
			e.ID = "L" + strconv.Itoa(e.Line)
			s.diag(e.Line, SevWarning, "record has no uuid; using %s", e.ID)
		}
		h := &s.Header
		h.ID, h.Cwd, h.Timestamp = firstOf(h.ID, l.sessionID), firstOf(h.Cwd, l.cwd), firstOf(h.Timestamp, e.Timestamp)
		s.FormatVersion = firstOf(l.version, s.FormatVersion)
		s.HasImages = s.HasImages || l.image
		switch e.Type {
		case TypeCompaction:
			e.Detail = &Detail{Summary: l.summary, TokensBefore: l.tokensBefore}
		case TypeSessionInfo:
			e.Detail = &Detail{Name: l.name}
		default:
			e.Detail = sharedDetail(details, detailKey{custom: l.custom}, s.noDetail)
		}
		s.keep(e)
	}
	if len(s.Entries) == 0 {
		return fmt.Errorf("no line of this Qwen Code chat could be read: %w", ErrNotSession)
	}
	s.Version = majorVersion(s.FormatVersion)
	s.src.body = qwenDecoder{}
	return nil
}

// qwenProvider names the provider of Qwen's own models (qwen, qwq), which
// Qwen Code records by model alone; a model of another maker (Qwen Code
// speaks to any OpenAI-compatible API) is left to the price table to
// recognise.
func qwenProvider(model string) string {
	m := strings.ToLower(model)
	if strings.HasPrefix(m, "qwen") || strings.HasPrefix(m, "qwq") {
		return "qwen"
	}
	return ""
}

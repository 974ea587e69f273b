package sessiontree

import (
	"bytes"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// cursorReader reads a Cursor CLI agent transcript
// (~/.cursor/projects/<project>/agent-transcripts/<id>.jsonl, or
// <id>/<id>.jsonl): one {"role", "message": {"content": [...]}} object
// per line, the content Anthropic's blocks (text, thinking, tool_use,
// tool_result). Lines have neither ids nor times.
//
// The rules, as this reader applies them:
//   - Each line is an entry, L<n>, the child of the line before.
//   - A user line's prompt is wrapped in <user_query>…</user_query>,
//     beside context Cursor adds (<user_info>, <attached_files>, …): the
//     page shows the query, not the wrapper nor the context.
//   - A user line of tool results is their toolResult message.
//   - A line of any other shape ({"type": "turn_ended"}, or an
//     assistant message of a turn_ended block alone) is the agent's
//     bookkeeping, kept as its JSON.
//   - Cursor writes calls without ids, and rarely their results: a call
//     without an id is named <entry id>#<k>.
//   - The transcript records no model, no tokens and no cost.
type cursorReader struct{}

func (cursorReader) agent() Agent {
	return Agent{Formats: []string{FormatCursor}, StateName: "Cursor record", Dirs: []string{".cursor/projects"}, EstimateCost: true}
}

// detect: the first line is {"role": "user"|"assistant", "message": {…
// "content" …}} and nothing of Claude Code's (type, uuid).
func (cursorReader) detect(p *probe) bool {
	var h cursorHead
	line := firstObjectLine(p)
	if len(line) == 0 || line[0] != '{' || h.parse(line) != nil {
		return false
	}
	return (h.Role == "user" || h.Role == "assistant") && h.Message.Set && h.content && !h.claude
}

// cursorHead is what load reads of a line.
type cursorHead struct {
	Role    lstr `json:"role"`
	Message lobj[struct {
		Content jsontext.Value `json:"content"`
	}] `json:"message"`
	Type                  lstr `json:"type"`
	claude, content       bool
	ended                 bool // the content is only a turn_ended block
	calls, names, results []string
}

func (*cursorHead) header() bool { return false }

func (h *cursorHead) parse(text []byte) error {
	*h = cursorHead{}
	var probe struct {
		Type present `json:"type"`
		UUID present `json:"uuid"`
	}
	if err := json.Unmarshal(text, h, jsonOpts); err != nil {
		return err
	}
	json.Unmarshal(text, &probe, jsonOpts)
	h.claude = bool(probe.Type) || bool(probe.UUID)
	h.calls, h.names, h.results = anthHead(h.Message.V.Content)
	h.content = len(h.Message.V.Content) > 0
	h.ended = bytes.Contains(h.Message.V.Content, []byte(`"turn_ended"`)) && onlyTurnEnded(h.Message.V.Content)
	h.Message.V.Content = nil // the line's bytes, reused once parse returns
	return nil
}

func (cursorReader) read(s *Session, in *input, p *probe) error {
	lines, err := readAgentLines[cursorHead](in, p)
	if err != nil {
		return err
	}
	s.Format, s.Version = FormatCursor, 1
	c := newChain(s)
	names := map[string]string{}
	for i := range lines {
		l := &lines[i]
		e := l.entryOf(s)
		if e == nil {
			continue
		}
		h := &l.h
		switch {
		case h.Message.Set && h.Role == "assistant" && !h.ended:
			e.Role, e.CallIDs, e.ToolCalls = RoleAssistant, callIDs(e, h.calls), len(h.calls)
			for k, id := range e.CallIDs {
				names[id] = h.names[k]
			}
		case h.Message.Set && h.Role == "user" && len(h.results) > 0:
			e.Role, e.ToolCallID, e.ToolName = RoleToolResult, h.results[0], names[h.results[0]]
			if len(h.results) > 1 {
				more := h.results[1:]
				e.Detail = &Detail{moreResults: &more}
			}
		case h.Message.Set && h.Role == "user":
			e.Role = RoleUser
		default:
			e.Type, e.Bookkeeping = TypeCustom, true
			e.Detail = &Detail{CustomType: firstOf(string(h.Type), "turn_ended")}
			if !h.ended {
				e.Detail.CustomType = firstOf(firstOf(string(h.Type), string(h.Role)), "record")
			}
		}
		c.add(e)
		c.turn(e, true)
	}
	if len(s.Entries) == 0 {
		return notSession("a Cursor CLI transcript with no line that could be read")
	}
	s.src.body = &listDecoder{groups: c.groups, one: cursorDecode}
	return nil
}

// cursorPrompt is what the user asked: the text of <user_query>, when
// the text holds one; else the text.
func cursorPrompt(t string) string {
	if strings.Contains(t, "<user_query>") {
		return stripTag(t, "user_query")
	}
	return t
}

func cursorDecode(e *Entry, raw []byte) (*Body, error) {
	if e.Type == TypeCustom {
		return stateBody(raw), nil
	}
	var r struct {
		Message lobj[struct {
			Content jsontext.Value `json:"content"`
		}] `json:"message"`
	}
	if err := json.Unmarshal(raw, &r, jsonOpts); err != nil {
		return nil, err
	}
	m, err := anthMessage(e, r.Message.V.Content, cursorPrompt)
	if err != nil {
		return nil, err
	}
	if e.Role == RoleUser {
		m.Content = dropEmptyText(m.Content)
	}
	return &Body{Message: m}, nil
}

// onlyTurnEnded reports whether content is an array of turn_ended
// blocks alone: Cursor's end of a turn, written as an assistant message.
func onlyTurnEnded(content jsontext.Value) bool {
	var blocks []anthBlock
	if json.Unmarshal(content, &blocks, jsonOpts) != nil || len(blocks) == 0 {
		return false
	}
	for _, b := range blocks {
		if b.Type != "turn_ended" {
			return false
		}
	}
	return true
}

// dropEmptyText leaves out text blocks with nothing to read.
func dropEmptyText(b Blocks) Blocks {
	out := b[:0:0]
	for _, x := range b {
		if x.Type == "text" && len(bytes.TrimSpace([]byte(x.Text))) == 0 {
			continue
		}
		out = append(out, x)
	}
	return out
}

func (cursorReader) cut(s *Session) Cut {
	return listCut{s: s, rewrite: anthRewrite("message")}
}

package sessiontree

import (
	"github.com/go-json-experiment/json"
)

// The peeks of the line formats of agents read as chains (Kimi CLI,
// Cursor CLI, Hermes Agent's transcripts): a listing's first prompt and
// times, from a few lines, as the loader reads them.

// agentPeek reads the lines of one of those formats: line, the format's,
// gives a line's timestamp and, for a prompt, its blocks.
type agentPeek struct {
	peekBase
	format string
	line1  func(p *agentPeek, text []byte) (ts string, prompt Blocks)
}

func (*agentPeek) marks() [][]byte { return nil }

func (c *agentPeek) line(raw []byte) {
	text := trimLine(raw)
	if len(text) == 0 || text[0] != '{' {
		return
	}
	ts, prompt := c.line1(c, text)
	var e Entry
	e.setTime(ts, 0)
	c.stamp(e.Timestamp)
	if len(prompt) > 0 {
		c.prompt(prompt)
	}
}

func (c *agentPeek) finish(_, _ []byte) { c.p.Format = c.format }

func (kimiReader) peek(*probe) (peekLines, error) {
	return &agentPeek{format: FormatKimi, line1: kimiPeekLine}, nil
}

// kimiPeekLine: the metadata line's version, a record's time, a turn's
// prompt.
func kimiPeekLine(c *agentPeek, text []byte) (string, Blocks) {
	var h kimiHead
	if h.parse(text) != nil {
		return "", nil
	}
	if h.Type == "metadata" {
		c.p.FormatVersion = firstOf(c.p.FormatVersion, string(h.Protocol))
		return "", nil
	}
	var e Entry
	e.setTime("", float64(firstNum(h.TS, h.Time)))
	switch typ, _ := h.kind(); typ {
	case "TurnBegin", "turn.prompt":
		var r kimiRecord
		if json.Unmarshal(text, &r, jsonOpts) == nil {
			b := &r.kimiBody
			if r.Message.Set {
				b = &r.Message.V.Payload.V
			}
			return e.Timestamp, kimiParts(firstValue(b.UserInput, b.Input))
		}
	}
	return e.Timestamp, nil
}

func (cursorReader) peek(*probe) (peekLines, error) {
	return &agentPeek{format: FormatCursor, line1: cursorPeekLine}, nil
}

// cursorPeekLine: a prompt (a user line of text, not of results), what
// is inside its <user_query>. Cursor writes no times.
func cursorPeekLine(_ *agentPeek, text []byte) (string, Blocks) {
	var h cursorHead
	if h.parse(text) != nil || h.Role != "user" || !h.Message.Set || len(h.results) > 0 {
		return "", nil
	}
	e := &Entry{Role: RoleUser, Detail: &Detail{}}
	b, err := cursorDecode(e, text)
	if err != nil {
		return "", nil
	}
	return "", b.Message.Content
}

func (hermesReader) peek(p *probe) (peekLines, error) {
	var h hermesHead
	if line := firstObjectLine(p); h.parse(line) != nil || h.Role != "session_meta" {
		return nil, nil // a snapshot: read whole
	}
	return &agentPeek{format: FormatHermes, line1: hermesPeekLine}, nil
}

// hermesPeekLine: a message's time, a user message's text.
func hermesPeekLine(_ *agentPeek, text []byte) (string, Blocks) {
	var h hermesHead
	if h.parse(text) != nil {
		return "", nil
	}
	if h.Role != "user" {
		return string(h.Timestamp), nil
	}
	var b hermesBody
	if json.Unmarshal(text, &b, jsonOpts) != nil {
		return string(h.Timestamp), nil
	}
	content, _ := claudeBlocks(b.Content)
	return string(h.Timestamp), content
}

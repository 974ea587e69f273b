package scope

import (
	"bytes"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"canopy/sessiontree"
)

// claudeLines cuts a Claude Code transcript (see lines.go). Its lines
// that are not messages are extension state (sessiontree marks them as
// entries of type custom, the line as their data), shown only as their
// JSON: NoHidden leaves them out, but for the lines that name the
// session (custom-title, ai-title, agent-name, summary), which the cut
// keeps, as a pi cut keeps the session's name.
type claudeLines struct {
	s *sessiontree.Session
	// The summary lines, by entry index: the entry each summarises
	// (leafUuid), and the one that names the session.
	summaries map[int]string
	naming    int // -1 when none
	// fixLeaf: the naming summary, when the entry it summarises is left
	// out, is given the cut's leaf.
	fixLeaf string
}

// titleLines are the lines whose last names the session, whatever it holds.
var titleLines = map[string]bool{"custom-title": true, "ai-title": true, "agent-name": true}

func newClaudeLines(s *sessiontree.Session) *claudeLines {
	f := &claudeLines{s: s, summaries: map[int]string{}, naming: -1}
	for _, e := range s.Entries {
		if e.Type != sessiontree.TypeCustom || e.CustomType != "summary" {
			continue
		}
		var line struct {
			Summary  string `json:"summary"`
			LeafUUID string `json:"leafUuid"`
		}
		raw, err := e.Raw()
		if err != nil || json.Unmarshal(raw, &line) != nil {
			continue
		}
		f.summaries[e.Index] = line.LeafUUID
		if s.Entry(line.LeafUUID) != nil && line.Summary == s.Header.Title {
			f.naming = e.Index // the reader takes the last
		}
	}
	return f
}

func (f *claudeLines) thinking(*sessiontree.Entry) (bool, int) { return false, 0 }

func (f *claudeLines) needed(e *sessiontree.Entry) bool {
	_, summary := f.summaries[e.Index]
	return titleLines[e.CustomType] || summary
}

// names keeps the title lines, and the summaries of a conversation kept:
// the others are of branches or sessions left out. The summary that
// names the session is kept whatever it summarises.
func (f *claudeLines) names(keep []bool, leaf *sessiontree.Entry) {
	for _, e := range f.s.Entries {
		if e.Type != sessiontree.TypeCustom {
			continue
		}
		if titleLines[e.CustomType] {
			keep[e.Index] = true
		}
		of, ok := f.summaries[e.Index]
		if !ok {
			continue
		}
		summarised := f.s.Entry(of)
		keep[e.Index] = summarised != nil && keep[summarised.Index]
		if e.Index == f.naming && !keep[e.Index] && leaf != nil && keep[leaf.Index] {
			keep[e.Index], f.fixLeaf = true, leaf.ID
		}
	}
}

// rewrite cuts one line: its parent when that was left out, its thinking
// blocks, its tool results' content and what Claude Code recorded of them
// (toolUseResult), a command's output.
func (f *claudeLines) rewrite(e *sessiontree.Entry, keep []bool, o Options, c *counters) ([]byte, error) {
	raw, err := e.Raw()
	if err != nil {
		return nil, err
	}
	reparent := e.Parent != nil && !keep[e.Parent.Index]
	thinking := o.NoThinking && e.Type == sessiontree.TypeMessage && e.Role == sessiontree.RoleAssistant
	results := o.NoToolOutput && e.Role == sessiontree.RoleToolResult
	output := o.NoToolOutput && e.Role == sessiontree.RoleCustom && e.CustomType == sessiontree.CustomCommandOutput
	fixLeaf := e.Index == f.naming && f.fixLeaf != ""
	if !reparent && !thinking && !results && !output && !fixLeaf {
		return raw, nil
	}
	obj, err := parseObject(raw)
	if err != nil {
		return nil, err
	}
	changed := reparent && setParent(&obj, e, keep)
	if fixLeaf {
		obj.set("leafUuid", quote(f.fixLeaf))
		changed = true
	}
	if output && commandOutput(&obj) {
		c.outputs++
		changed = true
	}
	if thinking || results { // the message is parsed only to be cut
		if msg, err := parseObject(obj.get("message")); err == nil {
			n := 0
			if thinking {
				n = cutContent(&msg, func(b jsontext.Value) (jsontext.Value, bool) { return nil, isBlock(b, "thinking", "redacted_thinking") })
				c.thinking += n
			} else {
				n = cutContent(&msg, resultLeftOut)
				c.outputs += n
				changed = leaveOutUseResult(&obj) || changed
			}
			if n > 0 {
				obj.set("message", msg.encode())
				changed = true
			}
		}
	}
	if !changed {
		return raw, nil
	}
	return obj.encode(), nil
}

// cutContent applies cut to each block of msg's content (an array): a
// block it returns true for is replaced by what it returns, or dropped
// when that is nil. It returns how many it cut.
func cutContent(msg *object, cut func(jsontext.Value) (jsontext.Value, bool)) int {
	content := msg.get("content")
	if content.Kind() != '[' {
		return 0
	}
	var blocks []jsontext.Value
	if json.Unmarshal(content, &blocks) != nil {
		return 0
	}
	var out bytes.Buffer
	out.WriteByte('[')
	n := 0
	for _, b := range blocks {
		if nb, ok := cut(b); ok {
			n++
			if b = nb; b == nil {
				continue
			}
		}
		if out.Len() > 1 {
			out.WriteByte(',')
		}
		out.Write(b)
	}
	out.WriteByte(']')
	if n > 0 {
		msg.set("content", out.Bytes())
	}
	return n
}

// isBlock reports whether a content block is of one of the types.
func isBlock(b jsontext.Value, types ...string) bool {
	var head struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(b, &head) != nil {
		return false
	}
	for _, t := range types {
		if head.Type == t {
			return true
		}
	}
	return false
}

// leftOutBlocks is the content put in place of a tool result's.
func leftOutBlocks() jsontext.Value {
	return jsontext.Value(`[{"type":"text","text":` + string(quote(OutputLeftOut)) + `}]`)
}

// resultLeftOut is a tool_result block with its content left out; its
// call and error flag stay.
func resultLeftOut(b jsontext.Value) (jsontext.Value, bool) {
	if !isBlock(b, "tool_result") {
		return nil, false
	}
	obj, err := parseObject(b)
	if err != nil {
		return nil, false
	}
	obj.set("content", leftOutBlocks())
	return obj.encode(), true
}

// leaveOutUseResult removes what Claude Code recorded of a tool's result
// (a read file, an edit's patch, a command's output), but for the
// subagent it names (agentId), which ties a subagent to its call.
func leaveOutUseResult(obj *object) bool {
	r := obj.get("toolUseResult")
	if r == nil {
		return false
	}
	if res, err := parseObject(r); err == nil {
		if agent := res.get("agentId"); agent != nil {
			obj.set("toolUseResult", jsontext.Value(`{"agentId":`+string(agent)+`}`))
			return true
		}
	}
	obj.del("toolUseResult")
	return true
}

// commandOutput leaves out the output of a command the user ran (a user
// line, or a system local_command line), in the tags it was in, so that
// the line still reads as a command's output.
func commandOutput(obj *object) bool {
	if msg, err := parseObject(obj.get("message")); err == nil {
		msg.set("content", quote(wrapLeftOut(contentLead(msg.get("content")))))
		obj.set("message", msg.encode())
		return true
	}
	if c := obj.get("content"); c.Kind() == '"' {
		obj.set("content", quote(wrapLeftOut(stringOf(c))))
		return true
	}
	return false
}

// contentLead is a message content's text: a string, or its first text
// block's.
func contentLead(c jsontext.Value) string {
	if c.Kind() == '"' {
		return stringOf(c)
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(c, &blocks) == nil {
		for _, b := range blocks {
			if b.Type == "text" {
				return b.Text
			}
		}
	}
	return ""
}

// wrapLeftOut is the placeholder in the tags the output was in.
func wrapLeftOut(was string) string {
	was = strings.TrimSpace(was)
	switch {
	case strings.HasPrefix(was, "<bash-"):
		return "<bash-stdout>" + OutputLeftOut + "</bash-stdout><bash-stderr></bash-stderr>"
	case strings.HasPrefix(was, "<local-command-"):
		return "<local-command-stdout>" + OutputLeftOut + "</local-command-stdout>"
	}
	return OutputLeftOut
}

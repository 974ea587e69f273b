package sessiontree

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"canopy/internal/jsonobj"
)

// claudeCut cuts a Claude Code transcript in its own format, each line
// kept at its place (see cut.go). Its lines that are not messages are
// extension state (entries of type custom, the line as their data),
// shown only as their JSON: NoHidden leaves them out, but for the lines
// that name the session (custom-title, ai-title, agent-name, summary),
// which the cut keeps, as a pi cut keeps the session's name.
type claudeCut struct {
	s *Session
	// The summary lines, by entry index: the entry each summarises
	// (leafUuid), and the one that names the session.
	summaries map[int]string
	naming    int // -1 when none
	// fixLeaf: the naming summary, when the entry it summarises is left
	// out, is given the cut's leaf.
	fixLeaf string
}

func (claudeReader) cut(s *Session) Cut {
	f := &claudeCut{s: s, summaries: map[int]string{}, naming: -1}
	for _, e := range s.Entries {
		if e.Type != TypeCustom || e.CustomType != "summary" {
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

// claudeTitleLines are the lines whose last names the session, whatever
// it holds.
var claudeTitleLines = map[string]bool{"custom-title": true, "ai-title": true, "agent-name": true}

func (f *claudeCut) Thinking(*Entry) (bool, int) { return false, 0 }

func (f *claudeCut) Needed(e *Entry) bool {
	_, summary := f.summaries[e.Index]
	return claudeTitleLines[e.CustomType] || summary
}

// Names keeps the title lines, and the summaries of a conversation kept:
// the others are of branches or sessions left out. The summary that
// names the session is kept whatever it summarises.
func (f *claudeCut) Names(keep []bool, leaf *Entry) {
	for _, e := range f.s.Entries {
		if e.Type != TypeCustom {
			continue
		}
		if claudeTitleLines[e.CustomType] {
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

// Write writes the lines kept at their places; the first moves up to
// the file's first line when it would come later than the reader looks
// to tell the format.
func (f *claudeCut) Write(keep []bool, _ *Entry, o CutOptions, c *CutCounts) ([]byte, error) {
	lines, err := cutLines(f.s, keep, false, func(e *Entry) ([]byte, error) { return f.rewrite(e, keep, o, c) })
	if err != nil {
		return nil, err
	}
	if err := firstLineUp(lines); err != nil {
		return nil, err
	}
	return writeCutLines(lines), nil
}

// rewrite cuts one line: its parent when that was left out, its thinking
// blocks, its tool results' content and what Claude Code recorded of them
// (toolUseResult), a command's output.
func (f *claudeCut) rewrite(e *Entry, keep []bool, o CutOptions, c *CutCounts) ([]byte, error) {
	raw, err := e.Raw()
	if err != nil {
		return nil, err
	}
	reparent := e.Parent != nil && !keep[e.Parent.Index]
	thinking := o.NoThinking && e.Type == TypeMessage && e.Role == RoleAssistant
	results := o.NoToolOutput && e.Role == RoleToolResult
	output := o.NoToolOutput && e.Role == RoleCustom && e.CustomType == CustomCommandOutput
	fixLeaf := e.Index == f.naming && f.fixLeaf != ""
	if !reparent && !thinking && !results && !output && !fixLeaf {
		return raw, nil
	}
	obj, err := jsonobj.Parse(raw)
	if err != nil {
		return nil, err
	}
	changed := reparent && claudeSetParent(&obj, e, keep)
	if fixLeaf {
		obj.Set("leafUuid", jsonobj.Quote(f.fixLeaf))
		changed = true
	}
	if output && claudeCommandOutput(&obj) {
		c.Outputs++
		changed = true
	}
	if thinking || results { // the message is parsed only to be cut
		if msg, err := jsonobj.Parse(obj.Get("message")); err == nil {
			n := 0
			if thinking {
				n = cutContent(&msg, func(b jsontext.Value) (jsontext.Value, bool) { return nil, isBlock(b, "thinking", "redacted_thinking") })
				c.Thinking += n
			} else {
				n = cutContent(&msg, resultLeftOut)
				c.Outputs += n
				changed = leaveOutUseResult(&obj) || changed
			}
			if n > 0 {
				obj.Set("message", msg.Encode())
				changed = true
			}
		}
	}
	if !changed {
		return raw, nil
	}
	return obj.Encode(), nil
}

// claudeSetParent writes e's parent in the cut when its own was left
// out: the nearest ancestor kept, in the member that names it (Claude
// Code's parentUuid, a compaction's logicalParentUuid); null for none.
func claudeSetParent(obj *jsonobj.Object, e *Entry, keep []bool) bool {
	if e.Parent == nil || keep[e.Parent.Index] {
		return false
	}
	v := jsontext.Value("null")
	if p := KeptParent(e, keep); p != "" {
		v = jsonobj.Quote(p)
	}
	name := "parentUuid"
	if pu := obj.Get(name); (pu == nil || pu.Kind() != '"') && obj.Get("logicalParentUuid") != nil {
		name = "logicalParentUuid"
	}
	obj.Set(name, v)
	return true
}

// firstLineUp moves a transcript's first line kept to the file's first
// line when it would come later than the reader looks to tell the
// format (probeLines): every line before it is left out, so the order
// stays, and its id stays its id (a line without a uuid is given its
// L<n> as one).
func firstLineUp(lines []cutLine) error {
	if len(lines) == 0 || lines[0].line <= probeLines {
		return nil
	}
	first := &lines[0]
	if first.e.ID == "L"+strconv.Itoa(first.e.Line) {
		obj, err := jsonobj.Parse(first.raw)
		if err != nil {
			return fmt.Errorf("entry %s (line %d): %w", first.e.ID, first.e.Line, err)
		}
		obj.SetString("uuid", first.e.ID)
		first.raw = obj.Encode()
	}
	first.line = 1
	return nil
}

// cutContent applies cut to each block of msg's content (an array): a
// block it returns true for is replaced by what it returns, or dropped
// when that is nil. It returns how many it cut.
func cutContent(msg *jsonobj.Object, cut func(jsontext.Value) (jsontext.Value, bool)) int {
	content := msg.Get("content")
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
		msg.Set("content", out.Bytes())
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
	return jsontext.Value(`[{"type":"text","text":` + string(jsonobj.Quote(OutputLeftOut)) + `}]`)
}

// resultLeftOut is a tool_result block with its content left out; its
// call and error flag stay.
func resultLeftOut(b jsontext.Value) (jsontext.Value, bool) {
	if !isBlock(b, "tool_result") {
		return nil, false
	}
	obj, err := jsonobj.Parse(b)
	if err != nil {
		return nil, false
	}
	obj.Set("content", leftOutBlocks())
	return obj.Encode(), true
}

// leaveOutUseResult removes what Claude Code recorded of a tool's result
// (a read file, an edit's patch, a command's output), but for the
// subagent it names (agentId), which ties a subagent to its call.
func leaveOutUseResult(obj *jsonobj.Object) bool {
	r := obj.Get("toolUseResult")
	if r == nil {
		return false
	}
	if res, err := jsonobj.Parse(r); err == nil {
		if agent := res.Get("agentId"); agent != nil {
			obj.Set("toolUseResult", jsontext.Value(`{"agentId":`+string(agent)+`}`))
			return true
		}
	}
	obj.Del("toolUseResult")
	return true
}

// claudeCommandOutput leaves out the output of a command the user ran (a
// user line, or a system local_command line), in the tags it was in, so
// that the line still reads as a command's output.
func claudeCommandOutput(obj *jsonobj.Object) bool {
	if msg, err := jsonobj.Parse(obj.Get("message")); err == nil {
		msg.Set("content", jsonobj.Quote(wrapLeftOut(contentLead(msg.Get("content")))))
		obj.Set("message", msg.Encode())
		return true
	}
	if c := obj.Get("content"); c.Kind() == '"' {
		obj.Set("content", jsonobj.Quote(wrapLeftOut(jsonobj.StringOf(c))))
		return true
	}
	return false
}

// contentLead is a message content's text: a string, or its first text
// block's.
func contentLead(c jsontext.Value) string {
	if c.Kind() == '"' {
		return jsonobj.StringOf(c)
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

package sessiontree

import (
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"canopy/internal/jsonobj"
)

// codexCut cuts a Codex rollout in its own format, each line kept at its
// place (see cut.go). A rollout is a chain, each entry the child of the
// line before: a line left out needs no parent written, the reader hangs
// the next from the one kept before. Its lines that are no message are
// extension state, shown only as their JSON: NoHidden leaves them out,
// but for the token counts, which are the usage of the replies.
type codexCut struct{ s *Session }

func (codexReader) cut(s *Session) Cut { return codexCut{s} }

// codexKinds are a rollout line's type and its payload's (a rollout of
// before September 2025 has items with no payload: the line is the item).
func codexKinds(e *Entry) (line, item string) {
	raw, err := e.Raw()
	if err != nil {
		return "", ""
	}
	var l struct {
		Type    string `json:"type"`
		Payload struct {
			Type string `json:"type"`
		} `json:"payload"`
	}
	if json.Unmarshal(raw, &l) != nil {
		return "", ""
	}
	if l.Type == "response_item" || l.Type == "event_msg" {
		return l.Type, l.Payload.Type
	}
	return "", l.Type
}

// Thinking: a reasoning item, and the events that repeat it or stand for
// it; only what the page showed as thinking counts, one block each.
func (codexCut) Thinking(e *Entry) (bool, int) {
	if e.Role != RoleAssistant && e.Type != TypeCustom {
		return false, 0
	}
	line, item := codexKinds(e)
	switch {
	case line != "event_msg" && item == "reasoning",
		line == "event_msg" && (item == "agent_reasoning" || item == "agent_reasoning_raw_content"):
		if e.Type == TypeMessage {
			return true, 1
		}
		return true, 0
	}
	return false, 0
}

func (codexCut) Needed(e *Entry) bool {
	return e.CustomType == "event_msg: token_count"
}

func (codexCut) Names([]bool, *Entry) {}

// Write writes the header line and the lines kept at their places.
func (f codexCut) Write(keep []bool, _ *Entry, o CutOptions, c *CutCounts) ([]byte, error) {
	lines, err := cutLines(f.s, keep, true, func(e *Entry) ([]byte, error) { return codexRewrite(e, o, c) })
	if err != nil {
		return nil, err
	}
	return writeCutLines(lines), nil
}

// codexEventOutputs are the members of the events that repeat a tool's
// output.
var codexEventOutputs = map[string][]string{
	"exec_command_end":          {"stdout", "stderr", "aggregated_output", "formatted_output"},
	"exec_command_output_delta": {"chunk"},
	"patch_apply_end":           {"stdout", "stderr"},
	"mcp_tool_call_end":         {"result"},
}

// codexRewrite cuts one line: a tool call's output, and the events that
// repeat it (those are not counted: the results are).
func codexRewrite(e *Entry, o CutOptions, c *CutCounts) ([]byte, error) {
	raw, err := e.Raw()
	if err != nil {
		return nil, err
	}
	if !o.NoToolOutput {
		return raw, nil
	}
	line, item := codexKinds(e)
	result := line != "event_msg" && (item == "function_call_output" || item == "custom_tool_call_output")
	members := codexEventOutputs[item]
	if !result && (line != "event_msg" || members == nil) {
		return raw, nil
	}
	obj, err := jsonobj.Parse(raw)
	if err != nil {
		return nil, err
	}
	p, bare := obj, line == ""
	if !bare {
		if p, err = jsonobj.Parse(obj.Get("payload")); err != nil {
			return raw, nil
		}
	}
	changed := false
	if result && p.Get("output") != nil {
		p.Set("output", jsonobj.Quote(OutputLeftOut))
		c.Outputs++
		changed = true
	}
	for _, m := range members {
		if v := p.Get(m); v != nil && string(v) != `""` && string(v) != "null" {
			p.Set(m, jsonobj.Quote(OutputLeftOut))
			changed = true
		}
	}
	if !changed {
		return raw, nil
	}
	if bare {
		return p.Encode(), nil
	}
	obj.Set("payload", jsontext.Value(p.Encode()))
	return obj.Encode(), nil
}

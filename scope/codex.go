package scope

import (
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"canopy/sessiontree"
)

// codexLines cuts a Codex rollout (see lines.go). A rollout is a chain,
// each entry the child of the line before: a line left out needs no
// parent written, the reader hangs the next from the one kept before.
// Its lines that are no message are extension state, shown only as their
// JSON: NoHidden leaves them out, but for the token counts, which are
// the usage of the replies.
type codexLines struct{}

// codexKinds are a rollout line's type and its payload's (a rollout of
// before September 2025 has items with no payload: the line is the item).
func codexKinds(e *sessiontree.Entry) (line, item string) {
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

// thinking: a reasoning item, and the events that repeat it or stand for
// it; only what the page showed as thinking counts, one block each.
func (codexLines) thinking(e *sessiontree.Entry) (bool, int) {
	if e.Role != sessiontree.RoleAssistant && e.Type != sessiontree.TypeCustom {
		return false, 0
	}
	line, item := codexKinds(e)
	switch {
	case line != "event_msg" && item == "reasoning",
		line == "event_msg" && (item == "agent_reasoning" || item == "agent_reasoning_raw_content"):
		if e.Type == sessiontree.TypeMessage {
			return true, 1
		}
		return true, 0
	}
	return false, 0
}

func (codexLines) needed(e *sessiontree.Entry) bool {
	return e.CustomType == "event_msg: token_count"
}

func (codexLines) names([]bool, *sessiontree.Entry) {}

// eventOutputs are the members of the events that repeat a tool's output.
var eventOutputs = map[string][]string{
	"exec_command_end":          {"stdout", "stderr", "aggregated_output", "formatted_output"},
	"exec_command_output_delta": {"chunk"},
	"patch_apply_end":           {"stdout", "stderr"},
	"mcp_tool_call_end":         {"result"},
}

// rewrite cuts one line: a tool call's output, and the events that
// repeat it (those are not counted: the results are).
func (codexLines) rewrite(e *sessiontree.Entry, _ []bool, o Options, c *counters) ([]byte, error) {
	raw, err := e.Raw()
	if err != nil {
		return nil, err
	}
	if !o.NoToolOutput {
		return raw, nil
	}
	line, item := codexKinds(e)
	result := line != "event_msg" && (item == "function_call_output" || item == "custom_tool_call_output")
	members := eventOutputs[item]
	if !result && (line != "event_msg" || members == nil) {
		return raw, nil
	}
	obj, err := parseObject(raw)
	if err != nil {
		return nil, err
	}
	p, bare := obj, line == ""
	if !bare {
		if p, err = parseObject(obj.get("payload")); err != nil {
			return raw, nil
		}
	}
	changed := false
	if result && p.get("output") != nil {
		p.set("output", quote(OutputLeftOut))
		c.outputs++
		changed = true
	}
	for _, m := range members {
		if v := p.get(m); v != nil && string(v) != `""` && string(v) != "null" {
			p.set(m, quote(OutputLeftOut))
			changed = true
		}
	}
	if !changed {
		return raw, nil
	}
	if bare {
		return p.encode(), nil
	}
	obj.set("payload", jsontext.Value(p.encode()))
	return obj.encode(), nil
}

package sessiontree

import (
	"bytes"

	"canopy/internal/fastpath"
)

// What the load reads of a Codex rollout line ({"timestamp", "type",
// "payload"}), with the walker, after fastpath.ScanJSON checked it.

// codexHead is what the load reads of one line. Its fields are declared
// here, once: the walker's switch that reads them is generated from their
// tags (walk_gen.go).
//
//sessiontree:walk
type codexHead struct {
	Type      lstr         `json:"type"`
	Timestamp lstr         `json:"timestamp"`
	P         codexPayload `json:"payload"`
	// A rollout of before September 2025 has no envelope: its first line
	// is the session's meta ({"id", "timestamp", "instructions", "git"}),
	// the others bare response items, and {"record_type": ...} markers.
	ID           lstr    `json:"id"`
	RecordType   seenStr `json:"record_type"`
	Instructions seen    `json:"instructions"`
	Git          seen    `json:"git"`
	Legacy, Bare bool    // Legacy: it has instructions or git
}

// codexPayload is what the load reads of a line's payload.
//
//sessiontree:walk
type codexPayload struct {
	Set        bool
	Type       lstr       `json:"type"`
	Role       lstr       `json:"role"`
	Name       lstr       `json:"name"`
	CallID     lstr       `json:"call_id"`
	ID         lstr       `json:"id"`
	Model      lstr       `json:"model"`          // turn_context
	Effort     lstr       `json:"effort"`         // turn_context
	Provider   lstr       `json:"model_provider"` // session_meta
	Cwd        lstr       `json:"cwd"`            // session_meta
	CLIVersion lstr       `json:"cli_version"`    // session_meta
	ThreadName lstr       `json:"thread_name"`    // thread_name_updated
	Message    []byte     `json:"message"`        // raw: compacted's summary, valid while the line is
	Content    []byte     `json:"content"`
	Last       codexUsage `json:"info.last_token_usage"`
	Total      lnum       `json:"info.total_token_usage.total_tokens"`
}

// codexUsage is an OpenAI token usage.
//
//sessiontree:walk
type codexUsage struct {
	Set       bool
	Input     lnum `json:"input_tokens"`
	Cached    lnum `json:"cached_input_tokens"`
	Output    lnum `json:"output_tokens"`
	Reasoning lnum `json:"reasoning_output_tokens"`
	All       lnum `json:"total_tokens"`
}

// usage is u as pi records it: input less what was read from the cache.
func (u *codexUsage) usage() *Usage {
	if !u.Set {
		return nil
	}
	cached := float64(u.Cached)
	return &Usage{Input: max(0, float64(u.Input)-cached), Output: float64(u.Output), CacheRead: cached,
		TotalTokens: float64(u.All)}
}

// decodeCodexHead decodes one trimmed line; an error means it is not JSON,
// or not a JSON object.
func decodeCodexHead(raw []byte, h *codexHead) error {
	if len(raw) == 0 || raw[0] != '{' || !fastpath.ValidJSON(raw) {
		var x head
		return decodeHead(raw, &x) // the same errors as pi's lines
	}
	w := walker{b: raw}
	if _, err := w.objectCodexHead(h); err != nil {
		return err
	}
	h.Legacy = bool(h.Instructions || h.Git)
	if err := w.end(); err != nil {
		return err
	}
	if !h.P.Set && responseItemTypes[string(h.Type)] {
		// A bare response item: the line is its payload.
		h.Bare = true
		w = walker{b: raw}
		return w.setCodexPayload(&h.P)
	}
	return nil
}

// responseItemTypes are the types of the model's history items, which a
// rollout of before September 2025 writes bare.
var responseItemTypes = map[string]bool{
	"message": true, "reasoning": true, "function_call": true, "function_call_output": true,
	"custom_tool_call": true, "custom_tool_call_output": true, "local_shell_call": true, "web_search_call": true,
}

// codexInjected are the user messages Codex writes itself, by the tag
// their text starts with, and the custom type they are shown as (hidden:
// the model saw them, the user did not type them).
var codexInjected = []struct{ prefix, custom string }{
	{"<environment_context>", "environment context"},
	{"<user_instructions>", "user instructions"},
	{"# AGENTS.md instructions", "AGENTS.md"},
	{"<permissions instructions>", "permissions"},
	{"<turn_aborted>", "turn aborted"},
	{"<subagent_notification>", "subagent notification"},
}

// injectedOf is the custom type of a user message Codex wrote itself, ""
// for one the user typed. raw is the message's content.
func injectedOf(raw []byte) string {
	text := firstCodexText(raw)
	for len(text) > 0 && (text[0] == ' ' || text[0] == '\n' || text[0] == '\t' || text[0] == '\r') {
		text = text[1:]
	}
	for len(text) > 1 && text[0] == '\\' && (text[1] == 'n' || text[1] == 't' || text[1] == 'r') {
		text = text[2:]
	}
	for _, i := range codexInjected {
		if bytes.HasPrefix(text, []byte(i.prefix)) {
			return i.custom
		}
	}
	return ""
}

// firstCodexText is the raw text of a content's first text item, past its
// opening quote.
func firstCodexText(raw []byte) []byte {
	w := walker{b: raw}
	if w.kind() != '[' {
		return nil
	}
	found := firstItemText(&w, func(typ lstr, text []byte) bool {
		return len(text) > 1 && (typ == "input_text" || typ == "output_text" || typ == "text")
	})
	if found == nil {
		return nil
	}
	return found[1:]
}

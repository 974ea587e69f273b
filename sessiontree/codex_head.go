package sessiontree

import (
	"bytes"

	"canopy/internal/fastpath"
)

// What the load reads of a Codex rollout line ({"timestamp", "type",
// "payload"}), with the walker, after fastpath.ScanJSON checked it.

// codexHead is what the load reads of one line.
type codexHead struct {
	Type, Timestamp lstr
	P               codexPayload
	// A rollout of before September 2025 has no envelope: its first line
	// is the session's meta ({"id", "timestamp", "instructions", "git"}),
	// the others bare response items, and {"record_type": ...} markers.
	ID                      lstr
	RecordType              lstr
	Legacy, HasRecord, Bare bool
}

// codexPayload is what the load reads of a line's payload.
type codexPayload struct {
	Set                          bool
	Type, Role, Name, CallID, ID lstr
	Model, Effort, Provider      lstr   // turn_context; session_meta's model_provider
	Cwd, CLIVersion              lstr   // session_meta
	ThreadName                   lstr   // thread_name_updated
	Message                      []byte // raw: compacted's summary, valid while the line is
	Last                         codexUsage
	Total                        lnum // info.total_token_usage.total_tokens
	Content                      []byte
}

// codexUsage is an OpenAI token usage.
type codexUsage struct {
	Set                                   bool
	Input, Cached, Output, Reasoning, All lnum
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
	if _, err := w.object(func(name []byte) error {
		switch string(name) {
		case "type":
			return w.lstr(&h.Type)
		case "timestamp":
			return w.lstr(&h.Timestamp)
		case "payload":
			return w.codexPayload(&h.P)
		case "id":
			return w.lstr(&h.ID)
		case "record_type":
			h.HasRecord = true
			return w.lstr(&h.RecordType)
		case "instructions", "git":
			h.Legacy = true
		}
		return w.skip()
	}); err != nil {
		return err
	}
	if err := w.end(); err != nil {
		return err
	}
	if !h.P.Set && responseItemTypes[string(h.Type)] {
		// A bare response item: the line is its payload.
		h.Bare = true
		w = walker{b: raw}
		return w.codexPayload(&h.P)
	}
	return nil
}

// responseItemTypes are the types of the model's history items, which a
// rollout of before September 2025 writes bare.
var responseItemTypes = map[string]bool{
	"message": true, "reasoning": true, "function_call": true, "function_call_output": true,
	"custom_tool_call": true, "custom_tool_call_output": true, "local_shell_call": true, "web_search_call": true,
}

func (w *walker) codexPayload(p *codexPayload) error {
	*p = codexPayload{Set: w.kind() == '{'}
	return w.members(func(n string) error {
		switch n {
		case "type":
			return w.lstr(&p.Type)
		case "role":
			return w.lstr(&p.Role)
		case "name":
			return w.lstr(&p.Name)
		case "call_id":
			return w.lstr(&p.CallID)
		case "id":
			return w.lstr(&p.ID)
		case "model":
			return w.lstr(&p.Model)
		case "effort":
			return w.lstr(&p.Effort)
		case "model_provider":
			return w.lstr(&p.Provider)
		case "cwd":
			return w.lstr(&p.Cwd)
		case "cli_version":
			return w.lstr(&p.CLIVersion)
		case "thread_name":
			return w.lstr(&p.ThreadName)
		case "message":
			raw, err := w.rawValue()
			p.Message = raw
			return err
		case "content":
			raw, err := w.rawValue()
			p.Content = raw
			return err
		case "info":
			return w.members(func(n string) error {
				switch n {
				case "last_token_usage":
					return w.codexUsage(&p.Last)
				case "total_token_usage":
					return w.members(func(n string) error {
						if n == "total_tokens" {
							return w.lnum(&p.Total)
						}
						return w.skip()
					})
				}
				return w.skip()
			})
		}
		return w.skip()
	})
}

func (w *walker) codexUsage(u *codexUsage) error {
	*u = codexUsage{Set: w.kind() == '{'}
	return w.members(func(n string) error {
		switch n {
		case "input_tokens":
			return w.lnum(&u.Input)
		case "cached_input_tokens":
			return w.lnum(&u.Cached)
		case "output_tokens":
			return w.lnum(&u.Output)
		case "reasoning_output_tokens":
			return w.lnum(&u.Reasoning)
		case "total_tokens":
			return w.lnum(&u.All)
		}
		return w.skip()
	})
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

package sessiontree

import (
	"bytes"
	"cmp"
	"fmt"
	"strings"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Cursor's editor keeps its agent's conversations (composers) in
// User/globalStorage/state.vscdb, a key-value table cursorDiskKV whose
// values are JSON: composerData:<composer id> is a conversation (its
// name, times, model, workspace, and the ids of its messages in order,
// fullConversationHeadersOnly; older versions hold the messages inline,
// "conversation"), bubbleId:<composer id>:<bubble id> one message
// (type 1 the user's, 2 the assistant's: its text, thinking, a tool's
// call and result in toolFormerData, its tokens). The user's prompt may
// come wrapped in <user_query>. A subagent runs as a composer of its
// own, listed by its parent (subagentComposerIds).
type cursorDB struct{}

func (cursorDB) format() string { return FormatCursorIDE }

func (cursorDB) agent() Agent {
	return Agent{Formats: []string{FormatCursorIDE}, StateName: "Cursor's records", EstimateCost: true,
		Dirs:       []string{".config/Cursor/User/globalStorage", "Library/Application Support/Cursor/User/globalStorage"},
		StoreFiles: []string{"state.vscdb"}}
}

func (cursorDB) match(t map[string]bool) bool {
	return hasAll(t, "cursorDiskKV.key", "cursorDiskKV.value")
}

// cursorComposer is what is read of a composer.
type cursorComposer struct {
	ID            lstr `json:"composerId"`
	Name          lstr `json:"name"`
	CreatedAt     lnum `json:"createdAt"`
	LastUpdatedAt lnum `json:"lastUpdatedAt"`
	Headers       []struct {
		BubbleID lstr `json:"bubbleId"`
	} `json:"fullConversationHeadersOnly"`
	Conversation []jsontext.Value `json:"conversation"`
	ModelConfig  struct {
		ModelName lstr `json:"modelName"`
	} `json:"modelConfig"`
	Workspace struct {
		URI struct {
			FsPath lstr `json:"fsPath"`
		} `json:"uri"`
	} `json:"workspaceIdentifier"`
	Subagents []lstr `json:"subagentComposerIds"`
}

// cursorValue is a value of the table as JSON: Cursor writes some as a
// JSON string holding the JSON.
func cursorValue(v []byte) []byte {
	v = bytes.TrimSpace(v)
	if len(v) > 0 && v[0] == '"' {
		var s string
		if json.Unmarshal(v, &s) == nil {
			return []byte(s)
		}
	}
	return v
}

func (cursorDB) list(db *snapshot) ([]StoreSession, error) {
	var out []StoreSession
	err := db.each(`SELECT key, value FROM cursorDiskKV WHERE key LIKE 'composerData:%' ORDER BY key`, nil,
		func(scan func(...any) error) error {
			var key string
			var v []byte
			if err := scan(&key, &v); err != nil {
				return fmt.Errorf("reading a conversation: %w", err)
			}
			var c cursorComposer
			if json.Unmarshal(cursorValue(v), &c, jsonOpts) != nil {
				return nil // not one: passed over, as Cursor does
			}
			n := max(len(c.Headers), len(c.Conversation))
			if n == 0 {
				return nil // a conversation never begun
			}
			out = append(out, StoreSession{ID: strings.TrimPrefix(key, "composerData:"), Title: string(c.Name),
				Cwd: string(c.Workspace.URI.FsPath), Created: msTime(int64(c.CreatedAt)),
				Updated: msTime(int64(max(c.LastUpdatedAt, c.CreatedAt))), Messages: n})
			return nil
		})
	return out, err
}

// cursorBubble is what is read of a message.
type cursorBubble struct {
	BubbleID  lstr           `json:"bubbleId"`
	Type      lnum           `json:"type"`
	Text      lstr           `json:"text"`
	CreatedAt jsontext.Value `json:"createdAt"`
	Thinking  struct {
		Text lstr `json:"text"`
	} `json:"thinking"`
	Tool *struct {
		Name       lstr `json:"name"`
		ToolCallID lstr `json:"toolCallId"`
		Status     lstr `json:"status"`
		RawArgs    lstr `json:"rawArgs"`
		Params     lstr `json:"params"`
		Result     lstr `json:"result"`
	} `json:"toolFormerData"`
	TokenCount struct {
		Input  lnum `json:"inputTokens"`
		Output lnum `json:"outputTokens"`
	} `json:"tokenCount"`
	ModelInfo struct {
		ModelName lstr `json:"modelName"`
	} `json:"modelInfo"`
}

func (cursorDB) write(db *snapshot, id string, w *docWriter) error {
	var c cursorComposer
	found := false
	err := db.each(`SELECT value FROM cursorDiskKV WHERE key = ?`, []any{"composerData:" + id},
		func(scan func(...any) error) error {
			var v []byte
			if err := scan(&v); err != nil {
				return err
			}
			found = true
			if err := json.Unmarshal(cursorValue(v), &c, jsonOpts); err != nil {
				return fmt.Errorf("conversation %s: %s: %w", id, describe(err), ErrNotSession)
			}
			return nil
		})
	if err != nil {
		return err
	}
	if !found {
		return fmt.Errorf("no conversation %q in the database: %w", id, ErrNotSession)
	}
	w.start(msTime(int64(c.CreatedAt)), string(c.Workspace.URI.FsPath), string(c.Name), "", "")
	for _, sub := range c.Subagents {
		w.child(string(sub), "")
	}
	bubbles := c.Conversation
	if len(c.Headers) > 0 {
		byID := map[string][]byte{}
		prefix := "bubbleId:" + id + ":"
		err := db.each(`SELECT key, value FROM cursorDiskKV WHERE key >= ? AND key < ?`, []any{prefix, prefix + "\uffff"},
			func(scan func(...any) error) error {
				var key string
				var v []byte
				if err := scan(&key, &v); err != nil {
					return err
				}
				byID[strings.TrimPrefix(key, prefix)] = cursorValue(v)
				return nil
			})
		if err != nil {
			return err
		}
		bubbles = bubbles[:0:0]
		for _, h := range c.Headers {
			if v, ok := byID[string(h.BubbleID)]; ok {
				bubbles = append(bubbles, v)
			}
		}
	}
	model := string(c.ModelConfig.ModelName)
	for i, raw := range bubbles {
		writeCursorBubble(w, i, raw, model)
	}
	return nil
}

// writeCursorBubble writes one message: a prompt, or a reply with its
// thinking, text and call, the call's result after it.
func writeCursorBubble(w *docWriter, i int, raw []byte, model string) {
	var b cursorBubble
	id := fmt.Sprintf("b%d", i+1)
	if err := json.Unmarshal(raw, &b, jsonOpts); err != nil {
		w.custom(id, time.Time{}, "unreadable message", string(raw))
		return
	}
	if b.BubbleID != "" {
		id = string(b.BubbleID)
	}
	at := cursorTime(b.CreatedAt)
	if b.Type == 1 {
		w.message(id, at, &docMessage{Role: RoleUser, Content: []docBlock{docText(userQuery(string(b.Text)))}})
		return
	}
	m := &docMessage{Role: RoleAssistant, Model: cmp.Or(string(b.ModelInfo.ModelName), model)}
	if t := string(b.Thinking.Text); t != "" {
		m.Content = append(m.Content, docThinking(t))
	}
	if b.Text != "" {
		m.Content = append(m.Content, docText(string(b.Text)))
	}
	var result *docMessage
	if t := b.Tool; t != nil {
		args := cmp.Or(string(t.RawArgs), string(t.Params))
		call := string(t.ToolCallID)
		if call == "" {
			call = id + ".call"
		}
		m.Content = append(m.Content, docCall(call, string(t.Name), []byte(args)))
		switch t.Status {
		case "completed", "error", "cancelled":
			result = &docMessage{Role: RoleToolResult, ToolCallID: call, ToolName: string(t.Name),
				Content: []docBlock{docText(string(t.Result))}, IsError: t.Status != "completed"}
		}
	}
	if u := (ocTokens{Input: b.TokenCount.Input, Output: b.TokenCount.Output}).usage(0); u != nil {
		m.Usage = u
	}
	w.message(id, at, m)
	if result != nil {
		w.message(result.ToolCallID+".result", at, result)
	}
}

// userQuery is a prompt without the <user_query> wrapper Cursor may put
// around it.
func userQuery(s string) string {
	if a := strings.Index(s, "<user_query>"); a >= 0 {
		if b := strings.LastIndex(s, "</user_query>"); b > a {
			return strings.TrimSpace(s[a+len("<user_query>") : b])
		}
	}
	return s
}

// cursorTime reads a message's time: milliseconds, or RFC 3339.
func cursorTime(v jsontext.Value) time.Time {
	var n float64
	if json.Unmarshal(v, &n) == nil {
		return msTime(int64(n))
	}
	var s string
	if json.Unmarshal(v, &s) == nil {
		if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
			return t
		}
	}
	return time.Time{}
}

package sessiontree

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Goose keeps its sessions in ~/.local/share/goose/sessions/sessions.db:
// table sessions (name, working directory, times as SQLite writes
// CURRENT_TIMESTAMP, the session's tokens), table messages (role user or
// assistant, the content a JSON array of Goose's message contents: text,
// image, toolRequest, toolResponse, thinking, redactedThinking and
// notices; metadata saying whether the user and the model see it). A
// call's response comes back in a user message.
type gooseDB struct{}

func (gooseDB) format() string { return FormatGoose }

func (gooseDB) agent() Agent {
	return Agent{Formats: []string{FormatGoose}, StateName: "Goose's records", EstimateCost: true,
		Dirs: []string{".local/share/goose/sessions"}, StoreFiles: []string{"sessions.db"},
		Document: true} // its exports
}

func (gooseDB) match(t map[string]bool) bool {
	return hasAll(t, "sessions.id", "sessions.working_dir", "messages.session_id", "messages.content_json", "messages.role")
}

func (gooseDB) list(db *snapshot) ([]StoreSession, error) {
	var out []StoreSession
	err := db.each(`SELECT id, `+gooseName(db)+`, COALESCE(working_dir, ''), COALESCE(created_at, ''), COALESCE(updated_at, ''),
		(SELECT count(*) FROM messages m WHERE m.session_id = s.id) FROM sessions s ORDER BY id`, nil,
		func(scan func(...any) error) error {
			var s StoreSession
			var created, updated string
			if err := scan(&s.ID, &s.Title, &s.Cwd, &created, &updated, &s.Messages); err != nil {
				return fmt.Errorf("reading a session: %w", err)
			}
			s.Created, s.Updated = sqliteTime(created), sqliteTime(updated)
			out = append(out, s)
			return nil
		})
	return out, err
}

// gooseName is the SQL of a session's name: "name" since Goose's schema
// 4, "description" before it.
func gooseName(db *snapshot) string {
	return `COALESCE(NULLIF(` + db.col("sessions", "name", "''") + `, ''), ` + db.col("sessions", "description", "''") + `, '')`
}

// sqliteTime reads a time as SQLite's CURRENT_TIMESTAMP writes it (UTC),
// or as RFC 3339; zero when it is neither.
func sqliteTime(s string) time.Time {
	for _, layout := range []string{"2006-01-02 15:04:05", time.RFC3339Nano, "2006-01-02 15:04:05.999999999-07:00"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t
		}
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return secTime(n)
	}
	return time.Time{}
}

func (gooseDB) write(db *snapshot, id string, w *docWriter) error {
	var title, dir, created, provider, modelConfig string
	var input, output, cost float64
	found := false
	// Goose's newer schema records the session's provider and model
	// (provider_name, model_config_json) and its cost (accumulated_cost):
	// read where the columns are there.
	err := db.each(`SELECT `+gooseName(db)+`, COALESCE(working_dir, ''), COALESCE(created_at, ''),
		COALESCE(accumulated_input_tokens, input_tokens, 0), COALESCE(accumulated_output_tokens, output_tokens, 0),
		COALESCE(`+db.col("sessions", "provider_name", "''")+`, ''), COALESCE(`+db.col("sessions", "model_config_json", "''")+`, ''),
		COALESCE(`+db.col("sessions", "accumulated_cost", "0")+`, 0)
		FROM sessions WHERE id = ?`, []any{id},
		func(scan func(...any) error) error {
			found = true
			return scan(&title, &dir, &created, &input, &output, &provider, &modelConfig, &cost)
		})
	if err != nil {
		return err
	}
	if !found {
		return fmt.Errorf("no session %q in the database: %w", id, ErrNotSession)
	}
	w.start(sqliteTime(created), dir, title, "", "")
	lastReply := -1
	err = db.each(`SELECT id, role, content_json, COALESCE(created_timestamp, 0), COALESCE(`+db.col("messages", "metadata_json", "''")+`, '')
		FROM messages WHERE session_id = ? ORDER BY id`, []any{id},
		func(scan func(...any) error) error {
			var mid, at int64
			var role string
			var content, meta []byte
			if err := scan(&mid, &role, &content, &at, &meta); err != nil {
				return fmt.Errorf("reading a message: %w", err)
			}
			if i := writeGooseMessage(w, "m"+strconv.FormatInt(mid, 10), role, content, meta, secTime(at)); i >= 0 {
				lastReply = i
			}
			return nil
		})
	if err != nil {
		return err
	}
	var mc struct {
		Name lstr `json:"model_name"`
	}
	json.Unmarshal([]byte(modelConfig), &mc, jsonOpts)
	w.replyModel(provider, string(mc.Name))
	w.totals(lastReply, cost, input, output)
	return nil
}

// replyModel gives the replies that name no model of their own the
// session's provider and model (Goose's messages name none).
func (w *docWriter) replyModel(provider, model string) {
	if model == "" {
		return
	}
	for i, line := range w.lines {
		var e docEntry
		if json.Unmarshal(line, &e) != nil || e.Message == nil || e.Message.Role != RoleAssistant || e.Message.Model != "" {
			continue
		}
		e.Message.Provider, e.Message.Model = provider, model
		if out, err := json.Marshal(e, docOpts); err == nil {
			w.lines[i] = out
		}
	}
}

// gooseContent is one content of a Goose message.
type gooseContent struct {
	Type     lstr         `json:"type"`
	Text     lstr         `json:"text"`
	Thinking lstr         `json:"thinking"`
	Data     lstr         `json:"data"`
	MimeType lstr         `json:"mimeType"`
	ID       lstr         `json:"id"`
	ToolCall *gooseResult `json:"toolCall"`
	ToolRes  *gooseResult `json:"toolResult"`
}

// gooseResult is Goose's result of a call's request or of its running:
// {"status": "success", "value": ...} or {"status": "error", "error": ...}.
type gooseResult struct {
	Status lstr           `json:"status"`
	Value  jsontext.Value `json:"value"`
	Error  lstr           `json:"error"`
}

// gooseMeta says who sees a message.
type gooseMeta struct {
	UserVisible  *lbool `json:"userVisible"`
	AgentVisible *lbool `json:"agentVisible"`
}

// writeGooseMessage writes one message: its text, thinking and calls,
// and each call's response as a result of its own. It returns the index
// of the reply's line, else -1.
func writeGooseMessage(w *docWriter, id, role string, raw, meta []byte, at time.Time) int {
	var contents []jsontext.Value
	if err := json.Unmarshal(raw, &contents, jsonOpts); err != nil {
		w.custom(id, at, "unreadable message", string(raw))
		return -1
	}
	m := &docMessage{Role: RoleUser}
	if role == "assistant" {
		m.Role = RoleAssistant
	}
	for i, rc := range contents {
		var c gooseContent
		if json.Unmarshal(rc, &c, jsonOpts) != nil {
			continue
		}
		switch c.Type {
		case "text":
			m.Content = append(m.Content, docText(string(c.Text)))
		case "thinking":
			m.Content = append(m.Content, docThinking(string(c.Thinking)))
		case "image":
			m.Content = append(m.Content, docBlock{Type: "image", Data: string(c.Data), MimeType: string(c.MimeType)})
		case "toolRequest":
			name, args := gooseCall(c.ToolCall)
			m.Content = append(m.Content, docCall(string(c.ID), name, args))
		case "toolResponse":
			out, isErr := gooseOutput(c.ToolRes)
			w.message(string(c.ID)+".result", at, &docMessage{Role: RoleToolResult, ToolCallID: string(c.ID),
				Content: []docBlock{docText(out)}, IsError: isErr})
		default: // notices, confirmations, redacted thinking: the agent's records
			w.custom(fmt.Sprintf("%s.%d", id, i), at, string(c.Type), rc)
		}
	}
	var md gooseMeta
	if len(meta) > 0 && json.Unmarshal(meta, &md, jsonOpts) == nil && md.UserVisible != nil && !*md.UserVisible {
		// Context for the model the user never saw (a compaction's
		// summary, an instruction Goose adds).
		m.Role, m.CustomType = RoleCustom, "agent only"
	}
	if len(m.Content) == 0 && m.Role != RoleAssistant {
		return -1 // a message of responses only
	}
	w.message(id, at, m)
	if m.Role == RoleAssistant {
		return len(w.lines) - 1
	}
	return -1
}

// gooseCall is a request's tool name and arguments.
func gooseCall(r *gooseResult) (string, []byte) {
	if r == nil {
		return "", nil
	}
	if r.Status != "success" {
		return "(invalid call)", []byte(strconv.Quote(string(r.Error)))
	}
	var v struct {
		Name      lstr           `json:"name"`
		Arguments jsontext.Value `json:"arguments"`
	}
	json.Unmarshal(r.Value, &v, jsonOpts)
	return string(v.Name), v.Arguments
}

// gooseOutput is a response's text: its contents' texts, joined (an
// array of contents, or an object holding them in "content").
func gooseOutput(r *gooseResult) (string, bool) {
	if r == nil {
		return "", false
	}
	if r.Status != "success" {
		return string(r.Error), true
	}
	type content struct {
		Type lstr `json:"type"`
		Text lstr `json:"text"`
	}
	var list []content
	isErr := false
	if json.Unmarshal(r.Value, &list, jsonOpts) != nil {
		var obj struct {
			Content []content `json:"content"`
			IsError lbool     `json:"isError"`
		}
		json.Unmarshal(r.Value, &obj, jsonOpts)
		list, isErr = obj.Content, bool(obj.IsError)
	}
	var out []string
	for _, c := range list {
		if c.Type == "text" {
			out = append(out, string(c.Text))
		} else {
			out = append(out, "["+string(c.Type)+"]")
		}
	}
	return strings.Join(out, "\n"), isErr
}

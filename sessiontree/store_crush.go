package sessiontree

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Crush keeps a project's sessions in <project>/.crush/crush.db: table
// sessions (title, parent session, tokens and cost for the whole
// session), table messages (role user, assistant, tool or system; the
// parts a JSON array of {"type", "data"}: text, reasoning, image_url,
// binary, tool_call, tool_result, finish). A subagent's session is named
// <message id>$$<tool call id> after the call that ran it, its parent
// the session of that call.
type crushDB struct{}

func (crushDB) format() string { return FormatCrush }

func (crushDB) agent() Agent {
	return Agent{Formats: []string{FormatCrush}, StateName: "Crush's records", StoreFiles: []string{"crush.db"},
		ProjectStoreDir: ".crush"}
}

func (crushDB) match(t map[string]bool) bool {
	return hasAll(t, "sessions.id", "sessions.parent_session_id", "sessions.cost", "messages.session_id", "messages.parts", "messages.role")
}

func (crushDB) list(db *snapshot) ([]StoreSession, error) {
	var out []StoreSession
	cwd := crushProject(db.name)
	err := db.each(`SELECT id, COALESCE(title, ''), COALESCE(parent_session_id, ''), COALESCE(created_at, 0),
		COALESCE(updated_at, 0), (SELECT count(*) FROM messages m WHERE m.session_id = s.id) FROM sessions s ORDER BY id`, nil,
		func(scan func(...any) error) error {
			s := StoreSession{Cwd: cwd}
			var created, updated int64
			if err := scan(&s.ID, &s.Title, &s.Parent, &created, &updated, &s.Messages); err != nil {
				return fmt.Errorf("reading a session: %w", err)
			}
			s.Created, s.Updated = secTime(created), secTime(updated)
			out = append(out, s)
			return nil
		})
	return out, err
}

// crushProject is the project a crush.db is kept for: the directory its
// .crush directory is in.
func crushProject(db string) string {
	dir := filepath.Dir(db)
	if filepath.Base(dir) == ".crush" {
		return filepath.Dir(dir)
	}
	return ""
}

// crushPart is one part as Crush writes it.
type crushPart struct {
	Type lstr `json:"type"`
	Data struct {
		Text       lstr  `json:"text"`
		Thinking   lstr  `json:"thinking"`
		ID         lstr  `json:"id"`
		Name       lstr  `json:"name"`
		Input      lstr  `json:"input"`
		ToolCallID lstr  `json:"tool_call_id"`
		Content    lstr  `json:"content"`
		IsError    lbool `json:"is_error"`
		Reason     lstr  `json:"reason"`
		Message    lstr  `json:"message"`
		Details    lstr  `json:"details"`
		URL        lstr  `json:"url"`
		Path       lstr  `json:"Path"`
		MIMEType   lstr  `json:"MIMEType"`
		Command    lstr  `json:"command"`
		Output     lstr  `json:"output"`
	} `json:"data"`
}

func (crushDB) write(db *snapshot, id string, w *docWriter) error {
	var title, parent string
	var created int64
	var cost, prompt, completion float64
	found := false
	err := db.each(`SELECT COALESCE(title, ''), COALESCE(parent_session_id, ''), COALESCE(created_at, 0),
		COALESCE(cost, 0), COALESCE(prompt_tokens, 0), COALESCE(completion_tokens, 0) FROM sessions WHERE id = ?`, []any{id},
		func(scan func(...any) error) error {
			found = true
			return scan(&title, &parent, &created, &cost, &prompt, &completion)
		})
	if err != nil {
		return err
	}
	if !found {
		return fmt.Errorf("no session %q in the database: %w", id, ErrNotSession)
	}
	w.start(secTime(created), crushProject(db.name), title, parent, "")
	err = db.each(`SELECT id FROM sessions WHERE parent_session_id = ? ORDER BY created_at, id`, []any{id},
		func(scan func(...any) error) error {
			var child string
			if err := scan(&child); err != nil {
				return err
			}
			_, call, _ := strings.Cut(child, "$$")
			w.child(child, call)
			return nil
		})
	if err != nil {
		return err
	}
	lastReply := -1
	// provider and is_summary_message came in later versions.
	err = db.each(`SELECT id, role, COALESCE(parts, '[]'), COALESCE(model, ''), COALESCE(`+db.col("messages", "provider", "''")+`, ''),
		COALESCE(created_at, 0), COALESCE(`+db.col("messages", "is_summary_message", "0")+`, 0)
		FROM messages WHERE session_id = ? ORDER BY created_at, rowid`, []any{id},
		func(scan func(...any) error) error {
			var mid, role, model, provider string
			var parts []byte
			var at int64
			var summary int
			if err := scan(&mid, &role, &parts, &model, &provider, &at, &summary); err != nil {
				return fmt.Errorf("reading a message: %w", err)
			}
			if i := writeCrushMessage(w, mid, role, parts, model, provider, at, summary != 0); i >= 0 {
				lastReply = i
			}
			return nil
		})
	if err != nil {
		return err
	}
	w.totals(lastReply, cost, prompt, completion)
	return nil
}

// totals puts a session's tokens and cost on its reply at line index at,
// its last: for an agent that records them for the whole session only
// (Crush, Goose), so that the session's sums are the agent's.
func (w *docWriter) totals(at int, cost, prompt, completion float64) {
	if at < 0 || cost == 0 && prompt == 0 && completion == 0 {
		return
	}
	var e docEntry
	if json.Unmarshal(w.lines[at], &e) != nil || e.Message == nil {
		return
	}
	e.Message.Usage = &Usage{Input: prompt, Output: completion, TotalTokens: prompt + completion}
	e.Message.Usage.Cost.Total = cost
	if line, err := json.Marshal(e, docOpts); err == nil {
		w.lines[at] = line
	}
}

// writeCrushMessage writes one message; it returns the index of the line
// of a reply it wrote, else -1.
func writeCrushMessage(w *docWriter, id, role string, raw []byte, model, provider string, at int64, summary bool) int {
	when := secTime(at)
	var parts []crushPart
	if err := json.Unmarshal(raw, &parts, jsonOpts); err != nil {
		w.custom(id, when, "unreadable message", string(raw))
		return -1
	}
	m := &docMessage{Role: RoleUser}
	var results []*docMessage
	for i, p := range parts {
		d := &p.Data
		switch p.Type {
		case "text":
			m.Content = append(m.Content, docText(string(d.Text)))
		case "reasoning":
			if d.Thinking != "" {
				m.Content = append(m.Content, docThinking(string(d.Thinking)))
			}
		case "tool_call":
			m.Content = append(m.Content, docCall(string(d.ID), string(d.Name), []byte(d.Input)))
		case "tool_result":
			results = append(results, &docMessage{Role: RoleToolResult, ToolCallID: string(d.ToolCallID),
				ToolName: string(d.Name), Content: []docBlock{docText(string(d.Content))}, IsError: bool(d.IsError)})
		case "finish":
			m.StopReason = crushStop(string(d.Reason))
			if d.Message != "" {
				m.ErrorMessage = strings.TrimSuffix(string(d.Message)+": "+string(d.Details), ": ")
			}
		case "image_url":
			m.Content = append(m.Content, docText("[image: "+string(d.URL)+"]"))
		case "binary":
			m.Content = append(m.Content, docText(fmt.Sprintf("[file: %s (%s)]", d.Path, d.MIMEType)))
		default:
			w.custom(fmt.Sprintf("%s.%d", id, i), when, string(p.Type), jsontext.Value(mustJSON(p)))
		}
	}
	switch {
	case role == "tool":
		for _, r := range results {
			w.message(r.ToolCallID+".result", when, r)
		}
		return -1
	case summary:
		w.add(docEntry{Type: TypeCompaction, ID: id, Summary: docBlocksText(m.Content)}, when)
		return -1
	case role == "assistant":
		m.Role, m.Model, m.Provider = RoleAssistant, model, provider
		w.message(id, when, m)
		return len(w.lines) - 1
	case role == "system":
		m.Role, m.CustomType = RoleCustom, "system"
	default:
		m.StopReason = "" // a prompt's own finish part
	}
	w.message(id, when, m)
	return -1
}

// crushStop is a finish reason in pi's terms.
func crushStop(r string) string {
	switch r {
	case "end_turn":
		return "stop"
	case "tool_use":
		return "toolUse"
	case "max_tokens":
		return "length"
	case "canceled":
		return "aborted"
	case "unknown":
		return ""
	}
	return r
}

// docBlocksText is the text of text blocks, joined.
func docBlocksText(bs []docBlock) string {
	var out []string
	for _, b := range bs {
		if b.Type == "text" {
			out = append(out, b.Text)
		}
	}
	return strings.Join(out, "\n\n")
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		return []byte("null")
	}
	return b
}

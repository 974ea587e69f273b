package sessiontree

import (
	"fmt"
	"strings"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// OpenCode keeps its sessions in ~/.local/share/opencode/opencode.db
// (tables session, message and part; a message's and a part's fields are
// JSON in their "data" column), and before version 1.2 kept the same
// objects as files (store_opencode_files.go). A session is a list of
// messages, each a list of parts: text, reasoning, a tool's call with its
// input, output and status, a step's start and finish (its cost and
// tokens), a compaction, a subtask, a file. A subagent runs in a session
// of its own, whose parent_id is the session that ran it.
type openCodeDB struct{}

func (openCodeDB) format() string { return FormatOpenCode }

func (openCodeDB) agent() Agent {
	return Agent{Formats: []string{FormatOpenCode}, StateName: "OpenCode's records",
		Dirs: []string{".local/share/opencode"}, StoreFiles: []string{"opencode.db"},
		Document: true} // storage/session/<project>/<id>.json
}

func (openCodeDB) match(t map[string]bool) bool {
	return hasAll(t, "session.id", "session.directory", "message.session_id", "message.data", "part.message_id", "part.data")
}

func (openCodeDB) list(db *snapshot) ([]StoreSession, error) {
	var out []StoreSession
	err := db.each(`SELECT s.id, COALESCE(s.title, ''), COALESCE(s.directory, ''), COALESCE(`+db.col("session", "parent_id", "''")+`, ''),
		COALESCE(s.time_created, 0), COALESCE(s.time_updated, 0),
		(SELECT count(*) FROM message m WHERE m.session_id = s.id) FROM session s ORDER BY s.id`, nil,
		func(scan func(...any) error) error {
			var s StoreSession
			var created, updated int64
			if err := scan(&s.ID, &s.Title, &s.Cwd, &s.Parent, &created, &updated, &s.Messages); err != nil {
				return fmt.Errorf("reading a session: %w", err)
			}
			s.Created, s.Updated = msTime(created), msTime(updated)
			out = append(out, s)
			return nil
		})
	return out, err
}

func (openCodeDB) write(db *snapshot, id string, w *docWriter) error {
	var title, dir, parent, version, revert string
	var created int64
	found := false
	err := db.each(`SELECT COALESCE(title, ''), COALESCE(directory, ''), COALESCE(`+db.col("session", "parent_id", "''")+`, ''),
		COALESCE(`+db.col("session", "version", "''")+`, ''), COALESCE(time_created, 0),
		COALESCE(`+db.col("session", "revert", "''")+`, '') FROM session WHERE id = ?`, []any{id},
		func(scan func(...any) error) error {
			found = true
			return scan(&title, &dir, &parent, &version, &created, &revert)
		})
	if err != nil {
		return err
	}
	if !found {
		return fmt.Errorf("no session %q in the database: %w", id, ErrNotSession)
	}
	w.start(msTime(created), dir, title, parent, version)
	var msgs []ocMessage
	at := map[string]int{}
	err = db.each(`SELECT id, data FROM message WHERE session_id = ? ORDER BY time_created, id`, []any{id},
		func(scan func(...any) error) error {
			var m ocMessage
			if err := scan(&m.id, &m.data); err != nil {
				return fmt.Errorf("reading a message: %w", err)
			}
			at[m.id] = len(msgs)
			msgs = append(msgs, m)
			return nil
		})
	if err != nil {
		return err
	}
	err = db.each(`SELECT p.message_id, p.id, p.data FROM part p JOIN message m ON m.id = p.message_id
		WHERE m.session_id = ? ORDER BY p.message_id, p.id`, []any{id},
		func(scan func(...any) error) error {
			var mid, pid string
			var data []byte
			if err := scan(&mid, &pid, &data); err != nil {
				return fmt.Errorf("reading a part: %w", err)
			}
			if i, ok := at[mid]; ok {
				msgs[i].parts = append(msgs[i].parts, ocRawPart{pid, data})
			}
			return nil
		})
	if err != nil {
		return err
	}
	writeOpenCode(w, msgs, ocRevertFrom(revert, msgs))
	return nil
}

// ocRevertFrom is the index of the first message a pending revert undid
// (the session's revert, {"messageID", "partID", "snapshot", "diff"},
// which OpenCode's /undo sets and its next prompt clears, deleting the
// messages then), or -1 when there is none.
func ocRevertFrom(revert string, msgs []ocMessage) int {
	var r struct {
		MessageID lstr `json:"messageID"`
	}
	if revert == "" || json.Unmarshal([]byte(revert), &r, jsonOpts) != nil || r.MessageID == "" {
		return -1
	}
	for i, m := range msgs {
		if m.id == string(r.MessageID) {
			return i
		}
	}
	return -1
}

// ocMessage is one message as stored: its id, its info's JSON, its
// parts, in order.
type ocMessage struct {
	id    string
	data  []byte
	parts []ocRawPart
}

type ocRawPart struct {
	id   string
	data []byte
}

// ocInfo is what is read of a message's info.
type ocInfo struct {
	Role       lstr           `json:"role"`
	Time       ocTime         `json:"time"`
	ParentID   lstr           `json:"parentID"`
	ModelID    lstr           `json:"modelID"`
	ProviderID lstr           `json:"providerID"`
	Cost       lnum           `json:"cost"`
	Tokens     ocTokens       `json:"tokens"`
	Finish     lstr           `json:"finish"`
	Summary    jsontext.Value `json:"summary"`
	Error      *struct {
		Name lstr `json:"name"`
		Data struct {
			Message lstr `json:"message"`
		} `json:"data"`
	} `json:"error"`
	Model struct { // a user message's
		ProviderID lstr `json:"providerID"`
		ModelID    lstr `json:"modelID"`
	} `json:"model"`
}

type ocTime struct {
	Created   lnum `json:"created"`
	Completed lnum `json:"completed"`
	Start     lnum `json:"start"`
	End       lnum `json:"end"`
}

type ocTokens struct {
	Input     lnum `json:"input"`
	Output    lnum `json:"output"`
	Reasoning lnum `json:"reasoning"`
	Cache     struct {
		Read  lnum `json:"read"`
		Write lnum `json:"write"`
	} `json:"cache"`
}

// usage is the tokens and cost in pi's terms; nil when none is recorded.
func (t ocTokens) usage(cost lnum) *Usage {
	u := &Usage{Input: float64(t.Input), Output: float64(t.Output + t.Reasoning),
		CacheRead: float64(t.Cache.Read), CacheWrite: float64(t.Cache.Write)}
	u.TotalTokens = u.Input + u.Output + u.CacheRead + u.CacheWrite
	u.Cost.Total = float64(cost)
	if u.TotalTokens == 0 && u.Cost.Total == 0 {
		return nil
	}
	return u
}

// ocPart is what is read of a part.
type ocPart struct {
	Type        lstr     `json:"type"`
	Text        lstr     `json:"text"`
	Ignored     lbool    `json:"ignored"`
	CallID      lstr     `json:"callID"`
	Tool        lstr     `json:"tool"`
	State       ocState  `json:"state"`
	Cost        lnum     `json:"cost"`
	Tokens      ocTokens `json:"tokens"`
	Reason      lstr     `json:"reason"`
	Mime        lstr     `json:"mime"`
	Filename    lstr     `json:"filename"`
	URL         lstr     `json:"url"`
	Prompt      lstr     `json:"prompt"`
	Description lstr     `json:"description"`
	Agent       lstr     `json:"agent"`
	Name        lstr     `json:"name"`
	Time        ocTime   `json:"time"`
}

type ocState struct {
	Status   lstr           `json:"status"`
	Input    jsontext.Value `json:"input"`
	Output   lstr           `json:"output"`
	Error    lstr           `json:"error"`
	Title    lstr           `json:"title"`
	Metadata struct {
		SessionID lstr `json:"sessionId"`
	} `json:"metadata"`
	Time ocTime `json:"time"`
}

// writeOpenCode writes OpenCode's messages, in order, as the document's
// entries: a user message is a prompt; an assistant message is one
// reply per step (its cost and tokens those of the step's finish), each
// followed by the results of its calls; a compaction is pi's compaction,
// with the summary the agent wrote for it.
//
// A pending revert (from >= 0: OpenCode's /undo) keeps the messages it
// undid as a branch: they are written as they are, then a branch summary
// follows the message before them, which the session's path ends at.
func writeOpenCode(w *docWriter, msgs []ocMessage, from int) {
	infos := make([]ocInfo, len(msgs))
	summaries := map[string]string{} // a compaction's user message id: the summary written for it
	for i, m := range msgs {
		if err := json.Unmarshal(m.data, &infos[i], jsonOpts); err != nil {
			infos[i] = ocInfo{}
		}
		if string(infos[i].Summary) == "true" && infos[i].ParentID != "" {
			summaries[string(infos[i].ParentID)] = ocText(m.parts)
		}
	}
	kept := ""
	for i, m := range msgs {
		if i == from {
			kept = w.last
		}
		info := &infos[i]
		if info.Role == "assistant" {
			writeOpenCodeReply(w, m, info)
			continue
		}
		writeOpenCodePrompt(w, m, info, summaries)
	}
	if from >= 0 {
		undone := len(msgs) - from
		w.last = kept
		w.add(docEntry{Type: TypeBranchSummary, ID: "revert", FromID: msgs[from].id,
			Summary: fmt.Sprintf("Undone with /undo: the %s from %s on, kept as the branch beside this one.",
				plural(undone, "message"), msgs[from].id)}, time.Time{})
	}
}

// ocText is the text of a message's text parts.
func ocText(parts []ocRawPart) string {
	var b strings.Builder
	for _, rp := range parts {
		var p ocPart
		if json.Unmarshal(rp.data, &p, jsonOpts) == nil && p.Type == "text" {
			if b.Len() > 0 {
				b.WriteString("\n\n")
			}
			b.WriteString(string(p.Text))
		}
	}
	return b.String()
}

// writeOpenCodePrompt writes a user message: its text, files and
// subtasks, or the compaction it asks for.
func writeOpenCodePrompt(w *docWriter, m ocMessage, info *ocInfo, summaries map[string]string) {
	at := msTime(int64(info.Time.Created))
	var blocks []docBlock
	for _, rp := range m.parts {
		var p ocPart
		if json.Unmarshal(rp.data, &p, jsonOpts) != nil {
			w.custom(rp.id, at, "unreadable part", string(rp.data))
			continue
		}
		switch p.Type {
		case "text":
			if !p.Ignored {
				blocks = append(blocks, docText(string(p.Text)))
			}
		case "file":
			blocks = append(blocks, ocFile(&p))
		case "agent":
			blocks = append(blocks, docText("@"+string(p.Name)))
		case "subtask":
			blocks = append(blocks, docText(fmt.Sprintf("Subtask for %s: %s\n\n%s", p.Agent, p.Description, p.Prompt)))
		case "compaction":
			w.add(docEntry{Type: TypeCompaction, ID: m.id, Summary: summaries[m.id]}, at)
			return
		default:
			w.custom(rp.id, at, string(p.Type), jsontext.Value(rp.data))
		}
	}
	w.message(m.id, at, &docMessage{Role: RoleUser, Content: blocks})
}

// ocFile is a file part: a picture inline, else its name.
func ocFile(p *ocPart) docBlock {
	u := string(p.URL)
	if rest, ok := strings.CutPrefix(u, "data:"); ok && strings.HasPrefix(string(p.Mime), "image/") {
		if _, data, ok := strings.Cut(rest, ";base64,"); ok {
			return docBlock{Type: "image", Data: data, MimeType: string(p.Mime)}
		}
	}
	name := string(p.Filename)
	if name == "" {
		name = u
	}
	return docText(fmt.Sprintf("[file: %s (%s)]", name, p.Mime))
}

// ocStep is one step of a reply: what the model wrote, and the calls'
// results.
type ocStep struct {
	id      string
	blocks  []docBlock
	results []*docMessage
	usage   *Usage
	reason  string
}

// writeOpenCodeReply writes an assistant message, a reply per step.
func writeOpenCodeReply(w *docWriter, m ocMessage, info *ocInfo) {
	at := msTime(int64(info.Time.Created))
	steps := []*ocStep{{id: m.id}}
	cur := steps[0]
	finished := false
	for _, rp := range m.parts {
		var p ocPart
		if json.Unmarshal(rp.data, &p, jsonOpts) != nil {
			w.custom(rp.id, at, "unreadable part", string(rp.data))
			continue
		}
		switch p.Type {
		case "step-start":
			if len(cur.blocks) > 0 || cur.usage != nil {
				cur = &ocStep{id: rp.id}
				steps = append(steps, cur)
			}
		case "step-finish":
			cur.usage, cur.reason, finished = p.Tokens.usage(p.Cost), ocStop(string(p.Reason)), true
		case "text":
			if !p.Ignored {
				cur.blocks = append(cur.blocks, docText(string(p.Text)))
			}
		case "reasoning":
			cur.blocks = append(cur.blocks, docThinking(string(p.Text)))
		case "tool":
			ocTool(w, cur, &p)
		case "file":
			cur.blocks = append(cur.blocks, ocFile(&p))
		default: // patch, snapshot, retry, agent: the agent's records
			w.custom(rp.id, at, string(p.Type), jsontext.Value(rp.data))
		}
	}
	last := steps[len(steps)-1]
	if !finished {
		last.usage = info.Tokens.usage(info.Cost)
		last.reason = ocStop(string(info.Finish))
	}
	var errMsg string
	if info.Error != nil {
		errMsg = strings.TrimPrefix(string(info.Error.Name)+": "+string(info.Error.Data.Message), ": ")
		last.reason = "error"
	}
	for _, st := range steps {
		if len(st.blocks) == 0 && st.usage == nil && st != last {
			continue
		}
		msg := &docMessage{Role: RoleAssistant, Content: st.blocks, Provider: string(info.ProviderID),
			Model: string(info.ModelID), Usage: st.usage, StopReason: st.reason}
		if st == last {
			msg.ErrorMessage = errMsg
		}
		w.message(st.id, at, msg)
		for _, r := range st.results {
			w.message(r.ToolCallID+".result", at, r)
		}
	}
}

// ocTool adds a tool part to its step: the call, and its result once the
// tool ran (completed or failed).
func ocTool(w *docWriter, st *ocStep, p *ocPart) {
	id := string(p.CallID)
	st.blocks = append(st.blocks, docCall(id, string(p.Tool), p.State.Input))
	if sid := string(p.State.Metadata.SessionID); sid != "" {
		w.child(sid, id)
	}
	var out string
	isErr := false
	switch p.State.Status {
	case "completed":
		out = string(p.State.Output)
	case "error":
		out, isErr = string(p.State.Error), true
	default: // pending, running: no result yet
		return
	}
	st.results = append(st.results, &docMessage{Role: RoleToolResult, ToolCallID: id, ToolName: string(p.Tool),
		Content: []docBlock{docText(out)}, IsError: isErr})
}

// ocStop is a finish reason in pi's terms.
func ocStop(r string) string {
	switch r {
	case "tool-calls":
		return "toolUse"
	case "", "unknown":
		return ""
	}
	return r
}

package sessiontree

import (
	"bytes"
	"strconv"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// docWriter writes a store's session as a document (store.go): pi JSONL,
// one entry a line, each the child of the line before it unless it says
// otherwise.
type docWriter struct {
	format, session string
	header          docHeader
	cwd             string
	created         time.Time
	lines           [][]byte
	last            string // the id of the entry written last
	ids             map[string]bool
}

// docMessage is a message line's "message": pi's shape.
type docMessage struct {
	Role         string         `json:"role"`
	Content      []docBlock     `json:"content"`
	Timestamp    int64          `json:"timestamp,omitempty"`
	Provider     string         `json:"provider,omitempty"`
	Model        string         `json:"model,omitempty"`
	Usage        *Usage         `json:"usage,omitempty"`
	StopReason   string         `json:"stopReason,omitempty"`
	ErrorMessage string         `json:"errorMessage,omitempty"`
	ToolCallID   string         `json:"toolCallId,omitempty"`
	ToolName     string         `json:"toolName,omitempty"`
	IsError      bool           `json:"isError,omitempty"`
	Details      jsontext.Value `json:"details,omitempty"`
	CustomType   string         `json:"customType,omitempty"`
	Display      bool           `json:"display,omitempty"`
}

// docBlock is a content block, as pi writes one.
type docBlock struct {
	Type      string         `json:"type"`
	Text      string         `json:"text,omitempty"`
	Thinking  string         `json:"thinking,omitempty"`
	Data      string         `json:"data,omitempty"`
	MimeType  string         `json:"mimeType,omitempty"`
	ID        string         `json:"id,omitempty"`
	Name      string         `json:"name,omitempty"`
	Arguments jsontext.Value `json:"arguments,omitempty"`
}

// docEntry is one line of the document.
type docEntry struct {
	Type         string      `json:"type"`
	ID           string      `json:"id"`
	ParentID     *string     `json:"parentId"`
	Timestamp    string      `json:"timestamp,omitempty"`
	Message      *docMessage `json:"message,omitempty"`
	Summary      string      `json:"summary,omitempty"`
	FromID       string      `json:"fromId,omitempty"` // a branch summary's
	TokensBefore float64     `json:"tokensBefore,omitempty"`
	CustomType   string      `json:"customType,omitempty"`
	Data         any         `json:"data,omitempty"`
}

// docOpts are how the document's lines are written: the same bytes every
// time, and text that is not UTF-8 in a row written with U+FFFD for its
// bad bytes rather than the line lost.
var docOpts = json.JoinOptions(json.Deterministic(true), jsontext.AllowInvalidUTF8(true))

// start sets the header: the session's id, when it started, where.
func (w *docWriter) start(created time.Time, cwd, title, parent, version string) {
	w.header.Type = "session"
	w.header.Store.Format, w.header.Store.Session = w.format, w.session
	w.header.Store.Title, w.header.Store.Parent, w.header.Store.Version = title, parent, version
	w.cwd, w.created = cwd, created
}

// child notes a session that a call of this one ran (a subagent's).
func (w *docWriter) child(session, call string) {
	w.header.Store.Children = append(w.header.Store.Children, struct {
		Session string `json:"session"`
		Call    string `json:"call,omitempty"`
	}{session, call})
}

// add writes e as the next line, the child of the line before it; its id
// is made unique among the document's.
func (w *docWriter) add(e docEntry, at time.Time) {
	if w.ids == nil {
		w.ids = map[string]bool{}
	}
	for base, n := e.ID, 2; e.ID == "" || w.ids[e.ID]; n++ {
		e.ID = base + "~" + strconv.Itoa(n)
	}
	w.ids[e.ID] = true
	if w.last != "" {
		p := w.last
		e.ParentID = &p
	}
	if !at.IsZero() {
		e.Timestamp = at.UTC().Format("2006-01-02T15:04:05.000Z")
		if e.Message != nil {
			e.Message.Timestamp = at.UnixMilli()
		}
	}
	line, err := json.Marshal(e, docOpts)
	if err != nil {
		return // never: every member is ours, and any string encodes
	}
	w.lines = append(w.lines, line)
	w.last = e.ID
}

// message writes a message line.
func (w *docWriter) message(id string, at time.Time, m *docMessage) {
	if m.Content == nil {
		m.Content = []docBlock{}
	}
	w.add(docEntry{Type: TypeMessage, ID: id, Message: m}, at)
}

// custom writes a record the agent keeps for itself (bookkeeping).
func (w *docWriter) custom(id string, at time.Time, kind string, data any) {
	w.add(docEntry{Type: TypeCustom, ID: id, CustomType: kind, Data: data}, at)
}

// bytes is the document: the header, then the lines.
func (w *docWriter) bytes() []byte {
	var out bytes.Buffer
	head := struct {
		Type      string `json:"type"`
		Version   int    `json:"version"`
		ID        string `json:"id"`
		Timestamp string `json:"timestamp,omitempty"`
		Cwd       string `json:"cwd,omitempty"`
		Store     any    `json:"store"`
	}{Type: "session", Version: 3, ID: w.session, Cwd: w.cwd, Store: w.header.Store}
	if !w.created.IsZero() {
		head.Timestamp = w.created.UTC().Format("2006-01-02T15:04:05.000Z")
	}
	line, _ := json.Marshal(head, docOpts)
	out.Write(line)
	out.WriteByte('\n')
	for _, l := range w.lines {
		out.Write(l)
		out.WriteByte('\n')
	}
	return out.Bytes()
}

// docText is a text block; docThinking a thinking one.
func docText(s string) docBlock     { return docBlock{Type: "text", Text: s} }
func docThinking(s string) docBlock { return docBlock{Type: "thinking", Thinking: s} }

// docCall is a call, its arguments JSON (an object) as written, or
// a string holding the text written when it is not JSON.
func docCall(id, name string, args []byte) docBlock {
	v := jsontext.Value(bytes.TrimSpace(args))
	if len(v) == 0 {
		v = jsontext.Value("{}")
	} else if !v.IsValid() {
		v, _ = json.Marshal(string(args))
	}
	return docBlock{Type: "toolCall", ID: id, Name: name, Arguments: v}
}

// msTime is a time in milliseconds since the epoch; zero for none.
func msTime(ms int64) time.Time {
	if ms <= 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms)
}

// secTime is a time in seconds since the epoch; zero for none. A value
// too large to be seconds is taken as milliseconds.
func secTime(s int64) time.Time {
	switch {
	case s <= 0:
		return time.Time{}
	case s > 1e11:
		return time.UnixMilli(s)
	}
	return time.Unix(s, 0)
}

package sessiontree

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// clineReader reads a Cline task (and Roo Code's and Kilo Code's, which
// keep Cline's shape): the session is the task's
// api_conversation_history.json, a JSON array of Anthropic-shaped
// messages ({role, content}, newer versions adding ts and modelInfo),
// which is what the model saw. Beside it, ui_messages.json (what the
// panel showed) records each API request's tokens and cost
// (say: api_req_started, its text JSON), and task_metadata.json the
// models used: both are read when present, never required.
//
// The rules, as this reader applies them:
//   - Each message is an entry, m<n> (n its index; the CLI's own id when
//     it writes one), the child of the one before; a task has no
//     branches.
//   - Cline CLI (~/.cline/data/sessions/<id>/<id>.messages.json) keeps
//     the same messages in an object ({"sessionId", "taskType", "origin",
//     "messages"}), its prompts wrapped in <user_input mode="…"> with
//     <mode_notice> blocks (not shown), each reply's tokens in metrics.
//   - The first prompt is wrapped in <task>…</task>, later ones in
//     <feedback> or <answer>; the text shows what is inside. The
//     <environment_details> Cline adds to user messages (the files open,
//     the time, the directory) is context: not shown, kept in the JSON.
//   - The k-th API request of ui_messages.json is the k-th assistant
//     message's: its tokens and its cost as recorded (no estimate where
//     Cline recorded one); the model is modelInfo's, else the last of
//     task_metadata.json's model_usage at or before the request.
//   - Without ui_messages.json, a reply's own metrics are its tokens:
//     the CLI's {inputTokens, outputTokens, cacheReadTokens,
//     cacheWriteTokens}, or the extension's (3.x) tokens {prompt,
//     completion, cached}, read as input, output and cache reads (it
//     records no cache writes); the cost is then estimated.
type clineReader struct{}

func (clineReader) agent() Agent {
	return Agent{
		Formats: []string{FormatCline},
		Dirs: []string{
			".config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks",
			".config/Code/User/globalStorage/rooveterinaryinc.roo-cline/tasks",
			".config/Code/User/globalStorage/kilocode.kilo-code/tasks",
			"Library/Application Support/Code/User/globalStorage/saoudrizwan.claude-dev/tasks",
			"Library/Application Support/Code/User/globalStorage/rooveterinaryinc.roo-cline/tasks",
			"Library/Application Support/Code/User/globalStorage/kilocode.kilo-code/tasks",
			".cline/data/tasks",
			".cline/data/sessions",
		},
		EstimateCost: true, Document: true, DirNamed: "api_conversation_history.json",
	}
}

// clineMarks are the tags Cline puts in its user messages' text: a first
// message holding one is Cline's.
var clineMarks = []string{"<task>", "<environment_details>", "<feedback>", "<user_message>", "<user_input"}

// detect: a JSON array whose first element is a user message holding a
// text of Cline's tags.
func (clineReader) detect(p *probe) bool {
	t := bytes.TrimLeft(p.chunk, " \t\r\n")
	if len(t) > 0 && t[0] == '{' {
		return clineCLI(p)
	}
	if len(t) == 0 || t[0] != '[' {
		return false
	}
	d := jsontext.NewDecoder(bufio.NewReaderSize(p.body(), 64<<10), jsonOpts)
	if tok, err := d.ReadToken(); err != nil || tok.Kind() != '[' || d.PeekKind() != '{' {
		return false
	}
	var first struct {
		Role    lstr           `json:"role"`
		Content jsontext.Value `json:"content"`
	}
	if err := json.UnmarshalDecode(d, &first, jsonOpts); err != nil {
		// A first message larger than what is shown of the input (canopy
		// list reads a file's head): its start as Cline writes it.
		return clineStart.Match(t[:min(len(t), 4096)])
	}
	if first.Role != "user" {
		return false
	}
	text := clineText(first.Content)
	for _, m := range clineMarks {
		if strings.Contains(text, m) {
			return true
		}
	}
	return false
}

// clineStart is how Cline writes a task's first message, up to its tag.
var clineStart = regexp.MustCompile(`^\[\s*\{\s*"role"\s*:\s*"user"\s*,\s*"content"\s*:\s*\[\s*\{\s*"type"\s*:\s*"text"\s*,\s*"text"\s*:\s*"\s*(?:<task>|<user_input|<feedback>|<user_message>)`)

// clineCLI reports whether the input is a Cline CLI messages file: an
// object holding messages beside the CLI's taskType, origin or agent.
func clineCLI(p *probe) bool {
	messages, cli := false, false
	topMembers(p, func(name string, _ *jsontext.Decoder) (bool, error) {
		switch name {
		case "messages":
			messages = true
		case "taskType", "origin", "agent":
			cli = true
		}
		return messages && cli, nil
	})
	return messages && cli
}

// clineText is a message content's text blocks, joined.
func clineText(content jsontext.Value) string {
	bs, _ := claudeBlocks(content)
	var b strings.Builder
	for _, x := range bs {
		if x.Type == "text" {
			b.WriteString(x.Text)
		}
	}
	return b.String()
}

// clineMessage is what load reads of a message: the extension's
// (modelInfo.modelId) or the CLI's (id, modelInfo.id, metrics).
type clineMessage struct {
	ID        lstr           `json:"id"`
	Role      lstr           `json:"role"`
	Content   jsontext.Value `json:"content"`
	TS        lnum           `json:"ts"`
	ModelInfo lobj[struct {
		ModelID    lstr `json:"modelId"`
		ProviderID lstr `json:"providerId"`
		ID         lstr `json:"id"`
		Provider   lstr `json:"provider"`
	}] `json:"modelInfo"`
	Metrics lobj[struct {
		Input      lnum `json:"inputTokens"`
		Output     lnum `json:"outputTokens"`
		CacheRead  lnum `json:"cacheReadTokens"`
		CacheWrite lnum `json:"cacheWriteTokens"`
		// The extension's (3.x): {prompt, completion, cached}, the
		// request's uncached input, output and cache reads.
		Tokens lobj[struct {
			Prompt     lnum `json:"prompt"`
			Completion lnum `json:"completion"`
			Cached     lnum `json:"cached"`
		}] `json:"tokens"`
	}] `json:"metrics"`
}

func (clineReader) read(s *Session, in *input, p *probe) error {
	r, err := newDocReader(s, in, p, "Cline task")
	if err != nil {
		return err
	}
	s.Format, s.Version = FormatCline, 1
	st := &clineState{s: s, c: newChain(s), names: map[string]string{}}
	if t := bytes.TrimLeft(r.data, " \t\r\n"); len(t) > 0 && t[0] == '{' {
		err = r.object(func(name string) error { // the CLI's messages file
			switch name {
			case "messages":
				return r.records(st.message)
			case "sessionId":
				var err error
				s.Header.ID, err = r.str()
				return err
			}
			return r.d.SkipValue()
		})
	} else if err = r.records(st.message); err != nil {
		err = r.fail(err)
	}
	if err != nil {
		return err
	}
	replies, fromUI := st.replies, false
	if s.Header.ID == "" {
		s.Header.ID = SessionID(s.Format, s.File)
	}
	if s.File != "" && s.File != "-" {
		// Beside the file the session is named by, whether it was loaded
		// from it or from memory (decompressed): the same either way.
		fromUI = clineUsage(s, filepath.Dir(s.File), replies)
	}
	if !fromUI {
		// The replies' own metrics; never both: the extension records a
		// request in both places.
		for i, u := range st.metrics {
			if u != nil {
				replies[i].Usage = u
			}
		}
	}
	s.src.body = &listDecoder{groups: st.c.groups, one: clineDecode}
	return nil
}

// clineState reads a task's messages in order.
type clineState struct {
	s       *Session
	c       *chain
	names   map[string]string
	replies []*Entry
	metrics []*Usage // each reply's own metrics, nil where it has none
	pending []string // the last reply's calls not yet answered
	n       int
}

// clineResultHead is the first line Cline gives a tool's result when it
// sends it back as text: "[read_file for 'a.cs'] Result:",
// "[attempt_completion] Result:".
var clineResultHead = regexp.MustCompile(`^\[([A-Za-z_][\w-]*)(?: for [^\n]*?)?\] Result:`)

// toolResult makes a user message that is a tool's result sent back as
// text (Cline's way, with or without native calls) a tool result: of the
// last reply's first call not yet answered, or, when the reply made none
// (tools written as XML in its text), of the tool the head names. One
// that carries the user's words (<feedback>, <answer>, <user_message>:
// after attempt_completion or a question) stays a prompt.
func (st *clineState) toolResult(e *Entry, content jsontext.Value) {
	if e.Role != RoleUser {
		return
	}
	var blocks []struct {
		Type lstr `json:"type"`
		Text lstr `json:"text"`
	}
	if len(content) == 0 || content[0] != '[' || json.Unmarshal(content, &blocks, jsonOpts) != nil || len(blocks) == 0 {
		return
	}
	text := string(blocks[0].Text)
	m := clineResultHead.FindStringSubmatch(text)
	if m == nil || blocks[0].Type != "text" {
		return
	}
	for _, tag := range []string{"<feedback>", "<answer>", "<user_message>"} {
		for _, b := range blocks {
			if strings.Contains(string(b.Text), tag) {
				return
			}
		}
	}
	e.Role, e.ToolName = RoleToolResult, m[1]
	if len(st.pending) > 0 {
		e.ToolCallID = st.pending[0]
		e.ToolName = firstOf(st.names[e.ToolCallID], m[1])
		st.pending = st.pending[1:]
	}
}

// message keeps the entry of one message: its id as written (the CLI's),
// else m<n>.
func (st *clineState) message(raw []byte, off int64, line int) {
	s := st.s
	var m clineMessage
	err := json.Unmarshal(raw, &m, jsonOpts)
	e := s.newEntry(line, off, raw, firstOf(string(m.ID), "m"+strconv.Itoa(st.n)))
	st.n++
	if err != nil {
		s.diag(line, SevError, "message skipped: %s", describe(err))
		return
	}
	anthMessageEntry(e, string(m.Role), m.Content, st.names)
	st.toolResult(e, m.Content)
	e.setTime("", float64(m.TS))
	if e.Role == RoleAssistant {
		mi := &m.ModelInfo.V
		e.Provider, e.Model = firstOf(string(mi.ProviderID), string(mi.Provider)), firstOf(string(mi.ModelID), string(mi.ID))
		var usage *Usage
		if u := &m.Metrics.V; m.Metrics.Set {
			usage = &Usage{Input: float64(u.Input), Output: float64(u.Output), CacheRead: float64(u.CacheRead), CacheWrite: float64(u.CacheWrite)}
			if t := &u.Tokens.V; u.Tokens.Set {
				usage = &Usage{Input: float64(t.Prompt), Output: float64(t.Completion), CacheRead: float64(t.Cached)}
			}
			usage.TotalTokens = usage.Input + usage.Output + usage.CacheRead + usage.CacheWrite
		}
		st.replies = append(st.replies, e)
		st.metrics = append(st.metrics, usage)
		st.pending = append(st.pending[:0], e.CallIDs...)
	}
	st.c.add(e)
	st.c.turn(e, true)
}

// maxSidecar bounds what is read of a file beside a session.
const maxSidecar = 64 << 20

// readSidecar reads a file beside a session, read-only, at most
// maxSidecar bytes; nil when there is none.
func readSidecar(path string) []byte {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxSidecar))
	if err != nil {
		return nil
	}
	return data
}

// clineUsage gives the replies the tokens and cost of the API requests
// ui_messages.json records, in order, and the models task_metadata.json
// names; false when there is no ui_messages.json to read.
func clineUsage(s *Session, dir string, replies []*Entry) bool {
	var ui []struct {
		TS   lnum `json:"ts"`
		Say  lstr `json:"say"`
		Text lstr `json:"text"`
	}
	if data := readSidecar(filepath.Join(dir, "ui_messages.json")); data == nil || json.Unmarshal(data, &ui, jsonOpts) != nil {
		return false
	}
	var meta struct {
		ModelUsage []struct {
			TS       lnum `json:"ts"`
			Model    lstr `json:"model_id"`
			Provider lstr `json:"model_provider_id"`
		} `json:"model_usage"`
	}
	if data := readSidecar(filepath.Join(dir, "task_metadata.json")); data != nil {
		json.Unmarshal(data, &meta, jsonOpts) // unreadable: no models
	}
	k := 0
	for _, req := range ui {
		if req.Say != "api_req_started" || k >= len(replies) {
			continue
		}
		var named struct {
			In     lnum `json:"tokensIn"`
			Out    lnum `json:"tokensOut"`
			Writes lnum `json:"cacheWrites"`
			Reads  lnum `json:"cacheReads"`
			Cost   lnum `json:"cost"`
		}
		json.Unmarshal([]byte(req.Text), &named, jsonOpts)
		e := turnHead(s, replies[k])
		k++
		u := &Usage{Input: float64(named.In), Output: float64(named.Out), CacheWrite: float64(named.Writes), CacheRead: float64(named.Reads)}
		u.TotalTokens = u.Input + u.Output + u.CacheRead + u.CacheWrite
		u.Cost.Total = float64(named.Cost)
		addUsage(e, u)
		if e.Model == "" {
			for _, mu := range meta.ModelUsage {
				if mu.TS <= req.TS || req.TS == 0 {
					e.Provider, e.Model = string(mu.Provider), string(mu.Model)
				}
			}
		}
	}
	return true
}

// clineUserInput is the CLI's wrapper of a prompt: <user_input
// mode="act">…</user_input>.
var clineUserInput = regexp.MustCompile(`(?s)^<user_input(?:\s[^>]*)?>(.*)</user_input>$`)

// clinePrompt is a user text as Cline wrapped it, unwrapped: what the
// user wrote, without the environment details Cline adds (they stay in
// the session's JSON).
func clinePrompt(t string) string {
	t = strings.TrimSpace(cutTagged(cutTagged(t, "environment_details"), "mode_notice"))
	if m := clineUserInput.FindStringSubmatch(t); m != nil {
		return strings.TrimSpace(m[1])
	}
	for _, tag := range []string{"task", "feedback", "answer", "user_message"} {
		if strings.Contains(t, "<"+tag+">") {
			return stripTag(t, tag)
		}
	}
	return t
}

func clineDecode(e *Entry, raw []byte) (*Body, error) {
	var m struct {
		Content jsontext.Value `json:"content"`
	}
	if err := json.Unmarshal(raw, &m, jsonOpts); err != nil {
		return nil, err
	}
	msg, err := anthMessage(e, m.Content, clinePrompt)
	if err != nil {
		return nil, err
	}
	if e.Role == RoleToolResult && msg.ToolName == "" {
		// A result sent back as text (toolResult): its head line said
		// which tool's; the card says it now.
		msg.ToolCallID, msg.ToolName = e.ToolCallID, e.ToolName
		if len(msg.Content) > 0 && msg.Content[0].Type == "text" {
			if loc := clineResultHead.FindStringIndex(msg.Content[0].Text); loc != nil {
				msg.Content[0].Text = strings.TrimLeft(msg.Content[0].Text[loc[1]:], "\r\n")
			}
		}
	}
	msg.Content = dropEmptyText(msg.Content)
	return &Body{Message: msg}, nil
}

func (clineReader) cut(s *Session) Cut {
	member := ""
	if data, err := s.ReadSource(); err == nil {
		if t := bytes.TrimLeft(bytes.TrimPrefix(data, bom), " \t\r\n"); len(t) > 0 && t[0] == '{' {
			member = "messages" // the CLI's messages file
		}
	}
	return listCut{s: s, rewrite: anthRewrite(""), write: func(lines []cutLine) ([]byte, error) {
		return writeDocument(s, member, lines)
	}}
}

// cutTagged is s without its <tag>…</tag> sections.
func cutTagged(s, tag string) string {
	open, end := "<"+tag+">", "</"+tag+">"
	for {
		i := strings.Index(s, open)
		if i < 0 {
			return s
		}
		j := strings.Index(s[i:], end)
		if j < 0 {
			return s[:i]
		}
		s = s[:i] + s[i+j+len(end):]
	}
}

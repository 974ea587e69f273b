package sessiontree

import (
	"bytes"
	"fmt"
	"strconv"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// geminiReader reads a Gemini CLI session
// (~/.gemini/tmp/<project hash>/chats/session-*.jsonl, and the older
// whole-file session-*.json).
//
// The rules, as this reader applies them (from the CLI's
// chatRecordingService, which writes and reads them):
//   - The JSONL is an update log. Its first line is the session's metadata
//     ({sessionId, projectHash, startTime, ...}), the header. A line with
//     a string "id" is a message (user, gemini, info, warning, error); a
//     message id written again (as its tool calls, results and tokens
//     arrive) replaces the earlier write: the last write wins, and the
//     entry is that line, at its place. The earlier writes are no entries.
//   - Messages follow one another: each new message is the child of the
//     last message of the conversation as it then was (through the
//     results of its tool calls).
//   - {"$rewindTo": id} removes that message and every one after it from
//     the conversation; they stay in the file. The rewind is a branch: the
//     removed messages are one branch, what follows the rewind another,
//     from the message before the one rewound to. A rewind to an id that
//     is not in the conversation empties it (as the CLI does): what
//     follows starts a new root.
//   - {"$set": {...}} updates the metadata: one with a "summary" names the
//     session (a session_info); the others are bookkeeping.
//   - A gemini message is the model's reply: its thoughts (thinking), its
//     text, its tool calls; each call that has a result (or finished)
//     gives a toolResult entry of its own, on the message's line, with the
//     id <message id>/result-<n>, n the call's place; the next message follows the last of them.
//     Its tokens are its usage (cost estimated from the model's price).
//   - An error message is a reply that failed; info and warning messages
//     are notices shown to the user, never sent to the model.
//   - The older .json document ({sessionId, projectHash, ..., messages})
//     is read as a log holding each message once, in order (Version 1;
//     the JSONL is Version 2).
//   - Not read: a "$set" of "messages" (the CLI rewrites its whole history
//     this way when it masks old tool output or compresses the chat): it
//     is bookkeeping, and the messages keep what their own lines say.
type geminiReader struct{}

func (geminiReader) detect(p *probe) bool { return p.classify() == kindGemini }

func (geminiReader) agent() Agent {
	return Agent{
		Formats:   []string{FormatGemini},
		StateName: "Gemini CLI record",
		// <project hash>/chats/session-*.jsonl (and .json)
		Dirs:         []string{".gemini/tmp"},
		EstimateCost: true, NoModelUnbilled: true,
		Document: true, // the older chats/session-*.json
	}
}

// isGemini: the metadata line of a Gemini CLI session (or the older
// document), or one of its log's own records.
func (sh *shape) isGemini() bool {
	return sh.hasAny(fSessionID) && sh.hasAny(fProjectHash) ||
		sh.hasAny(fRewindTo) && sh.count == 1 ||
		sh.typ == "gemini" && sh.hasAny(fID)
}

// geminiKind is what a line of the log is.
type geminiKind uint8

const (
	gOther    geminiKind = iota // an object of no kind the CLI writes: bookkeeping
	gMetadata                   // {sessionId, projectHash, ...}
	gMessage                    // a message record: a string id
	gRewind                     // {"$rewindTo": id}
	gSet                        // {"$set": {...}}
)

// geminiHead is what the load reads of a line.
type geminiHead struct {
	ID          optStr                `json:"id"`
	Type        lstr                  `json:"type"`
	Timestamp   lstr                  `json:"timestamp"`
	SessionID   optStr                `json:"sessionId"`
	ProjectHash optStr                `json:"projectHash"`
	StartTime   lstr                  `json:"startTime"`
	RewindTo    optStr                `json:"$rewindTo"`
	Set         lobj[geminiSet]       `json:"$set"`
	Model       lstr                  `json:"model"`
	Tokens      lobj[geminiTokens]    `json:"tokens"`
	ToolCalls   lobjs[geminiCallHead] `json:"toolCalls"`
}

type geminiSet struct {
	Summary  optStr  `json:"summary"`
	Messages present `json:"messages"`
}

// geminiTokens are a gemini message's token counts (TokensSummary).
type geminiTokens struct {
	Input    lnum `json:"input"`
	Output   lnum `json:"output"`
	Cached   lnum `json:"cached"`
	Thoughts lnum `json:"thoughts"`
	Tool     lnum `json:"tool"`
	Total    lnum `json:"total"`
}

// geminiCallHead is what the load reads of a tool call (ToolCallRecord).
type geminiCallHead struct {
	ID        lstr    `json:"id"`
	Name      lstr    `json:"name"`
	Status    lstr    `json:"status"`
	Timestamp lstr    `json:"timestamp"`
	Result    nonNull `json:"result"`
}

// answered: the call has a result, or ended without one.
func (c *geminiCallHead) answered() bool {
	switch c.Status {
	case "success", "error", "cancelled":
		return true
	}
	return bool(c.Result)
}

// geminiLine is one line of the log (or one message of a document) and
// what decoding it gave.
type geminiLine struct {
	rawLine
	entry *Entry
	err   error
	blank bool
	kind  geminiKind

	id, typ, target string // the message's id and type; a rewind's target
	summary         optStr
	setMessages     bool
	model           string
	usage           *Usage
	calls           []geminiCallHead
	sessionID       string
	startTime       string
	raw             []byte // a metadata line, kept: the header's Raw
}

func (l *geminiLine) decodeRaw(raw rawLine, e *Entry, src *source, it interner) {
	l.rawLine, l.entry = raw, e
	l.decode(src)
	it.entry(e)
	it.str(&l.typ)
	l.text = nil
}

func (l *geminiLine) decode(src *source) {
	text, lead := trimSpace(l.text)
	if len(text) == 0 {
		l.blank = true
		return
	}
	var h geminiHead
	if len(text) == 0 || text[0] != '{' {
		var x head
		l.err = decodeHead(text, &x) // the same errors as pi's lines
		return
	}
	if err := json.Unmarshal(text, &h, jsonOpts); err != nil {
		var x head
		if l.err = decodeHead(text, &x); l.err == nil {
			l.err = err
		}
		return
	}
	l.entry.start(&l.rawLine, src, lead, text, string(h.Timestamp))
	switch {
	case h.ID.Set:
		l.kind, l.id, l.typ = gMessage, h.ID.V, string(h.Type)
		l.model = string(h.Model)
		if t := &h.Tokens; t.Set {
			v := &t.V
			l.usage = genaiUsage(v.Input, v.Output, v.Cached, v.Thoughts, v.Tool, v.Total)
		}
		l.calls = h.ToolCalls
	case h.RewindTo.Set:
		l.kind, l.target = gRewind, h.RewindTo.V
	case h.Set.Set:
		l.kind, l.summary, l.setMessages = gSet, h.Set.V.Summary, bool(h.Set.V.Messages)
	case h.SessionID.Set && h.ProjectHash.Set:
		l.kind, l.sessionID, l.startTime = gMetadata, h.SessionID.V, string(h.StartTime)
		l.raw = bytes.Clone(text)
	}
}

// read decodes the lines (or a document's messages), then builds the
// conversation in file order.
func (geminiReader) read(s *Session, in *input, p *probe) error {
	var lines []geminiLine
	var err error
	doc := p.stream || geminiOneLineDocument(p.line)
	if doc {
		lines, err = geminiDocument(s, in, p)
	} else {
		lines, err = decodeRecords(in, p, newSlabDecoder[geminiLine](in.src))
	}
	if err != nil {
		return err
	}
	s.Format = FormatGemini
	s.Version = 2
	if doc {
		s.Version = 1
	}
	s.guessParents = true
	g := newGeminiState(s, lines, doc)
	for i := range lines {
		g.line(i)
	}
	if len(s.Entries) == 0 && s.Header.ID == "" {
		return fmt.Errorf("no line of this Gemini CLI session could be read: %w", ErrNotSession)
	}
	s.src.body = g.dec
	return nil
}

// geminiOneLineDocument: the input's first line is a whole session
// document (its messages in it), written on one line.
func geminiOneLineDocument(line []byte) bool {
	t, _ := trimSpace(line)
	if len(t) == 0 || t[0] != '{' || !jsontext.Value(t).IsValid(jsonOpts) {
		return false
	}
	sh := shapeOf(t)
	return sh.hasAny(fMessages) && sh.hasAny(fSessionID)
}

// geminiState is what reading the lines in order gathers.
type geminiState struct {
	s     *Session
	lines []geminiLine
	doc   bool
	// last is the index of each message id's last write, which is its
	// entry; parent is each message's parent, set at its first write.
	last   map[string]int
	parent map[string]string
	// path is the conversation as it stands: its messages' ids, in order.
	path    []string
	details map[detailKey]*Detail
	dec     *geminiDecoder
}

func newGeminiState(s *Session, lines []geminiLine, doc bool) *geminiState {
	g := &geminiState{s: s, lines: lines, doc: doc, last: map[string]int{}, parent: map[string]string{},
		details: map[detailKey]*Detail{}, dec: &geminiDecoder{results: map[*Entry]int{}, doc: doc}}
	for i := range lines {
		if l := &lines[i]; l.err == nil && !l.blank && l.kind == gMessage {
			g.last[l.id] = i
		}
	}
	return g
}

// line reads one line in file order.
func (g *geminiState) line(i int) {
	s, l := g.s, &g.lines[i]
	if s.skipped(&l.rawLine, l.blank, l.err) {
		return
	}
	e := l.entry
	if l.kind == gMetadata && s.Header.Line == 0 && len(s.Entries) == 0 {
		h := &s.Header
		h.ID, h.Timestamp, h.Line, h.Raw = l.sessionID, l.startTime, int(l.n), l.raw
		return
	}
	e.ID, e.Type, e.Detail = "L"+strconv.Itoa(e.Line), TypeCustom, s.noDetail
	switch l.kind {
	case gMessage:
		g.message(i, l)
		return
	case gRewind:
		g.rewind(l.target)
		e.Detail = sharedDetail(g.details, detailKey{custom: "rewind"}, s.noDetail)
	case gSet:
		switch {
		case l.summary.V != "":
			e.Type, e.Detail = TypeSessionInfo, &Detail{Name: l.summary.V}
		case l.setMessages:
			e.Detail = sharedDetail(g.details, detailKey{custom: "$set messages"}, s.noDetail)
		default:
			e.Detail = sharedDetail(g.details, detailKey{custom: "$set"}, s.noDetail)
		}
	case gMetadata:
		e.Detail = sharedDetail(g.details, detailKey{custom: "metadata"}, s.noDetail)
	default:
		e.Detail = sharedDetail(g.details, detailKey{custom: "record"}, s.noDetail)
	}
	e.Bookkeeping = true
	e.ParentID = g.tail()
	s.keep(e)
}

// rewind removes the message with the id, and those after it, from the
// conversation; all of them when it is not in it.
func (g *geminiState) rewind(id string) {
	for k, m := range g.path {
		if m == id {
			g.path = g.path[:k]
			return
		}
	}
	g.path = g.path[:0]
}

// tail is the id of the entry the next message follows: the last message
// of the conversation, or the result of its last answered call.
func (g *geminiState) tail() string {
	if len(g.path) == 0 {
		return ""
	}
	id := g.path[len(g.path)-1]
	final := &g.lines[g.last[id]]
	tail := id
	for k := range final.calls {
		if final.calls[k].answered() {
			tail = geminiResultID(id, final.calls, k)
		}
	}
	return tail
}

// geminiCallID is the id of a message's k-th call: its own, else one made
// from the message's id and k.
func geminiCallID(msg string, calls []geminiCallHead, k int) string {
	if id := string(calls[k].ID); id != "" {
		return id
	}
	return msg + "/" + strconv.Itoa(k+1)
}

// geminiResultID is the id of the result entry of a message's k-th call.
func geminiResultID(msg string, calls []geminiCallHead, k int) string {
	return msg + "/result-" + strconv.Itoa(k+1)
}

// message reads a message record: at its first write it joins the
// conversation; at its last, it is an entry, with its results.
func (g *geminiState) message(i int, l *geminiLine) {
	s, e := g.s, l.entry
	if _, seen := g.parent[l.id]; !seen {
		g.parent[l.id] = g.tail()
		g.path = append(g.path, l.id)
	}
	if g.last[l.id] != i {
		return // an earlier write: the last one is the message
	}
	e.ID, e.ParentID, e.Type = l.id, g.parent[l.id], TypeMessage
	switch l.typ {
	case "user":
		e.Role = RoleUser
	case "gemini":
		e.Role, e.Model, e.Usage = RoleAssistant, l.model, l.usage
		if l.model != "" {
			e.Provider = "google"
		}
		for k := range l.calls {
			e.CallIDs = append(e.CallIDs, geminiCallID(l.id, l.calls, k))
		}
		e.ToolCalls = len(e.CallIDs)
	case "error":
		e.Role, e.StopReason = RoleAssistant, "error"
	default: // info, warning: notices shown to the user
		e.Role = RoleCustom
		e.Detail = sharedDetail(g.details, detailKey{firstOf(l.typ, "notice"), true, true}, s.noDetail)
	}
	s.keep(e)
	if e.Role != RoleAssistant {
		return
	}
	parent := e.ID
	for k := range l.calls {
		c := &l.calls[k]
		if !c.answered() {
			continue
		}
		r := &Entry{Line: e.Line, Type: TypeMessage, Role: RoleToolResult, Detail: s.noDetail,
			ID: geminiResultID(l.id, l.calls, k), ParentID: parent, ToolCallID: e.CallIDs[k],
			ToolName: genaiToolName(string(c.Name)), Timestamp: firstOf(string(c.Timestamp), e.Timestamp)}
		if t, err := time.Parse(time.RFC3339Nano, r.Timestamp); err == nil {
			r.Time, r.TimeOK = t, true
		}
		r.src, r.off, r.n, r.crc = e.src, e.off, e.n, e.crc
		g.dec.results[r] = k
		s.keep(r)
		parent = r.ID
	}
}

// geminiDocument reads the older whole-file session: its top-level
// members are the header, each of its messages a record, at its place.
func geminiDocument(s *Session, in *input, p *probe) ([]geminiLine, error) {
	data, err := in.all(p.first)
	if err != nil {
		return nil, err
	}
	body := data[p.bom:]
	d := jsontext.NewDecoder(bytes.NewReader(body), jsonOpts)
	line, lineAt := int32(1), 0
	lineOf := func(at int) int32 {
		line += int32(bytes.Count(body[lineAt:at], []byte{'\n'}))
		lineAt = at
		return line
	}
	var recs []rawLine
	fail := func(err error) ([]geminiLine, error) {
		return nil, fmt.Errorf("this Gemini CLI session cannot be read as JSON: %v: %w", err, ErrNotSession)
	}
	if tok, err := d.ReadToken(); err != nil || tok.Kind() != '{' {
		return fail(fmt.Errorf("not an object"))
	}
	header := map[string]jsontext.Value{}
	var names []string
	for d.PeekKind() != '}' {
		tok, err := d.ReadToken()
		if err != nil {
			return fail(err)
		}
		name := tok.String()
		if name != "messages" || d.PeekKind() != '[' {
			v, err := d.ReadValue()
			if err != nil {
				return fail(err)
			}
			if _, dup := header[name]; !dup {
				names = append(names, name)
			}
			header[name] = bytes.Clone(v)
			continue
		}
		d.ReadToken()
		for d.PeekKind() != ']' {
			v, err := d.ReadValue()
			if err != nil {
				return fail(err)
			}
			at := int(d.InputOffset()) - len(v)
			recs = append(recs, rawLine{text: body[at : at+len(v)], off: int64(p.bom + at), n: lineOf(at)})
		}
		if _, err := d.ReadToken(); err != nil {
			return fail(err)
		}
	}
	s.Header.ID, s.Header.Timestamp = jsonText(header["sessionId"]), jsonText(header["startTime"])
	s.Header.Line, s.Header.Raw = 1, geminiHeaderLine(names, header)
	out := make([]geminiLine, len(recs))
	newSlabDecoder[geminiLine](in.src)()(recs, out)
	return out, nil
}

// geminiHeaderLine is a document's members but its messages, as the
// metadata line of the JSONL the CLI writes today: what a cut of the
// document starts with.
func geminiHeaderLine(names []string, members map[string]jsontext.Value) jsontext.Value {
	var b bytes.Buffer
	b.WriteByte('{')
	for k, n := range names {
		if k > 0 {
			b.WriteByte(',')
		}
		q, _ := jsontext.AppendQuote(nil, n)
		b.Write(q)
		b.WriteByte(':')
		v := members[n].Clone()
		v.Compact()
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes()
}

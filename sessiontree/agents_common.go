package sessiontree

import (
	"bufio"
	"bytes"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/go-json-experiment/json/jsontext"

	"canopy/internal/jsonobj"
)

// What the readers of agents without a tree share (Kimi CLI, Amp, Cursor
// CLI, Hermes Agent, Cline, Aider): their sessions are lists of messages,
// read as a chain in file order, each entry the child of the one before;
// the messages are Anthropic's shape (Amp, Cline, Cursor) or OpenAI's
// (Hermes); a reply written as several records is one turn of speech, as
// Codex's is (chain.turn).

// chain links the entries of a format without a tree, in file order.
type chain struct {
	s    *Session
	prev *Entry
	// head is the first record of the reply being written, nil when the
	// last entry that is not bookkeeping was no reply.
	head   *Entry
	groups map[*Entry][]*Entry // the later records of each reply, by its first
}

func newChain(s *Session) *chain {
	s.guessParents = true // never needed: each entry is the child of the one before
	return &chain{s: s, groups: map[*Entry][]*Entry{}}
}

// add keeps e as the child of the entry before it.
func (c *chain) add(e *Entry) {
	if c.prev != nil {
		e.ParentID = c.prev.ID
	}
	if e.Detail == nil {
		e.Detail = c.s.noDetail
	}
	c.prev = e
	c.s.keep(e)
}

// turn makes e, a record of a reply, part of the reply being written
// when there is one (Entry.Continues: its calls counted at the first, its
// blocks decoded there), else the first of a new one. Records that are
// no reply end the turn; bookkeeping between them does not.
func (c *chain) turn(e *Entry, reply bool) {
	if e.Bookkeeping {
		return
	}
	if !reply || e.Type != TypeMessage || e.Role != RoleAssistant {
		c.head = nil
		return
	}
	h := c.head
	if h == nil {
		c.head = e
		return
	}
	e.Continues = true
	h.ToolCalls += e.ToolCalls
	e.ToolCalls = 0
	if e.StopReason != "" {
		h.StopReason = e.StopReason
	}
	addUsage(h, e.Usage) // a turn's usage is its first record's (Stats counts no other)
	e.Usage = nil
	c.groups[h] = append(c.groups[h], e)
}

// addUsage adds u to the usage of e, a turn's first record.
func addUsage(e *Entry, u *Usage) {
	switch {
	case u == nil:
	case e.Usage == nil:
		c := *u
		e.Usage = &c
	default:
		e.Usage.add(u)
	}
}

// turnHead is the first record of the turn e is in: e, or for a record
// that continues a turn, the nearest one before it that does not.
func turnHead(s *Session, e *Entry) *Entry {
	for i := e.Index; e.Continues && i > 0; i-- {
		if p := s.Entries[i-1]; !p.Continues && p.Role == RoleAssistant && !p.Bookkeeping {
			return p
		}
	}
	return e
}

// endTurn ends the reply being written (a new step, a new request).
func (c *chain) endTurn() { c.head = nil }

// newEntry starts an entry whose bytes are raw, at off in the input, on
// line: a message with the id L<line>, or id when it is not "".
func (s *Session) newEntry(line int, off int64, raw []byte, id string) *Entry {
	e := &Entry{Line: line, Type: TypeMessage, ID: id, Detail: s.noDetail}
	if id == "" {
		e.ID = "L" + strconv.Itoa(line)
	}
	e.place(s.src, off, raw)
	return e
}

// setTime sets an entry's timestamp from the forms agents write: RFC
// 3339, a date and time without a zone (read as UTC: the file does not
// say), or seconds or milliseconds since the epoch.
func (e *Entry) setTime(ts string, epoch float64) {
	switch {
	case ts != "":
		e.Timestamp = ts
		for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999"} {
			if t, err := time.Parse(layout, ts); err == nil {
				e.Time, e.TimeOK = t, true
				return
			}
		}
	case epoch > 0 && epoch < 1e15 && !math.IsInf(epoch, 0):
		if epoch > 1e11 { // milliseconds
			epoch /= 1000
		}
		sec, frac := math.Modf(epoch)
		t := time.Unix(int64(sec), int64(frac*1e9)).UTC()
		e.Timestamp, e.Time, e.TimeOK = t.Format(time.RFC3339Nano), t, true
	}
}

// listDecoder decodes the entries of a message-list format: decode, the
// format's, decodes one record; a reply's first record decodes to the
// blocks of all its records (chain.turn), each later one keeping its id
// as a link target (Message.Streamed).
type listDecoder struct {
	groups map[*Entry][]*Entry
	one    func(e *Entry, raw []byte) (*Body, error)
}

func (d *listDecoder) decode(e *Entry, raw []byte) (*Body, error) {
	b, err := d.one(e, raw)
	if err != nil || b.Message == nil {
		return b, err
	}
	m := b.Message
	if e.Role == RoleAssistant {
		m.Provider, m.Model, m.StopReason = e.Provider, e.Model, e.StopReason
		if e.Usage != nil {
			u := *e.Usage
			m.Usage = &u
		}
	}
	if e.Continues {
		m.Content = nil // drawn in the card of the reply's first record
		return b, nil
	}
	for _, o := range d.groups[e] {
		var more Blocks
		err := o.withRaw(func(raw jsontext.Value) error {
			ob, err := d.one(o, raw)
			if err == nil && ob.Message != nil {
				more = ob.Message.Content
			}
			return err
		})
		if err != nil {
			return nil, err
		}
		m.Streamed = append(m.Streamed, StreamedLine{ID: o.ID, Block: len(m.Content)})
		m.Content = append(m.Content, more...)
	}
	return b, nil
}

// stateBody is the body of a record kept as the agent's own state: its
// JSON, shown as it is.
func stateBody(raw []byte) *Body { return &Body{Data: bytes.Clone(raw)} }

// listCut is the cut of a message-list format: each kept record cut by
// rewrite, then written by write (lines at their places, or a document
// holding the records).
type listCut struct {
	s       *Session
	rewrite func(e *Entry, o CutOptions, c *CutCounts) ([]byte, error)
	write   func(lines []cutLine) ([]byte, error)
	// thinking tells a record that is thinking only (Kimi's think parts).
	thinking func(e *Entry) bool
}

func (f listCut) Thinking(e *Entry) (bool, int) {
	if f.thinking != nil && f.thinking(e) {
		if e.Type == TypeMessage {
			return true, 1
		}
		return true, 0
	}
	return false, 0
}

func (listCut) Needed(*Entry) bool   { return false }
func (listCut) Names([]bool, *Entry) {}

func (f listCut) Write(keep []bool, _ *Entry, o CutOptions, c *CutCounts) ([]byte, error) {
	lines, err := cutLines(f.s, keep, true, func(e *Entry) ([]byte, error) {
		if f.rewrite == nil {
			return e.Raw()
		}
		return f.rewrite(e, o, c)
	})
	if err != nil {
		return nil, err
	}
	if f.write == nil {
		return writeCutLines(lines), nil
	}
	return f.write(lines)
}

// writeDocument writes a cut of a JSON document: its top-level object as
// it was (read again from the input) with member holding the kept
// records, or, with member "", the array of them.
func writeDocument(s *Session, member string, lines []cutLine) ([]byte, error) {
	var arr bytes.Buffer
	arr.WriteByte('[')
	for _, l := range lines {
		if l.e == nil {
			continue
		}
		if arr.Len() > 1 {
			arr.WriteByte(',')
		}
		arr.Write(l.raw)
	}
	arr.WriteByte(']')
	if member == "" {
		return append(arr.Bytes(), '\n'), nil
	}
	data, err := s.ReadSource()
	if err != nil {
		return nil, err
	}
	obj, err := jsonobj.Parse(bytes.TrimSpace(bytes.TrimPrefix(data, bom)))
	if err != nil {
		return nil, err
	}
	obj.Set(member, arr.Bytes())
	return append(obj.Encode(), '\n'), nil
}

// topMembers reads the names of a JSON object's top-level members, from
// the input's start, calling f with each name (its value then skipped
// unless f reads it); f returns done to stop. It reads no further than
// it must, and at most maxTopMembers names: detection of a document.
func topMembers(p *probe, f func(name string, d *jsontext.Decoder) (done bool, err error)) bool {
	r := bufio.NewReader(p.body())
	for {
		c, _, err := r.ReadRune()
		if err != nil {
			return false
		}
		if !unicode.IsSpace(c) {
			if c != '{' {
				return false
			}
			r.UnreadRune()
			break
		}
	}
	d := jsontext.NewDecoder(r, jsonOpts)
	if tok, err := d.ReadToken(); err != nil || tok.Kind() != '{' {
		return false
	}
	for n := 0; n < maxTopMembers && d.PeekKind() == '"'; n++ {
		tok, err := d.ReadToken()
		if err != nil {
			return false
		}
		at := d.InputOffset()
		done, err := f(tok.String(), d)
		if err != nil || done {
			return err == nil
		}
		if d.InputOffset() == at {
			if d.SkipValue() != nil {
				return false
			}
		}
	}
	return true
}

// maxTopMembers bounds how many members detection reads of a document.
const maxTopMembers = 64

// firstObjectLine is the input's first line that is not blank, trimmed.
func firstObjectLine(p *probe) []byte {
	rest := p.chunk
	for len(rest) > 0 {
		var line []byte
		line, rest, _ = bytes.Cut(rest, []byte{'\n'})
		if t := bytes.TrimSpace(line); len(t) > 0 {
			return t
		}
	}
	return nil
}

// stripTag is s without the tags around it: the text inside <tag>…</tag>
// when s holds them, else s.
func stripTag(s, tag string) string {
	open, end := "<"+tag+">", "</"+tag+">"
	i := strings.Index(s, open)
	if i < 0 {
		return s
	}
	in := s[i+len(open):]
	if j := strings.LastIndex(in, end); j >= 0 {
		in = in[:j]
	}
	return strings.TrimSpace(in)
}

// splitModel is a model as an agent names it, as a provider and a model:
// "provider/model" (OpenRouter's and LiteLLM's names) split at its first
// slash; else the provider of the model's family, when its name says it
// ("" when it does not: pricing then matches the model alone).
func splitModel(model string) (provider, name string) {
	if p, m, ok := strings.Cut(model, "/"); ok && p != "" && m != "" {
		return p, m
	}
	switch m := strings.ToLower(model); {
	case strings.HasPrefix(m, "claude"):
		return "anthropic", model
	case strings.HasPrefix(m, "gpt-"), len(m) > 1 && m[0] == 'o' && m[1] >= '1' && m[1] <= '9':
		return "openai", model
	case strings.HasPrefix(m, "gemini"):
		return "google", model
	case strings.HasPrefix(m, "kimi"):
		return "moonshotai", model
	}
	return "", model
}

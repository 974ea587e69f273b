package searchindex

import (
	"bytes"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"

	"canopy/sessiontree"
)

// Bounds on what is indexed of a session, so that one huge session (a
// tool result of megabytes, a session of 100,000 entries) costs a bounded
// share of the index: an entry's first MaxEntryText bytes of text, and a
// session's first MaxSessionText bytes in all. Words past them are not
// found.
const (
	MaxEntryText   = 32 << 10
	MaxSessionText = 8 << 20
)

// Entry is one entry's text, as the index keeps it.
type Entry struct {
	ID   string // the entry's id: the page's targetId
	Leaf string // the leaf of the branch it is on: the page's leafId
	Kind string // what it is: prompt, reply, thinking, tool call, tool result, command, summary
	Text string
}

// Extract is the text of each entry of s that has any, in file order,
// each with the leaf to open it on: the session's leaf when the entry is
// on its path, else the newest leaf below the entry (the branch the page
// shows when that entry is clicked in its tree). An entry that cannot be
// decoded is passed over: its page shows it raw, and search does without.
// The text of the entries g gathered (nil: none) is taken from it; the
// others are decoded.
func Extract(s *sessiontree.Session, leaf *sessiontree.Entry, g *Gatherer) []Entry {
	onPath := map[*sessiontree.Entry]bool{}
	for _, e := range s.Path(leaf) {
		onPath[e] = true
	}
	var out []Entry
	total := 0
	var b textBuilder
	for _, e := range s.Entries {
		if e.Bookkeeping || total >= MaxSessionText {
			continue
		}
		kind, text, ok := g.text(e, MaxSessionText-total)
		if !ok {
			b.reset(min(MaxEntryText, MaxSessionText-total))
			kind = decodedText(e, &b)
			text = b.String()
		}
		if strings.TrimSpace(text) == "" {
			continue
		}
		l := leaf
		if !onPath[e] {
			l = sessiontree.NewestLeaf(e)
		}
		leafID := ""
		if l != nil {
			leafID = l.ID
		}
		total += len(text)
		out = append(out, Entry{ID: e.ID, Leaf: leafID, Kind: kind, Text: text})
	}
	return out
}

// decodedText decodes e and writes its text to b (entryText).
func decodedText(e *sessiontree.Entry, b *textBuilder) string {
	if e.Detail != nil && e.Summary != "" {
		return entryText(e, nil, b)
	}
	body, err := e.Decode()
	if err != nil {
		return ""
	}
	return entryText(e, body, b)
}

// entryText writes the text of e, whose body is body, to b and returns
// what kind of entry it is.
func entryText(e *sessiontree.Entry, body *sessiontree.Body, b *textBuilder) string {
	if e.Detail != nil && e.Summary != "" {
		b.add(e.Summary)
		return "summary"
	}
	if len(body.Content) > 0 {
		blocksText(body.Content, b)
		return "message"
	}
	m := body.Message
	if m == nil {
		return ""
	}
	switch m.Role {
	case sessiontree.RoleBashExecution:
		b.add(m.Command)
		b.add(m.Output)
		return "command"
	case sessiontree.RoleToolResult:
		b.add(m.ToolName)
		blocksText(m.Content, b)
		b.add(m.ErrorMessage)
		return "tool result"
	case sessiontree.RoleUser:
		blocksText(m.Content, b)
		return "prompt"
	}
	kind := blocksText(m.Content, b)
	b.add(m.ErrorMessage)
	if m.Role == sessiontree.RoleAssistant {
		return kind
	}
	return "message"
}

// blocksText writes the text of content blocks to b: text, thinking,
// and a tool call's name and the strings of its arguments (the command,
// the file path, the text written). It returns "tool call" when the
// blocks hold only calls (and thinking), else "reply".
func blocksText(bs sessiontree.Blocks, b *textBuilder) string {
	kind := "reply"
	calls, said := false, false
	for i := range bs {
		bl := &bs[i]
		switch bl.Type {
		case "text":
			b.add(bl.Text)
			said = said || strings.TrimSpace(bl.Text) != ""
		case "thinking":
			b.add(bl.Thinking)
		case "toolCall":
			calls = true
			b.add(bl.Name)
			jsonStrings(bl.Arguments, b)
		}
	}
	if calls && !said {
		kind = "tool call"
	}
	return kind
}

// jsonStrings writes the string values in v to b (not the member names:
// "command", "path" are in every call).
func jsonStrings(v jsontext.Value, b *textBuilder) {
	if len(v) == 0 {
		return
	}
	d := jsontext.NewDecoder(bytes.NewReader(v))
	for !b.full() {
		k := d.PeekKind()
		if k == 0 {
			return
		}
		if k == '{' || k == '[' || k == '}' || k == ']' {
			if _, err := d.ReadToken(); err != nil {
				return
			}
			continue
		}
		// In an object, a member's name comes before its value.
		kind, n := d.StackIndex(d.StackDepth())
		name := kind == '{' && n%2 == 0
		tok, err := d.ReadToken()
		if err != nil {
			return
		}
		if k == '"' && !name {
			b.add(tok.String())
		}
	}
}

// textBuilder gathers an entry's text, pieces a line apart, up to a
// limit in bytes (cut at a character).
type textBuilder struct {
	sb    strings.Builder
	limit int
	cut   bool // a piece was cut, or left out, at the limit
}

func (b *textBuilder) reset(limit int) {
	b.sb.Reset()
	b.limit = limit
	b.cut = false
}

func (b *textBuilder) full() bool { return b.sb.Len() >= b.limit }

func (b *textBuilder) add(s string) {
	if s == "" {
		return
	}
	if b.full() {
		b.cut = true
		return
	}
	if b.sb.Len() > 0 {
		b.sb.WriteByte('\n')
	}
	if room := b.limit - b.sb.Len(); len(s) > room {
		b.cut = true
		cut := max(room, 0)
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut]
	}
	b.sb.WriteString(s)
}

func (b *textBuilder) String() string { return b.sb.String() }

// Gatherer keeps the text of a session's entries as something else
// decodes them (the page, as it draws them: htmlpage.Options.Decoded), so
// that Extract need not decode them again. Safe for concurrent use.
type Gatherer struct {
	s   *sessiontree.Session
	mu  sync.Mutex
	got []gathered // by entry index
}

// gathered is one entry's text, made with the limit MaxEntryText.
type gathered struct {
	kind, text string
	cut        bool // the limit cut it: it holds only for that limit
	ok         bool
}

// NewGatherer is a Gatherer of s's entries.
func NewGatherer(s *sessiontree.Session) *Gatherer {
	return &Gatherer{s: s, got: make([]gathered, len(s.Entries))}
}

// Add keeps the text of e, one of the session's entries, whose body b
// is.
func (g *Gatherer) Add(e *sessiontree.Entry, b *sessiontree.Body) {
	if e.Index < 0 || e.Index >= len(g.got) || g.s.Entries[e.Index] != e || e.Bookkeeping {
		return
	}
	var tb textBuilder
	tb.reset(MaxEntryText)
	kind := entryText(e, b, &tb)
	g.mu.Lock()
	defer g.mu.Unlock()
	g.got[e.Index] = gathered{kind: kind, text: tb.String(), cut: tb.cut, ok: true}
}

// text is e's gathered text, when there is one and it is what the limit
// room (what is left of the session's) makes of it.
func (g *Gatherer) text(e *sessiontree.Entry, room int) (kind, text string, ok bool) {
	if g == nil || e.Index < 0 || e.Index >= len(g.got) || g.s.Entries[e.Index] != e {
		return "", "", false
	}
	g.mu.Lock()
	t := g.got[e.Index]
	g.mu.Unlock()
	if !t.ok || len(t.text) > room || t.cut && room < MaxEntryText {
		return "", "", false
	}
	return t.kind, t.text, true
}

package sessiontree

import (
	"bytes"
	"fmt"
	"io"
	"time"

	"github.com/go-json-experiment/json/jsontext"
)

// The peeks of each format: what the loader's readers take from a line,
// read with the same head decoders, for the few fields a listing shows.

func (claudeReader) peek(*probe) (peekLines, error) { return &claudePeek{}, nil }

// claudePeek reads a Claude Code transcript's lines.
type claudePeek struct {
	peekBase
	customTitle, aiTitle, agentName string
	summaries                       [][2]string // summary, leafUuid
}

var claudeMarks = [][]byte{[]byte(`"custom-title"`), []byte(`"ai-title"`), []byte(`"agent-name"`), []byte(`"summary"`)}

func (c *claudePeek) marks() [][]byte { return claudeMarks }

func (c *claudePeek) line(raw []byte) {
	var h claudeHead
	if decodeClaudeHead(trimLine(raw), &h) != nil {
		return
	}
	p := &c.p
	p.ID = firstOf(p.ID, string(h.SessionID))
	p.Cwd = firstOf(p.Cwd, string(h.Cwd))
	p.FormatVersion = firstOf(string(h.Version), p.FormatVersion)
	c.stamp(string(h.Timestamp))
	c.customTitle = firstOf(string(h.CustomTitle), c.customTitle)
	c.aiTitle = firstOf(string(h.AITitle), c.aiTitle)
	c.agentName = firstOf(string(h.AgentName), c.agentName)
	if h.Type == "summary" && h.Summary != "" {
		c.summaries = append(c.summaries, [2]string{string(h.Summary), string(h.LeafUUID)})
	}
	// What the loader reads as a typed prompt (claudeLine.user), less the
	// slash commands: their text is a command's name, not a request.
	blk := &h.Msg.Content.Blocks
	if h.Type == "user" && !bool(h.Sidechain) && !bool(h.Meta) && !bool(h.CompactSummary) &&
		blk.results == 0 && blk.wrapper == wrapNone && c.p.Prompt == "" {
		if b, err := claudeBlocks(h.Msg.Content.Raw); err == nil {
			c.prompt(b)
		}
	}
}

// finish names the session as the loader does (claudeState): a title
// line, else a summary whose leaf is one of the lines read (Claude Code
// writes the summaries of other sessions into a file too).
func (c *claudePeek) finish(head, tail []byte) {
	c.p.Format = FormatClaude
	c.p.Name = firstOf(c.customTitle, firstOf(c.aiTitle, c.agentName))
	if c.p.Name != "" {
		return
	}
	for _, s := range c.summaries {
		uuid := []byte(`"uuid":"` + s[1] + `"`)
		if s[1] != "" && (bytes.Contains(head, uuid) || bytes.Contains(tail, uuid)) {
			c.p.Name = s[0]
		}
	}
}

func (codexReader) peek(*probe) (peekLines, error) { return &codexPeek{}, nil }

// codexPeek reads a Codex rollout's lines.
type codexPeek struct {
	peekBase
}

var codexMarks = [][]byte{[]byte(`"thread_name_updated"`)}

func (c *codexPeek) marks() [][]byte { return codexMarks }

func (c *codexPeek) line(raw []byte) {
	var h codexHead
	if decodeCodexHead(trimLine(raw), &h) != nil {
		return
	}
	p, pl := &c.p, &h.P
	c.stamp(string(h.Timestamp))
	switch typ := string(h.Type); {
	case typ == "session_meta":
		p.ID = firstOf(p.ID, string(pl.ID))
		p.Cwd = firstOf(p.Cwd, string(pl.Cwd))
		p.FormatVersion = firstOf(p.FormatVersion, string(pl.CLIVersion))
	case typ == "" && h.Legacy && h.ID != "":
		p.ID = firstOf(p.ID, string(h.ID))
	case typ == "event_msg" && pl.Type == "thread_name_updated" && pl.ThreadName != "":
		p.Name = string(pl.ThreadName)
	case typ == "event_msg" && pl.Type == "user_message" && len(pl.Message) > 0 && pl.Message[0] == '"':
		c.prompt(textBlock(unquote(pl.Message)))
	case (typ == "response_item" || h.Bare) && pl.Type == "message" && pl.Role == "user":
		// What Codex writes itself as the user (injectedOf) is no prompt;
		// its environment context says where the session ran.
		switch injectedOf(pl.Content) {
		case "":
			c.prompt(codexContent(pl.Content))
		case "environment context":
			p.Cwd = firstOf(p.Cwd, environmentCwd(pl.Content))
		}
	}
}

func (c *codexPeek) finish(_, _ []byte) { c.p.Format = FormatCodex }

func (piReader) peek(p *probe) (peekLines, error) {
	if p.classify() == kindPi {
		return &piPeek{}, nil
	}
	return nil, fmt.Errorf("no session record at its start: %w", ErrNotSession)
}

// peek: what the input looks like.
func (r refusal) peek(p *probe) (peekLines, error) { return nil, r.read(nil, nil, p) }

// piPeek reads the lines of pi JSONL (and oh-my-pi's).
type piPeek struct {
	peekBase
	title   string // oh-my-pi: a title line's, or the header's
	ohMyPi  bool
	session bool // the header was read
}

var piMarks = [][]byte{[]byte(`"session_info"`)}

func (c *piPeek) marks() [][]byte { return piMarks }

func (c *piPeek) line(raw []byte) {
	var h head
	text := trimLine(raw)
	if decodeHead(text, &h) != nil {
		return
	}
	p := &c.p
	c.stamp(string(h.Timestamp))
	switch string(h.Type) {
	case "session":
		if !c.session {
			c.session = true
			p.ID, p.Cwd = h.ID.V, string(h.Cwd)
			c.title = firstOf(c.title, string(h.Title))
		}
	case "title":
		c.title = firstOf(c.title, string(h.Title))
		c.ohMyPi = true
	case TypeSessionInfo:
		if h.Name != "" {
			p.Name = string(h.Name)
		}
	case TypeMessage:
		if h.Message.V.Role == RoleUser && p.Prompt == "" {
			if b, err := claudeBlocks(memberOf(text, "message", "content")); err == nil {
				c.prompt(b) // pi's content is a string or text blocks, as Claude's
			}
		}
	case "ttsr_injection", "session_init", "mode_change", "title_change", "service_tier_change":
		c.ohMyPi = true
	}
}

func (c *piPeek) finish(_, _ []byte) {
	c.p.Format = FormatPi
	if c.ohMyPi || c.title != "" {
		c.p.Format = FormatOhMyPi
	}
	c.p.Name = firstOf(c.p.Name, c.title)
}

// memberOf is the raw value at the path of member names in the JSON
// object raw; nil when there is none.
func memberOf(raw []byte, path ...string) jsontext.Value {
	var found []byte
	w := walker{b: raw}
	var walk func(k int) error
	walk = func(k int) error {
		return w.members(func(n string) error {
			if n != path[k] || found != nil {
				return w.skip()
			}
			if k == len(path)-1 {
				v, err := w.rawValue()
				found = v
				return err
			}
			return walk(k + 1)
		})
	}
	walk(0)
	return found
}

// peekDocument peeks at a Flue document, or a session of a format with no
// peek of its own: loaded whole, when it is small enough (a document is
// one JSON value, with no lines to read a few of); a larger one is named
// by its format only.
func peekDocument(r io.ReaderAt, size int64, format string) (Peek, error) {
	p := Peek{Format: format}
	if size > peekDocMax {
		return p, nil
	}
	data := make([]byte, size)
	if _, err := r.ReadAt(data, 0); err != nil && err != io.EOF {
		return p, err
	}
	s, err := LoadWith(data, "", LoadOptions{NoSHA256: true})
	if err != nil {
		return p, err
	}
	defer s.Close()
	return peekSession(s, p), nil
}

// PeekFile is what canopy list shows of a session whose file alone does
// not hold it (an OpenCode storage/ info file: its messages are files
// beside it), loaded whole from its path.
func PeekFile(path string) (Peek, error) {
	s, err := LoadFileWith(path, LoadOptions{NoSHA256: true})
	if err != nil {
		return Peek{}, err
	}
	defer s.Close()
	return peekSession(s, Peek{Format: s.Format, FormatVersion: s.FormatVersion}), nil
}

// peekSession fills p from a loaded session: its header, name, first
// prompt and last time.
func peekSession(s *Session, p Peek) Peek {
	p.ID, p.Cwd, p.Started, p.Name = s.Header.ID, s.Header.Cwd, s.Header.Timestamp, s.Name
	var last time.Time
	for _, e := range s.Entries {
		if e.TimeOK && e.Time.After(last) {
			last, p.Last = e.Time, e.Timestamp
		}
		if p.Prompt == "" && e.Type == TypeMessage && e.Role == RoleUser {
			if b, err := e.Decode(); err == nil && b.Message != nil {
				var pb peekBase
				pb.prompt(b.Message.Content)
				p.Prompt = pb.p.Prompt
			}
		}
	}
	return p
}

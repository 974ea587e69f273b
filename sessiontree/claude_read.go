package sessiontree

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"
)

// read decodes every line, then keeps the entries and applies the
// transcript's rules across lines (see claudeReader).
func (claudeReader) read(s *Session, in *input, p *probe) error {
	lines, err := decodeRecords(in, p, newSlabDecoder[claudeLine](in.src))
	if err != nil {
		return err
	}
	s.Format = FormatClaude
	// A parent the file does not hold (a compaction's logical parent, a
	// line lost to an edit or a rewind): the entry follows the line
	// before it (Entry.ParentGuessed).
	s.guessParents = true
	c := claudeState{s: s, heads: map[string]*claudeLine{}, names: map[string]string{},
		boundaries: map[string]*Entry{}, details: map[detailKey]*Detail{},
		dec: &claudeDecoder{groups: map[*Entry][]*Entry{}}}
	for i := range lines {
		c.line(&lines[i])
	}
	if len(s.Entries) == 0 {
		return fmt.Errorf("no line of this Claude Code transcript could be read: %w", ErrNotSession)
	}
	c.finish()
	s.src.body = c.dec
	return nil
}

// claudeState is what reading a transcript's lines in order gathers.
type claudeState struct {
	s          *Session
	heads      map[string]*claudeLine // the first line of each streamed reply, by message id
	names      map[string]string      // each call's tool, by call id
	boundaries map[string]*Entry      // compactions, by id
	last       *Entry                 // the last compaction, in file order
	leaf       *Entry                 // the last message of the main chain
	lastMsg    *Entry                 // the last message of any chain
	details    map[detailKey]*Detail
	dec        *claudeDecoder

	customTitle, aiTitle, agentName string
	summaries                       [][2]string // summary, leafUuid

	links *claudeLinks // see claude_agents.go
	side  []sideLine
}

// detailKey is a Detail that only names a custom message or entry: those
// are shared, one for each kind, rather than one for each line.
type detailKey struct {
	custom          string
	display, notice bool
}

// line keeps one line's entry, or reports why it was skipped.
func (c *claudeState) line(l *claudeLine) {
	s := c.s
	if s.skipped(&l.rawLine, l.blank, l.err) {
		return
	}
	e := l.entry
	s.keep(e)
	s.HasImages = s.HasImages || l.image
	c.header(l)
	e.Detail = c.detail(l)
	for k, id := range e.CallIDs {
		c.names[id] = l.callNames[k]
	}
	if l.msgID != "" {
		c.stream(l)
	}
	c.agentLine(l)
	switch {
	case e.Type == TypeCompaction:
		c.boundaries[e.ID], c.last = e, e
	case l.x != nil && l.x.compactSummary:
		c.summarise(e, l.x.compactText)
	}
	if l.main {
		c.leaf = e
	}
	if e.Type == TypeMessage && l.msgLine {
		c.lastMsg = e
	}
	if x := l.x; x != nil {
		c.customTitle = firstOf(x.customTitle, c.customTitle)
		c.aiTitle = firstOf(x.aiTitle, c.aiTitle)
		c.agentName = firstOf(x.agentName, c.agentName)
		if x.summary != "" {
			c.summaries = append(c.summaries, [2]string{x.summary, x.leafUUID})
		}
	}
}

// firstOf is a if it is not empty, else b.
func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// header takes the session's id, directory and start from the first line
// that has them, and the version of Claude Code from the last.
func (c *claudeState) header(l *claudeLine) {
	h := &c.s.Header
	h.ID = firstOf(h.ID, l.sessionID)
	h.Cwd = firstOf(h.Cwd, l.cwd)
	h.Timestamp = firstOf(h.Timestamp, l.entry.Timestamp)
	c.s.FormatVersion = firstOf(l.version, c.s.FormatVersion)
}

// sharedDetail is the Detail of every entry with key k: none when k is
// empty, else the one details holds for k, made on first use.
func sharedDetail(details map[detailKey]*Detail, k detailKey, none *Detail) *Detail {
	if k == (detailKey{}) {
		return none
	}
	d := details[k]
	if d == nil {
		d = &Detail{CustomType: k.custom, Display: k.display, Notice: k.notice}
		details[k] = d
	}
	return d
}

// detail is the entry's Detail: its own for a compaction, else shared.
func (c *claudeState) detail(l *claudeLine) *Detail {
	if l.entry.Type == TypeCompaction {
		return &Detail{TokensBefore: l.extra().preTokens}
	}
	if l.x != nil && len(l.x.moreResults) > 0 {
		// A copy of the slice header: &l.x.moreResults would keep the
		// line's extra alive with the session.
		more := l.x.moreResults
		return &Detail{moreResults: &more}
	}
	k := detailKey{l.custom, l.display, l.notice}
	return sharedDetail(c.details, k, c.s.noDetail)
}

// stream joins a later line of a streamed reply to the reply's first line,
// which takes its calls, its usage and its stop reason.
func (c *claudeState) stream(l *claudeLine) {
	key := l.msgID
	if l.sidechain {
		key += "\x00"
	}
	first := c.heads[key]
	if first == nil {
		c.heads[key] = l
		return
	}
	h, e := first.entry, l.entry
	e.Continues = true
	h.CallIDs = append(h.CallIDs, e.CallIDs...)
	h.ToolCalls += e.ToolCalls
	e.CallIDs, e.ToolCalls = nil, 0
	if e.Usage != nil {
		h.Usage, e.Usage = e.Usage, nil
	}
	if e.StopReason != "" {
		h.StopReason, e.StopReason = e.StopReason, ""
	}
	g := c.dec.groups[h]
	if g == nil {
		g = []*Entry{h}
	}
	c.dec.groups[h] = append(g, e)
}

// summarise gives a compaction its summary: the isCompactSummary message
// that is its child, else the last compaction before it.
func (c *claudeState) summarise(msg *Entry, text string) {
	b := c.boundaries[msg.ParentID]
	if b == nil {
		b = c.last
	}
	if b != nil && b.Summary == "" {
		b.Summary = text
	}
}

// finish applies what needs every line: the results' tool names, the
// leaf, the name and the version.
func (c *claudeState) finish() {
	s := c.s
	for _, e := range s.Entries {
		if e.Role == RoleToolResult {
			e.ToolName = c.names[e.ToolCallID]
		}
	}
	// A subagent's transcript is all sidechain: its leaf is its last
	// message.
	if leaf := cmp.Or(c.leaf, c.lastMsg); leaf != nil {
		s.stored = &storedLeaf{stored: true, set: true, entry: leaf}
	}
	s.Header.Title = firstOf(c.customTitle, firstOf(c.aiTitle, c.agentName))
	if s.Header.Title == "" && len(c.summaries) > 0 {
		// Claude Code writes the summaries of other sessions into a file
		// too: only one whose leaf is here names this one.
		ids := make(map[string]bool, len(s.Entries))
		for _, e := range s.Entries {
			ids[e.ID] = true
		}
		for _, sm := range c.summaries {
			if ids[sm[1]] {
				s.Header.Title = sm[0]
			}
		}
	}
	s.Version = majorVersion(s.FormatVersion)
	c.finishLinks()
}

// majorVersion is the number a version such as "2.1.3" starts with.
func majorVersion(v string) int {
	major, _, _ := strings.Cut(strings.TrimPrefix(v, "v"), ".")
	n, err := strconv.Atoi(major)
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// keep appends e to the session's entries.
func (s *Session) keep(e *Entry) {
	e.Index = len(s.Entries)
	s.Entries = append(s.Entries, e)
}

// skipped reports whether a line has no entry: a blank one, passed over
// in silence, or one that is not a JSON object (err), reported as pi's
// reader does.
func (s *Session) skipped(l *rawLine, blank bool, err error) bool {
	switch {
	case blank:
	case err == nil:
		return false
	case l.last:
		s.diag(int(l.n), SevError, "truncated last line skipped (is the session still being written?): %s", describe(err))
	default:
		s.diag(int(l.n), SevError, "line skipped: %s", describe(err))
	}
	return true
}

package sessiontree

import (
	"bytes"
	"strconv"
)

// agentLine is one line of a JSONL format of an agent without a tree
// (Kimi CLI, Cursor CLI, Hermes Agent): its head, decoded at load by the
// format's parse into H, and its entry, placed at the line.
type agentLine[H any, P headOf[H]] struct {
	rawLine
	entry *Entry
	err   error
	blank bool
	h     H
	raw   []byte // the line's bytes, kept when its head is a header
}

// headOf is a format's line head: parse decodes a line's text into it,
// copying what it keeps (the text is reused once it returns).
type headOf[H any] interface {
	*H
	parse(text []byte) error
	// header: the line is the file's header, whose bytes are kept (the
	// input cannot be read again while it loads).
	header() bool
}

func (l *agentLine[H, P]) decodeRaw(raw rawLine, e *Entry, src *source, _ interner) {
	l.rawLine, l.entry = raw, e
	text, lead := trimSpace(raw.text)
	l.text = nil
	if len(text) == 0 {
		l.blank = true
		return
	}
	if err := P(&l.h).parse(text); err != nil {
		l.err = err
		return
	}
	e.start(&l.rawLine, src, lead, text, "")
	if P(&l.h).header() {
		l.raw = bytes.Clone(text)
	}
}

// readAgentLines decodes the input's lines into agentLines, on every
// core, a chunk at a time.
func readAgentLines[H any, P headOf[H]](in *input, p *probe) ([]agentLine[H, P], error) {
	return decodeRecords(in, p, newSlabDecoder[agentLine[H, P]](in.src))
}

// entryOf is the line's entry, started as a message with the id L<n>;
// nil for a line skipped (blank, or not a JSON object: reported).
func (l *agentLine[H, P]) entryOf(s *Session) *Entry {
	if s.skipped(&l.rawLine, l.blank, l.err) {
		return nil
	}
	e := l.entry
	e.ID, e.Type, e.Detail = "L"+strconv.Itoa(int(l.n)), TypeMessage, s.noDetail
	return e
}

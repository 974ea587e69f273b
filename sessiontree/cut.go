package sessiontree

import (
	"bytes"
	"fmt"
)

// A cut is a session cut down to what its owner chose to share (package
// scope): scope chooses the entries, the same way for every format, and
// the session's reader writes them in its own format (reader.cut), since
// only the format knows what in a line is thinking, a tool's output or
// the session's name.

// CutOptions say what a cut leaves out of the entries it keeps.
type CutOptions struct {
	NoThinking   bool // thinking blocks
	NoToolOutput bool // tool results' content and details, commands' output
	NoHidden     bool // extension state's data
}

// CutCounts count what a format's cut left out of the entries it kept.
type CutCounts struct {
	Thinking int // thinking blocks
	Outputs  int // tool results
	Data     int // extension state entries
}

// OutputLeftOut is put where a cut removed a tool's output.
const OutputLeftOut = "[tool output left out of this export]"

// A Cut writes a cut of one session in the session's format. Scope asks
// it what the format alone knows (which lines are thinking, which state
// is needed), chooses the entries to keep (keep, by Entry.Index), then
// has it write them.
type Cut interface {
	// Thinking reports whether e is an entry of thinking only (a Codex
	// reasoning item or event), left out whole by NoThinking, and how
	// many thinking blocks the page showed of it.
	Thinking(e *Entry) (bool, int)
	// Needed reports whether e, extension state (TypeCustom), is kept
	// when hidden things are left out: the page takes something from it
	// (the session's name, usage), or the format keeps it and cuts its
	// data (pi).
	Needed(e *Entry) bool
	// Names settles, once the other entries are chosen, which of the
	// entries that name the session are kept.
	Names(keep []bool, leaf *Entry)
	// Write writes the kept entries as the format writes them, cut as o
	// says, and counts what it cut in c. An entry whose parent was left
	// out hangs from its nearest kept ancestor (KeptParent).
	Write(keep []bool, leaf *Entry, o CutOptions, c *CutCounts) ([]byte, error)
}

// Cut is how a cut of s is written: by the reader that read it.
func (s *Session) Cut() Cut {
	var r reader = piReader{}
	if s.reader != nil {
		r = s.reader
	}
	return r.cut(s)
}

// KeptParent is the id of e's nearest kept ancestor ("" for none): a
// removed entry's children hang from it.
func KeptParent(e *Entry, keep []bool) string {
	for p := e.Parent; p != nil; p = p.Parent {
		if keep[p.Index] {
			return p.ID
		}
	}
	return ""
}

// noCut is the Cut of a reader that reads no session (refusal).
type noCut struct{}

func (noCut) Thinking(*Entry) (bool, int) { return false, 0 }
func (noCut) Needed(*Entry) bool          { return true }
func (noCut) Names([]bool, *Entry)        {}
func (noCut) Write([]bool, *Entry, CutOptions, *CutCounts) ([]byte, error) {
	return nil, fmt.Errorf("no session to cut")
}

// A line format's cut writes each line kept where it was, as it was
// unless an option changes it, and each line left out as an empty line,
// which the line readers pass over in silence: an entry's id stays its
// id, whether it is written or its line number (L<n>), and a redaction
// report's line numbers are those of the file.

// cutLine is a line of a cut, at its line in the file.
type cutLine struct {
	line int
	raw  []byte
	e    *Entry // nil for a header line
}

// cutLines rewrites the kept entries of s, each at its line; with its
// header line first when header is set.
func cutLines(s *Session, keep []bool, header bool, rewrite func(e *Entry) ([]byte, error)) ([]cutLine, error) {
	var out []cutLine
	if header && s.Header.Line > 0 && len(s.Header.Raw) > 0 {
		out = append(out, cutLine{line: s.Header.Line, raw: s.Header.Raw})
	}
	for _, e := range s.Entries {
		if !keep[e.Index] {
			continue
		}
		raw, err := rewrite(e)
		if err != nil {
			return nil, fmt.Errorf("entry %s (line %d): %w", e.ID, e.Line, err)
		}
		out = append(out, cutLine{line: e.Line, raw: raw, e: e})
	}
	return out, nil
}

// writeCutLines writes the lines at their places, empty lines between.
func writeCutLines(lines []cutLine) []byte {
	var out bytes.Buffer
	at := 1
	for _, l := range lines {
		for ; at < l.line; at++ {
			out.WriteByte('\n')
		}
		out.Write(l.raw)
		out.WriteByte('\n')
		at++
	}
	return out.Bytes()
}

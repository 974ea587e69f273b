package scope

import (
	"bytes"
	"fmt"
	"strconv"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"canopy/sessiontree"
)

// Claude Code transcripts and Codex rollouts are cut in their own format:
// the pi reader could not read their lines. Each line kept is written
// where it was, as it was unless an option changes it, and each line left
// out becomes an empty line, which both readers pass over in silence: an
// entry's id stays its id, whether its uuid or its line number (L<n>, a
// Codex entry's, or a Claude Code line without a uuid), and a redaction
// report's line numbers are those of the file.

// lineFormat is what differs between the two formats.
type lineFormat interface {
	// thinking reports whether e is a line of thinking only (a Codex
	// reasoning item or event), left out whole by NoThinking, and how
	// many thinking blocks the page showed of it.
	thinking(e *sessiontree.Entry) (bool, int)
	// needed reports whether e, extension state, is kept by NoHidden:
	// the page takes something from it (the session's name, usage).
	needed(e *sessiontree.Entry) bool
	// names settles, once the other lines are chosen, which of the
	// lines that name the session are kept.
	names(keep []bool, leaf *sessiontree.Entry)
	// rewrite is e's line as o cuts it, with its parent in the cut
	// when that was left out; its bytes when nothing changes.
	rewrite(e *sessiontree.Entry, keep []bool, o Options, c *counters) ([]byte, error)
}

// Why an entry was left out, for the summary.
const (
	kept uint8 = iota
	outBranch
	outThinking
	outHidden
	outState
)

// applyLines cuts a Claude Code transcript or a Codex rollout.
func applyLines(s *sessiontree.Session, leaf *sessiontree.Entry, o Options) ([]byte, Summary, error) {
	var f lineFormat
	claude := s.Format == sessiontree.FormatClaude
	if claude {
		f = newClaudeLines(s)
	} else {
		f = codexLines{}
	}
	keep, counts := selectLines(s, leaf, o, f)
	var out []outLine
	if !claude && s.Header.Line > 0 && len(s.Header.Raw) > 0 {
		out = append(out, outLine{line: s.Header.Line, raw: s.Header.Raw})
	}
	for _, e := range s.Entries {
		if !keep[e.Index] {
			continue
		}
		raw, err := f.rewrite(e, keep, o, &counts)
		if err != nil {
			return nil, Summary{}, fmt.Errorf("entry %s (line %d): %w", e.ID, e.Line, err)
		}
		out = append(out, outLine{line: e.Line, raw: raw, e: e})
	}
	if claude {
		if err := firstLineUp(out); err != nil {
			return nil, Summary{}, err
		}
	}
	return writeLines(out), Summary{Omitted: counts.omitted()}, nil
}

// selectLines is which entries o keeps, by index, and the counts of what
// it leaves out of them.
func selectLines(s *sessiontree.Session, leaf *sessiontree.Entry, o Options, f lineFormat) ([]bool, counters) {
	why := make([]uint8, len(s.Entries))
	if o.PathOnly {
		for i := range why {
			why[i] = outBranch
		}
		for _, e := range s.Path(leaf) {
			why[e.Index] = kept
		}
		keepSidechains(s, why)
	}
	for _, e := range s.Entries {
		if why[e.Index] != kept {
			continue
		}
		// The leaf stays, but for its thinking (the reader's leaf is
		// then the entry before it).
		thinking := false
		if o.NoThinking { // thinking reads and decodes the entry
			thinking, _ = f.thinking(e)
		}
		if thinking {
			why[e.Index] = outThinking
		} else if e == leaf || !o.NoHidden {
			continue
		} else if hiddenMessage(e) && !e.Notice {
			why[e.Index] = outHidden
		} else if e.Type == sessiontree.TypeCustom && !f.needed(e) {
			why[e.Index] = outState
		}
	}
	keep := make([]bool, len(s.Entries))
	for i, w := range why {
		keep[i] = w == kept
	}
	if o.PathOnly || o.NoHidden {
		f.names(keep, leaf)
	}
	var c counters
	for _, e := range s.Entries {
		switch {
		case keep[e.Index]:
		case why[e.Index] == outBranch:
			c.branches++
		case why[e.Index] == outThinking:
			_, n := f.thinking(e)
			c.thinking += n
		case why[e.Index] == outHidden:
			c.hidden++
		case why[e.Index] == outState:
			c.data++
		}
	}
	return keep, c
}

// keepSidechains keeps, in a path-only cut, the subagents written into
// the file whose call is kept, as a subagent's own file is
// (export/subagents.go): they are drawn in their call's card.
func keepSidechains(s *sessiontree.Session, why []uint8) {
	for changed := true; changed; {
		changed = false
		for _, sc := range s.Sidechains {
			if sc.Call == nil || why[sc.Call.Index] != kept || why[sc.Root.Index] == kept {
				continue
			}
			for _, e := range sc.Entries {
				why[e.Index] = kept
			}
			changed = true
		}
	}
}

// outLine is a line of the cut, at its line in the file.
type outLine struct {
	line int
	raw  []byte
	e    *sessiontree.Entry // nil for a Codex header
}

// writeLines writes the lines at their places, empty lines between.
func writeLines(lines []outLine) []byte {
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

// probeLines is how many lines, empty or not, the reader looks at to
// tell a transcript's format (sessiontree/detect.go).
const probeLines = 64

// firstLineUp moves a transcript's first line kept to the file's first
// line when it would come later than the reader looks to tell the
// format: every line before it is left out, so the order stays, and its
// id stays its id (a line without a uuid is given its L<n> as one).
func firstLineUp(lines []outLine) error {
	if len(lines) == 0 || lines[0].line <= probeLines {
		return nil
	}
	first := &lines[0]
	if first.e.ID == "L"+strconv.Itoa(first.e.Line) {
		obj, err := parseObject(first.raw)
		if err != nil {
			return fmt.Errorf("entry %s (line %d): %w", first.e.ID, first.e.Line, err)
		}
		obj.setString("uuid", first.e.ID)
		first.raw = obj.encode()
	}
	first.line = 1
	return nil
}

// setParent writes e's parent in the cut when its own was left out: the
// nearest ancestor kept, in the member that names it (Claude Code's
// parentUuid, a compaction's logicalParentUuid); null for none.
func setParent(obj *object, e *sessiontree.Entry, keep []bool) bool {
	if e.Parent == nil || keep[e.Parent.Index] {
		return false
	}
	v := jsontext.Value("null")
	if p := keptParent(e, keep); p != "" {
		v = quote(p)
	}
	name := "parentUuid"
	if pu := obj.get(name); (pu == nil || pu.Kind() != '"') && obj.get("logicalParentUuid") != nil {
		name = "logicalParentUuid"
	}
	obj.set(name, v)
	return true
}

// quote is s as a JSON string.
func quote(s string) jsontext.Value {
	v, _ := jsontext.AppendQuote(nil, s)
	return v
}

// stringOf is a JSON string's value, "" for any other value.
func stringOf(v jsontext.Value) string {
	if v.Kind() != '"' {
		return ""
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		return ""
	}
	return s
}

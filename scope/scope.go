// Package scope cuts a session down to what its owner chose to share: only
// the path to one leaf, no thinking, no tool output, no hidden extension
// messages or state. It writes a new session file rather than hiding things
// in the page, so that the page and the session it lets readers download
// hold exactly the same content.
//
// The output is a pi JSONL file of version 3 (a Flue document for Flue
// input) in which every entry keeps its id: legacy files get their `L<n>`
// ids written out, so links into a page made from the whole file still
// name the same entries. A Claude Code transcript or a Codex rollout is
// written in its own format, each line kept at its place (lines.go).
package scope

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"canopy/internal/text"
	"canopy/sessiontree"
)

// Options say what to leave out.
type Options struct {
	PathOnly     bool // only the path from the root to the leaf
	NoThinking   bool // thinking blocks
	NoToolOutput bool // tool results' content and details, user commands' output
	NoHidden     bool // custom messages not displayed to the user, and extension state
}

// Active reports whether the options leave anything out.
func (o Options) Active() bool {
	return o.PathOnly || o.NoThinking || o.NoToolOutput || o.NoHidden
}

// Summary says what was left out, for the page header.
type Summary struct {
	Omitted []string // e.g. "3 other branches (41 entries)", "thinking (12 blocks)"
}

// Placeholders put where content was removed.
const (
	OutputLeftOut = "[tool output left out of this export]"
)

// Apply writes the session s, seen from leaf, without what o leaves out.
func Apply(s *sessiontree.Session, leaf *sessiontree.Entry, o Options) ([]byte, Summary, error) {
	if s.Format == sessiontree.FormatClaude || s.Format == sessiontree.FormatCodex {
		return applyLines(s, leaf, o)
	}
	keep, omitted := selectEntries(s, leaf, o)
	sum := Summary{Omitted: omitted}
	var out bytes.Buffer
	var counts counters
	if err := write(&out, s, leaf, keep, o, &counts); err != nil {
		return nil, sum, err
	}
	sum.Omitted = append(sum.Omitted, counts.omitted()...)
	return out.Bytes(), sum, nil
}

// selectEntries is which entries o keeps, by index, and what it leaves
// out of them: the other branches, the hidden custom messages.
func selectEntries(s *sessiontree.Session, leaf *sessiontree.Entry, o Options) (keep []bool, omitted []string) {
	keep = make([]bool, len(s.Entries))
	for i := range keep {
		keep[i] = true
	}
	if o.PathOnly {
		for i := range keep {
			keep[i] = false
		}
		for _, e := range s.Path(leaf) {
			keep[e.Index] = true
		}
		if n := len(s.Entries) - len(s.Path(leaf)); n > 0 {
			omitted = append(omitted, "every branch but the one shown ("+text.Count(n, "entry", "entries")+")")
		}
	}
	if o.NoHidden {
		n := 0
		for _, e := range s.Entries {
			if keep[e.Index] && hiddenMessage(e) && e != leaf {
				keep[e.Index] = false
				n++
			}
		}
		if n > 0 {
			omitted = append(omitted, "custom messages hidden from the user ("+text.Count(n, "message", "messages")+")")
		}
	}
	return keep, omitted
}

// write writes the kept entries of s, rewritten as o says, in the
// session's format: a JSONL file or a Flue document.
func write(out *bytes.Buffer, s *sessiontree.Session, leaf *sessiontree.Entry, keep []bool, o Options, counts *counters) error {
	flue := s.Format == sessiontree.FormatFlue
	if flue {
		out.WriteString(`{"version":3,"entries":[`)
	} else if err := writeHeader(out, s); err != nil {
		return err
	}
	first := true
	for _, e := range s.Entries {
		if !keep[e.Index] {
			continue
		}
		raw, err := rewrite(e, keptParent(e, keep), o, counts)
		if err != nil {
			return fmt.Errorf("entry %s (line %d): %w", e.ID, e.Line, err)
		}
		if flue && !first {
			out.WriteByte(',')
		}
		first = false
		out.Write(raw)
		if !flue {
			out.WriteByte('\n')
		}
	}
	if flue {
		writeFlueEnd(out, s, leaf, keep)
	}
	return nil
}

// keptParent is the id of e's nearest kept ancestor: a removed entry's
// children hang from it.
func keptParent(e *sessiontree.Entry, keep []bool) string {
	for p := e.Parent; p != nil; p = p.Parent {
		if keep[p.Index] {
			return p.ID
		}
	}
	return ""
}

// writeFlueEnd ends a Flue document: its leaf, when kept, and its
// metadata.
func writeFlueEnd(out *bytes.Buffer, s *sessiontree.Session, leaf *sessiontree.Entry, keep []bool) {
	out.WriteString(`],"leafId":`)
	if leaf != nil && keep[leaf.Index] {
		id, _ := json.Marshal(leaf.ID)
		out.Write(id)
	} else {
		out.WriteString("null")
	}
	if len(s.Metadata) > 0 {
		out.WriteString(`,"metadata":`)
		out.Write(s.Metadata)
	}
	out.WriteString("}\n")
}

// counters count what rewrite leaves out of the entries it keeps; for a
// Claude Code or Codex cut, also the entries left out (lines.go).
type counters struct{ branches, hidden, thinking, outputs, data int }

// omitted says what the counts left out.
func (c *counters) omitted() []string {
	var omitted []string
	if c.branches > 0 {
		omitted = append(omitted, "every branch but the one shown ("+text.Count(c.branches, "entry", "entries")+")")
	}
	if c.hidden > 0 {
		omitted = append(omitted, "custom messages hidden from the user ("+text.Count(c.hidden, "message", "messages")+")")
	}
	if c.thinking > 0 {
		omitted = append(omitted, "thinking ("+text.Count(c.thinking, "block", "blocks")+")")
	}
	if c.outputs > 0 {
		omitted = append(omitted, "tool output ("+text.Count(c.outputs, "result", "results")+")")
	}
	if c.data > 0 {
		omitted = append(omitted, "extension state ("+text.Count(c.data, "entry", "entries")+")")
	}
	return omitted
}

// hiddenMessage: a custom message the user never saw (the model did).
func hiddenMessage(e *sessiontree.Entry) bool {
	switch {
	case e.Type == sessiontree.TypeCustomMessage:
		return !e.Display
	case e.Type == sessiontree.TypeMessage && e.Role == sessiontree.RoleCustom:
		return !e.Display
	}
	return false
}

// writeHeader writes the session header as version 3, keeping its fields.
func writeHeader(out *bytes.Buffer, s *sessiontree.Session) error {
	h := object{}
	if len(s.Header.Raw) > 0 {
		var err error
		if h, err = parseObject(s.Header.Raw); err != nil {
			return fmt.Errorf("session header: %w", err)
		}
	} else {
		h.set("type", jsontext.Value(`"session"`))
		if s.Header.ID != "" {
			h.setString("id", s.Header.ID)
		}
	}
	h.set("version", jsontext.Value("3"))
	if s.Header.Title != "" && h.get("title") == nil {
		h.setString("title", s.Header.Title)
	}
	out.Write(h.encode())
	out.WriteByte('\n')
	return nil
}

// rewrite returns the entry's JSON with its id and parent written out and
// the content o leaves out removed. Members are kept in their order.
func rewrite(e *sessiontree.Entry, parent string, o Options, c *counters) ([]byte, error) {
	raw, err := e.Raw()
	if err != nil {
		return nil, err
	}
	obj, err := parseObject(raw)
	if err != nil {
		return nil, err
	}
	obj.setString("id", e.ID)
	if parent == "" {
		obj.set("parentId", jsontext.Value("null"))
	} else {
		obj.setString("parentId", parent)
	}
	if o.NoHidden && e.Type == sessiontree.TypeCustom && obj.get("data") != nil {
		obj.del("data")
		c.data++
	}
	if e.Type != sessiontree.TypeMessage || !(o.NoThinking || o.NoToolOutput) {
		return obj.encode(), nil
	}
	msgRaw := obj.get("message")
	if msgRaw == nil {
		return obj.encode(), nil
	}
	msg, err := parseObject(msgRaw)
	if err != nil {
		return obj.encode(), nil // not an object: nothing to cut
	}
	switch {
	case o.NoThinking && e.Role == sessiontree.RoleAssistant:
		if content := msg.get("content"); content != nil {
			kept, dropped, err := dropBlocks(content, "thinking")
			if err == nil && dropped > 0 {
				msg.set("content", kept)
				c.thinking += dropped
			}
		}
	case o.NoToolOutput && e.Role == sessiontree.RoleToolResult:
		text, _ := json.Marshal(OutputLeftOut)
		msg.set("content", jsontext.Value(`[{"type":"text","text":`+string(text)+`}]`))
		msg.del("details")
		c.outputs++
	case o.NoToolOutput && e.Role == sessiontree.RoleBashExecution:
		msg.setString("output", OutputLeftOut)
		msg.del("fullOutputPath")
		c.outputs++
	}
	obj.set("message", msg.encode())
	return obj.encode(), nil
}

// dropBlocks removes the content blocks of the types from a content array.
func dropBlocks(content jsontext.Value, types ...string) (jsontext.Value, int, error) {
	if k := content.Kind(); k != '[' {
		return content, 0, nil
	}
	var blocks []jsontext.Value
	if err := json.Unmarshal(content, &blocks); err != nil {
		return nil, 0, err
	}
	var out []jsontext.Value
	dropped := 0
	for _, b := range blocks {
		var head struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(b, &head) == nil && slices.Contains(types, head.Type) {
			dropped++
			continue
		}
		out = append(out, b)
	}
	if out == nil {
		out = []jsontext.Value{}
	}
	v, err := json.Marshal(out)
	return v, dropped, err
}

// object is a JSON object as its members in order, values as written.
type object []member

type member struct {
	name  string
	value jsontext.Value
}

func parseObject(raw jsontext.Value) (object, error) {
	d := jsontext.NewDecoder(bytes.NewReader(raw), jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true))
	tok, err := d.ReadToken()
	if err != nil {
		return nil, err
	}
	if tok.Kind() != '{' {
		return nil, fmt.Errorf("not a JSON object")
	}
	var obj object
	for d.PeekKind() != '}' {
		tok, err := d.ReadToken()
		if err != nil {
			return nil, err
		}
		name := tok.String() // a token is valid only until the next read
		v, err := d.ReadValue()
		if err != nil {
			return nil, err
		}
		obj = append(obj, member{name, bytes.Clone(v)})
	}
	return obj, nil
}

func (o object) get(name string) jsontext.Value {
	for _, m := range o {
		if m.name == name {
			return m.value
		}
	}
	return nil
}

func (o *object) set(name string, v jsontext.Value) {
	for i := range *o {
		if (*o)[i].name == name {
			(*o)[i].value = v
			return
		}
	}
	*o = append(*o, member{name, v})
}

func (o *object) setString(name, s string) {
	v, _ := json.Marshal(s)
	o.set(name, v)
}

func (o *object) del(name string) {
	out := (*o)[:0]
	for _, m := range *o {
		if m.name != name {
			out = append(out, m)
		}
	}
	*o = out
}

func (o object) encode() []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(m.name)
		b.Write(name)
		b.WriteByte(':')
		b.Write(m.value)
	}
	b.WriteByte('}')
	return b.Bytes()
}

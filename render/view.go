package render

import (
	"encoding/base64"
	"html/template"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"canopy/internal/text"
	"canopy/sessiontree"
)

// Row flags: what the page's script needs to apply the reference's filter
// rules. The same rules are in Visible, for tests independent of the page.
const (
	flagSettings   = 1 << iota // label, custom, model_change, thinking_level_change
	flagToolResult             // a toolResult message
	flagUser                   // a user message
	flagEmpty                  // an assistant message with no text that did not fail: hidden
	flagEmbedded               // shown inside its tool call's card, no block of its own
	flagSilent                 // a NO_REPLY assistant turn, never delivered to the user
)

// Filter modes of the tree, as in the reference.
var FilterModes = []string{"default", "no-tools", "user-only", "labeled-only", "all"}

// entryView is what the templates need to draw one entry.
type entryView struct {
	ID      string
	Kind    string // CSS class and template: user, assistant, tool-result, bash, compaction, …
	Heading string
	Time    string
	Label   string
	Parts   []part
	Notes   []note // flags under the entry: errors, aborts, hidden-from-user, …
	Meta    string // small print: model, tokens
	Silent  bool   // a NO_REPLY turn, never delivered to the user
}

// part is one piece of an entry's body, in order. Exactly one field is
// set; the template tests them in turn (a field test is much cheaper in
// text/template than comparing a kind string).
type part struct {
	Markdown template.HTML
	Code     template.HTML // highlighted or escaped, in a <pre>
	Tool     *toolView
	More     *fold // the folded rest of an output
	Thinking *fold
	Command  template.HTML // a shell command
	Image    template.HTML // an <img> with a data: URL (imageSrc)
	JSON     *fold
	Diff     template.HTML
	Text     template.HTML
	Note     string // why the part before is shown plain (a bound was passed)
}

// fold is a collapsible part.
type fold struct {
	Summary string
	HTML    template.HTML
	Open    bool
}

type note struct {
	Kind, Text string // Kind: error, warning, info
}

// toolView is a tool call with its result.
type toolView struct {
	ResultID string // the result entry's id: its anchor for deep links
	Name     string
	Class    string // the card's class after "tool": toolClass, never the name itself
	Summary  string
	Input    []part // arguments, as the tool's renderer shows them
	Output   []part // the result
	IsError  bool
	Pending  bool // no result found
}

// rowInfo is what the tree needs of one entry.
type rowInfo struct {
	text  string
	flags int
}

// entryContext is what rendering one entry needs from the whole session.
type entryContext struct {
	s     *sessiontree.Session
	rows  []rowInfo // by entry index: tree row text and flags
	depth []int32   // by entry index: how many entries are above it on its path
	// The result shown in each call's card: result[callAt[i]+k] is the
	// index+1 of the result drawn in the card of entry i's call
	// CallIDs[k] (0: none), for the first k with its id. Slices, not maps
	// keyed by call: at 100,000 entries the maps were 6 MB that the
	// collector marked in every cycle, and hashing their keys 2% of the
	// export's CPU.
	callAt []int32
	result []int32
	// calls maps a toolCallId to the first call with it, in file order:
	// what a result that answers no call above it shows (callOf). Made
	// the first time one asks, which most sessions never do.
	callsOnce sync.Once
	calls     map[string]callRef
	// callIndex maps, for each entry with more than manyCalls calls (by
	// index), a call id to the first k with CallIDs[k] == id: looking ids
	// up one by one in a message of 40,000 calls cost the square of that.
	// Made by pair, read only after.
	callIndex map[int32]map[string]int32
	// callTables holds a *callTable for each message (by its
	// *sessiontree.Entry) whose calls are shown by results drawn apart
	// from its cards (callArgs).
	callTables sync.Map
}

// manyCalls is how many calls an entry may make before its ids are
// indexed (callIndex); below it, a linear search is as fast.
const manyCalls = 16

// callPos is the first k with e.CallIDs[k] == id, or -1.
func (ec *entryContext) callPos(e *sessiontree.Entry, id string) int {
	if len(e.CallIDs) > manyCalls {
		if k, ok := ec.callIndex[int32(e.Index)][id]; ok {
			return int(k)
		}
		return -1
	}
	return slices.Index(e.CallIDs, id)
}

// callTable is a message's calls by id: the name and arguments of the
// first with each id.
type callTable struct {
	once  sync.Once
	calls map[string]callArgs
}

type callArgs struct {
	name string
	raw  jsontext.Value
}

// callRef is a tool call: its id and the assistant message that made it.
type callRef struct {
	id    string
	entry *sessiontree.Entry
}

// pair is the first of the two passes over a session, and it decodes
// nothing: it pairs tool calls with their results from what Load read of
// every entry (Entry.CallIDs, Entry.ToolCallID), and counts every entry's
// depth. The second pass renders the entries and fills in their tree rows
// (gatherRow) as it goes: each entry is decoded once, not once for its row
// and again for its HTML (that first decoding was a tenth of the export's
// time at 100,000 entries).
//
// A result answers the nearest message above it that made a call with its
// id (callAbove): some models number their calls afresh in every turn
// ("call_0"), so an id alone does not tell which call a result answers.
// The result shown inside a call's card is the first, in file order, that
// answers it; others are entries of their own.
func pair(s *sessiontree.Session) *entryContext {
	n := len(s.Entries)
	ec := &entryContext{s: s, rows: make([]rowInfo, n), depth: make([]int32, n), callAt: make([]int32, n)}
	for _, i := range treeOrder(s) { // parents come before their children
		if p := s.Entries[i].Parent; p != nil {
			ec.depth[i] = ec.depth[p.Index] + 1
		}
	}
	calls := 0
	for i, e := range s.Entries {
		ec.callAt[i] = int32(calls)
		calls += len(e.CallIDs)
		if len(e.CallIDs) > manyCalls {
			if ec.callIndex == nil {
				ec.callIndex = map[int32]map[string]int32{}
			}
			m := make(map[string]int32, len(e.CallIDs))
			for k, id := range e.CallIDs {
				if _, dup := m[id]; !dup {
					m[id] = int32(k)
				}
			}
			ec.callIndex[int32(i)] = m
		}
	}
	ec.result = make([]int32, calls)
	for i, e := range s.Entries {
		if !isResult(e) {
			continue
		}
		ec.rows[i].flags = flagToolResult
		if call, k, ok := ec.callAbove(e); ok {
			if slot := &ec.result[ec.callAt[call.entry.Index]+int32(k)]; *slot == 0 {
				*slot = int32(i) + 1
				ec.rows[i].flags |= flagEmbedded
			}
		}
	}
	return ec
}

// callAbove finds the call a result answers: the nearest message above it
// that made a call with its id, looking a bounded number of steps up
// (results follow their call closely) and only at messages written before
// it. k is the first of that message's calls with the id.
func (ec *entryContext) callAbove(res *sessiontree.Entry) (call callRef, k int, ok bool) {
	id := res.ToolCallID
	if id == "" {
		return callRef{}, 0, false
	}
	for p, n := res.Parent, 0; p != nil && n < 256; p, n = p.Parent, n+1 {
		if p.Index < res.Index {
			if k := ec.callPos(p, id); k >= 0 {
				return callRef{id, p}, k, true
			}
		}
	}
	return callRef{}, 0, false
}

// callOf is the call whose name and arguments a result's row and card
// show: the one it answers, else the first in the file with its id.
func (ec *entryContext) callOf(res *sessiontree.Entry) (callRef, bool) {
	if call, _, ok := ec.callAbove(res); ok {
		return call, true
	}
	ec.callsOnce.Do(func() {
		ec.calls = map[string]callRef{}
		for _, e := range ec.s.Entries {
			for _, id := range e.CallIDs {
				if _, dup := ec.calls[id]; !dup {
					ec.calls[id] = callRef{id, e}
				}
			}
		}
	})
	call, ok := ec.calls[res.ToolCallID]
	return call, ok
}

func isResult(e *sessiontree.Entry) bool {
	return e.Type == sessiontree.TypeMessage && e.Role == sessiontree.RoleToolResult
}

// ownResult is the result drawn in the card of e's call id, or nil.
func (ec *entryContext) ownResult(e *sessiontree.Entry, id string) *sessiontree.Entry {
	k := ec.callPos(e, id)
	if k < 0 {
		return nil
	}
	if r := ec.result[ec.callAt[e.Index]+int32(k)]; r > 0 {
		return ec.s.Entries[r-1]
	}
	return nil
}

// gatherRow records the tree row of entry i, which the second pass has
// just decoded (b is nil when it could not be): its flags join those pair
// set. Each row is written by the one worker that renders its entry (a
// result drawn in its call's card: the call's), so workers never write the
// same row.
func (ec *entryContext) gatherRow(i int, b *sessiontree.Body) {
	e := ec.s.Entries[i]
	row := rowOf(e, b)
	if isResult(e) {
		// A result's row is its call's ("[read: path]"): messageView
		// writes it when it finds the call, which it decodes anyway.
		row.text = "[" + text.Or(e.ToolName, "tool") + "]"
	}
	ec.rows[i].text = row.text
	ec.rows[i].flags |= row.flags
}

// callArgs finds a call's name and arguments in its message, for a result
// drawn apart from its call's card; found is false when the message cannot
// be decoded or has no such call. The message is decoded once for all its
// results (callTable): results far below their call (more than callAbove
// looks) are all drawn apart, and decoding a message of 10,000 calls again
// for each of its results took 85 s.
func (ec *entryContext) callArgs(c callRef) (name string, a args, found bool) {
	v, _ := ec.callTables.LoadOrStore(c.entry, new(callTable))
	t := v.(*callTable)
	t.once.Do(func() {
		b, err := c.entry.Decode()
		if err != nil || b.Message == nil {
			return
		}
		t.calls = map[string]callArgs{}
		for _, blk := range b.Message.Content {
			if _, dup := t.calls[blk.ID]; blk.Type == "toolCall" && !dup {
				t.calls[blk.ID] = callArgs{blk.Name, blk.Arguments}
			}
		}
	})
	call, ok := t.calls[c.id]
	if !ok {
		return "", args{}, false
	}
	return call.name, decodeArgs(call.raw), true
}

// row computes the tree row text and the filter flags of an entry, with
// the reference's wording.
func rowOf(e *sessiontree.Entry, b *sessiontree.Body) rowInfo {
	var r rowInfo
	if e.IsSettings() {
		r.flags |= flagSettings
	}
	if e.Silent {
		r.flags |= flagSilent
	}
	var m *sessiontree.Message
	if b != nil {
		m = b.Message
	}
	switch e.Type {
	case sessiontree.TypeMessage:
		if m == nil {
			r.text = "[message]"
			break
		}
		switch m.Role {
		case sessiontree.RoleUser:
			r.flags |= flagUser
			r.text = "user: " + flatten(blocksText(m.Content, ""), rowTextMax)
		case sessiontree.RoleAssistant:
			t := flatten(blocksText(m.Content, ""), rowTextMax)
			switch {
			case t != "":
				r.text = "assistant: " + t
			case m.StopReason == "aborted":
				r.text = "assistant: (aborted)"
			case m.ErrorMessage != "":
				r.text = "assistant: " + flatten(m.ErrorMessage, rowTextMax)
			default:
				r.text = "assistant: (no text)"
			}
			// The reference hides assistant messages without text unless
			// they ended abnormally (error, aborted, length, ...).
			if t == "" && (m.StopReason == "" || m.StopReason == "stop" || m.StopReason == "toolUse") {
				r.flags |= flagEmpty
			}
		case sessiontree.RoleToolResult:
			r.flags |= flagToolResult // the text comes from the call: see scan
		case sessiontree.RoleBashExecution:
			r.text = "[bash]: " + flatten(m.Command, rowTextMax)
		case sessiontree.RoleCustom:
			r.text = "[" + text.Or(m.CustomType, "custom") + "]: " + flatten(blocksText(m.Content, ""), rowTextMax)
		default:
			r.text = "[" + m.Role + "]"
		}
	case sessiontree.TypeCompaction:
		r.text = "[compaction: " + kTokens(e.TokensBefore) + " tokens]"
	case sessiontree.TypeBranchSummary:
		r.text = "[branch summary]: " + flatten(e.Summary, rowTextMax)
	case sessiontree.TypeCustomMessage:
		t := ""
		if b != nil {
			t = blocksText(b.Content, "")
		}
		r.text = "[" + text.Or(e.CustomType, "custom") + "]: " + flatten(t, rowTextMax)
	case sessiontree.TypeModelChange:
		r.text = "[model: " + e.Model + "]"
	case sessiontree.TypeThinkingLevelChange:
		r.text = "[thinking: " + e.ThinkingLevel + "]"
	case sessiontree.TypeLabel:
		if e.Label == "" {
			r.text = "[label cleared]"
		} else {
			r.text = "[label: " + e.Label + "]"
		}
	case sessiontree.TypeSessionInfo:
		r.text = "[session name: " + e.Name + "]"
	case sessiontree.TypeCustom:
		r.text = "[" + text.Or(e.CustomType, "custom") + "]"
	default:
		r.text = "[" + text.Or(e.Type, "entry") + "]"
	}
	return r
}

// Visible applies the reference's filter rules to one row: the page's
// script does the same; this is the independent statement of them.
func Visible(mode string, flags int, labeled, isLeaf bool) bool {
	if isLeaf {
		return true
	}
	if flags&flagEmpty != 0 {
		return false
	}
	switch mode {
	case "no-tools":
		return flags&(flagSettings|flagToolResult) == 0
	case "user-only":
		return flags&flagUser != 0
	case "labeled-only":
		return labeled
	case "all":
		return true
	}
	return flags&flagSettings == 0
}

// domID is an entry id as an HTML id attribute can hold it, and as the
// browser reads it back: HTML has no NUL (the parser turns it into U+FFFD)
// and turns CR LF and CR into LF. The page's script maps ids the same way
// (domId in page.js) to find an entry's element.
func domID(id string) string {
	if !strings.ContainsAny(id, "\r\x00") {
		return id
	}
	id = strings.ReplaceAll(id, "\r\n", "\n")
	id = strings.ReplaceAll(id, "\r", "\n")
	return strings.ReplaceAll(id, "\x00", "\uFFFD")
}

// imageSrc is the <img> of an embedded picture, or "" for types a page
// should not show inline. We write the tag ourselves: html/template would
// write each "+" of the data URL as "&#43;" (5 bytes for 1, ~6% of a
// picture); the data is checked to be base64 and nothing else, so it needs
// no escaping in a quoted attribute.
func imageSrc(mime, data string) template.HTML {
	switch strings.ToLower(mime) {
	case "image/png", "image/jpeg", "image/gif", "image/webp":
	default:
		return ""
	}
	if !isBase64(data) {
		return ""
	}
	return template.HTML(`<img class="image" src="data:` + strings.ToLower(mime) + ";base64," + data + `" alt="image">`)
}

// isBase64 reports whether s is standard base64 and nothing else (line
// breaks, which the decoder skips and a URL drops, aside).
func isBase64(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '/' || c == '=' || c == '\r' || c == '\n') {
			return false
		}
	}
	_, err := base64.StdEncoding.DecodeString(s)
	return err == nil
}

// MaxIndentDepth is the deepest level of nested JSON that prettyJSON
// indents; what is nested deeper is written compactly, on the line of the
// value it is in. Each indented line holds two spaces a level: indenting
// every level made the page's size the square of the nesting (20 KB of
// 9,990 nested arrays was a 200 MB page, 11 s), while sessions nest five
// levels deep at most (every session in testdata and ../shared). Past 16
// levels a line holds at most 32 spaces, so the page grows with the JSON,
// not its square.
const MaxIndentDepth = 16

// prettyJSON indents raw JSON for display, two spaces a level down to
// MaxIndentDepth; invalid JSON is returned as is.
func prettyJSON(raw jsontext.Value) string {
	if len(raw) == 0 {
		return ""
	}
	v := jsontext.Value(append([]byte(nil), raw...))
	if !deeperThan(raw, MaxIndentDepth) {
		if err := v.Indent(jsontext.WithIndent("  ")); err != nil {
			return string(raw)
		}
		return string(v)
	}
	// Compact, with the same options as Indent: strings are written the
	// same way, and the same JSON is refused. Then indented down to the
	// bound (FuzzIndentCompact holds indentCompact to Indent above it).
	if err := v.Compact(); err != nil {
		return string(raw)
	}
	return string(indentCompact(v, MaxIndentDepth))
}

// deeperThan reports whether raw (JSON, or what is taken for it) nests
// arrays and objects more than depth levels deep.
func deeperThan(raw []byte, depth int) bool {
	d := 0
	for i := 0; i < len(raw); i++ {
		switch raw[i] {
		case '"':
			// Skip the string: to its closing quote, past escapes.
			for i++; i < len(raw) && raw[i] != '"'; i++ {
				if raw[i] == '\\' {
					i++
				}
			}
		case '[', '{':
			if d++; d > depth {
				return true
			}
		case ']', '}':
			d--
		}
	}
	return false
}

// indentCompact indents compact JSON (jsontext's Compact) as Indent with
// two spaces does, but only the values within depth levels: a value nested
// deeper is written compactly.
func indentCompact(v []byte, depth int) []byte {
	out := make([]byte, 0, len(v)+len(v)/2)
	newline := func(level int) {
		out = append(out, '\n')
		for range level {
			out = append(out, "  "...)
		}
	}
	d := 0
	for i := 0; i < len(v); i++ {
		switch c := v[i]; c {
		case '"':
			j := i + 1
			for j < len(v) && v[j] != '"' {
				if v[j] == '\\' {
					j++
				}
				j++
			}
			out = append(out, v[i:j+1]...)
			i = j
		case '[', '{':
			out = append(out, c)
			if i+1 < len(v) && (v[i+1] == ']' || v[i+1] == '}') {
				out = append(out, v[i+1]) // empty: "[]", "{}"
				i++
				continue
			}
			if d++; d <= depth {
				newline(d)
			}
		case ']', '}':
			if d <= depth {
				newline(d - 1)
			}
			d--
			out = append(out, c)
		case ',':
			out = append(out, c)
			if d <= depth {
				newline(d)
			}
		case ':':
			out = append(out, c)
			if d <= depth {
				out = append(out, ' ')
			}
		default:
			out = append(out, c)
		}
	}
	return out
}

func formatTime(e *sessiontree.Entry) string {
	if !e.TimeOK {
		return e.Timestamp
	}
	return e.Time.UTC().Format("2006-01-02 15:04:05 UTC")
}

func timeParse(ts string) (time.Time, error) { return time.Parse(time.RFC3339Nano, ts) }

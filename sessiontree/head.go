package sessiontree

import (
	"bytes"
	"errors"
	"hash/crc32"
	"math"
	"strings"
	"time"

	"canopy/internal/fastpath"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// jsonOpts are the options for every decode of session text. Session files
// are written by many programs: be as lenient as JavaScript's JSON.parse,
// which is what the reference uses (duplicate names: the last wins), and
// keep text with broken UTF-8 rather than dropping the entry.
var jsonOpts = json.JoinOptions(
	jsontext.AllowInvalidUTF8(true),
	jsontext.AllowDuplicateNames(true),
)

// lstr is a string that tolerates any JSON value: a number where a string
// was expected must not cost us the whole entry. Non-strings read as "".
type lstr string

func (s *lstr) UnmarshalJSONFrom(d *jsontext.Decoder) error {
	if d.PeekKind() == '"' {
		tok, err := d.ReadToken()
		if err != nil {
			return err
		}
		*s = lstr(tok.String())
		return nil
	}
	*s = ""
	return d.SkipValue()
}

// lnum is a number that tolerates any JSON value (non-numbers read as 0).
type lnum float64

func (n *lnum) UnmarshalJSONFrom(d *jsontext.Decoder) error {
	if d.PeekKind() == '0' {
		tok, err := d.ReadToken()
		if err != nil {
			return err
		}
		f, _ := tok.Float()
		if math.IsInf(f, 0) {
			// A number too big for a float64 (1e999) reads as ±Inf, which
			// then made the JSON report (canopy inspect --json) fail to
			// encode. It is no usable count or cost: read it as 0.
			f = 0
		}
		*n = lnum(f)
		return nil
	}
	*n = 0
	return d.SkipValue()
}

// lbool is a bool that tolerates any JSON value (non-booleans read as false).
type lbool bool

func (b *lbool) UnmarshalJSONFrom(d *jsontext.Decoder) error {
	switch d.PeekKind() {
	case 't', 'f':
		tok, err := d.ReadToken()
		if err != nil {
			return err
		}
		*b = lbool(tok.Bool())
		return nil
	}
	*b = false
	return d.SkipValue()
}

// lobj is an object that tolerates any JSON value: a string or a number
// where pi writes an object (message, usage, cost) reads as absent instead
// of costing us the whole entry, which is still a JSON object and still has
// its place in the tree. Without it such a line was dropped as "not a JSON
// object".
// The value is held inline, not behind a pointer: the head a worker
// decodes into is reused line after line, so decoding a message allocates
// nothing for it (a pointer here was most of the load's garbage).
type lobj[T any] struct {
	V   T
	Set bool
}

func (o *lobj[T]) UnmarshalJSONFrom(d *jsontext.Decoder) error {
	var zero T
	o.V, o.Set = zero, false
	if d.PeekKind() != '{' {
		return d.SkipValue()
	}
	o.Set = true
	return json.UnmarshalDecode(d, &o.V)
}

// optStr records whether a string field was present and a string; null and
// other values read as absent.
type optStr struct {
	Set bool
	V   string
}

func (o *optStr) UnmarshalJSONFrom(d *jsontext.Decoder) error {
	var s lstr
	if d.PeekKind() == '"' {
		o.Set = true
	}
	err := s.UnmarshalJSONFrom(d)
	o.V = string(s)
	return err
}

// headUsage is what the load reads of a usage (lenient: see lobj).
//
//sessiontree:walk
type headUsage struct {
	Input       lnum           `json:"input"`
	Output      lnum           `json:"output"`
	CacheRead   lnum           `json:"cacheRead"`
	CacheWrite  lnum           `json:"cacheWrite"`
	TotalTokens lnum           `json:"totalTokens"`
	Cost        lobj[headCost] `json:"cost"`
}

// headCost is what the load reads of a usage's cost.
//
//sessiontree:walk
type headCost struct {
	Input      lnum `json:"input"`
	Output     lnum `json:"output"`
	CacheRead  lnum `json:"cacheRead"`
	CacheWrite lnum `json:"cacheWrite"`
	Total      lnum `json:"total"`
}

func usageOf(o *lobj[headUsage]) *Usage {
	if !o.Set {
		return nil
	}
	h := &o.V
	u := &Usage{
		Input: float64(h.Input), Output: float64(h.Output),
		CacheRead: float64(h.CacheRead), CacheWrite: float64(h.CacheWrite),
		TotalTokens: float64(h.TotalTokens),
	}
	if c := &h.Cost.V; h.Cost.Set {
		u.Cost = UsageCost{
			Input: float64(c.Input), Output: float64(c.Output),
			CacheRead: float64(c.CacheRead), CacheWrite: float64(c.CacheWrite),
			Total: float64(c.Total),
		}
	}
	return u
}

// blockHeads reads message content (a string or an array of blocks) and
// counts tool calls, skipping the block bodies: they can be tens of MB of
// base64 and are only needed when rendering.
type blockHeads struct {
	toolCalls int
	silent    bool     // the first text starts with a silent mark (NO_REPLY, HEARTBEAT_OK)
	callIDs   []string // the tool calls' ids (strings, not empty), in order
}

// startsSilent reports whether a raw JSON string starts, past leading
// whitespace, with one of silentMarks; it looks at the raw bytes so that no
// text is copied at load.
func startsSilent(raw []byte) bool {
	raw = rawStringText(raw)
	if len(raw) == 0 {
		return false
	}
	for _, m := range silentMarks {
		if bytes.HasPrefix(raw, []byte(m)) {
			return true
		}
	}
	return false
}

// rawStringText is a raw JSON string's text past its opening quote and
// its leading white space (raw or escaped), still escaped: what a prefix
// is looked for in without decoding the string. It is empty when raw is
// not a string or holds only white space.
func rawStringText(raw []byte) []byte {
	if len(raw) == 0 || raw[0] != '"' {
		return nil
	}
	raw = raw[1:]
	for len(raw) > 0 {
		switch {
		case raw[0] == ' ' || raw[0] == '\t' || raw[0] == '\n' || raw[0] == '\r':
			raw = raw[1:]
		case len(raw) >= 2 && raw[0] == '\\' && (raw[1] == 'n' || raw[1] == 't' || raw[1] == 'r'):
			raw = raw[2:]
		default:
			return raw
		}
	}
	return nil
}

func (b *blockHeads) UnmarshalJSONFrom(d *jsontext.Decoder) error {
	if d.PeekKind() == '"' {
		v, err := d.ReadValue()
		b.silent = startsSilent(v)
		return err
	}
	if d.PeekKind() != '[' {
		return d.SkipValue()
	}
	if _, err := d.ReadToken(); err != nil {
		return err
	}
	sawText := false
	for d.PeekKind() != ']' {
		if d.PeekKind() != '{' {
			// Not a block (a bare string, a number): skip it rather than
			// lose the entry.
			if err := d.SkipValue(); err != nil {
				return err
			}
			continue
		}
		var blk blockHead
		if err := json.UnmarshalDecode(d, &blk); err != nil {
			return err
		}
		sawText = b.add(&blk, sawText)
	}
	_, err := d.ReadToken()
	return err
}

// blockHead is what the load reads of a content block.
//
//sessiontree:walk
type blockHead struct {
	Type lstr      `json:"type"`
	Text rawPrefix `json:"text"`
	ID   lstr      `json:"id"`
}

// add counts the block: a tool call's id, or whether the first text
// (sawText tells whether one was seen) is silent. It returns sawText.
func (b *blockHeads) add(blk *blockHead, sawText bool) bool {
	switch blk.Type {
	case "toolCall":
		b.toolCalls++
		if blk.ID != "" {
			b.callIDs = append(b.callIDs, string(blk.ID))
		}
	case "text":
		if !sawText {
			sawText, b.silent = true, bool(blk.Text)
		}
	}
	return sawText
}

// rawPrefix decodes a JSON string into whether it starts with one of silentMarks,
// without copying it.
type rawPrefix bool

func (p *rawPrefix) UnmarshalJSONFrom(d *jsontext.Decoder) error {
	v, err := d.ReadValue()
	*p = rawPrefix(startsSilent(v))
	return err
}

// head is what Load decodes of every line: the header's fields and every
// entry type's tree-relevant fields. Unknown fields are skipped quickly.
//
//sessiontree:walk
type head struct {
	image bool // the line holds a picture (fastpath.ScanJSON)

	Type      lstr   `json:"type"`
	ID        optStr `json:"id"`
	ParentID  optStr `json:"parentId"`
	Timestamp lstr   `json:"timestamp"`

	// Header (type "session") and oh-my-pi title lines.
	Version       *lnum `json:"version"`
	Cwd           lstr  `json:"cwd"`
	Title         lstr  `json:"title"`
	ParentSession lstr  `json:"parentSession"`

	Message lobj[headMessage] `json:"message"`
	Source  lstr              `json:"source"`

	Summary             lstr            `json:"summary"`
	FirstKeptEntryID    lstr            `json:"firstKeptEntryId"`
	FirstKeptEntryIndex *lnum           `json:"firstKeptEntryIndex"`
	TokensBefore        lnum            `json:"tokensBefore"`
	Usage               lobj[headUsage] `json:"usage"`
	FromID              lstr            `json:"fromId"`
	TargetID            lstr            `json:"targetId"`
	Label               lstr            `json:"label"`
	Name                lstr            `json:"name"`
	ThinkingLevel       lstr            `json:"thinkingLevel"`
	Provider            lstr            `json:"provider"`
	ModelID             lstr            `json:"modelId"`
	Model               lstr            `json:"model"`
	Role                lstr            `json:"role"`
	CustomType          lstr            `json:"customType"`
	Display             lbool           `json:"display"`
}

// headMessage is what the load reads of a message entry's message.
//
//sessiontree:walk
type headMessage struct {
	Role       lstr            `json:"role"`
	Provider   lstr            `json:"provider"`
	Model      lstr            `json:"model"`
	StopReason lstr            `json:"stopReason"`
	Usage      lobj[headUsage] `json:"usage"`
	Content    blockHeads      `json:"content"`
	ToolName   lstr            `json:"toolName"`
	ToolCallID lstr            `json:"toolCallId"`
	CustomType lstr            `json:"customType"`
	Display    lbool           `json:"display"`
}

// errNotObject is the decode error for a line that is JSON but not an object.
var errNotObject = errors.New("not a JSON object")

// decodeHead decodes one line or document element. An error means the text
// is not JSON, or not a JSON object.
func decodeHead(raw []byte, h *head) error {
	// raw is trimmed. Without this check a line "null" decoded into the
	// head without error and became an entry of no type.
	if len(raw) == 0 || raw[0] != '{' {
		if !fastpath.ValidJSON(raw) {
			return json.Unmarshal(raw, h, jsonOpts) // the syntax error
		}
		return errNotObject
	}
	// Checked first, then walked (readHead): json.Unmarshal into the head
	// tokenizes and checks the line as it decodes it, twice as slow. Its
	// error, when the line is not valid, says why.
	valid, image := fastpath.ScanJSON(raw)
	if !valid {
		return json.Unmarshal(raw, h, jsonOpts)
	}
	h.image = image
	return readHead(raw, h)
}

// fill copies the decoded head into the entry. none is the session's
// shared empty Detail, for entries that carry no detail field.
func (e *Entry) fill(h *head, none *Detail) {
	var d Detail // on the stack: copied to the heap only when not empty
	e.Type = string(h.Type)
	e.Timestamp = string(h.Timestamp)
	if t, err := time.Parse(time.RFC3339Nano, e.Timestamp); err == nil {
		e.Time, e.TimeOK = t, true
	}
	d.Source = string(h.Source)
	d.Summary = string(h.Summary)
	d.FirstKeptID = string(h.FirstKeptEntryID)
	d.TokensBefore = float64(h.TokensBefore)
	d.FromID = string(h.FromID)
	d.TargetID = string(h.TargetID)
	d.Label = string(h.Label)
	d.Name = string(h.Name)
	d.ThinkingLevel = string(h.ThinkingLevel)
	d.CustomType = string(h.CustomType)
	d.Display = bool(h.Display)
	switch e.Type {
	case TypeMessage:
		if m := &h.Message.V; h.Message.Set {
			e.Role = migrateV2ToV3(string(m.Role))
			e.Provider = string(m.Provider)
			e.Model = string(m.Model)
			e.StopReason = string(m.StopReason)
			e.Usage = usageOf(&m.Usage)
			e.ToolCalls = m.Content.toolCalls
			if e.Role == RoleAssistant {
				e.CallIDs = m.Content.callIDs // the head is new for every line
			}
			if e.Role == RoleToolResult {
				e.ToolCallID = string(m.ToolCallID)
			}
			e.Silent = e.Role == RoleAssistant && m.Content.silent
			e.ToolName = string(m.ToolName)
			if e.Role == RoleCustom {
				d.CustomType = string(m.CustomType)
				d.Display = bool(m.Display)
			}
		}
	case TypeModelChange:
		e.Provider, e.Model = string(h.Provider), string(h.ModelID)
		if e.Model == "" && h.Model != "" {
			// oh-my-pi: model "provider/modelId".
			if p, m, ok := strings.Cut(string(h.Model), "/"); ok {
				e.Provider, e.Model = p, m
			} else {
				e.Model = string(h.Model)
			}
		}
		d.ModelRole = string(h.Role)
	case TypeCompaction:
		e.Usage = usageOf(&h.Usage)
	}
	if d == (Detail{}) {
		e.Detail = none
	} else {
		own := d
		e.Detail = &own
	}
}

// place records where the entry's bytes, raw, are: at off in src.
func (e *Entry) place(src *source, off int64, raw []byte) {
	e.src, e.off, e.n = src, off, len(raw)
	if src.data == nil {
		e.crc = crc32.Checksum(raw, castagnoli)
	}
}

// start sets what a Claude Code or Codex entry takes from its line: its
// line number, where its text (trimmed by lead bytes) is in the input,
// and its timestamp, parsed when it is RFC 3339.
func (e *Entry) start(l *rawLine, src *source, lead int, text []byte, ts string) {
	e.Line = int(l.n)
	e.place(src, l.off+int64(lead), text)
	e.Timestamp = ts
	if t, err := time.Parse(time.RFC3339Nano, ts); err == nil {
		e.Time, e.TimeOK = t, true
	}
}

// interner shares one copy of the strings that repeat across entries
// (types, roles, models): a 100,000-entry session holds a handful of
// distinct values, not 100,000 copies of each. One per worker: no locks.
type interner map[string]string

func (in interner) str(s *string) {
	if *s == "" || len(*s) > 64 {
		return
	}
	if c, ok := in[*s]; ok {
		*s = c
		return
	}
	if len(in) < 4096 {
		in[*s] = *s
	}
}

func (in interner) entry(e *Entry) {
	// Only the entry's own fields: its Detail may be the shared empty one,
	// which workers must not write to.
	for _, s := range []*string{&e.Type, &e.Role, &e.Provider, &e.Model, &e.StopReason, &e.ToolName} {
		in.str(s)
	}
}

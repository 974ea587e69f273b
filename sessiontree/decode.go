package sessiontree

import (
	"strings"
	"time"

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

type headUsage struct {
	Input       lnum `json:"input"`
	Output      lnum `json:"output"`
	CacheRead   lnum `json:"cacheRead"`
	CacheWrite  lnum `json:"cacheWrite"`
	TotalTokens lnum `json:"totalTokens"`
	Cost        struct {
		Input      lnum `json:"input"`
		Output     lnum `json:"output"`
		CacheRead  lnum `json:"cacheRead"`
		CacheWrite lnum `json:"cacheWrite"`
		Total      lnum `json:"total"`
	} `json:"cost"`
}

func (h *headUsage) usage() *Usage {
	if h == nil {
		return nil
	}
	return &Usage{
		Input: float64(h.Input), Output: float64(h.Output),
		CacheRead: float64(h.CacheRead), CacheWrite: float64(h.CacheWrite),
		TotalTokens: float64(h.TotalTokens),
		Cost: UsageCost{
			Input: float64(h.Cost.Input), Output: float64(h.Cost.Output),
			CacheRead: float64(h.Cost.CacheRead), CacheWrite: float64(h.Cost.CacheWrite),
			Total: float64(h.Cost.Total),
		},
	}
}

// blockHeads reads message content (a string or an array of blocks) and
// counts tool calls, skipping the block bodies: they can be tens of MB of
// base64 and are only needed when rendering.
type blockHeads struct {
	toolCalls int
}

func (b *blockHeads) UnmarshalJSONFrom(d *jsontext.Decoder) error {
	if d.PeekKind() != '[' {
		return d.SkipValue()
	}
	if _, err := d.ReadToken(); err != nil {
		return err
	}
	for d.PeekKind() != ']' {
		var blk struct {
			Type lstr `json:"type"`
		}
		if err := json.UnmarshalDecode(d, &blk); err != nil {
			return err
		}
		if blk.Type == "toolCall" {
			b.toolCalls++
		}
	}
	_, err := d.ReadToken()
	return err
}

// head is what Load decodes of every line: the header's fields and every
// entry type's tree-relevant fields. Unknown fields are skipped quickly.
type head struct {
	Type      lstr   `json:"type"`
	ID        optStr `json:"id"`
	ParentID  optStr `json:"parentId"`
	Timestamp lstr   `json:"timestamp"`

	// Header (type "session") and oh-my-pi title lines.
	Version       *lnum `json:"version"`
	Cwd           lstr  `json:"cwd"`
	Title         lstr  `json:"title"`
	ParentSession lstr  `json:"parentSession"`

	Message *struct {
		Role       lstr       `json:"role"`
		Provider   lstr       `json:"provider"`
		Model      lstr       `json:"model"`
		StopReason lstr       `json:"stopReason"`
		Usage      *headUsage `json:"usage"`
		Content    blockHeads `json:"content"`
		ToolName   lstr       `json:"toolName"`
		CustomType lstr       `json:"customType"`
		Display    lbool      `json:"display"`
	} `json:"message"`
	Source lstr `json:"source"`

	Summary             lstr       `json:"summary"`
	FirstKeptEntryID    lstr       `json:"firstKeptEntryId"`
	FirstKeptEntryIndex *lnum      `json:"firstKeptEntryIndex"`
	TokensBefore        lnum       `json:"tokensBefore"`
	Usage               *headUsage `json:"usage"`
	FromID              lstr       `json:"fromId"`
	TargetID            lstr       `json:"targetId"`
	Label               lstr       `json:"label"`
	Name                lstr       `json:"name"`
	ThinkingLevel       lstr       `json:"thinkingLevel"`
	Provider            lstr       `json:"provider"`
	ModelID             lstr       `json:"modelId"`
	Model               lstr       `json:"model"`
	Role                lstr       `json:"role"`
	CustomType          lstr       `json:"customType"`
	Display             lbool      `json:"display"`
}

// decodeHead decodes one line or document element. An error means the text
// is not JSON, or not a JSON object.
func decodeHead(raw []byte, h *head) error {
	return json.Unmarshal(raw, h, jsonOpts)
}

// fill copies the decoded head into the entry.
func (e *Entry) fill(h *head) {
	e.Type = string(h.Type)
	e.Timestamp = string(h.Timestamp)
	if t, err := time.Parse(time.RFC3339Nano, e.Timestamp); err == nil {
		e.Time, e.TimeOK = t, true
	}
	e.Source = string(h.Source)
	e.Summary = string(h.Summary)
	e.FirstKeptID = string(h.FirstKeptEntryID)
	e.TokensBefore = float64(h.TokensBefore)
	e.FromID = string(h.FromID)
	e.TargetID = string(h.TargetID)
	e.Label = string(h.Label)
	e.Name = string(h.Name)
	e.ThinkingLevel = string(h.ThinkingLevel)
	e.CustomType = string(h.CustomType)
	e.Display = bool(h.Display)
	switch e.Type {
	case TypeMessage:
		if m := h.Message; m != nil {
			e.Role = string(m.Role)
			if e.Role == "hookMessage" {
				e.Role = RoleCustom
			}
			e.Provider = string(m.Provider)
			e.Model = string(m.Model)
			e.StopReason = string(m.StopReason)
			e.Usage = m.Usage.usage()
			e.ToolCalls = m.Content.toolCalls
			e.ToolName = string(m.ToolName)
			if e.Role == RoleCustom {
				e.CustomType = string(m.CustomType)
				e.Display = bool(m.Display)
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
		e.ModelRole = string(h.Role)
	case TypeCompaction:
		e.Usage = h.Usage.usage()
	}
}

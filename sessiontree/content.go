package sessiontree

import (
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Block is one content block of a message.
type Block struct {
	Type      string         `json:"type"` // text, thinking, image, toolCall, or one we do not know
	Text      string         `json:"text"`
	Thinking  string         `json:"thinking"`
	Redacted  bool           `json:"redacted"`
	Data      string         `json:"data"` // image: base64
	MimeType  string         `json:"mimeType"`
	ID        string         `json:"id"` // toolCall
	Name      string         `json:"name"`
	Arguments jsontext.Value `json:"arguments"`
}

// Blocks is message content: a plain string reads as one text block.
type Blocks []Block

func (b *Blocks) UnmarshalJSONFrom(d *jsontext.Decoder) error {
	switch d.PeekKind() {
	case '"':
		tok, err := d.ReadToken()
		if err != nil {
			return err
		}
		*b = Blocks{{Type: "text", Text: tok.String()}}
		return nil
	case '[':
		var blocks []Block
		if err := json.UnmarshalDecode(d, &blocks, jsonOpts); err != nil {
			return err
		}
		*b = blocks
		return nil
	}
	*b = nil
	return d.SkipValue()
}

// Message is the full message of a message entry.
type Message struct {
	Role         string  `json:"role"`
	Content      Blocks  `json:"content"`
	Timestamp    float64 `json:"timestamp"` // ms since the epoch
	API          string  `json:"api"`
	Provider     string  `json:"provider"`
	Model        string  `json:"model"`
	Usage        *Usage  `json:"usage"`
	StopReason   string  `json:"stopReason"`
	ErrorMessage string  `json:"errorMessage"`

	ToolCallID string         `json:"toolCallId"` // toolResult
	ToolName   string         `json:"toolName"`
	Details    jsontext.Value `json:"details"`
	IsError    bool           `json:"isError"`

	Command            string `json:"command"` // bashExecution
	Output             string `json:"output"`
	ExitCode           *int   `json:"exitCode"`
	Cancelled          bool   `json:"cancelled"`
	Truncated          bool   `json:"truncated"`
	FullOutputPath     string `json:"fullOutputPath"`
	ExcludeFromContext bool   `json:"excludeFromContext"`

	CustomType string `json:"customType"` // custom (hookMessage)
	Display    bool   `json:"display"`
}

// Body is everything an entry holds beyond what Load decodes: what a
// renderer needs. Fields that do not apply to the entry's type are zero.
type Body struct {
	Message *Message `json:"message"`

	Content Blocks         `json:"content"` // custom_message
	Details jsontext.Value `json:"details"` // compaction, branch_summary, custom_message
	Data    jsontext.Value `json:"data"`    // custom

	FromHook      bool `json:"fromHook"`
	FromExtension bool `json:"fromExtension"`
}

// Decode reads the whole entry from its raw JSON. A field of an unexpected
// type is an error here (the entry was already loaded leniently); callers
// show the raw JSON instead. So is a failure to read the entry again from
// its file (see Raw and Session.Err).
func (e *Entry) Decode() (*Body, error) {
	var b Body
	// Unmarshal copies what it keeps: b holds nothing of raw.
	if err := e.withRaw(func(raw jsontext.Value) error { return json.Unmarshal(raw, &b, jsonOpts) }); err != nil {
		return nil, err
	}
	if m := b.Message; m != nil && m.Role == "hookMessage" {
		m.Role = RoleCustom
	}
	return &b, nil
}

// DecodeToolCallID reads only message.toolCallId from a toolResult entry,
// skipping its content: results are most of a session's bytes (file
// contents, command output), and a pass that pairs results with their
// calls needs nothing else. The error is Decode's for the same entry.
func (e *Entry) DecodeToolCallID() (string, error) {
	var b struct {
		Message *struct {
			ToolCallID string `json:"toolCallId"`
		} `json:"message"`
	}
	if err := e.withRaw(func(raw jsontext.Value) error { return json.Unmarshal(raw, &b, jsonOpts) }); err != nil {
		return "", err
	}
	if b.Message == nil {
		return "", nil
	}
	return b.Message.ToolCallID, nil
}

// DecodeOutline reads what a list of entries shows of one (a tree row,
// the pairing of tool calls with their results) into a Body, leaving out
// the bulk: thinking, pictures, command output and details are checked and
// skipped, not copied. The other fields are as Decode reads them, and so
// is the error: the skipped fields are checked for the same JSON types,
// so an entry Decode rejects is rejected here too.
//
// Why: decoding every entry in full twice (once for the rows, once to
// render it) was a quarter of an export's time on a 100,000-entry session,
// most of it copying thinking text the rows never show.
func (e *Entry) DecodeOutline() (*Body, error) {
	var o outlineBody
	if err := e.withRaw(func(raw jsontext.Value) error { return json.Unmarshal(raw, &o, jsonOpts) }); err != nil {
		return nil, err
	}
	b := &Body{Content: o.Content.blocks(), FromHook: o.FromHook, FromExtension: o.FromExtension}
	if m := o.Message; m != nil {
		b.Message = &Message{
			Role: m.Role, Content: m.Content.blocks(), Timestamp: m.Timestamp, API: m.API,
			Provider: m.Provider, Model: m.Model, Usage: m.Usage, StopReason: m.StopReason,
			ErrorMessage: m.ErrorMessage, ToolCallID: m.ToolCallID, ToolName: m.ToolName,
			IsError: m.IsError, Command: m.Command, ExitCode: m.ExitCode, Cancelled: m.Cancelled,
			Truncated: m.Truncated, FullOutputPath: m.FullOutputPath,
			ExcludeFromContext: m.ExcludeFromContext, CustomType: m.CustomType, Display: m.Display,
		}
		if m.Role == "hookMessage" {
			b.Message.Role = RoleCustom
		}
	}
	return b, nil
}

// outlineBody, outlineMessage and outlineBlock mirror Body, Message and
// Block field for field, with the same types, except where a skip type
// stands for the bulk (TestDecodeOutlineMatchesDecode holds them to it).
type outlineBody struct {
	Message       *outlineMessage `json:"message"`
	Content       outlineBlocks   `json:"content"`
	Details       skipValue       `json:"details"`
	Data          skipValue       `json:"data"`
	FromHook      bool            `json:"fromHook"`
	FromExtension bool            `json:"fromExtension"`
}

type outlineMessage struct {
	Role               string        `json:"role"`
	Content            outlineBlocks `json:"content"`
	Timestamp          float64       `json:"timestamp"`
	API                string        `json:"api"`
	Provider           string        `json:"provider"`
	Model              string        `json:"model"`
	Usage              *Usage        `json:"usage"`
	StopReason         string        `json:"stopReason"`
	ErrorMessage       string        `json:"errorMessage"`
	ToolCallID         string        `json:"toolCallId"`
	ToolName           string        `json:"toolName"`
	Details            skipValue     `json:"details"`
	IsError            bool          `json:"isError"`
	Command            string        `json:"command"`
	Output             skipString    `json:"output"`
	ExitCode           *int          `json:"exitCode"`
	Cancelled          bool          `json:"cancelled"`
	Truncated          bool          `json:"truncated"`
	FullOutputPath     string        `json:"fullOutputPath"`
	ExcludeFromContext bool          `json:"excludeFromContext"`
	CustomType         string        `json:"customType"`
	Display            bool          `json:"display"`
}

type outlineBlock struct {
	Type      string         `json:"type"`
	Text      string         `json:"text"`
	Thinking  skipString     `json:"thinking"`
	Redacted  bool           `json:"redacted"`
	Data      skipString     `json:"data"`
	MimeType  string         `json:"mimeType"`
	ID        string         `json:"id"`
	Name      string         `json:"name"`
	Arguments jsontext.Value `json:"arguments"`
}

// outlineBlocks reads content as Blocks does: a string is one text block.
type outlineBlocks struct {
	list []outlineBlock
	text *string // content given as a string
}

func (b *outlineBlocks) UnmarshalJSONFrom(d *jsontext.Decoder) error {
	*b = outlineBlocks{}
	switch d.PeekKind() {
	case '"':
		tok, err := d.ReadToken()
		if err != nil {
			return err
		}
		s := tok.String()
		b.text = &s
		return nil
	case '[':
		return json.UnmarshalDecode(d, &b.list, jsonOpts)
	}
	return d.SkipValue()
}

func (b outlineBlocks) blocks() Blocks {
	if b.text != nil {
		return Blocks{{Type: "text", Text: *b.text}}
	}
	if b.list == nil {
		return nil
	}
	out := make(Blocks, len(b.list))
	for i, o := range b.list {
		out[i] = Block{Type: o.Type, Text: o.Text, Redacted: o.Redacted, MimeType: o.MimeType,
			ID: o.ID, Name: o.Name, Arguments: o.Arguments}
	}
	return out
}

// skipValue skips any JSON value, as decoding it into a jsontext.Value
// would accept it.
type skipValue struct{}

func (skipValue) UnmarshalJSONFrom(d *jsontext.Decoder) error { return d.SkipValue() }

// skipString skips a string (or null) and rejects what a string field
// rejects.
type skipString struct{}

func (skipString) UnmarshalJSONFrom(d *jsontext.Decoder) error {
	switch d.PeekKind() {
	case '"', 'n':
		return d.SkipValue()
	}
	var s string
	return json.UnmarshalDecode(d, &s, jsonOpts) // the type error
}

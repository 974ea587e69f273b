package sessiontree

import (
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Block is one content block of a message.
//
//sessiontree:walk
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
//
//sessiontree:walk
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

	// Results: a toolResult message that answers several calls (a Claude
	// Code user line with several tool_result blocks) holds each call's
	// result here, in order, while Content holds them all, one after the
	// other. Empty for a message that answers one call. See ResultFor.
	Results []ToolResult `json:"-"`

	// Streamed: a reply written over several lines (Claude Code's, one
	// content block a line, the same message id) is decoded at its first
	// line whole; Streamed names each later line's entry and where its
	// blocks start in Content, so that a writer can place a link target
	// for that line at its part. Empty for a reply of one line.
	Streamed []StreamedLine `json:"-"`
}

// StreamedLine is a later line of a streamed reply: its entry's id and
// the index in the reply's Content of its first block (len(Content) when
// it added none: a call given twice).
type StreamedLine struct {
	ID    string
	Block int
}

// ToolResult is one call's result in a message that answers several.
type ToolResult struct {
	ToolCallID string
	Content    Blocks
	IsError    bool
	Details    jsontext.Value // an edit's diff, as Message.Details
}

// ResultFor is the result of the call id as a message of its own: m
// itself when m answers one call (whatever the id), else m with only that call's result
// (nil when m holds none for it). A renderer that draws a call's card
// with its result (sessiontree.Pairs.Result) asks the result's message for
// that call's part, so that each call shows its own result.
func (m *Message) ResultFor(id string) *Message {
	if len(m.Results) == 0 {
		return m
	}
	for i := range m.Results {
		r := &m.Results[i]
		if r.ToolCallID == id {
			one := *m
			one.Results, one.ToolCallID, one.Content, one.IsError, one.Details = nil, id, r.Content, r.IsError, r.Details
			if i > 0 {
				one.ToolName = "" // Load named the first call's tool; the call names its own
			}
			return &one
		}
	}
	return nil
}

// Body is everything an entry holds beyond what Load decodes: what a
// renderer needs. Fields that do not apply to the entry's type are zero.
//
//sessiontree:walk
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
	if e.src != nil && e.src.body != nil {
		return e.decodeOther()
	}
	var b Body
	// readBody copies what it keeps: b holds nothing of raw.
	if err := e.withRaw(func(raw jsontext.Value) error { return readBody(raw, &b) }); err != nil {
		return nil, err
	}
	if m := b.Message; m != nil {
		m.Role = migrateV2ToV3(m.Role)
	}
	return &b, nil
}

// decodeOther decodes an entry of a format that is not pi's with its
// reader's decoder.
func (e *Entry) decodeOther() (*Body, error) {
	var b *Body
	err := e.withRaw(func(raw jsontext.Value) error {
		var err error
		b, err = e.src.body.decode(e, raw)
		return err
	})
	if err != nil {
		return nil, err
	}
	return b, nil
}

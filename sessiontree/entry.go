package sessiontree

import (
	"math"
	"time"
)

// Entry types written by pi and its forks. Types we do not know are kept
// as they are (Entry.Raw) so that they can still be shown.
const (
	TypeMessage             = "message"
	TypeCompaction          = "compaction"
	TypeBranchSummary       = "branch_summary"
	TypeCustom              = "custom"
	TypeCustomMessage       = "custom_message"
	TypeLabel               = "label"
	TypeSessionInfo         = "session_info"
	TypeThinkingLevelChange = "thinking_level_change"
	TypeModelChange         = "model_change"
)

// Message roles. The legacy role "hookMessage" is read as RoleCustom (the
// v2 to v3 migration).
const (
	RoleUser          = "user"
	RoleAssistant     = "assistant"
	RoleToolResult    = "toolResult"
	RoleBashExecution = "bashExecution"
	RoleCustom        = "custom"
)

// CustomCommandOutput is the CustomType of a Claude Code message that
// holds what a command printed (a slash command's, or a ! shell
// command's), its wrapper tags taken off: text as a terminal showed it.
const CustomCommandOutput = "command output"

// Entry is one node of the session tree: one line of a pi JSONL file, or
// one element of a Flue document's entries.
//
// Only the fields the tree, the context and the statistics need are decoded
// at load time; everything else stays in the input: Raw reads the entry's
// bytes exactly as they are in the file, which also preserves fields we do
// not know, and Decode reads the whole entry when a renderer needs it.
type Entry struct {
	Index     int    // position among the session's entries, in file order
	Line      int    // 1-based physical line of the entry in the file
	Type      string // "message", "compaction", ... or any type we do not know
	ID        string
	ParentID  string // "" when the entry has no parent (null or missing)
	Timestamp string // as written
	Time      time.Time
	TimeOK    bool // Timestamp parsed as RFC 3339
	// Silent: an assistant message whose reply starts with NO_REPLY or HEARTBEAT_OK, a
	// gateway's housekeeping turn that was never delivered to the user.
	Silent bool
	// Continues: a later line of an assistant reply that Claude Code
	// streamed over several lines (one content block each, the same
	// message id). The turn's first line holds the whole reply: its
	// content, calls and usage; this one decodes to an assistant message
	// with no content, and stays an entry of its own, so that links to it
	// keep working.
	Continues bool
	// Bookkeeping: a record the agent keeps for itself, not a turn of the
	// conversation (Claude Code's progress lines, attachments and hook
	// records, file-history snapshots, queue operations, system records,
	// titles; Codex's token counts, task events, turn contexts and the
	// events that repeat an item). Its reader says so at load. The tree
	// keeps such entries where the file puts them, but they never make a
	// branch (Session.Shape, BranchChildren) and a guessed parent is never
	// one (ParentGuessed).
	Bookkeeping bool
	// ParentGuessed: the parent the entry names is not in the file (a
	// Claude Code compaction's logicalParentUuid, the parentUuid of a line
	// lost to an edit), and its reader's rule made it the child of the
	// entry before it in the file that is not bookkeeping, rather than a
	// root. ParentID is then that entry's id; a diagnostic of severity
	// info, at the entry's line, names the parent written.
	ParentGuessed bool
	// Where the entry's JSON is in the input (see Raw): only its place is
	// kept, not its bytes.
	src *source
	off int64  // offset of the entry's bytes in the input
	n   int    // their length
	crc uint32 // and CRC-32C, for a file: tells that they changed

	// Tree links, set when the session is built. A root has no Parent.
	Parent   *Entry
	Children []*Entry // oldest first, ties in file order

	// Decoded summary of the fields that matter to the tree.
	Role       string // message role; hookMessage reads as "custom"
	Provider   string // assistant message, model_change
	Model      string // assistant message model, model_change modelId
	StopReason string // assistant message
	Usage      *Usage // assistant message; a Flue compaction's own cost
	ToolCalls  int    // toolCall blocks in an assistant message
	ToolName   string // toolResult message
	// Tool calls and their results, paired without decoding the entries
	// again: the ids (non-empty strings) of an assistant message's
	// toolCall blocks, in order, and the call a toolResult answers.
	CallIDs    []string
	ToolCallID string

	// The fields that only some types carry, behind one pointer: most
	// entries are messages, which need none of them (a third of an entry's
	// size; megabytes on a 100,000-entry session). Never nil on a loaded
	// entry; entries with none of the fields share one empty Detail, so it
	// is read-only.
	*Detail
}

// IsContext tells a message that is the context a harness gave the model,
// not a turn of the conversation: its system and developer prompts, the
// environment, instructions (the custom types in contextKinds). Writers
// fold it.
func (e *Entry) IsContext() bool {
	return e.Type == TypeMessage && e.Role == RoleCustom && contextKinds[e.CustomType]
}

// contextKinds are the custom types the readers give the messages that
// are context: Codex's developer and system prompts and what it writes as
// the user (codexInjected); Claude Code's meta lines (isMeta: a slash
// command or skill expanded into the prompt it stands for).
var contextKinds = map[string]bool{
	"developer": true, "system": true, "environment context": true, "user instructions": true,
	"AGENTS.md": true, "permissions": true,
	"meta": true,
}

// ParentGuessedNote is what the page and the Markdown say on an entry
// whose parent was guessed (Entry.ParentGuessed).
const ParentGuessedNote = "The entry this one follows is not in the file (cut off by a compaction or an edit): it is shown after the line before it."

// Detail holds the fields that only some entry types have.
type Detail struct {
	Source        string // Flue message source: prompt, skill, shell, task, retry
	Summary       string // compaction, branch_summary
	FirstKeptID   string // compaction
	TokensBefore  float64
	FromID        string // branch_summary
	TargetID      string // label
	Label         string // label ("" clears)
	Name          string // session_info
	ThinkingLevel string // thinking_level_change
	CustomType    string // custom, custom_message, legacy hookMessage
	Display       bool   // custom_message and custom-role messages
	ModelRole     string // oh-my-pi model_change role: "default" or "temporary"
	// moreResults: a toolResult message that answers several calls (a
	// Claude Code user line with several tool_result blocks) answers
	// ToolCallID and these, in order (Entry.Answered). A pointer, so
	// that a Detail stays comparable.
	moreResults *[]string
	// Notice: a custom-role message that is not part of the context: a
	// notice shown to the user that the model never received (Claude
	// Code's and Codex's: an API error being retried, a hook's summary),
	// or the message that carries a compaction's summary, which the
	// compaction stands for.
	Notice bool
}

// Usage is token use and cost as pi records it on assistant messages.
//
//sessiontree:walk
type Usage struct {
	Input       float64   `json:"input"`
	Output      float64   `json:"output"`
	CacheRead   float64   `json:"cacheRead"`
	CacheWrite  float64   `json:"cacheWrite"`
	TotalTokens float64   `json:"totalTokens"`
	Cost        UsageCost `json:"cost"`
	// CacheWrite1h is the part of CacheWrite written to Anthropic's
	// one-hour cache, which costs more (pricing.Usage): Claude Code
	// records it; pi does not.
	CacheWrite1h float64 `json:"-"`
}

// UsageCost is the cost in US dollars, by kind of token.
//
//sessiontree:walk
type UsageCost struct {
	Input      float64 `json:"input"`
	Output     float64 `json:"output"`
	CacheRead  float64 `json:"cacheRead"`
	CacheWrite float64 `json:"cacheWrite"`
	Total      float64 `json:"total"`
}

func (u *Usage) add(o *Usage) {
	if o == nil {
		return
	}
	// Sums saturate rather than overflow to ±Inf, which JSON cannot encode
	// (a session with absurd numbers made inspect --json fail).
	sum := func(a *float64, b float64) {
		*a = max(-math.MaxFloat64, min(*a+b, math.MaxFloat64))
	}
	sum(&u.Input, o.Input)
	sum(&u.Output, o.Output)
	sum(&u.CacheRead, o.CacheRead)
	sum(&u.CacheWrite, o.CacheWrite)
	sum(&u.TotalTokens, o.TotalTokens)
	sum(&u.Cost.Input, o.Cost.Input)
	sum(&u.Cost.Output, o.Cost.Output)
	sum(&u.Cost.CacheRead, o.Cost.CacheRead)
	sum(&u.Cost.CacheWrite, o.Cost.CacheWrite)
	sum(&u.Cost.Total, o.Cost.Total)
}

// Answered is the number of calls a toolResult message answers: 0 when
// it names none, 1 for a pi or Codex result; a Claude Code user line
// answers several, each with its own tool_result block (Message.ResultFor).
// AnsweredID(k) is the id of the k-th: ToolCallID first.
func (e *Entry) Answered() int {
	if e.ToolCallID == "" {
		return 0
	}
	if e.Detail != nil && e.moreResults != nil {
		return 1 + len(*e.moreResults)
	}
	return 1
}

// AnsweredID is the id of the k-th call the message answers (see
// Answered), 0 <= k < Answered().
func (e *Entry) AnsweredID(k int) string {
	if k == 0 {
		return e.ToolCallID
	}
	return (*e.moreResults)[k-1]
}

// IsSettings reports whether the entry is one the reference calls a
// "settings" entry: never shown in the default filter mode.
func (e *Entry) IsSettings() bool {
	switch e.Type {
	case TypeLabel, TypeCustom, TypeModelChange, TypeThinkingLevelChange:
		return true
	}
	return false
}

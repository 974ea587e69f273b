package conversation

import (
	"strings"

	"canopy/sessiontree"
)

// Kind is what an entry is to a reader. Both writers draw an entry by its
// Kind, never by sessiontree's entry types and message roles, so that they
// cannot disagree on what an entry is.
type Kind int

const (
	Unknown       Kind = iota // an entry of a type canopy does not know
	Unreadable                // its body could not be decoded
	NoMessage                 // a message entry without a message
	UnknownRole               // a message of a role canopy does not know
	Prompt                    // what the user wrote
	Reply                     // the model's reply: text, thinking, tool calls
	Continuation              // a later line of a reply written over several (drawn whole at its first)
	ToolResult                // a tool's result
	Command                   // a command the user ran, and its output
	CustomMessage             // an extension's message (Display: the user saw it)
	Compaction                // the summary the model saw instead of what came before
	BranchSummary             // the summary of a branch the conversation came back from
	ModelChange
	ThinkingLevelChange
	LabelChange
	SessionInfo // the session was named
	State       // an extension's state (sessiontree.StateName)
)

// NeedsBody reports whether an entry's Kind depends on its body (Classify
// needs it decoded): messages and extension messages, but for the later
// lines of a reply (sessiontree.Entry.Continues).
func NeedsBody(e *sessiontree.Entry) bool {
	return (e.Type == sessiontree.TypeMessage || e.Type == sessiontree.TypeCustomMessage) && !e.Continues
}

// Classify is what e is. b is its body, decoded (needed when NeedsBody);
// err is the error decoding it.
func Classify(e *sessiontree.Entry, b *sessiontree.Body, err error) Kind {
	if e.Continues {
		return Continuation
	}
	if NeedsBody(e) && (err != nil || b == nil) {
		return Unreadable
	}
	switch e.Type {
	case sessiontree.TypeMessage:
		return messageKind(b.Message)
	case sessiontree.TypeCustomMessage:
		return CustomMessage
	case sessiontree.TypeCompaction:
		return Compaction
	case sessiontree.TypeBranchSummary:
		return BranchSummary
	case sessiontree.TypeModelChange:
		return ModelChange
	case sessiontree.TypeThinkingLevelChange:
		return ThinkingLevelChange
	case sessiontree.TypeLabel:
		return LabelChange
	case sessiontree.TypeSessionInfo:
		return SessionInfo
	case sessiontree.TypeCustom:
		return State
	}
	return Unknown
}

func messageKind(m *sessiontree.Message) Kind {
	if m == nil {
		return NoMessage
	}
	switch m.Role {
	case sessiontree.RoleUser:
		return Prompt
	case sessiontree.RoleAssistant:
		return Reply
	case sessiontree.RoleToolResult:
		return ToolResult
	case sessiontree.RoleBashExecution:
		return Command
	case sessiontree.RoleCustom:
		return CustomMessage
	}
	return UnknownRole
}

// Part is what a content block of a message is to a reader.
type Part int

const (
	Other            Part = iota // a block of a type canopy does not know
	Text                         // text with something in it
	Thinking                     // thinking with something in it
	RedactedThinking             // thinking the provider withheld
	Image
	ToolCall
	Blank // text or thinking of only white space: nothing to show
)

// PartOf is what the block is.
func PartOf(blk *sessiontree.Block) Part {
	switch blk.Type {
	case "text":
		if isBlank(blk.Text) {
			return Blank
		}
		return Text
	case "thinking":
		if blk.Redacted {
			return RedactedThinking
		}
		if isBlank(blk.Thinking) {
			return Blank
		}
		return Thinking
	case "image":
		return Image
	case "toolCall":
		return ToolCall
	}
	return Other
}

func isBlank(s string) bool { return strings.TrimSpace(s) == "" }

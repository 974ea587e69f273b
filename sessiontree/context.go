package sessiontree

// Roles of context messages that are not message roles.
const (
	RoleCompactionSummary = "compactionSummary"
	RoleBranchSummary     = "branchSummary"
)

// Model names a provider's model.
type Model struct {
	Provider string `json:"provider"`
	ModelID  string `json:"modelId"`
}

// ContextMessage is one message the model received, and the entry it came
// from (for a compaction summary, the compaction entry).
type ContextMessage struct {
	Role  string
	Entry *Entry
}

// Context is what the model saw for a leaf: the reference's
// buildSessionContext.
type Context struct {
	Messages      []ContextMessage
	Model         *Model // nil when nothing on the path names one
	ThinkingLevel string // "off" unless changed on the path
	Compaction    *Entry // the compaction in effect, if any
}

// Context computes the model-visible context for the path from the root to
// leaf. A nil leaf gives an empty context.
func (s *Session) Context(leaf *Entry) Context {
	path := s.Path(leaf)
	ctx := Context{ThinkingLevel: "off"}
	compactionAt := -1
	for i, e := range path {
		switch e.Type {
		case TypeThinkingLevelChange:
			ctx.ThinkingLevel = e.ThinkingLevel
		case TypeModelChange:
			ctx.Model = &Model{Provider: e.Provider, ModelID: e.Model}
		case TypeMessage:
			if e.Role == RoleAssistant && (e.Provider != "" || e.Model != "") {
				ctx.Model = &Model{Provider: e.Provider, ModelID: e.Model}
			}
		case TypeCompaction:
			compactionAt = i
		}
	}
	emit := func(e *Entry) {
		switch e.Type {
		case TypeMessage:
			// A line that continues a streamed reply is part of the turn
			// its first line stands for.
			if !e.Notice && !e.Continues {
				ctx.Messages = append(ctx.Messages, ContextMessage{Role: e.Role, Entry: e})
			}
		case TypeCustomMessage:
			ctx.Messages = append(ctx.Messages, ContextMessage{Role: RoleCustom, Entry: e})
		case TypeBranchSummary:
			if e.Summary != "" {
				ctx.Messages = append(ctx.Messages, ContextMessage{Role: RoleBranchSummary, Entry: e})
			}
		}
	}
	if compactionAt < 0 {
		for _, e := range path {
			emit(e)
		}
		return ctx
	}
	c := path[compactionAt]
	ctx.Compaction = c
	ctx.Messages = append(ctx.Messages, ContextMessage{Role: RoleCompactionSummary, Entry: c})
	kept := false
	for _, e := range path[:compactionAt] {
		if e.ID == c.FirstKeptID {
			kept = true
		}
		if kept {
			emit(e)
		}
	}
	for _, e := range path[compactionAt+1:] {
		emit(e)
	}
	return ctx
}

// CompactionSummaryText is the user message the model received in place
// of the history a compaction summarised.
func CompactionSummaryText(summary string) string {
	return "The conversation history before this point was compacted into the following summary:\n\n<summary>\n" + summary + "\n</summary>"
}

// BranchSummaryText is the user message the model received for a branch
// summary.
func BranchSummaryText(summary string) string {
	return "The following is a summary of a branch that this conversation came back from:\n\n<summary>\n" + summary + "</summary>"
}

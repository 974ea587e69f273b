package sessiongen

// JSON shapes of a pi v3 session file. Structs (not maps) so that the key
// order of every line is fixed and the output is byte-for-byte reproducible.

type header struct {
	Type      string `json:"type"`
	Version   int    `json:"version"`
	ID        string `json:"id"`
	Timestamp string `json:"timestamp"`
	Cwd       string `json:"cwd"`
}

// base holds the fields every entry has. It is embedded, so its fields come
// first on every line.
type base struct {
	Type      string  `json:"type"`
	ID        string  `json:"id"`
	ParentID  *string `json:"parentId"`
	Timestamp string  `json:"timestamp"`
}

func (b *base) head() *base { return b }

// entryValue is any entry struct (they all embed base).
type entryValue interface{ head() *base }

type messageEntry struct {
	base
	Message stamper `json:"message"`
}

// stamper is a message; stamp sets its millisecond timestamp given the time
// of its entry and of the previous entry.
type stamper interface{ stamp(now, prev int64) }

type thinkingLevelEntry struct {
	base
	ThinkingLevel string `json:"thinkingLevel"`
}

type modelChangeEntry struct {
	base
	Provider string `json:"provider"`
	ModelID  string `json:"modelId"`
}

type compactionEntry struct {
	base
	Summary          string       `json:"summary"`
	FirstKeptEntryID string       `json:"firstKeptEntryId"`
	TokensBefore     int          `json:"tokensBefore"`
	Details          *fileDetails `json:"details,omitempty"`
}

type branchSummaryEntry struct {
	base
	FromID  string       `json:"fromId"`
	Summary string       `json:"summary"`
	Details *fileDetails `json:"details,omitempty"`
}

type customEntry struct {
	base
	CustomType string `json:"customType"`
	Data       any    `json:"data,omitempty"`
}

type customMessageEntry struct {
	base
	CustomType string `json:"customType"`
	Content    any    `json:"content"`
	Display    bool   `json:"display"`
	Details    any    `json:"details,omitempty"`
}

// labelEntry with a nil Label clears the target's label.
type labelEntry struct {
	base
	TargetID string  `json:"targetId"`
	Label    *string `json:"label,omitempty"`
}

type sessionInfoEntry struct {
	base
	Name string `json:"name"`
}

type userMessage struct {
	Role      string `json:"role"`
	Content   any    `json:"content"` // string or []block
	Timestamp int64  `json:"timestamp"`
}

func (m *userMessage) stamp(now, prev int64) { m.Timestamp = now }

type assistantMessage struct {
	Role         string  `json:"role"`
	Content      []block `json:"content"`
	API          string  `json:"api"`
	Provider     string  `json:"provider"`
	Model        string  `json:"model"`
	Usage        usage   `json:"usage"`
	StopReason   string  `json:"stopReason"`
	ErrorMessage string  `json:"errorMessage,omitempty"`
	Timestamp    int64   `json:"timestamp"`
}

// An assistant message is stamped with the time its request started.
func (m *assistantMessage) stamp(now, prev int64) { m.Timestamp = prev }

type toolResultMessage struct {
	Role       string  `json:"role"`
	ToolCallID string  `json:"toolCallId"`
	ToolName   string  `json:"toolName"`
	Content    []block `json:"content"`
	Details    any     `json:"details,omitempty"`
	IsError    bool    `json:"isError"`
	Timestamp  int64   `json:"timestamp"`
}

func (m *toolResultMessage) stamp(now, prev int64) { m.Timestamp = now }

type bashExecutionMessage struct {
	Role               string `json:"role"`
	Command            string `json:"command"`
	Output             string `json:"output"`
	ExitCode           *int   `json:"exitCode,omitempty"` // absent when cancelled
	Cancelled          bool   `json:"cancelled"`
	Truncated          bool   `json:"truncated"`
	ExcludeFromContext bool   `json:"excludeFromContext,omitempty"`
	Timestamp          int64  `json:"timestamp"`
}

func (m *bashExecutionMessage) stamp(now, prev int64) { m.Timestamp = now }

type block struct {
	Type              string    `json:"type"`
	Text              string    `json:"text,omitempty"`
	Thinking          string    `json:"thinking,omitempty"`
	ThinkingSignature string    `json:"thinkingSignature,omitempty"`
	Data              string    `json:"data,omitempty"`
	MimeType          string    `json:"mimeType,omitempty"`
	ID                string    `json:"id,omitempty"`
	Name              string    `json:"name,omitempty"`
	Arguments         *toolArgs `json:"arguments,omitempty"`
}

type toolArgs struct {
	Command    string `json:"command,omitempty"`
	Pattern    string `json:"pattern,omitempty"`
	Path       string `json:"path,omitempty"`
	Offset     int    `json:"offset,omitempty"`
	Limit      int    `json:"limit,omitempty"`
	Content    string `json:"content,omitempty"`
	OldText    string `json:"oldText,omitempty"`
	NewText    string `json:"newText,omitempty"`
	Glob       string `json:"glob,omitempty"`
	IgnoreCase bool   `json:"ignoreCase,omitempty"`
	Timeout    int    `json:"timeout,omitempty"`
}

type usage struct {
	Input       int  `json:"input"`
	Output      int  `json:"output"`
	CacheRead   int  `json:"cacheRead"`
	CacheWrite  int  `json:"cacheWrite"`
	TotalTokens int  `json:"totalTokens"`
	Cost        cost `json:"cost"`
}

type cost struct {
	Input      float64 `json:"input"`
	Output     float64 `json:"output"`
	CacheRead  float64 `json:"cacheRead"`
	CacheWrite float64 `json:"cacheWrite"`
	Total      float64 `json:"total"`
}

type editDetails struct {
	Diff             string `json:"diff"`
	FirstChangedLine int    `json:"firstChangedLine,omitempty"`
}

type fileDetails struct {
	ReadFiles     []string `json:"readFiles"`
	ModifiedFiles []string `json:"modifiedFiles"`
}

type todoItem struct {
	ID   int    `json:"id"`
	Text string `json:"text"`
	Done bool   `json:"done"`
}

type todoState struct {
	Items []todoItem `json:"items"`
}

type checkpointState struct {
	Ref     string `json:"ref"`
	EntryID string `json:"entryId"`
	Dirty   bool   `json:"dirty"`
}

type customDetails struct {
	Source string `json:"source"`
}

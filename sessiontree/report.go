package sessiontree

// Report is the flat, stable description of a session that
// `canopy inspect --json` prints and scripts rely on. It is flat on
// purpose: a million-entry chain must not nest a million deep.
type Report struct {
	Format        string              `json:"format"`
	Version       int                 `json:"version"`
	FormatVersion string              `json:"formatVersion,omitempty"`
	SessionID     string              `json:"sessionId"`
	SessionName   *string             `json:"sessionName"`
	LeafID        *string             `json:"leafId"`
	ActivePath    []string            `json:"activePath"`
	Labels        map[string]string   `json:"labels"`
	Roots         []string            `json:"roots"`
	Children      map[string][]string `json:"children"`
	Context       []ContextRef        `json:"context"`
	Model         *Model              `json:"model"`
	ThinkingLevel string              `json:"thinkingLevel"`
	EntryCount    int                 `json:"entryCount"`
	Stats         ReportStats         `json:"stats"`
	ChildSessions []ChildSession      `json:"childSessions,omitempty"`
	Diagnostics   []Diagnostic        `json:"diagnostics"`
}

// ContextRef is one context message by role and the id of its entry.
type ContextRef struct {
	Role    string `json:"role"`
	EntryID string `json:"entryId"`
}

// ReportStats is the usage of the active path and of the whole tree, with
// the tree's shape.
type ReportStats struct {
	Path         Stats `json:"path"`
	Tree         Stats `json:"tree"`
	Leaves       int   `json:"leaves"`
	BranchPoints int   `json:"branchPoints"`
}

// Report describes the session as seen from leaf (normally s.Leaf).
func (s *Session) Report(leaf *Entry) Report {
	path := s.Path(leaf)
	ctx := s.Context(leaf)
	r := Report{
		Format:        s.Format,
		Version:       s.Version,
		FormatVersion: s.FormatVersion,
		SessionID:     s.Header.ID,
		ActivePath:    make([]string, len(path)),
		Labels:        s.Labels,
		Roots:         make([]string, len(s.Roots)),
		Children:      map[string][]string{},
		Context:       make([]ContextRef, len(ctx.Messages)),
		Model:         ctx.Model,
		ThinkingLevel: ctx.ThinkingLevel,
		EntryCount:    len(s.Entries),
		ChildSessions: s.ChildSessions,
		Diagnostics:   s.Diagnostics,
	}
	if s.Name != "" {
		name := s.Name
		r.SessionName = &name
	}
	if leaf != nil {
		id := leaf.ID
		r.LeafID = &id
	}
	for i, e := range path {
		r.ActivePath[i] = e.ID
	}
	for i, e := range s.Roots {
		r.Roots[i] = e.ID
	}
	// The conversation's shape: bookkeeping is never a branch.
	r.Stats.Leaves, r.Stats.BranchPoints = s.Shape()
	for _, e := range s.Entries {
		if len(e.Children) == 0 {
			continue
		}
		ids := make([]string, len(e.Children))
		for i, c := range e.Children {
			ids[i] = c.ID
		}
		r.Children[e.ID] = ids
	}
	for i, m := range ctx.Messages {
		r.Context[i] = ContextRef{Role: m.Role, EntryID: m.Entry.ID}
	}
	r.Stats.Path = s.Stats(path)
	r.Stats.Tree = s.Stats(s.Entries)
	if r.Diagnostics == nil {
		r.Diagnostics = []Diagnostic{}
	}
	return r
}

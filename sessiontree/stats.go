package sessiontree

// Stats counts what a set of entries holds: the header of a page, the
// summary of `canopy inspect`.
type Stats struct {
	Entries   int            `json:"entries"`
	Messages  map[string]int `json:"messages"` // message entries by role
	ToolCalls int            `json:"toolCalls"`
	Errors    int            `json:"errors"`  // assistant messages that stopped with an error
	Aborted   int            `json:"aborted"` // assistant messages that were aborted
	Usage     Usage          `json:"usage"`   // assistant messages' tokens and cost (USD)
	Models    []Model        `json:"models"`  // distinct, in order of first use

	Compactions     int   `json:"compactions"`
	CompactionUsage Usage `json:"compactionUsage"` // what making the summaries cost (Flue)
}

// Stats sums the given entries (for example s.Entries, or a path).
func (s *Session) Stats(entries []*Entry) Stats {
	st := Stats{Entries: len(entries), Messages: map[string]int{}, Models: []Model{}}
	seen := map[Model]bool{}
	addModel := func(m Model) {
		if (m.Provider != "" || m.ModelID != "") && !seen[m] {
			seen[m] = true
			st.Models = append(st.Models, m)
		}
	}
	for _, e := range entries {
		switch e.Type {
		case TypeMessage:
			if e.Continues {
				continue // counted with the line that starts its turn
			}
			st.Messages[e.Role]++
			if e.Role == RoleAssistant {
				st.ToolCalls += e.ToolCalls
				st.Usage.add(e.Usage)
				addModel(Model{e.Provider, e.Model})
				switch e.StopReason {
				case "error":
					st.Errors++
				case "aborted":
					st.Aborted++
				}
			}
		case TypeCustomMessage:
			// An extension's message, which the model saw: a message kind
			// of its own, counted as the reference counts it ("1 custom").
			st.Messages[RoleCustom]++
		case TypeModelChange:
			addModel(Model{e.Provider, e.Model})
		case TypeCompaction:
			st.Compactions++
			st.CompactionUsage.add(e.Usage)
		}
	}
	return st
}

// UsageSince sums the entries appended after the entry `since` on the path
// to leaf, Flue's rule. When `since` is not on that path the answer is
// unknown, never a guess: ok is false.
func (s *Session) UsageSince(since string, leaf *Entry) (st Stats, ok bool) {
	path := s.Path(leaf)
	for i, e := range path {
		if e.ID == since {
			return s.Stats(path[i+1:]), true
		}
	}
	return Stats{}, false
}

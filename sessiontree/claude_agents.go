package sessiontree

// Subagents inside a Claude Code transcript. A Task (or Agent) call runs a
// subagent; Claude Code writes the subagent's conversation as sidechain
// lines (isSidechain true): in the session's own file before version 2.0,
// in a file of its own since (subagents.go). This file gathers, at load,
// what ties the two together: the calls that run a subagent and the
// prompt they gave it, the subagent each such call's result names
// (toolUseResult.agentId), and the sidechains of the file itself.

// claudeLinks is what a transcript says about its subagents.
type claudeLinks struct {
	// calls are the calls that run a subagent, in file order, each with
	// the entry that shows it (a streamed reply's first line).
	calls []linkedCall
	// ran maps an agentId to the call whose result names it.
	ran map[string]string
}

// linkedCall is a call that runs a subagent.
type linkedCall struct {
	agentCall
	entry *Entry
}

// call is the call with the id, if it runs a subagent.
func (k *claudeLinks) call(id string) (linkedCall, bool) {
	if k == nil || id == "" {
		return linkedCall{}, false
	}
	for _, c := range k.calls {
		if c.id == id {
			return c, true
		}
	}
	return linkedCall{}, false
}

// Sidechain is a subagent's conversation written into the session's own
// file (isSidechain lines, as Claude Code before 2.0 wrote them): a tree
// of its own, whose first entry is a root of the session's tree.
type Sidechain struct {
	Root    *Entry   // its first message: the prompt the subagent was given
	Entries []*Entry // all its entries: Root, then the others in file order
	// The call that ran it: CallID is the tool call's id and Call the
	// entry whose message makes it (Entry.CallIDs holds CallID). Both
	// are empty when no call of the session can be told to have run it.
	CallID string
	Call   *Entry
}

// SidechainOf is the sidechain the entry belongs to, or nil for an entry
// of the session's own conversation. A subagent's own transcript (a file
// of sidechain lines only, Session.AgentID set) has no Sidechains: it is
// all the subagent's.
func (s *Session) SidechainOf(e *Entry) *Sidechain {
	if s.sidechainOf == nil || e.Index >= len(s.sidechainOf) || s.Entries[e.Index] != e {
		return nil
	}
	if k := s.sidechainOf[e.Index]; k > 0 {
		return s.Sidechains[k-1]
	}
	return nil
}

// agentLine gathers what a line says about subagents.
func (c *claudeState) agentLine(l *claudeLine) {
	if l.agentID != "" && c.s.AgentID == "" {
		c.s.AgentID = l.agentID
	}
	var prompt string
	if x := l.x; x != nil {
		prompt = x.prompt
		if len(x.agents) > 0 || x.usedAgent != "" {
			if c.links == nil {
				c.links = &claudeLinks{ran: map[string]string{}}
			}
			for _, a := range x.agents {
				c.links.calls = append(c.links.calls, linkedCall{agentCall: a})
			}
			if x.usedAgent != "" && l.entry.ToolCallID != "" {
				c.links.ran[x.usedAgent] = l.entry.ToolCallID
			}
		}
	}
	if l.sidechain {
		c.side = append(c.side, sideLine{l.entry, l.agentID, prompt})
	}
}

// sideLine is a sidechain line, as sidechains are made of.
type sideLine struct {
	e       *Entry
	agentID string
	prompt  string // the root's
}

// finishLinks ties each subagent call to the entry that shows it and
// groups the sidechain lines of a session's own file into Sidechains.
func (c *claudeState) finishLinks() {
	s := c.s
	if c.links != nil {
		at := map[string]*Entry{}
		for _, e := range s.Entries {
			for _, id := range e.CallIDs {
				if _, dup := at[id]; !dup {
					at[id] = e
				}
			}
		}
		for i := range c.links.calls {
			c.links.calls[i].entry = at[c.links.calls[i].id]
		}
		s.links = c.links
	}
	// A subagent's transcript: every message is a sidechain.
	if len(c.side) == 0 || c.leaf == nil {
		return
	}
	runs := groupSidechains(c.side)
	s.sidechainOf = make([]int32, len(s.Entries))
	for k, r := range runs {
		s.Sidechains = append(s.Sidechains, r.chain)
		for _, e := range r.chain.Entries {
			s.sidechainOf[e.Index] = int32(k) + 1
		}
	}
	matchSidechains(s.links, runs)
}

// sideRun is a sidechain being made, with what ties it to its call.
type sideRun struct {
	chain   *Sidechain
	agentID string
	prompt  string
}

// groupSidechains groups sidechain lines into sidechains: a line whose
// parent is a sidechain line belongs to that line's; any other starts one.
func groupSidechains(side []sideLine) []*sideRun {
	byID := make(map[string]int, len(side))
	for i, l := range side {
		if _, dup := byID[l.e.ID]; !dup {
			byID[l.e.ID] = i
		}
	}
	run := make([]int, len(side)) // index+1 into runs
	var runs []*sideRun
	var rootOf func(i, depth int) int
	rootOf = func(i, depth int) int {
		if run[i] > 0 {
			return run[i]
		}
		p, ok := byID[side[i].e.ParentID]
		if ok && p != i && depth < len(side) {
			run[i] = rootOf(p, depth+1)
			return run[i]
		}
		l := side[i]
		runs = append(runs, &sideRun{chain: &Sidechain{Root: l.e}, agentID: l.agentID, prompt: l.prompt})
		run[i] = len(runs)
		return run[i]
	}
	for i := range side {
		rootOf(i, 0)
	}
	for _, r := range runs {
		r.chain.Entries = append(r.chain.Entries, r.chain.Root)
	}
	for i, l := range side {
		r := runs[run[i]-1]
		if l.e != r.chain.Root { // a line before its parent in the file comes after the root
			r.chain.Entries = append(r.chain.Entries, l.e)
		}
		if r.agentID == "" {
			r.agentID = l.agentID
		}
	}
	return runs
}

// matchSidechains finds the call that ran each sidechain: the call whose
// result names its agentId, else the first call not yet matched whose
// prompt is its first message, else the first call not yet matched that
// comes before it in the file.
func matchSidechains(k *claudeLinks, runs []*sideRun) {
	if k == nil {
		return
	}
	taken := map[string]bool{}
	take := func(r *sideRun, c linkedCall) {
		r.chain.CallID, r.chain.Call = c.id, c.entry
		taken[c.id] = true
	}
	for _, r := range runs {
		if c, ok := k.call(k.ran[r.agentID]); ok && r.agentID != "" && !taken[c.id] {
			take(r, c)
		}
	}
	for _, r := range runs {
		for _, c := range k.calls {
			if r.chain.Call == nil && !taken[c.id] && c.prompt != "" && c.prompt == r.prompt {
				take(r, c)
			}
		}
	}
	for _, r := range runs {
		for _, c := range k.calls {
			if r.chain.Call == nil && !taken[c.id] && c.entry != nil && c.entry.Index < r.chain.Root.Index {
				take(r, c)
			}
		}
	}
}

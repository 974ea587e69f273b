package archive

import (
	"cmp"
	"path/filepath"
	"slices"
	"strings"

	"canopy/htmlpage"
	"canopy/internal/text"
	"canopy/sessiontree"
)

// Claude Code's subagents in the archive. Each subagent's transcript
// (<project>/<session>/subagents/**/agent-<id>.jsonl, or since 2.0
// <project>/agent-<id>.jsonl beside its session) is a source like any
// other, with a page of its own. The archive links it to the session it
// belongs to, and to the subagent that ran it when another one did; the
// index lists it under that one.
//
// The links are made from what the manifest records of each session (its
// source's path, its session id, its agent), never by listing directories
// again: so every shard of a run, the merge, and a re-run that loads no
// session make the same ones. The rule is sessiontree.SubagentFiles's: a
// transcript under <session>/subagents/ belongs to <session>.jsonl; one
// beside sessions belongs to the one whose id its lines carry.

// AgentInfo is what the archive knows of a subagent's transcript.
type AgentInfo struct {
	ID          string `json:"id"`                    // agent-<id>.jsonl
	Type        string `json:"type,omitempty"`        // the meta file's agentType ("Explore")
	Description string `json:"description,omitempty"` // the meta file's: the call's description
	RunBy       string `json:"runBy,omitempty"`       // the meta file's parentAgentId: the subagent that ran it
}

// agentInfo is the agent of the Claude Code transcript s, loaded from
// path, when it is a subagent's (its file is agent-<id>.jsonl, as
// sessiontree.SubagentFiles finds them); nil for a session's own.
func agentInfo(s *sessiontree.Session, path string) *AgentInfo {
	if !sessiontree.AgentOf(s.Format).Subagents {
		return nil
	}
	id, ok := sessiontree.SubagentFileID(path)
	if !ok {
		return nil
	}
	a := &AgentInfo{ID: id}
	m := sessiontree.ReadSubagentMeta(strings.TrimSuffix(path, ".jsonl") + ".meta.json")
	a.Type, a.Description, a.RunBy = m.AgentType, m.Description, m.ParentAgentID
	return a
}

// relateAgents links each subagent to the session it belongs to (Top)
// and to what ran it (AgentOf: the subagent its meta file names, of the
// same session, else the session), and lists each one's subagents in the
// order they started.
func (r *Relations) relateAgents(ss []Session, names *sessionNames) {
	// The sessions a subagent beside them can belong to, by directory and
	// session id.
	beside := map[[2]string][]int{}
	for i, s := range ss {
		if sessiontree.AgentOf(s.Format).Subagents && s.Agent == nil && s.ID != "" {
			k := [2]string{filepath.Dir(absPath(s.Source)), s.ID}
			beside[k] = append(beside[k], i)
		}
	}
	type agentKey struct {
		session int
		agent   string
	}
	byAgent := map[agentKey]int{} // the first subagent of each id, in each session
	for i, s := range ss {
		if s.Agent == nil {
			continue
		}
		r.Top[i] = agentSession(ss, i, names, beside)
		if k := (agentKey{r.Top[i], s.Agent.ID}); r.Top[i] >= 0 {
			if _, dup := byAgent[k]; !dup {
				byAgent[k] = i
			}
		}
	}
	for i, s := range ss {
		if s.Agent == nil || r.Top[i] < 0 {
			continue
		}
		r.AgentOf[i] = r.Top[i]
		if j, ok := byAgent[agentKey{r.Top[i], s.Agent.RunBy}]; ok && s.Agent.RunBy != "" && j != i {
			r.AgentOf[i] = j
		}
	}
	// Meta files that say a ran b and b ran a: each then hangs under its
	// session, which nothing runs.
	for i, s := range ss {
		if s.Agent == nil {
			continue
		}
		seen := map[int]bool{i: true}
		for j := r.AgentOf[i]; j >= 0 && ss[j].Agent != nil; j = r.AgentOf[j] {
			if seen[j] {
				r.AgentOf[i] = r.Top[i]
				break
			}
			seen[j] = true
		}
	}
}

// agentSession is the session the subagent i belongs to, or -1: for a
// transcript under <dir>/<session>/subagents/, <dir>/<session>.jsonl;
// for one beside sessions, the one session there with its session id.
func agentSession(ss []Session, i int, names *sessionNames, beside map[[2]string][]int) int {
	isSession := func(j int) bool { return ss[j].Format == sessiontree.FormatClaude && ss[j].Agent == nil }
	p := absPath(ss[i].Source)
	for d := filepath.Dir(p); ; {
		if filepath.Base(d) == "subagents" {
			if j, ok := names.byPath[filepath.Dir(d)+".jsonl"]; ok && isSession(j) {
				return j
			}
			break
		}
		up := filepath.Dir(d)
		if up == d {
			break
		}
		d = up
	}
	if c := beside[[2]string{filepath.Dir(p), ss[i].ID}]; len(c) == 1 {
		return c[0]
	}
	return -1
}

// sortAgents lists each session's and subagent's subagents, in the order
// they started (their pages' names break ties).
func (r *Relations) sortAgents(ss []Session) {
	for i := range ss {
		if j := r.AgentOf[i]; j >= 0 {
			r.Agents[j] = append(r.Agents[j], i)
		}
	}
	for _, a := range r.Agents {
		slices.SortStableFunc(a, func(x, y int) int {
			return cmp.Or(strings.Compare(ss[x].Started, ss[y].Started), strings.Compare(ss[x].Page, ss[y].Page))
		})
	}
}

// agentLabel names a subagent in links: its type and the description its
// call gave it, else its title.
func agentLabel(s *Session) string {
	a := s.Agent
	if a == nil {
		return s.Title
	}
	what := text.Or(a.Description, s.Title)
	if a.Type != "" {
		return a.Type + ": " + what
	}
	return what
}

// projectOf is the project session i is listed under: a subagent's
// session's, for it is listed under it.
func (r *Relations) projectOf(ss []Session, i int) string {
	if j := r.Top[i]; j >= 0 {
		return ss[j].Project
	}
	return ss[i].Project
}

// agentNav adds to n the links of a Claude Code session or subagent: the
// subagents it ran, and for a subagent what ran it and its session.
func agentNav(ss []Session, r *Relations, i int, link func(j int, text string) htmlpage.Link, add func(string, []htmlpage.Link)) {
	s := &ss[i]
	if s.Agent != nil {
		switch j := r.AgentOf[i]; {
		case j >= 0 && ss[j].Agent != nil:
			add("Run by", []htmlpage.Link{link(j, agentLabel(&ss[j]))})
			if t := r.Top[i]; t >= 0 {
				add("In session", []htmlpage.Link{link(t, ss[t].Title)})
			}
		case j >= 0:
			add("Run by", []htmlpage.Link{link(j, ss[j].Title)})
		default:
			add("Run by", []htmlpage.Link{{Text: "session " + text.Or(s.ID, "(unknown)") + " (not in the archive)"}})
		}
	}
	var subs []htmlpage.Link
	for _, j := range r.Agents[i] {
		subs = append(subs, link(j, agentLabel(&ss[j])))
	}
	add("Subagents", subs)
}

// agentSums are the pages and source hashes of session i's subagents,
// and theirs, in order: a session's page draws its subagents in it, so
// it is made again when one of them changes.
func (r *Relations) agentSums(ss []Session, i int, sum map[string]string) []string {
	var out []string
	var walk func(j int, depth int)
	walk = func(j int, depth int) {
		if depth > len(ss) {
			return // a cycle would have been broken; never loop
		}
		for _, k := range r.Agents[j] {
			out = append(out, ss[k].Page+" "+sum[ss[k].Source]) // not the path: a SRC named another way changes nothing
			walk(k, depth+1)
		}
	}
	walk(i, 0)
	return out
}

// agentNote is a subagent's note in the index: its type, what its call
// asked (the description), its id.
func agentNote(a *AgentInfo) string {
	note := "subagent"
	switch {
	case strings.Contains(strings.ToLower(a.Type), "agent"):
		note = a.Type // "workflow-subagent"
	case a.Type != "":
		note = a.Type + " subagent"
	}
	return note + text.Prefixed(": ", a.Description) + " · agent " + a.ID
}

// agentNotes are the index's notes on session i's subagents: what ran it,
// for a subagent, and how many it ran.
func (l *indexLinks) agentNotes(i int) []string {
	var notes []string
	if s := &l.all[i]; s.Agent != nil {
		switch j := l.rel.AgentOf[i]; {
		case j < 0:
			notes = append(notes, "run by session "+text.Or(s.ID, "(unknown)")+", not in the archive")
		case l.all[j].Agent != nil:
			notes = append(notes, "run by "+agentLabel(&l.all[j]))
		default:
			notes = append(notes, "run by "+l.all[j].Title)
		}
	}
	if n := len(l.rel.Agents[i]); n > 0 {
		notes = append(notes, text.Count(n, "subagent", "subagents"))
	}
	return notes
}

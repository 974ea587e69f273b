package sessiontree

import (
	"errors"
	"fmt"
	"slices"
)

// Subagent is a subagent's transcript, loaded, and the call it belongs to.
//
// How a renderer shows them (canopy export of a Claude Code session):
//
//	subs, err := sessiontree.LoadSubagents(s, path) // after LoadFile(path)
//	defer subs.Close()
//	// Drawing the card of call blk.ID made by entry e (of s, or of a
//	// subagent's Session, for a subagent that ran another):
//	for _, a := range subs.ForCall(e, blk.ID) {
//		// a.Session: a tree of its own, drawn collapsed under the card;
//		// its entries' ids are uuids, unique in the page; a.AgentID
//		// names it in deep links and in the archive (agent-<id>).
//	}
//	// subs.Unplaced(): the subagents no call can be told to have run,
//	// drawn after the conversation.
//
// Sidechains inside the session's own file (Session.Sidechains, older
// versions) are shown the same way: Sidechain.Call and CallID name the
// card, SidechainOf(e) tells an entry of one from the conversation's.
type Subagent struct {
	SubagentFile
	Type        string // the meta file's agentType ("Explore"); "" when not told
	Description string // the meta file's description: the call's
	Session     *Session
	Err         error // the file could not be loaded: Session is nil

	// The call that ran it: CallID is the tool call's id, Call the entry
	// whose message makes it (Call.CallIDs holds CallID), in the session,
	// or in Parent's Session when another subagent ran it. Call is nil
	// when no call can be told to have run it (a workflow's step, the
	// compaction agent, a call that is not in the file).
	CallID string
	Call   *Entry
	Parent *Subagent // the subagent that ran it; nil for the session
}

// Subagents are the subagents of one session.
type Subagents struct {
	List   []*Subagent // sorted by path
	byCall map[*Entry][]*Subagent
}

// ForCall lists the subagents the call id of entry e ran (usually one).
func (a *Subagents) ForCall(e *Entry, id string) []*Subagent {
	if a == nil {
		return nil
	}
	var out []*Subagent
	for _, x := range a.byCall[e] {
		if x.CallID == id {
			out = append(out, x)
		}
	}
	return out
}

// Unplaced lists the subagents loaded but tied to no call.
func (a *Subagents) Unplaced() []*Subagent {
	if a == nil {
		return nil
	}
	var out []*Subagent
	for _, x := range a.List {
		if x.Call == nil {
			out = append(out, x)
		}
	}
	return out
}

// Close closes every subagent's session.
func (a *Subagents) Close() error {
	if a == nil {
		return nil
	}
	var errs []error
	for _, x := range a.List {
		if x.Session != nil {
			errs = append(errs, x.Session.Close())
		}
	}
	return errors.Join(errs...)
}

// LoadSubagents finds the subagents of the Claude Code session s, loaded
// from path (SubagentFiles), loads each, and ties each to the call that
// ran it. A session of another format, or read from no file, has none. A
// subagent's file that cannot be loaded is listed with its Err; the error
// returned is a directory that could not be read.
func LoadSubagents(s *Session, path string) (*Subagents, error) {
	a := &Subagents{byCall: map[*Entry][]*Subagent{}}
	if !AgentOf(s.Format).Subagents || path == "" || path == "-" {
		return a, nil
	}
	files, err := SubagentFiles(path, s.Header.ID)
	if err != nil {
		return a, err
	}
	if s.AgentID != "" {
		// s is a subagent's own transcript: its siblings share its
		// directory and sessionId; s itself is not one of its subagents.
		files = slices.DeleteFunc(files, func(f SubagentFile) bool { return f.AgentID == s.AgentID })
	}
	byID := map[string]*Subagent{}
	metas := make([]SubagentMeta, len(files))
	for i, f := range files {
		x := &Subagent{SubagentFile: f}
		metas[i] = ReadSubagentMeta(f.MetaPath)
		x.Type, x.Description = metas[i].AgentType, metas[i].Description
		if x.Session, x.Err = LoadFile(f.Path); x.Err == nil && x.Session.Format != FormatClaude {
			x.Session.Close()
			x.Session, x.Err = nil, fmt.Errorf("%s: a %s session, not a Claude Code subagent's", f.Path, x.Session.Format)
		}
		a.List = append(a.List, x)
		if _, dup := byID[f.AgentID]; !dup {
			byID[f.AgentID] = x
		}
	}
	taken := map[*Entry]map[string]bool{}
	for i, x := range a.List {
		a.place(s, x, metas[i], byID, taken)
	}
	for _, x := range a.List {
		if x.Call == nil {
			a.placeByPrompt(s, x, taken)
		}
	}
	if s.AgentID != "" {
		a.keepRanBy()
	}
	return a, nil
}

// keepRanBy keeps, of a subagent's siblings, the ones it ran, directly or
// through another it ran: the rest belong to the session or to other
// subagents, and are not drawn on its page.
func (a *Subagents) keepRanBy() {
	ours := func(x *Subagent) bool {
		for n := 0; x != nil && n <= len(a.List); n++ { // n bounds a cycle
			if x.Parent == nil {
				return x.Call != nil
			}
			x = x.Parent
		}
		return false
	}
	var kept []*Subagent
	for _, x := range a.List {
		if ours(x) {
			kept = append(kept, x)
		} else if x.Session != nil {
			x.Session.Close()
		}
	}
	for e, xs := range a.byCall {
		a.byCall[e] = slices.DeleteFunc(xs, func(x *Subagent) bool { return !ours(x) })
		if len(a.byCall[e]) == 0 {
			delete(a.byCall, e)
		}
	}
	a.List = kept
}

// place ties x to the call its meta file names, else to the call whose
// result names it.
func (a *Subagents) place(s *Session, x *Subagent, m SubagentMeta, byID map[string]*Subagent, taken map[*Entry]map[string]bool) {
	owner, parent := s, (*Subagent)(nil)
	if p := byID[m.ParentAgentID]; p != nil && p != x && p.Session != nil {
		owner, parent = p.Session, p
	}
	id := m.ToolUseID
	if id == "" && owner.links != nil {
		id = owner.links.ran[x.AgentID]
	}
	if id == "" && parent == nil {
		// Ran by another subagent, though its meta file does not say.
		for _, p := range a.List {
			if p != x && p.Session != nil && p.Session.links != nil && p.Session.links.ran[x.AgentID] != "" {
				owner, parent, id = p.Session, p, p.Session.links.ran[x.AgentID]
				break
			}
		}
	}
	if e := callEntry(owner, id); e != nil {
		a.tie(x, parent, id, e, taken)
		return
	}
	for _, p := range a.List { // a call of another subagent's the meta file names
		if e := callEntry(p.Session, id); p != x && e != nil {
			a.tie(x, p, id, e, taken)
			return
		}
	}
}

// placeByPrompt ties x to the first call not yet tied, in the session or
// another subagent, whose prompt is x's first message.
func (a *Subagents) placeByPrompt(s *Session, x *Subagent, taken map[*Entry]map[string]bool) {
	prompt := firstPrompt(x.Session)
	if prompt == "" {
		return
	}
	try := func(owner *Session, parent *Subagent) bool {
		if owner == nil || owner.links == nil {
			return false
		}
		for _, c := range owner.links.calls {
			if c.entry != nil && c.prompt == prompt && !taken[c.entry][c.id] {
				a.tie(x, parent, c.id, c.entry, taken)
				return true
			}
		}
		return false
	}
	if try(s, nil) {
		return
	}
	for _, p := range a.List {
		if p != x && try(p.Session, p) {
			return
		}
	}
}

func (a *Subagents) tie(x, parent *Subagent, id string, e *Entry, taken map[*Entry]map[string]bool) {
	x.CallID, x.Call, x.Parent = id, e, parent
	a.byCall[e] = append(a.byCall[e], x)
	if taken[e] == nil {
		taken[e] = map[string]bool{}
	}
	taken[e][id] = true
}

// callEntry is the first entry of s, in file order, that makes the call
// id (the first line of a streamed reply holds all its calls).
func callEntry(s *Session, id string) *Entry {
	if s == nil || id == "" {
		return nil
	}
	if c, ok := s.links.call(id); ok && c.entry != nil {
		return c.entry
	}
	for _, e := range s.Entries {
		for _, cid := range e.CallIDs {
			if cid == id {
				return e
			}
		}
	}
	return nil
}

// firstPrompt is the text of a subagent's first user message: the prompt
// the call gave it.
func firstPrompt(s *Session) string {
	if s == nil {
		return ""
	}
	for _, e := range s.Entries {
		if e.Type != TypeMessage || e.Role != RoleUser {
			continue
		}
		b, err := e.Decode()
		if err != nil || b.Message == nil {
			return ""
		}
		return blocksText(b.Message.Content)
	}
	return ""
}

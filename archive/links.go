package archive

import (
	"crypto/sha256"
	"encoding/hex"
	"net/url"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"canopy/htmlpage"
	"canopy/internal/text"
)

// Relations are the links between an archive's sessions, by index into
// the sessions slice.
type Relations struct {
	ForkOf   []int // -1 when not a fork, or the parent is not in the archive
	Forks    [][]int
	TaskOf   []int
	Tasks    [][]int
	TopicOf  []int
	Topics   [][]int
	Unlinked [][]string // child tasks named but not in the archive
	// A gateway key's history: its sessions oldest first (rotated ones
	// by when they were rotated, the one the store names last). Earlier
	// lists them on the last one; Next links each to the one after it.
	Earlier [][]int
	Next    []int
	// Claude Code's subagents (agents.go): AgentOf is what ran each
	// subagent (its session, or the subagent that ran it), Agents what
	// each ran, Top the session each belongs to; -1 for none.
	AgentOf []int
	Agents  [][]int
	Top     []int
}

// parent is the session a page hangs under in its breadcrumbs: the one it
// was forked from, was a task of, or is a topic of.
func (r *Relations) parent(i int) int {
	for _, p := range []int{r.ForkOf[i], r.TaskOf[i], r.TopicOf[i], r.AgentOf[i]} {
		if p >= 0 {
			return p
		}
	}
	return -1
}

// relate links sessions: forks to their parent session (header
// parentSession: a path, a file name or a session id), Flue child tasks
// (metadata.taskSessions: a session id or a storage key) both ways, and a
// gateway's topic transcripts to their session, Claude Code's subagents
// to what ran them.
func relate(ss []Session) *Relations {
	n := len(ss)
	r := &Relations{ForkOf: fill(n), TaskOf: fill(n), TopicOf: fill(n), Forks: make([][]int, n), Tasks: make([][]int, n), Topics: make([][]int, n), Unlinked: make([][]string, n),
		Earlier: make([][]int, n), Next: fill(n), AgentOf: fill(n), Agents: make([][]int, n), Top: fill(n)}
	names := newSessionNames(ss)
	for i, s := range ss {
		if j := names.find(i, s.ParentSession); j >= 0 && j != i {
			r.ForkOf[i] = j
		}
		for _, t := range s.Tasks {
			j := names.find(i, t.Session)
			if j < 0 {
				j = names.find(i, t.StorageKey)
			}
			switch {
			case j >= 0 && j != i && r.TaskOf[j] < 0:
				r.TaskOf[j] = i
			case j < 0:
				r.Unlinked[i] = append(r.Unlinked[i], text.Or(t.Session, t.StorageKey)+text.Prefixed(" · task ", t.TaskID))
			}
		}
	}
	r.relateTopics(ss)
	r.relateHistory(ss)
	r.relateAgents(ss, names)
	r.breakCycles()
	for i := range ss {
		if j := r.ForkOf[i]; j >= 0 {
			r.Forks[j] = append(r.Forks[j], i)
		}
		if j := r.TaskOf[i]; j >= 0 {
			r.Tasks[j] = append(r.Tasks[j], i)
		}
		if j := r.TopicOf[i]; j >= 0 {
			r.Topics[j] = append(r.Topics[j], i)
		}
	}
	r.sortAgents(ss)
	return r
}

// relateTopics links each topic transcript to the session of the same
// store and key that is not a topic.
func (r *Relations) relateTopics(ss []Session) {
	mains := map[[2]string]int{}
	for i, s := range ss {
		if g := s.Gateway; g != nil && g.Topic == "" && s.Rotation == nil {
			mains[[2]string{g.Store, g.Key}] = i
		}
	}
	for i, s := range ss {
		if g := s.Gateway; g != nil && g.Topic != "" {
			if j, ok := mains[[2]string{g.Store, g.Key}]; ok {
				r.TopicOf[i] = j
			}
		}
	}
}

// relateHistory orders the sessions of each gateway key (a store's
// key, not a topic): the rotated ones by when they were rotated (a
// backup by when it began), the one the store names now last.
func (r *Relations) relateHistory(ss []Session) {
	keys := map[[2]string][]int{}
	var order [][2]string
	for i, s := range ss {
		g := s.Gateway
		if g == nil || g.Key == "" || g.Topic != "" {
			continue
		}
		k := [2]string{g.Store, g.Key}
		if keys[k] == nil {
			order = append(order, k)
		}
		keys[k] = append(keys[k], i)
	}
	for _, k := range order {
		h := keys[k]
		if len(h) < 2 {
			continue
		}
		slices.SortStableFunc(h, func(a, b int) int { return compareHistory(&ss[a], &ss[b]) })
		last := h[len(h)-1]
		r.Earlier[last] = slices.Clone(h[:len(h)-1])
		for n := 0; n+1 < len(h); n++ {
			r.Next[h[n]] = h[n+1]
		}
	}
}

// compareHistory orders two sessions of one key: rotated before live,
// then by when each was rotated (or began), then by source.
func compareHistory(a, b *Session) int {
	if la, lb := a.Rotation == nil, b.Rotation == nil; la != lb {
		if la {
			return 1
		}
		return -1
	}
	when := func(s *Session) string {
		if s.Rotation != nil && s.Rotation.At != "" {
			return s.Rotation.At
		}
		return s.Started
	}
	if c := strings.Compare(when(a), when(b)); c != 0 {
		return c
	}
	return strings.Compare(a.Source, b.Source)
}

// breakCycles drops the links that close a cycle (a forked from b forked
// from a), which would make endless trails.
func (r *Relations) breakCycles() {
	for i := range r.ForkOf {
		seen := map[int]bool{i: true}
		for p := r.parent(i); p >= 0; p = r.parent(p) {
			if seen[p] {
				r.ForkOf[i], r.TaskOf[i], r.TopicOf[i], r.AgentOf[i] = -1, -1, -1, -1
				break
			}
			seen[p] = true
		}
	}
}

// sessionNames finds sessions by what other sessions call them: a path,
// a file name (with or without its extension), a session id.
type sessionNames struct {
	ss     []Session
	byPath map[string]int   // absolute source path
	names  map[string][]int // file name, file name less extension, session id
}

func newSessionNames(ss []Session) *sessionNames {
	n := &sessionNames{ss: ss, byPath: map[string]int{}, names: map[string][]int{}}
	for i, s := range ss {
		if abs, err := filepath.Abs(s.Source); err == nil {
			n.byPath[abs] = i
		}
		base := filepath.Base(s.Source)
		n.add(base, i)
		n.add(strings.TrimSuffix(base, filepath.Ext(base)), i)
		if s.Agent == nil { // a subagent's lines carry its session's id
			n.add(s.ID, i)
		}
	}
	return n
}

func (n *sessionNames) add(k string, i int) {
	if k == "" || slices.Contains(n.names[k], i) {
		return
	}
	n.names[k] = append(n.names[k], i)
}

// unique is the one session named k, or -1.
func (n *sessionNames) unique(k string) int {
	if m := n.names[k]; len(m) == 1 {
		return m[0]
	}
	return -1
}

// find is the session ref names, as session i's file names it: a path
// (relative to i's directory), else, for a path from another machine or
// an id, by name when only one session answers to it; -1 when none does.
func (n *sessionNames) find(i int, ref string) int {
	if ref == "" {
		return -1
	}
	cands := []string{ref}
	if !filepath.IsAbs(ref) {
		cands = append(cands, filepath.Join(filepath.Dir(n.ss[i].Source), ref))
	}
	for _, c := range cands {
		if abs, err := filepath.Abs(c); err == nil {
			if j, ok := n.byPath[abs]; ok {
				return j
			}
		}
	}
	base := foreignBase(ref) // a path written on Windows too
	for _, k := range []string{ref, base, strings.TrimSuffix(base, filepath.Ext(base))} {
		if j := n.unique(k); j >= 0 {
			return j
		}
	}
	return -1
}

func fill(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = -1
	}
	return s
}

// projectAnchor is the id of a project's section in the index.
func projectAnchor(project string) string {
	sum := sha256.Sum256([]byte(project))
	return "p-" + hex.EncodeToString(sum[:6])
}

// href is the relative link from the page at `from` to the archive file
// `to` (both slash-separated, relative to the archive's root), with every
// path segment escaped: file names may hold '#', '?' or '%'.
func href(from, to string) string {
	fromDir := strings.Split(path.Dir(from), "/")
	if fromDir[0] == "." {
		fromDir = nil
	}
	segs := strings.Split(to, "/")
	common := 0
	for common < len(fromDir) && common < len(segs)-1 && fromDir[common] == segs[common] {
		common++
	}
	rest := segs[common:]
	for i, s := range rest {
		rest[i] = url.PathEscape(s)
	}
	return strings.Repeat("../", len(fromDir)-common) + strings.Join(rest, "/")
}

// nav is the breadcrumbs and related links of session i's page.
func nav(ss []Session, r *Relations, i int) *htmlpage.Nav {
	s := ss[i]
	linkText := func(j int, text string) htmlpage.Link {
		return htmlpage.Link{Href: href(s.Page, ss[j].Page), Text: text}
	}
	link := func(j int) htmlpage.Link { return linkText(j, ss[j].Title) }
	links := func(js []int) []htmlpage.Link {
		out := make([]htmlpage.Link, len(js))
		for k, j := range js {
			out[k] = link(j)
		}
		return out
	}
	n := &htmlpage.Nav{Trail: []htmlpage.Link{
		{Href: href(s.Page, "index.html"), Text: "Archive"},
		{Href: href(s.Page, "index.html") + "#" + projectAnchor(r.projectOf(ss, i)), Text: text.Or(r.projectOf(ss, i), "(no project)")},
	}}
	var up []htmlpage.Link
	for p := r.parent(i); p >= 0; p = r.parent(p) {
		up = append(up, link(p))
	}
	for k := len(up) - 1; k >= 0; k-- {
		n.Trail = append(n.Trail, up[k])
	}
	add := func(name string, ls []htmlpage.Link) {
		if len(ls) > 0 {
			n.Related = append(n.Related, htmlpage.Related{Name: name, Links: ls})
		}
	}
	if p := r.ForkOf[i]; p >= 0 {
		add("Forked from", links([]int{p}))
	} else if s.ParentSession != "" {
		add("Forked from", []htmlpage.Link{{Text: s.ParentSession + " (not in the archive)"}})
	}
	add("Forks", links(r.Forks[i]))
	if p := r.TaskOf[i]; p >= 0 {
		add("Task of", links([]int{p}))
	}
	tasks := links(r.Tasks[i])
	for _, u := range r.Unlinked[i] {
		tasks = append(tasks, htmlpage.Link{Text: u + " (not in the archive)"})
	}
	add("Child tasks", tasks)
	if p := r.TopicOf[i]; p >= 0 {
		add("Topic of", links([]int{p}))
	}
	add("Topics", links(r.Topics[i]))
	agentNav(ss, r, i, linkText, add)
	add("Earlier sessions", links(r.Earlier[i]))
	if j := r.Next[i]; j >= 0 {
		add("Next session", links([]int{j}))
	}
	if s.Rotation != nil {
		add("Rotated", []htmlpage.Link{{Text: rotationText(s.Rotation)}})
	}
	if s.Locked {
		add("Locked", []htmlpage.Link{{Text: lockedText}})
	}
	if g := s.Gateway; g != nil {
		add("Gateway key", []htmlpage.Link{{Text: keyText(g)}})
	}
	return n
}

// lockedText marks a transcript archived with its lock file beside it.
const lockedText = "a .lock file was beside it: archived as it stood (the gateway may have been writing it)"

// rotationText says what rotated a transcript, and when.
func rotationText(r *Rotation) string {
	at := ""
	if r.At != "" {
		at = " at " + shortTime(r.At) + " UTC"
	}
	switch r.Kind {
	case RotationReset:
		return "reset" + at + ": the transcript before a /reset, /new or daily reset"
	case RotationDeleted:
		return "deleted" + at + ": the transcript of a deleted session"
	}
	return "backup" + text.Prefixed(" made", at) + ": a copy the gateway kept aside"
}

// keyText names a transcript's gateway key (and topic).
func keyText(g *GatewayInfo) string {
	if g.Key == "" {
		return "not recorded: no entry of the store names session " + g.SessionID + " now"
	}
	return g.Key + text.Prefixed(" · topic ", g.Topic)
}

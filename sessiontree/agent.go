package sessiontree

import (
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// Agent is what a reader declares of the agent whose sessions it reads,
// beyond reading them (reader.agent): what its sessions are called, where
// the agent keeps them on disk, and how they are laid out there. The
// commands that look for sessions (internal/stores, archive, catalog,
// scan) ask it, never the format's name.
type Agent struct {
	// Formats are the Session.Format values of the sessions read.
	Formats []string
	// StateName is what its custom entries (TypeCustom) are, as people
	// read them; "" for an extension's state (StateName).
	StateName string
	// Dirs are where it keeps sessions below a home directory,
	// slash-separated, read-only: canopy never writes there.
	Dirs []string
	// Subagents: a session's subagents are in files of their own beside
	// it (SubagentFiles: agent-<id>.jsonl, SubagentFileID), which
	// LoadSubagents loads and the archive links to their session.
	Subagents bool
	// ProjectDirs: sessions are kept in a directory per project, named
	// after it (ProjectDir), which then stands for the project when the
	// session does not name it.
	ProjectDirs bool
	// EstimateCost: its messages record tokens and no cost, which Stats
	// estimates from package pricing; NoModelUnbilled: a message with no
	// model is one the agent made itself (an API error), never billed.
	EstimateCost, NoModelUnbilled bool
	// StoreFiles are the names of the databases it keeps its sessions
	// in, many to a file (store.go): canopy list and archive read a file
	// so named in its Dirs, or below a directory named.
	StoreFiles []string
	// FileTools are its tools, as its reader decodes them, that write
	// the file their path, file_path, notebook_path or filePath argument
	// names, beyond pi's write and edit (which readers decode the
	// agent's own writes and edits as, where they can): Session.Touched.
	FileTools []string
	// DirNamed: a session is a file of this name, and its id is the name
	// of the directory it is in (Kimi CLI's <session id>/wire.jsonl,
	// Cline's tasks/<id>/api_conversation_history.json): SessionID.
	DirNamed string
	// Document: its sessions are whole JSON documents (*.json), not
	// JSONL: a .json file met in a store is a session of it only when
	// one of these reads it.
	Document bool
	// ProjectStoreDir: it keeps a store in each project, in a directory
	// of this name inside the project's (Crush's <project>/.crush, which
	// holds crush.db): a walk looking for sessions enters such a
	// directory though its name is hidden, and a home's projects are
	// looked through for them (internal/stores).
	ProjectStoreDir string
	// ProjectFile: it keeps a session as a file of this name in each
	// project (Aider's <project>/.aider.chat.history.md): a home's
	// projects are looked through for it (internal/stores).
	ProjectFile string
	// SnapshotPrefix: it may keep a session twice in one directory, as
	// a transcript <id>.jsonl and a snapshot <prefix><id>.json of the
	// same messages (Hermes Agent's session_<id>.json): TranscriptOf.
	SnapshotPrefix string
}

// TranscriptOf is, for a file named as an agent names the snapshot of a
// session it also keeps as a transcript (Agent.SnapshotPrefix), the path
// of that transcript, which may or may not exist; "" for any other name.
// A session kept both ways is one session: canopy list and canopy
// archive read its transcript (it times each message) and pass over the
// snapshot when the transcript is there.
func TranscriptOf(path string) string {
	base := filepath.Base(path)
	for _, p := range snapshotPrefixes() {
		if id, ok := strings.CutPrefix(base, p); ok && id != ".json" && strings.HasSuffix(id, ".json") {
			return filepath.Join(filepath.Dir(path), strings.TrimSuffix(id, ".json")+".jsonl")
		}
	}
	return ""
}

// snapshotPrefixes are the readers' Agent.SnapshotPrefix, each once.
var snapshotPrefixes = declared(func(a Agent) string { return a.SnapshotPrefix })

// declared is what the readers' Agents give of one of their fields: each
// value but "" once, in the readers' order, gathered on the first call.
func declared(field func(Agent) string) func() []string {
	return sync.OnceValue(func() []string {
		var out []string
		for _, r := range readers() {
			if v := field(r.agent()); v != "" && !slices.Contains(out, v) {
				out = append(out, v)
			}
		}
		return out
	})
}

// AgentOf is what the reader of sessions of the format declares; the
// zero Agent for a format no reader reads.
func AgentOf(format string) Agent {
	return agentsByFormat()[format]
}

// agentsByFormat is what AgentOf answers, made once: it is asked for
// every entry a page sums on its own, and the readers' declarations do
// not change. The first reader of a format declares its agent.
var agentsByFormat = sync.OnceValue(func() map[string]Agent {
	m := map[string]Agent{}
	for _, r := range readers() {
		a := r.agent()
		for _, f := range a.Formats {
			if _, ok := m[f]; !ok {
				m[f] = a
			}
		}
	}
	return m
})

// StoreDirs are the agents' session stores below a home directory
// (Agent.Dirs), slash-separated, in the order of the readers.
func StoreDirs() []string {
	var out []string
	for _, r := range readers() {
		out = append(out, r.agent().Dirs...)
	}
	return out
}

// SubagentFileID is the id in a subagent transcript's name,
// agent-<id>.jsonl.
func SubagentFileID(path string) (string, bool) {
	id, ok := strings.CutPrefix(strings.TrimSuffix(filepath.Base(path), ".jsonl"), "agent-")
	return id, ok && id != "" && strings.HasSuffix(path, ".jsonl")
}

// ProjectDir is the name of the project directory a session's file is in,
// for an agent that keeps one per project (Agent.ProjectDirs): the
// file's directory, or for a subagent's transcript under
// <project>/<session>/subagents/, that <project>. Claude Code names it
// after the project's directory with every '/' (and '.') made '-', which
// cannot be told back apart: "-home-me-src-app".
func ProjectDir(path string) string {
	dir := filepath.Dir(path)
	if _, ok := SubagentFileID(path); !ok {
		return filepath.Base(dir)
	}
	for d := dir; ; {
		// <project>/<session>/subagents/…/agent-<id>.jsonl
		if filepath.Base(d) == "subagents" {
			return filepath.Base(filepath.Dir(filepath.Dir(d)))
		}
		up := filepath.Dir(d)
		if up == d {
			return filepath.Base(dir)
		}
		d = up
	}
}

// SessionID is the id of the session in the file at path, of the format,
// when its agent names sessions by their directory (Agent.DirNamed) and
// the file has the name the agent gives it; "" otherwise: the id is then
// what the session says, or its file's name.
func SessionID(format, path string) string {
	name := AgentOf(format).DirNamed
	if name == "" || filepath.Base(path) != name {
		return ""
	}
	if d := filepath.Base(filepath.Dir(path)); d != "." && d != string(filepath.Separator) {
		return d
	}
	return ""
}

// SnapshotTwins are the paths, of those found, of snapshots whose
// transcript was found too (TranscriptOf; a compressed transcript
// counts): the ones to pass over, so that a session kept both ways is
// listed and archived once.
func SnapshotTwins(found []string) map[string]bool {
	if len(snapshotPrefixes()) == 0 {
		return nil
	}
	transcripts := map[string]bool{}
	for _, p := range found {
		if n := TrimCompressedExt(p); strings.HasSuffix(n, ".jsonl") {
			transcripts[n] = true
		}
	}
	var twins map[string]bool
	for _, p := range found {
		if t := TranscriptOf(p); t != "" && transcripts[t] {
			if twins == nil {
				twins = map[string]bool{}
			}
			twins[p] = true
		}
	}
	return twins
}

// ProjectStoreDirs are the readers' Agent.ProjectStoreDir, each once.
var ProjectStoreDirs = declared(func(a Agent) string { return a.ProjectStoreDir })

// IsProjectStoreDir tells the name of a directory in which an agent keeps
// a project's store (Agent.ProjectStoreDir).
func IsProjectStoreDir(name string) bool { return slices.Contains(ProjectStoreDirs(), name) }

// ProjectFiles are the readers' Agent.ProjectFile, each once.
var ProjectFiles = declared(func(a Agent) string { return a.ProjectFile })

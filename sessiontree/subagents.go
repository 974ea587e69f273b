package sessiontree

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-json-experiment/json"
)

// Subagents in files of their own. Since version 2.0 Claude Code writes a
// subagent's conversation (the sidechain a Task or Agent call runs) into
// a file beside the session's:
//
//	<project>/<session>.jsonl                              the session
//	<project>/<session>/subagents/agent-<id>.jsonl         a subagent (2.1)
//	<project>/<session>/subagents/agent-<id>.meta.json     what ran it
//	<project>/<session>/subagents/workflows/<wf>/agent-... a workflow's steps
//	<project>/agent-<id>.jsonl                             a subagent (2.0)
//
// Every line of a subagent's file carries its agentId and the session's
// sessionId. What ties a subagent to the call that ran it, best first:
// the meta file's toolUseId (the call's id); the call's result, whose
// toolUseResult.agentId names the subagent; the prompt the call gave,
// which is the subagent's first message. A subagent that another one ran
// (meta parentAgentId) belongs to a call of that one's transcript.

// SubagentFile is a subagent's transcript found beside a session's.
type SubagentFile struct {
	AgentID  string // from the file's name: agent-<id>.jsonl
	Path     string
	MetaPath string // agent-<id>.meta.json beside it; "" when there is none
}

// SubagentFiles lists the subagent transcripts of the Claude Code session
// in the file at path, whose id (Session.Header.ID) is sessionID: the
// files under <session>/subagents/, and the agent-<id>.jsonl files beside
// the session whose first line names it (sessionId), as Claude Code 2.0
// wrote them. They are sorted by path. A session with none has none; an
// error is a directory that could not be read.
func SubagentFiles(path, sessionID string) ([]SubagentFile, error) {
	dir, base := filepath.Split(path)
	base = TrimCompressedExt(base) // a compressed session's subagents are beside it all the same
	stem := strings.TrimSuffix(base, filepath.Ext(base))
	var out []SubagentFile
	sub := filepath.Join(dir, stem, "subagents")
	err := filepath.WalkDir(sub, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == sub && errors.Is(err, fs.ErrNotExist) {
				return fs.SkipAll
			}
			return err
		}
		if f, ok := subagentFile(p, d); ok {
			out = append(out, f)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("subagents of %s: %w", path, err)
	}
	entries, err := os.ReadDir(filepath.Clean(dir + "."))
	if err != nil {
		return nil, fmt.Errorf("subagents of %s: %w", path, err)
	}
	for _, d := range entries {
		p := filepath.Join(dir, d.Name())
		if f, ok := subagentFile(p, d); ok && sessionID != "" && firstSessionID(p) == sessionID {
			out = append(out, f)
		}
	}
	slices.SortFunc(out, func(a, b SubagentFile) int { return strings.Compare(a.Path, b.Path) })
	return out, nil
}

// subagentFile tells whether p is a subagent's transcript, agent-<id>.jsonl.
func subagentFile(p string, d fs.DirEntry) (SubagentFile, bool) {
	name := d.Name()
	id, ok := strings.CutPrefix(strings.TrimSuffix(name, ".jsonl"), "agent-")
	if d.IsDir() || !ok || id == "" || !strings.HasSuffix(name, ".jsonl") {
		return SubagentFile{}, false
	}
	f := SubagentFile{AgentID: id, Path: p}
	meta := strings.TrimSuffix(p, ".jsonl") + ".meta.json"
	if st, err := os.Stat(meta); err == nil && st.Mode().IsRegular() {
		f.MetaPath = meta
	}
	return f, true
}

// maxHeadLine is how much of a file's first line firstSessionID reads.
const maxHeadLine = 256 << 10

// firstSessionID is the sessionId of the first line of the file, "" when
// it has none.
func firstSessionID(p string) string {
	f, err := os.Open(p)
	if err != nil {
		return ""
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, maxHeadLine)
	line, err := r.ReadSlice('\n')
	if err != nil && err != io.EOF || len(line) == 0 {
		return ""
	}
	var h struct {
		SessionID lstr `json:"sessionId"`
	}
	if json.Unmarshal(line, &h, jsonOpts) != nil {
		return ""
	}
	return string(h.SessionID)
}

// SubagentMeta is what a subagent's meta file, agent-<id>.meta.json
// beside its transcript, says of it.
type SubagentMeta struct {
	AgentType     string // "Explore"
	Description   string // the call's description
	ToolUseID     string // the call that ran it
	ParentAgentID string // the subagent that ran it, when one did
}

// maxMetaSize bounds the meta file read: Claude Code's are a few hundred
// bytes.
const maxMetaSize = 64 << 10

// ReadSubagentMeta reads a subagent's meta file leniently: a missing,
// oversized, malformed or not regular one says nothing, nor does a member
// of another type.
func ReadSubagentMeta(p string) SubagentMeta {
	var m struct {
		AgentType     lstr `json:"agentType"`
		Description   lstr `json:"description"`
		ToolUseID     lstr `json:"toolUseId"`
		ParentAgentID lstr `json:"parentAgentId"`
	}
	if p == "" {
		return SubagentMeta{}
	}
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxMetaSize {
		return SubagentMeta{}
	}
	b, err := os.ReadFile(p)
	if err != nil || json.Unmarshal(b, &m, jsonOpts) != nil {
		return SubagentMeta{}
	}
	return SubagentMeta{string(m.AgentType), string(m.Description), string(m.ToolUseID), string(m.ParentAgentID)}
}

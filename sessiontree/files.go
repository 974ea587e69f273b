package sessiontree

import (
	"slices"
	"strings"
)

// Touched lists the files the tools that ran among entries wrote, edited
// or patched, each once, in the order first touched. A call counts when
// its result is in the session and is not an error: a call that failed,
// or never answered, touched nothing anyone can tell.
//
// Which calls touch files is told from the call as the readers decode it,
// in pi's shapes (a Claude Code Write or Edit is pi's write or edit, a
// Codex apply_patch an edit with its patch): fileTargets. Only the
// messages that made calls are decoded, and only the results of calls
// that touch files.
func (s *Session) Touched(entries []*Entry, pairs *Pairs) []string {
	var files []string
	seen := map[string]bool{}
	extra := AgentOf(s.Format).FileTools
	for _, e := range entries {
		if e.Type != TypeMessage || e.Role != RoleAssistant || len(e.CallIDs) == 0 {
			continue
		}
		b, err := e.Decode()
		if err != nil || b.Message == nil {
			continue
		}
		for i := range b.Message.Content {
			blk := &b.Message.Content[i]
			if blk.Type != "toolCall" || !ownCall(e, blk.ID) {
				continue
			}
			if blk.Name != "write" && blk.Name != "edit" && !slices.Contains(extra, blk.Name) {
				continue
			}
			args, _ := DecodeArguments(blk.Arguments)
			targets := fileTargets(blk.Name, args, extra)
			if len(targets) == 0 || !ran(pairs.Result(e, blk.ID), blk.ID) {
				continue
			}
			for _, f := range targets {
				if f != "" && !seen[f] {
					seen[f] = true
					files = append(files, f)
				}
			}
		}
	}
	return files
}

// ownCall reports whether the call with id is e's own: a reply written
// over several lines holds its later lines' blocks too, whose calls their
// reader may keep on those lines (Codex's items).
func ownCall(e *Entry, id string) bool {
	for _, c := range e.CallIDs {
		if c == id {
			return true
		}
	}
	return false
}

// ran reports whether res holds a result of the call id that is not an
// error.
func ran(res *Entry, id string) bool {
	if res == nil {
		return false
	}
	b, err := res.Decode()
	if err != nil || b.Message == nil {
		return false
	}
	m := b.Message.ResultFor(id)
	return m != nil && !m.IsError
}

// FileTargets are the files a call of the tool name, with its arguments
// decoded (DecodeArguments), in a session of the format, writes, edits or
// patches (see Touched): for a writer that has the call and its result
// decoded already, and tells whether it ran.
func FileTargets(name string, args map[string]any, format string) []string {
	return fileTargets(name, args, AgentOf(format).FileTools)
}

// fileTargets are the files a call writes, edits or patches: pi's write
// and edit (and what readers decode as them) by their path, a patch by
// the files its headers name, and the tools a reader's Agent declares
// (FileTools) by their path.
func fileTargets(name string, args map[string]any, extra []string) []string {
	if name != "write" && name != "edit" && !slices.Contains(extra, name) {
		return nil
	}
	if patch, ok := args["patch"].(string); ok {
		return patchTargets(patch)
	}
	for _, k := range []string{"path", "file_path", "notebook_path", "filePath"} {
		if p, ok := args[k].(string); ok && strings.TrimSpace(p) != "" {
			return []string{strings.TrimSpace(p)}
		}
	}
	return nil
}

// patchTargets lists the files an apply_patch patch adds, updates,
// deletes or moves to.
func patchTargets(patch string) []string {
	var files []string
	for _, f := range patchOps(patch) {
		files = append(files, f)
	}
	return files
}

// patchOps yields each file header of an apply_patch patch: its operation
// ("Update File", "Add File", "Delete File", "Move to") and its file.
func patchOps(patch string) func(yield func(op, file string) bool) {
	return func(yield func(op, file string) bool) {
		for l := range strings.SplitSeq(patch, "\n") {
			rest, ok := strings.CutPrefix(l, "*** ")
			if !ok {
				continue
			}
			for _, op := range []string{"Update File", "Add File", "Delete File", "Move to"} {
				if f, ok := strings.CutPrefix(rest, op+": "); ok {
					if !yield(op, strings.TrimSpace(f)) {
						return
					}
				}
			}
		}
	}
}

package sessiongen

import "strings"

// The session events between turns: branching back, compaction, custom entries and
// messages, and the user's own shell commands.

// branchBack moves the leaf back to the end of an earlier turn, as /tree
// does, and usually records a summary of the abandoned branch. Like pi, the
// summary's parentId and fromId are both the entry navigated to.
func (g *gen) branchBack() bool {
	maxBack := min(8, len(g.turns)-1)
	k := 1
	for k < maxBack && g.chance(0.45) {
		k++
	}
	target := g.turns[len(g.turns)-1-k]
	g.turns = g.turns[:len(g.turns)-k]
	g.leaf, g.ctx = target.end, target.ctx
	if !g.chance(0.7) {
		return true
	}
	var sb strings.Builder
	sb.WriteString("## Goal\n")
	sb.WriteString(g.pick(summaryGoals))
	sb.WriteString("\n\n## Progress\n### Done\n")
	for _, b := range g.pickN(bulletPoints, g.between(1, 3)) {
		sb.WriteString("- [x] " + b + "\n")
	}
	sb.WriteString("\n## Key Decisions\n- **Abandoned**: " + g.fill(g.pick(thinkingSentences)) + "\n")
	details := g.fileDetails()
	writeFileTags(&sb, details)
	return g.emit("branch_summary", &branchSummaryEntry{FromID: target.end, Summary: sb.String(), Details: details}, g.between(3000, 25_000))
}

func (g *gen) compaction() bool {
	k := g.between(1, 3)
	first := g.turns[len(g.turns)-k].start
	var sb strings.Builder
	sb.WriteString("## Goal\n" + g.pick(summaryGoals) + "\n\n## Constraints & Preferences\n")
	for _, b := range g.pickN(requirementBullets, g.between(1, 3)) {
		sb.WriteString("- " + b + "\n")
	}
	sb.WriteString("\n## Progress\n### Done\n")
	items := g.pickN(bulletPoints, g.between(3, 6))
	for _, b := range items[:len(items)-1] {
		sb.WriteString("- [x] " + b + "\n")
	}
	sb.WriteString("\n### In Progress\n- [ ] " + items[len(items)-1] + "\n\n## Key Decisions\n")
	for _, t := range g.pickN(thinkingSentences, g.between(1, 3)) {
		sb.WriteString("- " + g.fill(t) + "\n")
	}
	sb.WriteString("\n## Next Steps\n1. " + g.pick(bulletPoints) + "\n2. " + g.pick(bulletPoints) + "\n\n## Critical Context\n- `" +
		g.curFile.path + "` is the file under change\n")
	details := g.fileDetails()
	writeFileTags(&sb, details)
	before := g.ctx
	ok := g.emit("compaction", &compactionEntry{Summary: sb.String(), FirstKeptEntryID: first, TokensBefore: before, Details: details}, g.between(8000, 40_000))
	g.ctx = g.between(6000, 20_000)
	g.compactAt = g.between(110_000, 170_000)
	g.readFiles, g.modFiles = g.readFiles[:0], g.modFiles[:0]
	return ok
}

func writeFileTags(sb *strings.Builder, d *fileDetails) {
	if len(d.ReadFiles) > 0 {
		sb.WriteString("\n<read-files>\n" + strings.Join(d.ReadFiles, "\n") + "\n</read-files>\n")
	}
	if len(d.ModifiedFiles) > 0 {
		sb.WriteString("\n<modified-files>\n" + strings.Join(d.ModifiedFiles, "\n") + "\n</modified-files>\n")
	}
}

func (g *gen) fileDetails() *fileDetails {
	return &fileDetails{ReadFiles: dedup(g.readFiles), ModifiedFiles: dedup(g.modFiles)}
}

func dedup(in []string) []string {
	out := []string{}
	for _, s := range in {
		seen := false
		for _, o := range out {
			if o == s {
				seen = true
				break
			}
		}
		if !seen {
			out = append(out, s)
		}
	}
	return out
}

func (g *gen) noteFile(list *[]string, path string) {
	*list = append(*list, path)
	if len(*list) > 12 {
		*list = (*list)[1:]
	}
}

func (g *gen) customEntry() bool {
	e := &customEntry{}
	if g.chance(0.5) {
		st := todoState{}
		for i, b := range g.pickN(bulletPoints, g.between(2, 5)) {
			st.Items = append(st.Items, todoItem{ID: i + 1, Text: b, Done: g.chance(0.5)})
		}
		e.CustomType, e.Data = "todo", st
	} else {
		e.CustomType = "git-checkpoint"
		e.Data = checkpointState{Ref: "refs/pi-checkpoints/" + g.leaf, EntryID: g.leaf, Dirty: g.chance(0.6)}
	}
	return g.emit("custom", e, g.between(50, 500))
}

func (g *gen) customMessage() bool {
	e := &customMessageEntry{}
	if g.chance(0.5) {
		e.CustomType = "git-status"
		e.Content = "**Working tree:** 2 files modified\n\n```\n M " + g.curFile.path + "\n M internal/api/handler_test.go\n```"
		e.Display = true
	} else {
		e.CustomType = "reminder"
		e.Content = []block{{Type: "text", Text: "Reminder: " + g.pick(requirementBullets) + "."}}
		e.Details = customDetails{Source: "extension"}
	}
	return g.emit("custom_message", e, g.between(100, 2000))
}

func (g *gen) bashExecution() bool {
	if g.code != nil {
		return g.codeBashExecution()
	}
	c := shellCmds[g.rng.IntN(len(shellCmds))]
	out := g.pick(c.output)
	m := &bashExecutionMessage{Role: "bashExecution", Command: c.cmd, Output: out}
	if g.chance(0.04) {
		m.Cancelled = true
	} else {
		code := 0
		m.ExitCode = &code
	}
	m.ExcludeFromContext = g.chance(0.15)
	return g.emitMessage(m, g.between(5000, 90_000))
}

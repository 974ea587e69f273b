package sessiongen

import (
	"sort"
	"strconv"
	"strings"
)

// Prompts, replies and the other tools of the code content mode.

// declStarts are how a declaration's line starts: a block of code quoted
// in a reply starts at one when one is near.
var declStarts = []string{"func ", "type ", "export ", "def ", "class ", "describe(", "## ", "jobs:", "@dataclass"}

// fenceOf is a fenced block of 10 to 60 lines of f, from a declaration on
// when one is near.
func (g *gen) fenceOf(f *projFile) string {
	n := g.between(10, 60)
	at := g.rng.IntN(max(1, len(f.lines)-n))
	for j := at; j < min(len(f.lines), at+30); j++ {
		if hasAnyPrefix(strings.TrimLeft(f.lines[j], " \t"), declStarts) {
			at = j
			break
		}
	}
	end := min(len(f.lines), at+n)
	code := strings.Join(f.lines[at:end], "\n")
	// Markdown holds fences of its own: a longer fence encloses them.
	mark := "```"
	if strings.Contains(code, "```") {
		mark = "````"
	}
	return mark + f.fence() + "\n" + code + "\n" + mark
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// codeUserPrompt is a prompt that may paste a failure or some code.
func (g *gen) codeUserPrompt() string {
	var sb strings.Builder
	p := g.pick(userPrompts)
	sb.WriteString(g.fill(p))
	if strings.HasSuffix(p, ":") || g.chance(0.2) {
		cmd, out, _ := g.codeBash()
		lines := strings.Split(out, "\n")
		if len(lines) > 25 {
			lines = lines[len(lines)-25:]
		}
		sb.WriteString("\n\n```\n$ " + cmd + "\n" + strings.Join(lines, "\n") + "\n```")
	}
	if g.chance(0.3) {
		sb.WriteString("\n\nRequirements:\n")
		for _, b := range g.pickN(requirementBullets, g.between(2, 4)) {
			sb.WriteString("- " + b + "\n")
		}
	}
	if g.chance(0.12) {
		sb.WriteString("\n\nFor reference, the current code:\n\n" + g.fenceOf(g.code.focus))
	}
	return strings.TrimRight(sb.String(), "\n")
}

// codeFinalText is a final reply: most carry fenced code (some several
// blocks) from the files at hand, a diff or commands.
func (g *gen) codeFinalText(intro string) string {
	var sb strings.Builder
	sb.WriteString(intro)
	if g.chance(0.5) {
		sb.WriteString("\n\n")
		for _, b := range g.pickN(bulletPoints, g.between(2, 5)) {
			sb.WriteString("- " + b + "\n")
		}
	}
	blocks := 0
	if g.chance(0.82) {
		blocks = 1
		if g.chance(0.25) {
			blocks = g.between(2, 3)
		}
	}
	for k := range blocks {
		lead, block := g.replyBlock()
		if k > 0 || g.chance(0.5) {
			writePara(&sb, lead)
		}
		writePara(&sb, block)
	}
	if g.chance(0.06) {
		writePara(&sb, "| File | Lines | Edits |\n|---|---:|---:|")
		for _, i := range g.code.task {
			f := g.code.proj.file(i)
			sb.WriteString("\n| `" + f.path + "` | " + strconv.Itoa(len(f.lines)) + " | " + strconv.Itoa(f.version) + " |")
		}
	}
	if g.chance(0.4) {
		writePara(&sb, g.pick(closings))
	}
	return strings.TrimRight(sb.String(), "\n")
}

// writePara starts a new paragraph with s.
func writePara(sb *strings.Builder, s string) {
	t := strings.TrimRight(sb.String(), "\n")
	sb.Reset()
	sb.WriteString(t + "\n\n" + s)
}

// replyBlock is one fenced block of a reply, with a sentence to lead it
// in: code of the task's files mostly, else a diff of the last edit or
// the commands to run.
func (g *gen) replyBlock() (lead, block string) {
	c := g.code
	switch r := g.rng.Float64(); {
	case r < 0.62:
		f := g.taskFile()
		return g.pick([]string{"The change in `", "Here's the relevant part of `", "And the test that covers it, in `"}) + f.path + "`:", g.fenceOf(f)
	case r < 0.76:
		f := c.proj.file(c.proj.weighted[g.rng.IntN(len(c.proj.weighted))])
		return "For comparison, `" + f.path + "`:", g.fenceOf(f)
	case r < 0.9 && len(c.hunks) > 0:
		h := c.hunks[len(c.hunks)-1]
		return "The diff:", "```diff\n--- a/" + h.file.path + "\n+++ b/" + h.file.path + "\n" + strings.TrimSuffix(h.text, "\n") + "\n```"
	}
	cmd, out, _ := g.codeBash()
	lines := strings.Split(out, "\n")
	return "To check:", "```bash\n$ " + cmd + "\n" + strings.Join(lines[:min(len(lines), g.between(3, 25))], "\n") + "\n```"
}

// codeBashExecution is a command the user ran with ! (a bashExecution
// message), with output as long as the agent's commands'.
func (g *gen) codeBashExecution() bool {
	cmd, out, isErr := g.codeBash()
	m := &bashExecutionMessage{Role: "bashExecution", Command: cmd, Output: out}
	if g.chance(0.04) {
		m.Cancelled = true
	} else {
		code := 0
		if isErr {
			code = 1
		}
		m.ExitCode = &code
	}
	m.Truncated = strings.HasPrefix(out, "[Showing lines")
	m.ExcludeFromContext = g.chance(0.15)
	return g.emitMessage(m, g.between(5000, 90_000))
}

// codeFind lists the project's files that match a pattern under a
// directory, as pi's find tool does.
func (g *gen) codeFind() toolRun {
	c := g.code
	pat := g.pick([]string{"*.go", "*_test.go", "*.ts", "*.tsx", "*.test.ts", "*.py", "*.json", "*.md", "*.yml"})
	dir := dirOf(c.focus.path)
	if g.chance(0.4) {
		dir = "."
	}
	suffix := strings.TrimPrefix(pat, "*")
	var out []string
	for _, f := range c.proj.files {
		if strings.HasSuffix(f.path, suffix) && (dir == "." || strings.HasPrefix(f.path, dir+"/")) {
			out = append(out, strings.TrimPrefix(f.path, dir+"/"))
		}
	}
	res := strings.Join(out, "\n")
	if res == "" {
		res = "No files found matching pattern"
	}
	return toolRun{call: g.call("find", &toolArgs{Pattern: pat, Path: dir}), result: res}
}

// codeLs lists a directory of the project, as pi's ls tool does.
func (g *gen) codeLs() toolRun {
	c := g.code
	dir := dirOf(c.focus.path)
	if g.chance(0.3) {
		dir = "."
	}
	seen := map[string]bool{}
	var out []string
	for _, f := range c.proj.files {
		rel := f.path
		if dir != "." {
			if !strings.HasPrefix(rel, dir+"/") {
				continue
			}
			rel = rel[len(dir)+1:]
		}
		if i := strings.IndexByte(rel, '/'); i >= 0 {
			rel = rel[:i+1]
		}
		if !seen[rel] {
			seen[rel] = true
			out = append(out, rel)
		}
	}
	sort.Strings(out)
	return toolRun{call: g.call("ls", &toolArgs{Path: dir}), result: strings.Join(out, "\n")}
}

package sessiongen

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// The tool calls of the full and small content modes, and what each returns (the code
// mode's are in code.go).

// toolRun is one tool call and its result.
type toolRun struct {
	call    block
	result  string
	details any
	isError bool
}

// toolRun picks a tool call, by the mix of real sessions, and makes its
// result.
func (g *gen) toolRun() toolRun {
	if g.code != nil {
		return g.codeToolRun()
	}
	r := g.rng.IntN(100)
	switch {
	case r < 28:
		return g.toolRead()
	case r < 54:
		return g.toolBash()
	case r < 76:
		return g.toolEdit()
	case r < 84:
		return g.toolGrep()
	case r < 89:
		return g.toolWrite()
	case r < 94:
		return g.toolFind()
	default:
		return g.toolLs()
	}
}

func (g *gen) call(name string, args *toolArgs) block {
	return block{Type: "toolCall", ID: g.toolCallID(), Name: name, Arguments: args}
}

func (g *gen) fileText(f srcFile) string {
	snips := codeFor(f.lang)
	if g.small {
		lines := strings.Split(g.pick(snips), "\n")
		return strings.Join(lines[:min(len(lines), 8)], "\n")
	}
	var sb strings.Builder
	sb.WriteString(fileHeaders[f.lang])
	for i, c := range g.pickN(snips, g.between(1, 3)) {
		if i > 0 {
			sb.WriteString("\n\n")
		}
		sb.WriteString(c)
	}
	return sb.String()
}

func (g *gen) toolRead() toolRun {
	f := g.curFile
	if g.chance(0.4) {
		f = g.pickFile()
	}
	args := &toolArgs{Path: f.path}
	text := g.fileText(f)
	if !g.small && g.chance(0.2) {
		args.Offset = g.between(1, 120)
		args.Limit = g.between(20, 200)
	}
	g.noteFile(&g.readFiles, f.path)
	if g.chance(0.02) {
		return toolRun{call: g.call("read", args), result: "ENOENT: no such file or directory, access '/home/dev/src/ledgerline/" + f.path + "'", isError: true}
	}
	return toolRun{call: g.call("read", args), result: text}
}

func (g *gen) toolWrite() toolRun {
	f := g.curFile
	content := g.fileText(f)
	g.noteFile(&g.modFiles, f.path)
	return toolRun{call: g.call("write", &toolArgs{Path: f.path, Content: content}),
		result: fmt.Sprintf("Successfully wrote %d bytes to %s", len(content), f.path)}
}

func (g *gen) toolEdit() toolRun {
	f := g.curFile
	lines := strings.Split(g.pick(codeFor(f.lang)), "\n")
	k := g.between(1, min(4, len(lines)))
	if g.small {
		k = 1
	}
	at := g.rng.IntN(len(lines) - k + 1)
	old := lines[at : at+k]
	repl := make([]string, 0, k+2)
	repl = append(repl, old...)
	i := g.rng.IntN(len(repl))
	repl[i] = mutateLine(repl[i], f.lang)
	if !g.small && g.chance(0.5) {
		indent := repl[i][:len(repl[i])-len(strings.TrimLeft(repl[i], " \t"))]
		repl = append(repl[:i+1], append([]string{indent + insertLine(f.lang)}, repl[i+1:]...)...)
	}
	oldText, newText := strings.Join(old, "\n"), strings.Join(repl, "\n")
	if g.chance(0.03) {
		return toolRun{call: g.call("edit", &toolArgs{Path: f.path, OldText: oldText, NewText: newText}), isError: true,
			result: "Could not find the exact text in " + f.path + ". The old text must match exactly including all whitespace and newlines."}
	}
	g.noteFile(&g.modFiles, f.path)

	base := g.between(1, 180) // line number of lines[0] in the file
	width := len(strconv.Itoa(base + len(lines) + len(repl)))
	var sb strings.Builder
	line := func(mark byte, n int, s string) {
		sb.WriteByte(mark)
		ns := strconv.Itoa(n)
		sb.WriteString(strings.Repeat(" ", width-len(ns)))
		sb.WriteString(ns)
		sb.WriteByte(' ')
		sb.WriteString(s)
		sb.WriteByte('\n')
	}
	// Only line at+i changed (and maybe one line was inserted after it):
	// context lines and removed lines carry old line numbers, added lines
	// new ones.
	changed := at + i
	for j := max(0, changed-4); j < changed; j++ {
		line(' ', base+j, lines[j])
	}
	line('-', base+changed, lines[changed])
	for j, s := range repl[i : len(repl)-(k-1-i)] {
		line('+', base+changed+j, s)
	}
	for j := changed + 1; j < min(len(lines), changed+5); j++ {
		line(' ', base+j, lines[j])
	}
	diff := strings.TrimSuffix(sb.String(), "\n")
	return toolRun{call: g.call("edit", &toolArgs{Path: f.path, OldText: oldText, NewText: newText}),
		result:  fmt.Sprintf("Successfully replaced text in %s.", f.path),
		details: editDetails{Diff: diff, FirstChangedLine: base + changed}}
}

func mutateLine(s, lang string) string {
	switch {
	case strings.Contains(s, "return"):
		return strings.Replace(s, "return", "return /* checked */", 1)
	case strings.Contains(s, "err"):
		return strings.Replace(s, "err", "lookupErr", 1)
	case strings.TrimSpace(s) == "":
		return s + commentFor(lang) + " keep"
	}
	return s + " " + commentFor(lang) + " updated"
}

func commentFor(lang string) string {
	switch lang {
	case "python", "bash", "yaml":
		return "#"
	case "markdown":
		return "<!-- -->"
	}
	return "//"
}

func insertLine(lang string) string {
	switch lang {
	case "go":
		return `if cursor > total { return Page{Items: []Invoice{}}, nil }`
	case "python":
		return `if dry_run: log.info("dry run, not writing")`
	case "ts":
		return `if (!page) return;`
	case "bash":
		return `echo "done"`
	case "yaml":
		return `timeout-minutes: 10`
	}
	return "See also the docs."
}

func (g *gen) toolBash() toolRun {
	c := shellCmds[g.rng.IntN(len(shellCmds))]
	args := &toolArgs{Command: c.cmd}
	if g.chance(0.1) {
		args.Timeout = 120
	}
	if c.fail > 0 && g.chance(c.fail) {
		return toolRun{call: g.call("bash", args), result: c.errOut + "\n\nCommand exited with code 1", isError: true}
	}
	out := g.pick(c.output)
	if out == "" {
		out = "(no output)"
	}
	return toolRun{call: g.call("bash", args), result: out}
}

func (g *gen) toolGrep() toolRun {
	pat := g.pick(grepPatterns)
	dir := g.pick(dirs)
	args := &toolArgs{Pattern: pat, Path: dir}
	if g.chance(0.2) {
		args.IgnoreCase = true
	}
	if g.chance(0.15) {
		args.Glob = "*.go"
	}
	n := g.between(0, 8)
	if g.small {
		n = min(n, 3)
	}
	if n == 0 {
		return toolRun{call: g.call("grep", args), result: "No matches found"}
	}
	var sb strings.Builder
	for i := range n {
		f := g.pickFile()
		lines := strings.Split(g.pick(codeFor(f.lang)), "\n")
		fmt.Fprintf(&sb, "%s:%d: %s", f.path, g.between(1, 300), strings.TrimSpace(lines[g.rng.IntN(len(lines))]))
		if i < n-1 {
			sb.WriteByte('\n')
		}
	}
	return toolRun{call: g.call("grep", args), result: sb.String()}
}

func (g *gen) toolFind() toolRun {
	pat := g.pick(findPatterns)
	dir := g.pick(dirs)
	suffix := strings.TrimPrefix(pat, "*")
	var out []string
	for _, f := range projectFiles {
		if strings.HasSuffix(f.path, suffix) && (dir == "." || strings.HasPrefix(f.path, dir+"/")) {
			rel := f.path
			if dir != "." {
				rel = strings.TrimPrefix(f.path, dir+"/")
			}
			out = append(out, rel)
		}
	}
	res := strings.Join(out, "\n")
	if res == "" {
		res = "No files found matching pattern"
	}
	return toolRun{call: g.call("find", &toolArgs{Pattern: pat, Path: dir}), result: res}
}

func (g *gen) toolLs() toolRun {
	dir := g.pick(dirs)
	var out []string
	seen := map[string]bool{}
	for _, f := range projectFiles {
		rel := f.path
		if dir != "." {
			if !strings.HasPrefix(f.path, dir+"/") {
				continue
			}
			rel = strings.TrimPrefix(f.path, dir+"/")
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
	res := strings.Join(out, "\n")
	if res == "" {
		res = "(empty directory)"
	}
	args := &toolArgs{Path: dir}
	return toolRun{call: g.call("ls", args), result: res}
}

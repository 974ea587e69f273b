package sessiongen

import (
	"fmt"
	"strconv"
	"strings"
)

// The code content mode: sessions the way real coding sessions are, where
// most of the bytes are source files read by path, long command output
// and diffs, and replies carry fenced code. Measured on real sessions,
// tool results are about half of a session's bytes, read results alone
// about 18% and bash output about 25%; Stats measures the same on the
// generated file.

// codeGen is the state of the code content mode: the project, the task the
// agent is on (a few related files it keeps coming back to, so most reads
// re-read a file) and the recent edits, which git diff shows.
type codeGen struct {
	proj     *project
	task     []int // file indices; task[0] is what the task is about
	taskLeft int   // turns before the next task
	focus    *projFile
	hunks    []hunk // recent edits, newest last
}

// hunk is one edit as git diff shows it.
type hunk struct {
	file *projFile
	text string // from its @@ line on
}

const maxHunks = 24

func newCodeGen(seed uint64) *codeGen {
	return &codeGen{proj: newProject(seed)}
}

// codeFocus starts a turn: it moves to a new task now and then, and picks
// the file this turn is about.
func (g *gen) codeFocus() {
	c := g.code
	if c.taskLeft <= 0 {
		g.newTask()
	}
	c.taskLeft--
	i := c.task[0]
	if g.chance(0.35) {
		i = c.task[g.rng.IntN(len(c.task))]
	}
	c.focus = c.proj.file(i)
	g.curFile = c.focus.srcFile
	g.curFunc = g.pick(funcNames)
	if len(c.focus.funcs) > 0 {
		g.curFunc = g.pick(c.focus.funcs)
	}
}

// newTask picks a file to work on and the files that go with it: its
// test, files beside it, and one or two from elsewhere.
func (g *gen) newTask() {
	c := g.code
	p := c.proj
	first := p.weighted[g.rng.IntN(len(p.weighted))]
	task := []int{first}
	dir := dirOf(p.files[first].path)
	var near []int
	for i, f := range p.files {
		if i != first && dirOf(f.path) == dir {
			near = append(near, i)
		}
	}
	for range min(len(near), g.between(1, 4)) {
		j := g.rng.IntN(len(near))
		task = append(task, near[j])
		near = append(near[:j], near[j+1:]...)
	}
	for range g.between(0, 2) {
		task = append(task, p.weighted[g.rng.IntN(len(p.weighted))])
	}
	c.task = task
	c.taskLeft = g.between(4, 20)
}

func dirOf(path string) string {
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		return path[:i]
	}
	return "."
}

// taskFile is a file of the task: the turn's file half the time.
func (g *gen) taskFile() *projFile {
	c := g.code
	switch r := g.rng.Float64(); {
	case r < 0.5:
		return c.focus
	case r < 0.88:
		return c.proj.file(c.task[g.rng.IntN(len(c.task))])
	}
	return c.proj.file(c.proj.weighted[g.rng.IntN(len(c.proj.weighted))])
}

// codeToolRun is one tool call and its result. The mix is that of real
// sessions: bash most often, then edits, then reads.
func (g *gen) codeToolRun() toolRun {
	r := g.rng.IntN(100)
	switch {
	case r < 16:
		return g.codeRead()
	case r < 61:
		cmd, out, isErr := g.codeBash()
		args := &toolArgs{Command: cmd}
		if g.chance(0.1) {
			args.Timeout = g.between(60, 600)
		}
		return toolRun{call: g.call("bash", args), result: out, isError: isErr}
	case r < 86:
		return g.codeEdit()
	case r < 91:
		return g.codeGrep()
	case r < 94:
		return g.codeWrite()
	case r < 97:
		return g.codeFind()
	default:
		return g.codeLs()
	}
}

// readLimit is the size past which pi's read tool cuts a file.
const readLimit = 50 << 10

// codeRead reads a file of the task, whole or a slice (offset and limit,
// 1-based, as pi's read tool takes them), with the tool's notes.
func (g *gen) codeRead() toolRun {
	f := g.taskFile()
	args := &toolArgs{Path: f.path}
	g.noteFile(&g.readFiles, f.path)
	if g.chance(0.015) {
		args.Path = strings.Replace(f.path, "/", "/src/", 1)
		return toolRun{call: g.call("read", args), isError: true,
			result: "ENOENT: no such file or directory, access '/home/dev/src/ledgerline/" + args.Path + "'"}
	}
	f.read = true
	n := len(f.lines)
	// Short files are read whole; long ones mostly a slice at a time.
	slice := 0.25
	if n > 200 {
		slice = 0.88
	}
	if n > 60 && g.chance(slice) {
		args.Offset = g.between(1, n-20)
		args.Limit = g.between(30, 160)
		end := min(n, args.Offset-1+args.Limit)
		text := strings.Join(f.lines[args.Offset-1:end], "\n")
		if end < n {
			text += fmt.Sprintf("\n\n[%d more lines in file. Use offset=%d to continue.]", n-end, end+1)
		}
		return toolRun{call: g.call("read", args), result: text}
	}
	text := f.content()
	if len(text) > readLimit {
		size, end := 0, 0
		for end < n && size+len(f.lines[end])+1 <= readLimit {
			size += len(f.lines[end]) + 1
			end++
		}
		text = text[:size] + fmt.Sprintf("\n[Showing lines 1-%d of %d (50.0KB limit). Use offset=%d to continue.]", end, n, end+1)
	}
	return toolRun{call: g.call("read", args), result: text}
}

// codeEdit changes a few lines of a task file, as pi's edit tool does:
// the call carries the old and new text, the result a diff with line
// numbers. The file keeps the change.
func (g *gen) codeEdit() toolRun {
	f := g.code.focus
	if g.chance(0.3) {
		f = g.taskFile()
	}
	e := change(g.rng, f)
	args := &toolArgs{Path: f.path, OldText: strings.Join(e.old, "\n"), NewText: strings.Join(e.new, "\n")}
	if g.chance(0.03) {
		return toolRun{call: g.call("edit", args), isError: true,
			result: "Could not find the exact text in " + f.path + ". The old text must match exactly including all whitespace and newlines."}
	}
	g.noteFile(&g.modFiles, f.path)
	e.apply()
	diff, first := piDiff(e)
	g.code.addHunk(f, unifiedHunk(e))
	return toolRun{call: g.call("edit", args),
		result:  "Successfully replaced text in " + f.path + ".",
		details: editDetails{Diff: diff, FirstChangedLine: first}}
}

// codeWrite writes a whole file of the task anew: the file as it is with
// a few changes.
func (g *gen) codeWrite() toolRun {
	f := g.taskFile()
	for range g.between(1, 3) {
		e := change(g.rng, f)
		e.apply()
		g.code.addHunk(f, unifiedHunk(e))
	}
	g.noteFile(&g.modFiles, f.path)
	content := f.content()
	return toolRun{call: g.call("write", &toolArgs{Path: f.path, Content: content}),
		result: fmt.Sprintf("Successfully wrote %d bytes to %s", len(content), f.path)}
}

func (c *codeGen) addHunk(f *projFile, text string) {
	c.hunks = append(c.hunks, hunk{file: f, text: text})
	if len(c.hunks) > maxHunks {
		c.hunks = c.hunks[len(c.hunks)-maxHunks:]
	}
}

// changedPart trims the lines an edit left as they were from both ends:
// the change is old[pre:len(old)-suf] becoming new[pre:len(new)-suf].
func changedPart(e edit) (pre, suf int) {
	for pre < len(e.old) && pre < len(e.new) && e.old[pre] == e.new[pre] {
		pre++
	}
	for suf < len(e.old)-pre && suf < len(e.new)-pre && e.old[len(e.old)-1-suf] == e.new[len(e.new)-1-suf] {
		suf++
	}
	return pre, suf
}

// piDiff is the diff pi's edit tool records in details.diff: changed
// lines with up to four lines of context, each with its line number.
// It also returns the first changed line (1-based).
func piDiff(e edit) (string, int) {
	pre, suf := changedPart(e)
	lines := e.file.lines // after the edit
	start := e.at + pre   // first changed line, 0-based
	oldMid, newMid := e.old[pre:len(e.old)-suf], e.new[pre:len(e.new)-suf]
	after := start + len(newMid)
	width := len(strconv.Itoa(len(lines) + len(oldMid)))
	var sb strings.Builder
	row := func(mark byte, n int, s string) {
		ns := strconv.Itoa(n)
		sb.WriteByte(mark)
		sb.WriteString(strings.Repeat(" ", width-len(ns)))
		sb.WriteString(ns)
		sb.WriteByte(' ')
		sb.WriteString(s)
		sb.WriteByte('\n')
	}
	for j := max(0, start-4); j < start; j++ {
		row(' ', j+1, lines[j])
	}
	for j, s := range oldMid {
		row('-', start+j+1, s)
	}
	for j, s := range newMid {
		row('+', start+j+1, s)
	}
	for j := after; j < min(len(lines), after+4); j++ {
		row(' ', j+1+len(oldMid)-len(newMid), lines[j])
	}
	return strings.TrimSuffix(sb.String(), "\n"), start + 1
}

// unifiedHunk is the edit as one hunk of a unified diff (three lines of
// context), the way git diff prints it.
func unifiedHunk(e edit) string {
	pre, suf := changedPart(e)
	lines := e.file.lines
	start := e.at + pre
	oldMid, newMid := e.old[pre:len(e.old)-suf], e.new[pre:len(e.new)-suf]
	from, to := max(0, start-3), min(len(lines), start+len(newMid)+3)
	before, after := start-from, to-start-len(newMid)
	var sb strings.Builder
	fmt.Fprintf(&sb, "@@ -%d,%d +%d,%d @@\n", from+1, before+len(oldMid)+after, from+1, before+len(newMid)+after)
	for _, s := range lines[from:start] {
		sb.WriteString(" " + s + "\n")
	}
	for _, s := range oldMid {
		sb.WriteString("-" + s + "\n")
	}
	for _, s := range newMid {
		sb.WriteString("+" + s + "\n")
	}
	for _, s := range lines[start+len(newMid) : to] {
		sb.WriteString(" " + s + "\n")
	}
	return sb.String()
}

// codeGrep searches the task's files and a few others for a name one of
// them declares, and lists the lines that hold it.
func (g *gen) codeGrep() toolRun {
	c := g.code
	pat := g.curFunc
	if g.chance(0.3) {
		pat = g.pick(idNouns)
	}
	args := &toolArgs{Pattern: pat, Path: dirOf(c.focus.path)}
	if g.chance(0.4) {
		args.Path = "."
	}
	files := append([]int(nil), c.task...)
	for range 6 {
		files = append(files, c.proj.weighted[g.rng.IntN(len(c.proj.weighted))])
	}
	var sb strings.Builder
	seen, matches := map[int]bool{}, 0
	for _, i := range files {
		f := c.proj.file(i)
		if seen[i] || (args.Path != "." && !strings.HasPrefix(f.path, args.Path+"/")) {
			continue
		}
		seen[i] = true
		for n, l := range f.lines {
			if matches < 100 && strings.Contains(l, pat) {
				fmt.Fprintf(&sb, "%s:%d: %s\n", f.path, n+1, strings.TrimSpace(l))
				matches++
			}
		}
	}
	if matches == 0 {
		return toolRun{call: g.call("grep", args), result: "No matches found"}
	}
	return toolRun{call: g.call("grep", args), result: strings.TrimSuffix(sb.String(), "\n")}
}

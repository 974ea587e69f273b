package sessiongen

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Command output about the project's files: git, files printed, listings, searches, crashes,
// logs and installs.

func (g *gen) hex(n int) string {
	var b strings.Builder
	for b.Len() < n {
		b.WriteString(fmt.Sprintf("%016x", g.rng.Uint64()))
	}
	return b.String()[:n]
}

// fileDiffHeader starts a file's part of a unified diff.
func (g *gen) fileDiffHeader(sb *strings.Builder, path string) {
	fmt.Fprintf(sb, "diff --git a/%s b/%s\nindex %s..%s 100644\n--- a/%s\n+++ b/%s\n", path, path, g.hex(7), g.hex(7), path, path)
}

// bashGitDiff shows the session's recent edits, file by file.
func (g *gen) bashGitDiff() (string, string) {
	c := g.code
	hs := c.hunks[max(0, len(c.hunks)-g.between(1, 12)):]
	cmd := "git diff"
	if g.chance(0.3) && len(hs) > 0 {
		path := hs[len(hs)-1].file.path
		cmd = "git diff -- " + path
		var only []hunk
		for _, h := range hs {
			if h.file.path == path {
				only = append(only, h)
			}
		}
		hs = only
	}
	var files []*projFile
	for _, h := range hs {
		if !slices.Contains(files, h.file) {
			files = append(files, h.file)
		}
	}
	var sb strings.Builder
	for _, f := range files {
		g.fileDiffHeader(&sb, f.path)
		for _, h := range hs {
			if h.file == f {
				sb.WriteString(h.text)
			}
		}
	}
	return cmd, strings.TrimSuffix(sb.String(), "\n")
}

// fakeHunk is a change to f that is not made: a past commit's.
func (g *gen) fakeHunk(f *projFile) string {
	e := change(g.rng, f)
	copyFile := &projFile{srcFile: f.srcFile, lines: f.lines}
	e.file = copyFile
	e.apply() // on the copy: apply makes a new slice
	return unifiedHunk(e)
}

var authors = []string{"Dana Reyes <dana@ledgerline.dev>", "Sam Okafor <sam@ledgerline.dev>", "Lea Brandt <lea@ledgerline.dev>", "Kenji Mori <kenji@ledgerline.dev>"}

var weekdays = []string{"Mon", "Tue", "Wed", "Thu", "Fri"}

// bashGitLog is git log -p or git show: commits with their diffs.
func (g *gen) bashGitLog() (string, string) {
	f := g.taskFile()
	n := g.between(1, 4)
	cmd := fmt.Sprintf("git log -p -n %d -- %s", n, f.path)
	if g.chance(0.3) {
		n, cmd = 1, "git show HEAD~"+strconv.Itoa(g.between(1, 9))
	}
	var sb strings.Builder
	for k := range n {
		fmt.Fprintf(&sb, "commit %s\nAuthor: %s\nDate:   %s Jan %d %02d:%02d:%02d 2026 +0100\n\n    %s: %s %s %ss\n",
			g.hex(40), g.pick(authors), g.pick(weekdays), 14-k, g.between(8, 19), g.between(0, 59), g.between(0, 59),
			f.srcFile.lang, g.pick(idVerbs), g.pick(idQualifiers), g.pick(idNouns))
		if g.chance(0.6) {
			sb.WriteString("\n    " + g.pick(docTails) + "\n")
		}
		sb.WriteByte('\n')
		g.fileDiffHeader(&sb, f.path)
		for range g.between(1, 4) {
			sb.WriteString(g.fakeHunk(f))
		}
		if k < n-1 {
			sb.WriteByte('\n')
		}
	}
	return cmd, strings.TrimSuffix(sb.String(), "\n")
}

// bashCat prints a file or part of it: cat, sed -n, head, nl.
func (g *gen) bashCat() (string, string) {
	f := g.taskFile()
	n := len(f.lines)
	switch r := g.rng.IntN(10); {
	case r < 1 || n < 80:
		return "cat " + f.path, strings.TrimSuffix(f.content(), "\n")
	case r < 7:
		a := g.between(1, max(1, n-10))
		b := min(n, a+g.between(20, 100))
		return fmt.Sprintf("sed -n '%d,%dp' %s", a, b, f.path), strings.Join(f.lines[a-1:b], "\n")
	case r < 9:
		k := min(n, g.between(30, 120))
		return fmt.Sprintf("head -n %d %s", k, f.path), strings.Join(f.lines[:k], "\n")
	}
	a := g.between(1, max(1, n-10))
	b := min(n, a+g.between(20, 80))
	var sb strings.Builder
	for j := a; j <= b; j++ {
		fmt.Fprintf(&sb, "%6d\t%s\n", j, f.lines[j-1])
	}
	return fmt.Sprintf("nl -ba %s | sed -n '%d,%dp'", f.path, a, b), strings.TrimSuffix(sb.String(), "\n")
}

// bashLsLa lists a directory of the project with sizes and dates.
func (g *gen) bashLsLa() (string, string) {
	c := g.code
	dir := dirOf(c.focus.path)
	if g.chance(0.3) {
		dir = "."
	}
	type ent struct {
		name  string
		size  int
		isDir bool
	}
	var ents []ent
	seen := map[string]bool{}
	for i, f := range c.proj.files {
		rel := f.path
		if dir != "." {
			if !strings.HasPrefix(f.path, dir+"/") {
				continue
			}
			rel = rel[len(dir)+1:]
		}
		if j := strings.IndexByte(rel, '/'); j >= 0 {
			if !seen[rel[:j]] {
				seen[rel[:j]] = true
				ents = append(ents, ent{name: rel[:j], size: 4096, isDir: true})
			}
			continue
		}
		ents = append(ents, ent{name: rel, size: len(c.proj.file(i).content())})
	}
	slices.SortFunc(ents, func(a, b ent) int { return strings.Compare(a.name, b.name) })
	var sb strings.Builder
	fmt.Fprintf(&sb, "total %d\ndrwxr-xr-x %2d dev dev  4096 Jan 15 09:12 .\ndrwxr-xr-x %2d dev dev  4096 Jan 14 17:40 ..\n", 8*len(ents), 2+len(seen), g.between(3, 14))
	for _, e := range ents {
		mode, links := "-rw-r--r--", 1
		if e.isDir {
			mode, links = "drwxr-xr-x", g.between(2, 6)
		} else if strings.HasSuffix(e.name, ".sh") {
			mode = "-rwxr-xr-x"
		}
		fmt.Fprintf(&sb, "%s %2d dev dev %5d Jan %2d %02d:%02d %s\n", mode, links, e.size, g.between(2, 15), g.between(8, 19), g.between(0, 59), e.name)
	}
	return "ls -la " + dir, strings.TrimSuffix(sb.String(), "\n")
}

// bashRg searches the project for a word, the way rg -n prints matches.
func (g *gen) bashRg() (string, string) {
	c := g.code
	pat := g.curFunc
	if g.chance(0.5) {
		pat = g.pick(idNouns) + pascalCase([]string{g.pick(idNouns)})
	}
	if g.chance(0.3) {
		pat = g.pick([]string{"TODO", "FIXME", "ctx.Done()", "useEffect", "errors.Is", "console.warn", "log.warning"})
	}
	var sb strings.Builder
	matches := 0
	for _, i := range g.someOf(c.filesOf(func(*projFile) bool { return true }), 24) {
		f := c.proj.file(i)
		for n, l := range f.lines {
			if matches < 200 && strings.Contains(l, pat) {
				fmt.Fprintf(&sb, "%s:%d:%s\n", f.path, n+1, l)
				matches++
			}
		}
	}
	return "rg -n '" + pat + "'", strings.TrimSuffix(sb.String(), "\n")
}

// bashShort is a command with a few lines of output.
func (g *gen) bashShort() (string, string) {
	c := g.code
	switch g.rng.IntN(6) {
	case 0:
		var sb strings.Builder
		var done []*projFile
		for _, h := range c.hunks {
			if !slices.Contains(done, h.file) {
				done = append(done, h.file)
				sb.WriteString(" M " + h.file.path + "\n")
			}
		}
		return "git status --short", strings.TrimSuffix(sb.String(), "\n")
	case 1:
		var sb strings.Builder
		for k := range g.between(5, 20) {
			fmt.Fprintf(&sb, "%s %s: %s %s %ss\n", g.hex(7), g.pick(idNouns), g.pick(idVerbs), g.pick(idQualifiers), g.pick(idNouns))
			_ = k
		}
		return "git log --oneline -20", strings.TrimSuffix(sb.String(), "\n")
	case 2:
		var sb strings.Builder
		total := 0
		for _, i := range c.task {
			f := c.proj.file(i)
			total += len(f.lines)
			fmt.Fprintf(&sb, "%6d %s\n", len(f.lines), f.path)
		}
		fmt.Fprintf(&sb, "%6d total", total)
		return "wc -l " + strings.Join(pathsOf(c, c.task), " "), sb.String()
	case 3:
		return "go version && node --version", "go version go1.26.0 linux/amd64\nv22.11.0"
	case 4:
		return "docker compose ps", "NAME              IMAGE              COMMAND                  SERVICE   STATUS                   PORTS\nledgerline-api-1  ledgerline:dev     \"/app/server\"            api       Up 3 minutes             0.0.0.0:8080->8080/tcp\nledgerline-db-1   postgres:16        \"docker-entrypoint.s…\"   db        Up 3 minutes (healthy)   0.0.0.0:5432->5432/tcp"
	}
	var sb strings.Builder
	added, removed := 0, 0
	for _, i := range c.task {
		a, r := g.between(0, 60), g.between(0, 30)
		added, removed = added+a, removed+r
		fmt.Fprintf(&sb, " %-44s | %3d %s%s\n", c.proj.files[i].path, a+r, strings.Repeat("+", min(a, 30)), strings.Repeat("-", min(r, 15)))
	}
	fmt.Fprintf(&sb, " %d files changed, %d insertions(+), %d deletions(-)", len(c.task), added, removed)
	return "git diff --stat", sb.String()
}

func pathsOf(c *codeGen, idx []int) []string {
	var out []string
	for _, i := range idx {
		out = append(out, c.proj.files[i].path)
	}
	return out
}

// bashCrash is a program that crashed: a Go panic with its goroutines, a
// Python traceback or a Node stack, citing the project's functions and
// lines.
func (g *gen) bashCrash() (string, string) {
	c := g.code
	var sb strings.Builder
	switch g.rng.IntN(3) {
	case 0:
		files := c.filesOf(func(f *projFile) bool { return f.lang == "go" && !strings.HasSuffix(f.path, "_test.go") })
		fmt.Fprintf(&sb, "panic: %s\n\n", g.pick([]string{"runtime error: invalid memory address or nil pointer dereference\n[signal SIGSEGV: segmentation violation code=0x1 addr=0x18 pc=0x7a3c2e]",
			"runtime error: index out of range [5] with length 5", "assignment to entry in nil map", "send on closed channel"}))
		for gr := range g.between(1, 6) {
			state := "running"
			if gr > 0 {
				state = g.pick([]string{"chan receive", "select", "IO wait", "semacquire", "sleep"})
			}
			fmt.Fprintf(&sb, "goroutine %d [%s]:\n", g.between(1, 400), state)
			for range g.between(4, 12) {
				f := c.proj.file(files[g.rng.IntN(len(files))])
				fn := "init"
				if len(f.funcs) > 0 {
					fn = g.pick(f.funcs)
				}
				fmt.Fprintf(&sb, "%s.%s(0xc%09x, {0x%x, 0xc%09x})\n\t/home/dev/src/ledgerline/%s:%d +0x%x\n",
					goPkg(f.path), fn, g.rng.Uint32(), g.rng.Uint32()&0xffffff, g.rng.Uint32(), f.path, g.between(1, len(f.lines)), g.between(16, 4000))
			}
			sb.WriteString("created by net/http.(*Server).Serve in goroutine 1\n\t/usr/local/go/src/net/http/server.go:3285 +0x4b4\n\n")
		}
		sb.WriteString("exit status 2")
		return "go run ./cmd/server", sb.String()
	case 1:
		files := c.filesOf(func(f *projFile) bool { return f.lang == "python" })
		sb.WriteString("Traceback (most recent call last):\n")
		for range g.between(3, 9) {
			f := c.proj.file(files[g.rng.IntN(len(files))])
			n := g.between(1, len(f.lines))
			fmt.Fprintf(&sb, "  File \"/home/dev/src/ledgerline/%s\", line %d, in %s\n    %s\n", f.path, n, g.pick(append(f.funcs, "<module>")), strings.TrimSpace(f.lines[n-1]))
		}
		fmt.Fprintf(&sb, "%s: '%s'", g.pick([]string{"KeyError", "ValueError", "psycopg.errors.UniqueViolation", "AttributeError"}), snakeCase(g.pickN(idNouns, 2)))
		return "python3 scripts/" + g.pick([]string{"backfill.py --since 2025-12-01", "reconcile.py --dry-run", "report.py --month 2025-12"}), sb.String()
	}
	files := c.filesOf(func(f *projFile) bool { return f.lang == "ts" })
	fmt.Fprintf(&sb, "TypeError: Cannot read properties of undefined (reading '%s')\n", camelCase(g.pickN(idNouns, 2)))
	for range g.between(5, 14) {
		f := c.proj.file(files[g.rng.IntN(len(files))])
		fn := "<anonymous>"
		if len(f.funcs) > 0 {
			fn = g.pick(f.funcs)
		}
		fmt.Fprintf(&sb, "    at %s (/home/dev/src/ledgerline/%s:%d:%d)\n", fn, f.path, g.between(1, len(f.lines)), g.between(1, 60))
	}
	sb.WriteString("    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)\n\nNode.js v22.11.0")
	return "cd web && npx tsx src/main.tsx", sb.String()
}

// bashLogs is a service's log (JSON lines from slog) or an API response.
func (g *gen) bashLogs() (string, string) {
	c := g.code
	var sb strings.Builder
	if g.chance(0.4) {
		files := c.filesOf(func(f *projFile) bool { return f.lang == "json" && strings.Contains(f.path, "fixtures") })
		f := c.proj.file(files[g.rng.IntN(len(files))])
		k := min(len(f.lines), g.between(30, 160))
		return "curl -s 'localhost:8080/api/" + g.pick(idNouns) + "s?limit=" + strconv.Itoa(g.between(5, 100)) + "' | jq .", strings.Join(f.lines[:k], "\n")
	}
	for range g.between(10, 50) {
		fmt.Fprintf(&sb, "api-1  | {\"time\":\"2026-01-15T09:%02d:%02d.%03dZ\",\"level\":\"%s\",\"msg\":\"%s\",\"method\":\"%s\",\"path\":\"/api/%ss/%d\",\"status\":%s,\"duration\":\"%d.%dms\",\"request_id\":\"%s\"}\n",
			g.between(0, 59), g.between(0, 59), g.between(0, 999), g.pick([]string{"INFO", "INFO", "INFO", "WARN", "ERROR", "DEBUG"}),
			g.pick(logWords), g.pick([]string{"GET", "GET", "POST", "PUT", "DELETE"}), g.pick(idNouns), g.between(1, 99999),
			g.pick([]string{"200", "200", "200", "201", "204", "400", "404", "500"}), g.between(0, 900), g.between(0, 9), g.hex(16))
	}
	return "docker compose logs --tail=" + strconv.Itoa(g.between(50, 200)) + " api", strings.TrimSuffix(sb.String(), "\n")
}

// bashInstall is a dependency install or an image build.
func (g *gen) bashInstall() (string, string) {
	var sb strings.Builder
	switch g.rng.IntN(3) {
	case 0:
		for range g.between(2, 8) {
			fmt.Fprintf(&sb, "npm warn deprecated %s-%s@%d.%d.%d: This package is no longer supported.\n", g.pick(idNouns), g.pick(idVerbs), g.between(0, 9), g.between(0, 20), g.between(0, 9))
		}
		fmt.Fprintf(&sb, "\nadded %d packages, and audited %d packages in %ds\n\n%d packages are looking for funding\n  run `npm fund` for details\n\nfound 0 vulnerabilities", g.between(300, 1200), g.between(300, 1200), g.between(4, 60), g.between(50, 200))
		return "cd web && npm ci", sb.String()
	case 1:
		for range g.between(10, 40) {
			fmt.Fprintf(&sb, "go: downloading github.com/%s/%s v%d.%d.%d\n", g.pick(idNouns), g.pick(idVerbs), g.between(0, 3), g.between(0, 40), g.between(0, 20))
		}
		return "go mod tidy", strings.TrimSuffix(sb.String(), "\n")
	}
	steps := g.between(8, 16)
	for k := 1; k <= steps; k++ {
		fmt.Fprintf(&sb, "#%d [%s %d/%d] %s\n#%d DONE %d.%ds\n", k+3, g.pick([]string{"build", "runtime"}), k, steps,
			g.pick([]string{"RUN go mod download", "COPY . .", "RUN CGO_ENABLED=0 go build -trimpath -o /out/server ./cmd/server", "RUN npm ci --prefix web", "COPY --from=build /out/server /app/server", "WORKDIR /src"}),
			k+3, g.between(0, 40), g.between(0, 9))
	}
	fmt.Fprintf(&sb, "#%d exporting to image\n#%d writing image sha256:%s done\n#%d naming to docker.io/library/ledgerline:dev done", steps+4, steps+4, g.hex(64), steps+4)
	return "docker build -t ledgerline:dev .", sb.String()
}

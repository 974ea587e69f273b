package sessiongen

import (
	"fmt"
	"strconv"
	"strings"
)

// Command output of the code content mode: test runs, build and lint logs,
// diffs, files printed, listings and stack traces, made from the project's
// files (the names, lines and line numbers they cite are theirs).

// codeBash is a command and its output; isErr when it failed.
func (g *gen) codeBash() (cmd, out string, isErr bool) {
	r := g.rng.IntN(100)
	switch {
	case r < 13:
		cmd, out, isErr = g.bashGoTest()
	case r < 21:
		cmd, out, isErr = g.bashVitest()
	case r < 25:
		cmd, out, isErr = g.bashPytest()
	case r < 36:
		cmd, out, isErr = g.bashLint()
	case r < 46:
		cmd, out = g.bashGitDiff()
	case r < 52:
		cmd, out = g.bashGitLog()
	case r < 64:
		cmd, out = g.bashCat()
	case r < 69:
		cmd, out = g.bashLsLa()
	case r < 75:
		cmd, out = g.bashRg()
	case r < 84:
		cmd, out = g.bashShort()
	case r < 89:
		cmd, out = g.bashCrash()
		isErr = true
	case r < 95:
		cmd, out = g.bashLogs()
	default:
		cmd, out = g.bashInstall()
	}
	out = truncTail(out)
	if out == "" {
		out = "(no output)"
	}
	if isErr {
		out += "\n\nCommand exited with code " + strconv.Itoa(g.between(1, 2))
	}
	return cmd, out, isErr
}

// truncTail keeps the end of a long output, as pi's bash tool does (the
// last 2,000 lines or 50 KB), with its note.
func truncTail(out string) string {
	n := strings.Count(out, "\n") + 1
	if n <= 2000 && len(out) <= readLimit {
		return out
	}
	cut, kept := len(out), 0
	for kept < 2000 {
		i := strings.LastIndexByte(out[:cut], '\n')
		if i < 0 || len(out)-i > readLimit {
			break
		}
		cut, kept = i, kept+1
	}
	return fmt.Sprintf("[Showing lines %d-%d of %d. Full output: /tmp/pi-bash-%08x.log]\n", n-kept+1, n, n, fnv64(out)&0xffffffff) + out[cut+1:]
}

// filesOf returns the indices of the project's files whose path passes keep.
func (c *codeGen) filesOf(keep func(*projFile) bool) []int {
	var out []int
	for i, f := range c.proj.files {
		if keep(f) {
			out = append(out, i)
		}
	}
	return out
}

// someOf picks up to k of list, in list order.
func (g *gen) someOf(list []int, k int) []int {
	var out []int
	for i, v := range list {
		if g.rng.IntN(len(list)-i) < k-len(out) {
			out = append(out, v)
		}
	}
	return out
}

func goPkg(path string) string { return "ledgerline/" + dirOf(path) }

func (g *gen) bashGoTest() (string, string, bool) {
	c := g.code
	tests := c.filesOf(func(f *projFile) bool { return strings.HasSuffix(f.path, "_test.go") })
	pkgs := g.someOf(tests, g.between(1, 5))
	verbose := g.chance(0.5)
	fail := g.chance(0.3)
	cmd := "go test ./..."
	switch {
	case verbose:
		pkgs = pkgs[:1]
		cmd = "go test -v ./" + dirOf(c.proj.files[pkgs[0]].path) + "/"
	case g.chance(0.3):
		cmd = "go test -race -count=1 ./..."
	default:
		pkgs = tests
	}
	var sb strings.Builder
	failed := -1
	if fail {
		failed = g.rng.IntN(len(pkgs))
	}
	for k, i := range pkgs {
		f := c.proj.file(i)
		if verbose || k == failed {
			g.goTestRun(&sb, f, verbose, k == failed)
		}
		if k == failed {
			fmt.Fprintf(&sb, "FAIL\nFAIL\t%s\t%d.%03ds\n", goPkg(f.path), g.between(0, 3), g.between(0, 999))
			continue
		}
		fmt.Fprintf(&sb, "ok  \t%s\t%d.%03ds", goPkg(f.path), g.between(0, 3), g.between(0, 999))
		if g.chance(0.2) {
			fmt.Fprintf(&sb, "\tcoverage: %d.%d%% of statements", g.between(40, 95), g.between(0, 9))
		}
		sb.WriteByte('\n')
	}
	if !verbose && !fail {
		sb.WriteString("?   \tledgerline/cmd/server\t[no test files]\n?   \tledgerline/cmd/migrate\t[no test files]\n")
	}
	if fail {
		sb.WriteString("FAIL\n")
	}
	return cmd, strings.TrimSuffix(sb.String(), "\n"), fail
}

// goTestRun writes go test -v's lines for the tests of a file; failing:
// one of them fails with messages citing its lines.
func (g *gen) goTestRun(sb *strings.Builder, f *projFile, verbose, failing bool) {
	base := f.path[strings.LastIndexByte(f.path, '/')+1:]
	failAt := -1
	if failing {
		failAt = g.rng.IntN(max(1, len(f.funcs)))
	}
	for k, name := range f.funcs {
		if !verbose && k != failAt {
			continue
		}
		subs := g.between(0, 6)
		if verbose {
			sb.WriteString("=== RUN   " + name + "\n")
			for range subs {
				fmt.Fprintf(sb, "=== RUN   %s/%s_%s\n", name, g.pick(idQualifiers), g.pick(idNouns))
			}
		}
		status := "PASS"
		if k == failAt {
			status = "FAIL"
			for range g.between(1, 4) {
				fmt.Fprintf(sb, "    %s:%d: %s(%q) = %s, want %s\n", base, g.between(10, len(f.lines)), strings.TrimPrefix(name, "Test"),
					g.pick(idQualifiers)+"_"+g.pick(idNouns), strconv.Itoa(g.between(0, 99999)), strconv.Itoa(g.between(0, 99999)))
			}
		}
		fmt.Fprintf(sb, "--- %s: %s (0.%02ds)\n", status, name, g.between(0, 40))
		if verbose {
			for range subs {
				fmt.Fprintf(sb, "    --- PASS: %s/%s_%s (0.00s)\n", name, g.pick(idQualifiers), g.pick(idNouns))
			}
		}
	}
	if verbose && failAt < 0 {
		sb.WriteString("PASS\n")
	}
}

// codeFrame is a few numbered lines of f around line n (1-based), with a
// caret under it, the way vitest and golangci-lint show where an error is.
func codeFrame(f *projFile, n, col int, gutter bool) string {
	var sb strings.Builder
	for j := max(1, n-2); j <= min(len(f.lines), n+2); j++ {
		l := strings.ReplaceAll(f.lines[j-1], "\t", "  ")
		if gutter {
			fmt.Fprintf(&sb, "    %3d| %s\n", j, l)
		} else if j == n {
			sb.WriteString("\t" + strings.TrimSpace(l) + "\n")
		}
		if j == n {
			if gutter {
				sb.WriteString("       | " + strings.Repeat(" ", col) + "^\n")
			} else {
				sb.WriteString("\t" + strings.Repeat(" ", col) + "^\n")
			}
		}
	}
	return sb.String()
}

func (g *gen) bashVitest() (string, string, bool) {
	c := g.code
	tests := c.filesOf(func(f *projFile) bool { return strings.Contains(f.path, ".test.") })
	verbose := g.chance(0.3)
	fail := g.chance(0.3)
	cmd := "cd web && npx vitest run"
	if verbose {
		cmd += " --reporter verbose"
	}
	var sb strings.Builder
	sb.WriteString("\n RUN  v1.6.0 /home/dev/src/ledgerline/web\n\n")
	failed := -1
	if fail {
		failed = tests[g.rng.IntN(len(tests))]
	}
	total := 0
	for _, i := range tests {
		f := c.proj.file(i)
		rel := strings.TrimPrefix(f.path, "web/")
		n := len(f.funcs) * g.between(2, 5)
		total += n
		mark := "✓"
		if i == failed {
			mark = "❯"
		}
		fmt.Fprintf(&sb, " %s %s (%d tests) %dms\n", mark, rel, n, g.between(4, 400))
		if verbose {
			for _, fn := range f.funcs {
				for range g.between(1, 3) {
					fmt.Fprintf(&sb, "   ✓ %s > %ss %s %ss %dms\n", fn, g.pick(idVerbs), g.pick(idQualifiers), g.pick(idNouns), g.between(0, 40))
				}
			}
		}
	}
	if fail {
		f := c.proj.file(failed)
		rel := strings.TrimPrefix(f.path, "web/")
		n := g.between(1, len(f.lines))
		want, got := g.pick(idQualifiers), g.pick(idQualifiers)
		fmt.Fprintf(&sb, "\n⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯\n\n FAIL  %s > %s > %ss %s\nAssertionError: expected '%s' to be '%s' // Object.is equality\n\n- Expected\n+ Received\n\n- %s\n+ %s\n\n ❯ %s:%d:%d\n",
			rel, g.pick(f.funcs), g.pick(idVerbs), g.pick(idNouns), got, want, want, got, rel, n, g.between(3, 30))
		sb.WriteString(codeFrame(f, n, g.between(2, 30), true))
		fmt.Fprintf(&sb, "\n Test Files  1 failed | %d passed (%d)\n      Tests  1 failed | %d passed (%d)\n", len(tests)-1, len(tests), total-1, total)
	} else {
		fmt.Fprintf(&sb, "\n Test Files  %d passed (%d)\n      Tests  %d passed (%d)\n", len(tests), len(tests), total, total)
	}
	fmt.Fprintf(&sb, "   Start at  %02d:%02d:%02d\n   Duration  %d.%02ds (transform %dms, setup %dms, collect %d.%02ds, tests %dms)",
		g.between(8, 19), g.between(0, 59), g.between(0, 59), g.between(1, 9), g.between(0, 99), g.between(100, 900),
		g.between(50, 600), g.between(0, 4), g.between(0, 99), g.between(100, 3000))
	return cmd, sb.String(), fail
}

func (g *gen) bashPytest() (string, string, bool) {
	c := g.code
	tests := c.filesOf(func(f *projFile) bool { return strings.Contains(f.path, "/test_") })
	fail := g.chance(0.3)
	var sb strings.Builder
	sb.WriteString("============================= test session starts ==============================\n")
	sb.WriteString("platform linux -- Python 3.12.3, pytest-8.2.0, pluggy-1.5.0\nrootdir: /home/dev/src/ledgerline\nconfigfile: pyproject.toml\n")
	total := 0
	for _, i := range tests {
		total += len(c.proj.file(i).funcs) * 3
	}
	fmt.Fprintf(&sb, "collected %d items\n\n", total)
	done := 0
	for _, i := range tests {
		f := c.proj.file(i)
		dots := strings.Repeat(".", len(f.funcs)*3)
		if fail && i == tests[0] && len(dots) > 1 {
			dots = dots[:1] + "F" + dots[2:]
		}
		// pytest wraps the dots at the terminal's width.
		for len(dots) > 0 {
			k := min(len(dots), 78-len(f.path))
			done += k
			fmt.Fprintf(&sb, "%s %s%*s [%3d%%]\n", f.path, dots[:k], 78-len(f.path)-k, "", 100*done/max(1, total))
			dots = dots[k:]
		}
	}
	if fail {
		f := c.proj.file(tests[0])
		n := g.between(1, len(f.lines))
		fmt.Fprintf(&sb, "\n=================================== FAILURES ===================================\n______________________________ test_%s ______________________________\n\n", snakeCase([]string{g.pick(idVerbs), g.pick(idNouns)}))
		for j := max(1, n-6); j < n; j++ {
			sb.WriteString("    " + f.lines[j-1] + "\n")
		}
		sb.WriteString(">   " + f.lines[n-1] + "\n")
		fmt.Fprintf(&sb, "E   AssertionError: assert %d == %d\nE    +  where %d = %s(%q)\n\n%s:%d: AssertionError\n",
			g.between(0, 9999), g.between(0, 9999), g.between(0, 9999), snakeCase(g.pickN(idNouns, 2)), g.pick(idQualifiers), f.path, n)
		fmt.Fprintf(&sb, "=========================== short test summary info ============================\nFAILED %s::test_%s - AssertionError\n", f.path, g.pick(idNouns))
		fmt.Fprintf(&sb, "========================= 1 failed, %d passed in %d.%02ds =========================", total-1, g.between(0, 9), g.between(0, 99))
	} else {
		fmt.Fprintf(&sb, "\n============================== %d passed in %d.%02ds ==============================", total, g.between(0, 9), g.between(0, 99))
	}
	return "python -m pytest " + g.pick([]string{"-q", "", "scripts tools", "-x"}), sb.String(), fail
}

// bashLint is a linter's or compiler's report: golangci-lint, go vet,
// eslint or tsc, each issue at a line of a real file.
func (g *gen) bashLint() (string, string, bool) {
	c := g.code
	clean := g.chance(0.3)
	switch g.rng.IntN(4) {
	case 0:
		if clean {
			return "golangci-lint run ./...", "0 issues.", false
		}
		return "golangci-lint run ./...", g.lintIssues(c.filesOf(func(f *projFile) bool { return f.lang == "go" }), "go"), true
	case 1:
		if clean {
			return "go vet ./...", "", false
		}
		return "go vet ./... && go build ./...", g.lintIssues(c.filesOf(func(f *projFile) bool { return f.lang == "go" }), "vet"), true
	case 2:
		if clean {
			return "cd web && npx eslint . --max-warnings 0", "", false
		}
		return "cd web && npx eslint . --max-warnings 0", g.lintIssues(c.filesOf(func(f *projFile) bool { return f.lang == "ts" }), "eslint"), true
	}
	if clean {
		return "cd web && npx tsc --noEmit", "", false
	}
	return "cd web && npx tsc --noEmit", g.lintIssues(c.filesOf(func(f *projFile) bool { return f.lang == "ts" }), "tsc"), true
}

var goLinters = []string{"errcheck", "govet", "staticcheck", "ineffassign", "unused", "gosec", "revive", "gocritic"}

var eslintRules = []string{"@typescript-eslint/no-unused-vars", "react-hooks/exhaustive-deps", "@typescript-eslint/no-explicit-any",
	"no-console", "prefer-const", "@typescript-eslint/no-floating-promises", "eqeqeq"}

func (g *gen) lintIssues(files []int, kind string) string {
	var sb strings.Builder
	n := g.between(2, 40)
	for _, i := range g.someOf(files, g.between(1, 6)) {
		f := g.code.proj.file(i)
		rel := strings.TrimPrefix(f.path, "web/")
		switch kind {
		case "eslint":
			sb.WriteString("\n/home/dev/src/ledgerline/" + f.path + "\n")
		case "vet":
			sb.WriteString("# " + goPkg(f.path) + "\n")
		}
		for range max(1, n/3) {
			ln := g.between(1, len(f.lines))
			col := g.between(1, 30)
			word := g.pick(idNouns) + pascalCase([]string{g.pick(idQualifiers)})
			switch kind {
			case "go":
				fmt.Fprintf(&sb, "%s:%d:%d: %s (%s)\n", f.path, ln, col, g.pick(goLintMessages), g.pick(goLinters))
				sb.WriteString(codeFrame(f, ln, col, false))
			case "vet":
				fmt.Fprintf(&sb, "%s:%d:%d: %s\n", f.path, ln, col, g.pick(goLintMessages))
			case "eslint":
				fmt.Fprintf(&sb, "  %d:%d  %s  '%s' %s  %s\n", ln, col, g.pick([]string{"error", "warning"}), word, g.pick(tsLintMessages), g.pick(eslintRules))
			default:
				fmt.Fprintf(&sb, "%s(%d,%d): error TS%d: Type '%s | undefined' is not assignable to type '%s'.\n", rel, ln, col, g.between(2300, 2800), g.pick(tsTypes), g.pick(tsTypes))
			}
		}
	}
	switch kind {
	case "go":
		fmt.Fprintf(&sb, "%d issues:\n* %s: %d\n* %s: %d", n, g.pick(goLinters), n/2, g.pick(goLinters), n-n/2)
	case "eslint":
		fmt.Fprintf(&sb, "\n✖ %d problems (%d errors, %d warnings)", n, n/3, n-n/3)
	case "tsc":
		fmt.Fprintf(&sb, "\nFound %d errors in %d files.", n, g.between(1, 6))
	}
	return strings.TrimSpace(sb.String())
}

var goLintMessages = []string{
	"Error return value is not checked",
	"ineffectual assignment to err",
	"exported function should have comment or be unexported",
	"this value of err is never used",
	"unnecessary conversion",
	"the cancel function returned by context.WithTimeout should be called, not discarded, to avoid a context leak",
	"declared and not used",
	"printf: fmt.Errorf format %w has arg of wrong type",
	"G104: Errors unhandled",
}

var tsLintMessages = []string{
	"is assigned a value but never used",
	"is defined but never used",
	"React Hook useEffect has a missing dependency",
	"Unexpected any. Specify a different type",
	"Promises must be awaited, end with a call to .catch, or be explicitly marked as ignored",
	"Expected '===' and instead saw '=='",
}

package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"runtime/pprof"
	"strings"

	"github.com/spf13/pflag"

	"canopy/export"
	"canopy/htmlpage"
	"canopy/internal/outpath"
	"canopy/mdpage"
	"canopy/sessiontree"
)

const exportSynopsis = "canopy export FILE [-o OUT.html | -o -] [--leaf ID [--path-only]] [--no-thinking] [--no-tool-output] [--no-hidden] [--no-source] [--no-subagents] [--keep-secrets] [--redact-report FILE] [--theme auto|light|dark] [--title TEXT]\n       canopy export --format markdown FILE [-o OUT.md | -o -] [--leaf ID] [--from ID] [--link URL] [--limit N] [sharing flags as above]\n       canopy export --format markdown --compare A B FILE [-o OUT.md | -o -] [--link URL] [--limit N] [sharing flags as above]"

// exportFlags are runExport's flags, and the job they describe.
type exportFlags struct {
	fs                  *pflag.FlagSet
	out, format, leafID *string
	fromID, link, theme *string
	compareA, compareB  *string // --compare A B (B is taken from the arguments: see takeCompare)
	title, reportPath   *string
	cpuProfile          *string
	limit               *int
	noSource, redact    *bool
	keepSecrets         *bool
	noSubagents         *bool
	maxInput            *byteSize
	job                 export.Job // the sharing flags are set in its Scope
	markdown            bool       // --format markdown (set by check)
}

// newExportFlags defines the flags of canopy export.
func newExportFlags() *exportFlags {
	fs := newFlags("export")
	f := &exportFlags{fs: fs}
	f.out = fs.StringP("output", "o", "", "write the page to `OUT.html` (- for standard output); default: the input's base name with .html (.md for Markdown), in the current directory")
	f.format = fs.String("format", "html", "`html` (one self-contained page) or markdown (the conversation on one path, for a bug report)")
	f.leafID = fs.String("leaf", "", "show the conversation that ends at this entry `id` (default: the session's leaf)")
	f.fromID = fs.String("from", "", "Markdown: start the conversation at this entry `id` (default: the root)")
	f.link = fs.String("link", "", "Markdown: add to each message a deep link into the session's page at `URL`")
	f.compareA = fs.String("compare", "", "Markdown: compare two branches, the path to entry `A` and the path to entry B (--compare A B): the fork, each side's figures, files and entries")
	f.compareB = new(string)
	f.limit = fs.Int("limit", 0, "Markdown: keep the result to at most `N` characters (65536 for a GitHub comment; 0: no limit), shortening tool output first, then leaving out the oldest turns")
	f.theme = fs.String("theme", "auto", "colour theme: auto (follow the system), light or dark")
	f.title = fs.String("title", "", "page title (default: the session name, else its id)")
	f.noSource = fs.Bool("no-source", false, "do not embed the session file for download")
	f.noSubagents = fs.Bool("no-subagents", false, "Claude Code: leave out the subagents' conversations (by default each is drawn under the call that ran it, from the files beside the session and from its own)")
	cut := &f.job.Scope
	fs.BoolVar(&cut.PathOnly, "path-only", false, "export only the path from the root to the leaf: no other branch is in the file at all")
	fs.BoolVar(&cut.NoThinking, "no-thinking", false, "leave out thinking blocks")
	fs.BoolVar(&cut.NoToolOutput, "no-tool-output", false, "leave out what tools returned (calls and their arguments stay)")
	fs.BoolVar(&cut.NoHidden, "no-hidden", false, "leave out custom messages the user never saw, and extensions' state")
	f.keepSecrets = fs.Bool("keep-secrets", false, "keep the credentials found in the session as they are (a page for yourself; a warning says how many); by default they are replaced with [REDACTED:kind#n] markers everywhere the export writes")
	f.redact = fs.Bool("redact", false, "replace credentials: the default (this flag is kept for scripts that name it)")
	f.reportPath = fs.String("redact-report", "", "also write the credentials found (kind, marker, line, entry) as JSON to `FILE`")
	f.maxInput = addMaxInput(fs)
	// For building canopy, not for its users: the profiles that
	// default.pgo is made of (cd bench && go run ./cmd/canopybench --pgo).
	f.cpuProfile = fs.String("cpuprofile", "", "write a CPU profile of the export to `FILE`")
	fs.MarkHidden("cpuprofile")
	return f
}

func runExport(e *env, args []string) int {
	f := newExportFlags()
	e.addSession(f.fs)
	args, b, msg := takeCompare(args)
	if msg != "" {
		fmt.Fprintf(e.stderr, "canopy export: %s\nUsage: %s\n", msg, exportSynopsis)
		return exitUsage
	}
	*f.compareB = b
	if st := parseOneFile(e, f.fs, exportSynopsis, args); st >= 0 {
		return st
	}
	if msg := f.check(); msg != "" {
		fmt.Fprintf(e.stderr, "canopy export: %s\n", msg)
		return exitUsage
	}
	in, st := e.sessionFile(f.fs.Arg(0))
	if st >= 0 {
		return st
	}
	dest := f.dest(in, e.session)
	// A page is data for a browser: on a terminal, the session's text
	// would reach it raw, escape sequences and all.
	if dest == "-" && !f.markdown && isTerminal(e.stdout) {
		fmt.Fprintln(e.stderr, "canopy export: standard output is a terminal: redirect it to a file (canopy export FILE -o - > page.html), or use --format markdown to read it here")
		return exitFail
	}
	if st := f.checkOutputs(e, in, dest); st >= 0 {
		return st
	}
	if *f.cpuProfile != "" {
		stop, err := startCPUProfile(*f.cpuProfile)
		if err != nil {
			printLine(e.stderr, "canopy: %v", err)
			return exitFail
		}
		defer stop()
	}
	j, err := f.jobFor(e, in, dest)
	if err == nil {
		err = export.Export(e.ctx, j)
	}
	if err != nil {
		return exportFailed(e, err, in, dest)
	}
	return exitOK
}

// check says what is wrong with the flags, if anything (a usage error),
// and notes the format asked for.
func (f *exportFlags) check() string {
	switch *f.theme {
	case "auto", "light", "dark":
	default:
		return fmt.Sprintf("--theme must be auto, light or dark, not %q", *f.theme)
	}
	if *f.redact && *f.keepSecrets {
		return "--redact and --keep-secrets ask for opposite things: pick one"
	}
	f.markdown = *f.format == "markdown" || *f.format == "md"
	if !f.markdown && *f.format != "html" {
		return fmt.Sprintf("--format must be html or markdown, not %q", *f.format)
	}
	if msg := formatFlags(f.fs, f.markdown); msg != "" {
		return msg
	}
	if msg := f.checkCompare(); msg != "" {
		return msg
	}
	if *f.limit < 0 {
		return "--limit must be a number of characters, or 0 for no limit"
	}
	if *f.link != "" {
		if err := mdpage.CheckLink(*f.link); err != nil {
			return fmt.Sprintf("--link: %v", err)
		}
	}
	if f.fs.Changed("output") && *f.out == "" {
		return "-o needs a file name (or - for standard output)"
	}
	if *f.reportPath == "-" {
		return "--redact-report needs a file name: standard output is not for reports"
	}
	return ""
}

// dest is where the output goes: -o, else the input's base name with the
// format's extension in the current directory ("-" for standard input).
func (f *exportFlags) dest(in, session string) string {
	switch {
	case *f.out != "":
		return *f.out
	case in == "-":
		return "-"
	}
	ext := ".html"
	if f.markdown {
		ext = ".md"
	}
	base := sessiontree.TrimCompressedExt(filepath.Base(in)) // old.jsonl.gz: old.html
	base = strings.TrimSuffix(base, filepath.Ext(base))
	if session != "" { // a database's: opencode-ses_1a2b.html
		base += "-" + fileSafe(session)
	}
	return base + ext
}

// checkOutputs checks every output before anything is read or written, so
// that a refused run leaves nothing behind. It returns the status to
// exit with, or -1 to go on.
func (f *exportFlags) checkOutputs(e *env, in, dest string) int {
	ours := outpath.Ours(outpath.PageHead)
	if f.markdown {
		ours = markdownHead
	}
	var outs []output
	if dest != "-" {
		outs = append(outs, output{dest, ours})
	}
	if *f.reportPath != "" {
		outs = append(outs, output{*f.reportPath, reportHead})
	}
	if err := checkOutputs([]string{in}, outs...); err != nil {
		printLine(e.stderr, "canopy export: %v", err)
		return exitFail
	}
	if *f.cpuProfile != "" {
		if err := checkOutputs(append([]string{in}, *f.reportPath, dest), output{*f.cpuProfile, gzipHead}); err != nil {
			printLine(e.stderr, "canopy export: CPU profile: %v", err)
			return exitFail
		}
	}
	return -1
}

// jobFor is the export the flags ask for.
func (f *exportFlags) jobFor(e *env, in, dest string) (export.Job, error) {
	j := f.job
	j.In = e.input(in, int64(*f.maxInput))
	j.Dest, j.Stdout, j.ReportPath = dest, e.stdout, *f.reportPath
	j.Notify = func(line string) { e.notify(line) }
	j.Page = htmlpage.Options{Theme: *f.theme, Title: *f.title, NoSource: *f.noSource, Version: version}
	if f.fs.Changed("leaf") {
		j.LeafID = f.leafID
	}
	if f.fs.Changed("from") {
		j.FromID = f.fromID
	}
	if f.fs.Changed("compare") {
		j.Compare = &[2]string{*f.compareA, *f.compareB}
	}
	if f.markdown {
		// Markdown is the conversation on one path: a subagent's shows
		// as its call's result, as the session's file has it.
		j.Markdown = &mdpage.Options{Link: *f.link, Limit: *f.limit, Version: version}
	} else {
		j.Subagents = !*f.noSubagents
	}
	// Safe by default: credentials are always looked for, and replaced
	// unless --keep-secrets (which is then warned of).
	j.FindSecrets, j.KeepSecrets = true, *f.keepSecrets
	if e.limitMemory {
		j.Loaded = func(s *sessiontree.Session, copy bool) { limitMemory(s.Size, copy, s.InMemory()) }
		j.Copying = func(size int64) { limitMemory(size, true, false) }
	}
	return j, nil
}

// formatFlags says which flag does not go with the chosen format, if any.
func formatFlags(fs *pflag.FlagSet, markdown bool) string {
	only := []string{"from", "link", "limit", "compare"} // Markdown's
	other := "--format markdown"
	if markdown {
		only, other = []string{"theme", "title", "no-source", "no-subagents"}, "HTML pages"
	}
	for _, f := range only {
		if fs.Changed(f) {
			return "--" + f + " goes with " + other
		}
	}
	return ""
}

// exportFailed reports a failed or interrupted export and gives the status
// to exit with.
func exportFailed(e *env, err error, in, dest string) int {
	var flagErr *export.FlagError
	switch {
	case errors.Is(err, export.ErrInterrupted):
		printLine(e.stderr, "canopy: %s", export.Interrupted(dest))
		return exitInterrupted
	case errors.As(err, &flagErr):
		printLine(e.stderr, "canopy export: %v", err)
	default:
		printLine(e.stderr, "canopy: %v%s", err, loadHint(in, err))
	}
	return exitFail
}

// startCPUProfile profiles the process into path until stop is called.
func startCPUProfile(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("CPU profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("CPU profile: %w", err)
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}

// limitMemory sets the garbage collector's soft memory limit for an export
// of an input of size bytes, unless GOMEMLIMIT is set: twice the input,
// less 16 MiB for what the limit does not count (the program's code, the
// kernel's accounting), and at least 64 MiB.
//
// Why: by default a collection starts when the heap is twice what was live
// after the last one. Exporting an 85 MB session keeps about 70 MB live
// (entries, tree rows, the compressed source), so the process reached
// 180 MB. With the limit, collections come sooner as the heap nears it.
// The reserve is what the process was measured to need beyond the limit
// there: 159 MB at most (1.88 times the input). A reserve of 32 MiB gave
// 142 MB, but the collector, with 16 MiB less room, took 10-12% more of
// the export's time. Where the live data alone is over the limit (a
// session of large pictures), the runtime caps the time the collector
// takes and the export still finishes, with more memory.
//
// copy: the page is made of a copy of the session held in memory (its
// credentials replaced, or cut down by the sharing flags), whose bytes
// are live on top of the rest: the limit grows by twice the input's size.
// An 85 MB session with credentials (gen-100k) took 3.4-4.0 CPU-s with
// the limit at twice the input or three times, the collector running all
// along; 2.3 at 300 MiB, 2.1 at 420 (RSS 314 and 387 MB).
//
// held: the session loaded is in memory (standard input, a decompressed
// file), its bytes live on top of the rest: the limit grows by the
// input's size. A 100 MB session gzipped took 4.5 CPU-s to export
// without (the file: 2.7), 2.8-3.0 with (RSS 290 MB), as did the same
// on standard input (4.7, then 2.9); growing it by twice the size took
// as long, with 380 MB.
//
// With a copy, under the limit, the collector runs once the heap has
// grown by gcPercent of what was live (GOGC): 200 rather than the
// default 100. The limit still bounds the heap, but the collector runs
// half as often below it. (Without a copy it is left at 100: set there,
// it gained nothing measurable and a 1 MB session's peak RSS went from
// 40 to 49 MB, under the 64 MiB floor.) It is set as soon as the scan
// finds credentials to replace
// (export.Job.Copying), before the redacted copy is loaded: on gen-100k,
// the collections while the copy loaded (the heap holding the file's
// bytes twice and the entries: 170 MB to mark) took 0.2-0.3 CPU-s; the
// export went from 2.27 to 1.88 CPU-s, 1.30 to 1.13 s (medians of 5
// alternating runs), its peak RSS 320 MB either way.
func limitMemory(size int64, copy, held bool) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	limit := 2*size - 16<<20
	switch {
	case copy:
		limit += 2 * size
	case held:
		limit += size
	}
	debug.SetMemoryLimit(max(limit, 64<<20))
	if copy && os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
}

// gcPercent is the collector's GOGC once the memory limit is set for a
// copy (limitMemory), unless GOGC is.
var gcPercent = 200

// fileSafe is a session's id as part of a file's name: letters, digits,
// '.', '-' and '_' kept, anything else '_' (an id is the database's
// text: a '/' in it must not name another directory), at most 64 bytes.
func fileSafe(id string) string {
	b := []byte(id[:min(len(id), 64)])
	for i, c := range b {
		ok := c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '_' || c == '.' && i > 0
		if !ok {
			b[i] = '_'
		}
	}
	return string(b)
}

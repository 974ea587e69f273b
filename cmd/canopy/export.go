package main

import (
	"bufio"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"runtime/pprof"
	"strings"

	"github.com/spf13/pflag"

	"canopy/internal/outpath"
	"canopy/mdexport"
	"canopy/render"
	"canopy/scope"
	"canopy/sessiontree"
)

const exportSynopsis = "canopy export FILE [-o OUT.html | -o -] [--leaf ID [--path-only]] [--no-thinking] [--no-tool-output] [--no-hidden] [--no-source] [--redact [--redact-report FILE]] [--theme auto|light|dark] [--title TEXT]\n       canopy export --format markdown FILE [-o OUT.md | -o -] [--leaf ID] [--from ID] [--link URL] [--limit N] [sharing flags as above]"

func runExport(e *env, args []string) int {
	fs := newFlags("export")
	out := fs.StringP("output", "o", "", "write the page to `OUT.html` (- for standard output); default: the input's base name with .html (.md for Markdown), in the current directory")
	format := fs.String("format", "html", "`html` (one self-contained page) or markdown (the conversation on one path, for a bug report)")
	leafID := fs.String("leaf", "", "show the conversation that ends at this entry `id` (default: the session's leaf)")
	fromID := fs.String("from", "", "Markdown: start the conversation at this entry `id` (default: the root)")
	link := fs.String("link", "", "Markdown: add to each message a deep link into the session's page at `URL`")
	limit := fs.Int("limit", 0, "Markdown: keep the result to at most `N` characters (65536 for a GitHub comment; 0: no limit), shortening tool output first, then leaving out the oldest turns")
	theme := fs.String("theme", "auto", "colour theme: auto (follow the system), light or dark")
	title := fs.String("title", "", "page title (default: the session name, else its id)")
	noSource := fs.Bool("no-source", false, "do not embed the session file for download")
	var cut scope.Options
	fs.BoolVar(&cut.PathOnly, "path-only", false, "export only the path from the root to the leaf: no other branch is in the file at all")
	fs.BoolVar(&cut.NoThinking, "no-thinking", false, "leave out thinking blocks")
	fs.BoolVar(&cut.NoToolOutput, "no-tool-output", false, "leave out what tools returned (calls and their arguments stay)")
	fs.BoolVar(&cut.NoHidden, "no-hidden", false, "leave out custom messages the user never saw, and extensions' state")
	doRedact := fs.Bool("redact", false, "replace credentials (API keys, tokens, passwords, private keys, ...) with [REDACTED:kind#n] markers, in the page and in the session it embeds; a summary goes to stderr")
	reportPath := fs.String("redact-report", "", "with --redact, also write the findings as JSON to `FILE`")
	maxInput := addMaxInput(fs)
	// For building canopy, not for its users: the profiles that
	// default.pgo is made of (go run ./cmd/canopybench --pgo).
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the export to `FILE`")
	fs.MarkHidden("cpuprofile")
	if st := parseFlags(e, fs, exportSynopsis, args); st >= 0 {
		return st
	}
	if fs.NArg() != 1 {
		fmt.Fprintf(e.stderr, "canopy export: want one FILE (or - for standard input)\nUsage: %s\n", exportSynopsis)
		return exitUsage
	}
	switch *theme {
	case "auto", "light", "dark":
	default:
		printLine(e.stderr, "canopy export: --theme must be auto, light or dark, not %q", *theme)
		return exitUsage
	}
	if *reportPath != "" && !*doRedact {
		fmt.Fprintln(e.stderr, "canopy export: --redact-report goes with --redact")
		return exitUsage
	}
	markdown := *format == "markdown" || *format == "md"
	if !markdown && *format != "html" {
		printLine(e.stderr, "canopy export: --format must be html or markdown, not %q", *format)
		return exitUsage
	}
	if msg := formatFlags(fs, markdown); msg != "" {
		fmt.Fprintf(e.stderr, "canopy export: %s\n", msg)
		return exitUsage
	}
	if *limit < 0 {
		fmt.Fprintln(e.stderr, "canopy export: --limit must be a number of characters, or 0 for no limit")
		return exitUsage
	}
	if *link != "" {
		if err := mdexport.CheckLink(*link); err != nil {
			printLine(e.stderr, "canopy export: --link: %v", err)
			return exitUsage
		}
	}
	if fs.Changed("output") && *out == "" {
		fmt.Fprintln(e.stderr, "canopy export: -o needs a file name (or - for standard output)")
		return exitUsage
	}
	if *reportPath == "-" {
		fmt.Fprintln(e.stderr, "canopy export: --redact-report needs a file name: standard output is not for reports")
		return exitUsage
	}
	in := fs.Arg(0)
	ext, ours := ".html", outpath.Ours(outpath.PageHead)
	if markdown {
		ext, ours = ".md", markdownHead
	}
	dest := *out
	if dest == "" {
		if in == "-" {
			dest = "-"
		} else {
			base := filepath.Base(in)
			dest = strings.TrimSuffix(base, filepath.Ext(base)) + ext
		}
	}
	// A page is data for a browser: on a terminal, the session's text
	// would reach it raw, escape sequences and all.
	if dest == "-" && !markdown && isTerminal(e.stdout) {
		fmt.Fprintln(e.stderr, "canopy export: standard output is a terminal: redirect it to a file (canopy export FILE -o - > page.html), or use --format markdown to read it here")
		return exitFail
	}
	// Every output is checked before anything is read or written, so
	// that a refused run leaves nothing behind.
	var outs []output
	if dest != "-" {
		outs = append(outs, output{dest, ours})
	}
	if *reportPath != "" {
		outs = append(outs, output{*reportPath, reportHead})
	}
	if err := checkOutputs([]string{in}, outs...); err != nil {
		printLine(e.stderr, "canopy export: %v", err)
		return exitFail
	}
	if *cpuProfile != "" {
		if err := checkOutputs(append([]string{in}, *reportPath, dest), output{*cpuProfile, gzipHead}); err != nil {
			printLine(e.stderr, "canopy export: CPU profile: %v", err)
			return exitFail
		}
	}
	if *cpuProfile != "" {
		stop, err := startCPUProfile(*cpuProfile)
		if err != nil {
			printLine(e.stderr, "canopy: %v", err)
			return exitFail
		}
		defer stop()
	}
	// The renderer is made while the session loads: it minifies the
	// page's stylesheet, script and templates, 10-20 ms that were a tenth
	// of the export of a 2 MB session.
	type made struct {
		r   *render.Renderer
		err error
	}
	renderer := make(chan made, 1)
	go func() {
		r, err := render.New()
		renderer <- made{r, err}
	}()
	s, err := loadSession(e, in, int64(*maxInput))
	if err != nil {
		printLine(e.stderr, "canopy: %v", err)
		return exitFail
	}
	defer s.Close()
	if e.limitMemory {
		limitMemory(s.Size)
	}
	printDiagnostics(e.stderr, s)
	opts := render.Options{Theme: *theme, Title: *title, NoSource: *noSource, Version: version}
	leaf := s.Leaf
	if fs.Changed("leaf") {
		if leaf = s.Entry(*leafID); leaf == nil {
			printLine(e.stderr, "canopy: %s: --leaf: no entry with id %q", s.File, *leafID)
			return exitFail
		}
	}
	if fs.Changed("from") {
		from := s.Entry(*fromID)
		if from == nil {
			printLine(e.stderr, "canopy: %s: --from: no entry with id %q", s.File, *fromID)
			return exitFail
		}
		if msg := offPath(s, from, leaf); msg != "" {
			printLine(e.stderr, "canopy export: %s", msg)
			return exitFail
		}
	}
	if s, leaf, err = cutDown(s, leaf, cut, &opts); err != nil {
		printLine(e.stderr, "canopy: %s: %v", in, err)
		return exitFail
	}
	if *doRedact {
		red, rep, err := redactSession(s)
		if err != nil {
			printLine(e.stderr, "canopy: %s: %v", in, err)
			return exitFail
		}
		printRedactionSummary(e.stderr, rep, "redacted")
		if *reportPath != "" {
			if err := writeReport(e.ctx, *reportPath, rep); err != nil {
				return failWrite(e, err)
			}
		}
		if leaf != nil && red.Entry(leaf.ID) != nil {
			leaf = red.Entry(leaf.ID)
		} else {
			leaf = red.Leaf
		}
		s = red
		opts.Omitted = append(opts.Omitted, fmt.Sprintf("secrets: %d replaced by [REDACTED:kind#n] markers, here and in the session file the page embeds", total(rep.Kinds)))
	}
	opts.Leaf = leaf
	if markdown {
		mo := mdexport.Options{Leaf: leaf, Link: *link, Limit: *limit, Version: version,
			OriginalSHA256: opts.OriginalSHA256, Omitted: opts.Omitted}
		if fs.Changed("from") {
			// The entry is on the path (checked above), and the sharing
			// flags keep the path; a hidden entry --no-hidden leaves out
			// is not there any more.
			if mo.From = s.Entry(*fromID); mo.From == nil {
				printLine(e.stderr, "canopy export: --from %q: the sharing flags left that entry out; pick one after it", *fromID)
				return exitFail
			}
		}
		return writeMarkdown(e, s, mo, in, dest)
	}
	m := <-renderer
	if m.err != nil {
		printLine(e.stderr, "canopy: %v", m.err)
		return exitFail
	}
	r := m.r
	if dest == "-" {
		w := bufio.NewWriterSize(&ctxWriter{e.ctx, e.stdout}, 1<<20)
		if err := r.Render(w, s, opts); err != nil {
			if errors.Is(err, errInterrupted) {
				return failWrite(e, err)
			}
			printLine(e.stderr, "canopy: %s: %v", in, err)
			return exitFail
		}
		if err := w.Flush(); err != nil {
			printLine(e.stderr, "canopy: writing standard output: %v", err)
			return exitFail
		}
		return exitOK
	}
	if err := writeAtomic(e.ctx, dest, func(f io.Writer) error {
		w := bufio.NewWriterSize(f, 1<<20)
		if err := r.Render(w, s, opts); err != nil {
			return err
		}
		return w.Flush()
	}); err != nil {
		return failWrite(e, err)
	}
	printLine(e.stderr, "wrote %s", dest)
	return exitOK
}

// writeMarkdown writes the Markdown export to dest ("-": standard
// output), as runExport writes a page.
func writeMarkdown(e *env, s *sessiontree.Session, mo mdexport.Options, in, dest string) int {
	write := func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 1<<16)
		if err := mdexport.Write(bw, s, mo); err != nil {
			return err
		}
		return bw.Flush()
	}
	var err error
	if dest == "-" {
		err = write(&ctxWriter{e.ctx, e.stdout})
	} else {
		err = writeAtomic(e.ctx, dest, func(w io.Writer) error { return write(w) })
	}
	var tooSmall *mdexport.LimitError
	var notOnPath *mdexport.PathError
	switch {
	case errors.Is(err, errInterrupted):
		return failWrite(e, err)
	case errors.As(err, &tooSmall):
		printLine(e.stderr, "canopy export: --limit %d is too small: the header and the last entry with its prompt, cut as short as they go, need %d characters",
			tooSmall.Limit, tooSmall.Need)
		return exitFail
	case errors.As(err, &notOnPath):
		printLine(e.stderr, "canopy export: %s", offPathMessage(notOnPath.From, notOnPath.Leaf))
		return exitFail
	case err != nil:
		printLine(e.stderr, "canopy: %s: %v", in, err)
		return exitFail
	}
	if dest != "-" {
		printLine(e.stderr, "wrote %s", dest)
	}
	return exitOK
}

// offPath says what is wrong when --from is not on the path to the leaf
// ("" when it is).
func offPath(s *sessiontree.Session, from, leaf *sessiontree.Entry) string {
	for _, e := range s.Path(leaf) {
		if e == from {
			return ""
		}
	}
	leafID := ""
	if leaf != nil {
		leafID = leaf.ID
	}
	return offPathMessage(from.ID, leafID)
}

func offPathMessage(from, leaf string) string {
	return fmt.Sprintf("--from %q is not on the path to the leaf %q: pick an entry above it, or a --leaf below it", from, leaf)
}

// formatFlags says which flag does not go with the chosen format, if any.
func formatFlags(fs *pflag.FlagSet, markdown bool) string {
	only := []string{"from", "link", "limit"} // Markdown's
	other := "--format markdown"
	if markdown {
		only, other = []string{"theme", "title", "no-source"}, "HTML pages"
	}
	for _, f := range only {
		if fs.Changed(f) {
			return "--" + f + " goes with " + other
		}
	}
	return ""
}

// failWrite reports a failed or interrupted write and gives the status to
// exit with.
func failWrite(e *env, err error) int {
	if errors.Is(err, errInterrupted) {
		fmt.Fprintln(e.stderr, "canopy: interrupted; nothing written")
		return exitInterrupted
	}
	printLine(e.stderr, "canopy: %v", err)
	return exitFail
}

// cutDown applies the export scope: the page is made from a new session
// file holding only what is shared, which is also what readers download.
func cutDown(s *sessiontree.Session, leaf *sessiontree.Entry, cut scope.Options, opts *render.Options) (*sessiontree.Session, *sessiontree.Entry, error) {
	opts.OriginalSHA256 = hex.EncodeToString(s.SHA256[:])
	if !cut.Active() {
		return s, leaf, nil
	}
	data, summary, err := scope.Apply(s, leaf, cut)
	if err != nil {
		return nil, nil, err
	}
	cutS, err := sessiontree.Load(data, s.File)
	if err != nil {
		return nil, nil, err
	}
	opts.Omitted = append(opts.Omitted, summary.Omitted...)
	newLeaf := cutS.Leaf
	if leaf != nil && cutS.Entry(leaf.ID) != nil {
		newLeaf = cutS.Entry(leaf.ID)
	}
	return cutS, newLeaf, nil
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
func limitMemory(size int64) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetMemoryLimit(max(2*size-16<<20, 64<<20))
}

package main

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"runtime/pprof"
	"strings"

	"canopy/render"
	"canopy/scope"
	"canopy/sessiontree"
)

const exportSynopsis = "canopy export FILE [-o OUT.html | -o -] [--leaf ID [--path-only]] [--no-thinking] [--no-tool-output] [--no-hidden] [--no-source] [--redact [--redact-report FILE]] [--theme auto|light|dark] [--title TEXT]"

func runExport(e *env, args []string) int {
	fs := newFlags("export")
	out := fs.StringP("output", "o", "", "write the page to `OUT.html` (- for standard output); default: the input's base name with .html, in the current directory")
	leafID := fs.String("leaf", "", "show the conversation that ends at this entry `id` (default: the session's leaf)")
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
	// For building canopy, not for its users: the profiles that
	// default.pgo is made of (go run ./cmd/canopybench --pgo).
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the export to `FILE`")
	fs.MarkHidden("cpuprofile")
	if st := parseFlags(e, fs, exportSynopsis, args); st >= 0 {
		return st
	}
	if *cpuProfile != "" {
		stop, err := startCPUProfile(*cpuProfile)
		if err != nil {
			fmt.Fprintf(e.stderr, "canopy: %v\n", err)
			return exitFail
		}
		defer stop()
	}
	if fs.NArg() != 1 {
		fmt.Fprintf(e.stderr, "canopy export: want one FILE (or - for standard input)\nUsage: %s\n", exportSynopsis)
		return exitUsage
	}
	switch *theme {
	case "auto", "light", "dark":
	default:
		fmt.Fprintf(e.stderr, "canopy export: --theme must be auto, light or dark, not %q\n", *theme)
		return exitUsage
	}
	in := fs.Arg(0)
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
	s, err := loadSession(e, in)
	if err != nil {
		fmt.Fprintf(e.stderr, "canopy: %v\n", err)
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
			fmt.Fprintf(e.stderr, "canopy: %s: no entry with id %q\n", s.File, *leafID)
			return exitFail
		}
	}
	if *reportPath != "" && !*doRedact {
		fmt.Fprintln(e.stderr, "canopy export: --redact-report goes with --redact")
		return exitUsage
	}
	if s, leaf, err = cutDown(s, leaf, cut, &opts); err != nil {
		fmt.Fprintf(e.stderr, "canopy: %s: %v\n", in, err)
		return exitFail
	}
	if *doRedact {
		red, rep, err := redactSession(s)
		if err != nil {
			fmt.Fprintf(e.stderr, "canopy: %s: %v\n", in, err)
			return exitFail
		}
		printRedactionSummary(e.stderr, rep, "redacted")
		if *reportPath != "" {
			if err := writeReport(*reportPath, rep); err != nil {
				fmt.Fprintf(e.stderr, "canopy: %v\n", err)
				return exitFail
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
	m := <-renderer
	if m.err != nil {
		fmt.Fprintf(e.stderr, "canopy: %v\n", m.err)
		return exitFail
	}
	r := m.r
	dest := *out
	if dest == "" {
		if in == "-" {
			dest = "-"
		} else {
			base := filepath.Base(in)
			dest = strings.TrimSuffix(base, filepath.Ext(base)) + ".html"
		}
	}
	if dest == "-" {
		w := bufio.NewWriterSize(e.stdout, 1<<20)
		if err := r.Render(w, s, opts); err != nil {
			fmt.Fprintf(e.stderr, "canopy: %s: %v\n", in, err)
			return exitFail
		}
		if err := w.Flush(); err != nil {
			fmt.Fprintf(e.stderr, "canopy: writing standard output: %v\n", err)
			return exitFail
		}
		return exitOK
	}
	if in != "-" && samePath(in, dest) {
		fmt.Fprintf(e.stderr, "canopy: refusing to write the page over its input %s\n", in)
		return exitFail
	}
	if err := writeAtomic(dest, func(f *os.File) error {
		w := bufio.NewWriterSize(f, 1<<20)
		if err := r.Render(w, s, opts); err != nil {
			return err
		}
		return w.Flush()
	}); err != nil {
		fmt.Fprintf(e.stderr, "canopy: %v\n", err)
		return exitFail
	}
	fmt.Fprintf(e.stderr, "wrote %s\n", dest)
	return exitOK
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

// samePath reports whether two paths name the same file (an existing one).
func samePath(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	if err1 == nil && err2 == nil {
		return os.SameFile(fa, fb)
	}
	aa, _ := filepath.Abs(a)
	bb, _ := filepath.Abs(b)
	return aa == bb
}

// writeAtomic writes a file through a temporary file in the same directory
// and renames it into place: readers never see half a page, and a failed
// export leaves any earlier page as it was.
func writeAtomic(dest string, write func(*os.File) error) error {
	dir := filepath.Dir(dest)
	tmp, err := os.CreateTemp(dir, ".canopy-*.tmp")
	if err != nil {
		return fmt.Errorf("writing %s: %w", dest, err)
	}
	defer os.Remove(tmp.Name()) // no-op after the rename
	if err := write(tmp); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", dest, err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", dest, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", dest, err)
	}
	if err := os.Rename(tmp.Name(), dest); err != nil {
		return fmt.Errorf("writing %s: %w", dest, err)
	}
	return nil
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

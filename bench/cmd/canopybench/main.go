// Command canopybench compares canopy's export with the reference exporter
// (pi --export) on a set of sessions: export wall time, peak memory and
// output size, and, in headless Chromium, how fast each page becomes
// readable and answers a search keystroke, a filter button and a click on
// a tree row.
//
// It is a command of the bench module (canopy/bench), beside the product's
// module. Run it from bench/ in the repository:
//
//	cd bench && go run ./cmd/canopybench [--out DIR] [--inputs LIST] [--shared DIR]
//	    [--no-reference] [--no-browser] [--runs N] [--browser-runs N]
//	    [--wait-quiet DUR] [--page-timeout DUR] [--export-timeout DUR]
//	    [--search-word WORD] [--chromium BIN]
//	cd bench && go run ./cmd/canopybench --pgo [--inputs LIST]
//
// For example, a quick run without the browser on the small inputs:
//
//	cd bench && go run ./cmd/canopybench --inputs large-session,gen-10k --no-browser
//
// In one run it
//
//  1. builds cmd/canopy once into DIR/canopy;
//  2. prepares the inputs in DIR/inputs: the real sessions of
//     ../shared/corpus (large-session, before-compaction) when --shared
//     exists, and synthetic ones written by internal/sessiongen: gen-10k and
//     gen-100k (branched), chain-5k and chain-50k (linear), images-20x5MB
//     (40 entries, 20 of them with a 5 MB base64 image), code-10MB and
//     code-100k (branched, heavy with code: source files read by path,
//     long command output and diffs, fenced code in replies); and, of other
//     agents' formats (sessiongen.GenerateAgent), claude-2MB (a Claude Code
//     transcript) and codex-2MB (a Codex rollout). A generated
//     file is reused while it has the size recorded when it was written;
//  3. exports each input with DIR/canopy and with
//     ../shared/tools/reference-export (after one untimed warm-up call that
//     installs the reference from npm), --runs times each, taking turns
//     (ours, the reference's, ours, ...), and records the
//     median wall time, the peak RSS (the wait4 rusage of the child, which
//     for the reference's bash script includes the node process it reaps)
//     and the output size. The reference of claude-2MB and codex-2MB is
//     claude-replay 0.9.0 (replay.go; --claude-replay), whose pages the
//     browser does not measure;
//  4. opens every page from a file:// URL in headless Chromium, each
//     measurement in a fresh tab with a 60 s limit (--page-timeout):
//     readable (ms from navigation start until the conversation is in the
//     DOM and the page's script has filled the tree and its status line),
//     search (one input event with --search-word in the search box, until the
//     status line changes and the frame after it is drawn), filter (a click
//     on the no-tools button, the same way) and click (a click on the tree
//     row nearest the middle of the tree, until the conversation shows the
//     entry and the row is selected, plus one drawn frame). Console errors
//     and uncaught exceptions are reported in the ERR columns;
//  5. prints one row per input as an aligned table, and writes the same as
//     Markdown to DIR/results.md and in full to DIR/results.json.
//
// A failure for one input or one tool is reported in its cell and the run
// goes on. --inputs takes a comma-separated subset of the input names; the
// default DIR is $TMPDIR/canopybench.
//
// The machine may be shared. Before each export and each page, the command
// waits (at most --wait-quiet, default 2m) until other processes, and the
// hypervisor's steal time, leave the CPUs mostly idle; the column
// "other CPU %" gives the largest share of the CPUs they took during the
// row's measurements. Re-run a row (--inputs NAME) whose share is high.
//
// With --pgo it measures nothing: it builds canopy without profile-guided
// optimization, exports each input with a CPU profile (about three seconds
// of exports per input, so that small and huge sessions weigh alike) and
// merges the profiles into the product's cmd/canopy/default.pgo (under the
// repository root, the directory above bench/), which go build then
// optimizes the canopy command with. Re-run it after a change to the
// export's hot code.
package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"
)

type options struct {
	out         string
	inputs      []string
	shared      string
	noReference bool
	noBrowser   bool
	runs        int
	browserRuns int
	pageTimeout time.Duration
	exportLimit time.Duration
	searchWord  string
	// interactAfter: when search, filter and click start: "load" or
	// "readable".
	interactAfter string
	waitQuiet     time.Duration
	chromium      string
	replayBinary  string // --claude-replay
	keepOutputs   bool
	repoRoot      string
	canopyBinary  string

	pgo             bool
	archive         bool
	archiveSessions int
	archiveBytes    int64

	search         bool
	searchSessions int
	searchBaseline string
	searchArchive  string        // time the queries on this archive, not a new one
	searchSettle   time.Duration // wait after the index page loads before typing
}

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "canopybench:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	o, err := parseFlags(args, stderr)
	if o == nil {
		return err // or --help
	}
	if err := o.setup(); err != nil {
		return err
	}
	logf := func(format string, a ...any) {
		fmt.Fprintf(stderr, "%s "+format+"\n", append([]any{time.Now().Format("15:04:05")}, a...)...)
	}

	// 1. Our binary.
	if err := buildCanopy(o, stderr, logf); err != nil {
		return err
	}
	if o.archive {
		return archiveBench(o, stdout, logf)
	}
	if o.search {
		return searchBench(o, stdout, logf)
	}

	// 2. Inputs.
	specs, err := selectInputs(o.inputs)
	if err != nil {
		return err
	}
	res := &results{
		Started:       time.Now().UTC().Format(time.RFC3339),
		Command:       "cd bench && go run ./cmd/canopybench " + strings.Join(args, " "),
		Runs:          o.runs,
		BrowserRuns:   o.browserRuns,
		SearchWord:    o.searchWord,
		InteractAfter: o.interactAfter,
		CPUs:          goruntime.NumCPU(),
		Revision:      revision(o.repoRoot),
	}

	if o.pgo {
		return pgoProfile(o, specs, stdout, stderr, logf)
	}

	// 3. The reference, warmed up once (its first call installs it).
	ref := newReference(o, logf)
	res.Reference = ref.status()
	refs := references{pi: ref}
	if slices.ContainsFunc(specs, func(sp inputSpec) bool { return sp.agent != nil }) {
		refs.replay = newReplay(o, logf)
		res.Reference += "; Claude Code and Codex: " + refs.replay.status()
	}

	// 4. The browser.
	var br *chrome
	if !o.noBrowser {
		br, err = startBrowser(o.chromium, filepath.Join(o.out, "chromium-profile"))
		if err != nil {
			logf("browser: %v (page measurements are skipped)", err)
			res.Browser = "unavailable: " + err.Error()
		} else {
			defer br.stop()
			res.Browser = br.version
		}
	} else {
		res.Browser = "skipped (--no-browser)"
	}

	benchInputs(o, specs, refs, br, res, logf)
	res.Finished = time.Now().UTC().Format(time.RFC3339)
	if err := writeResults(o, res); err != nil {
		return err
	}
	fmt.Fprint(stdout, textTable(res))
	fmt.Fprintf(stdout, "\nresults: %s, %s\n", filepath.Join(o.out, "results.md"), filepath.Join(o.out, "results.json"))
	return nil
}

// parseFlags reads the command line. It returns nil options, and a nil
// error, after --help.
func parseFlags(args []string, stderr io.Writer) (*options, error) {
	o := &options{}
	fs := pflag.NewFlagSet("canopybench", pflag.ContinueOnError)
	fs.SortFlags = false
	fs.StringVar(&o.out, "out", filepath.Join(os.TempDir(), "canopybench"), "working and results `DIR`")
	fs.StringSliceVar(&o.inputs, "inputs", nil, "comma-separated input names (default: all): "+strings.Join(inputNames(), ","))
	fs.StringVar(&o.shared, "shared", "", "the shared `DIR` with corpus/ and tools/ (default: ../shared from the repository root)")
	fs.BoolVar(&o.noReference, "no-reference", false, "skip the reference exporter")
	fs.BoolVar(&o.noBrowser, "no-browser", false, "skip the measurements in Chromium")
	fs.IntVar(&o.runs, "runs", 1, "exports per input and tool; the median wall time is reported")
	fs.IntVar(&o.browserRuns, "browser-runs", 1, "repetitions of each page measurement; the median is reported")
	fs.DurationVar(&o.pageTimeout, "page-timeout", 60*time.Second, "time limit of one page measurement (one tab)")
	fs.DurationVar(&o.exportLimit, "export-timeout", 15*time.Minute, "time limit of one export")
	fs.StringVar(&o.searchWord, "search-word", "the", "the word typed into the search box")
	fs.StringVar(&o.interactAfter, "interact-after", "load", "when a search, filter or click starts: load (the page has loaded, as for a reader who waits: the reference's pages are readable only then) or readable (300 ms after the conversation is readable: a big page of ours may still be loading)")
	fs.DurationVar(&o.waitQuiet, "wait-quiet", 2*time.Minute, "before each export and page, wait at most this long for other processes to leave the CPUs (mostly) idle; 0: do not wait")
	fs.StringVar(&o.chromium, "chromium", "", "Chromium `binary` (default: chromium on PATH, else /usr/bin/chromium)")
	fs.StringVar(&o.replayBinary, "claude-replay", "", "claude-replay `command`, the reference for Claude Code and Codex inputs (default: claude-replay "+replayVersion+", installed from npm into the user's cache on first use)")
	fs.BoolVar(&o.pgo, "pgo", false, "instead: profile canopy's exports of the inputs and merge the profiles into cmd/canopy/default.pgo, the profile go build optimizes canopy with")
	fs.BoolVar(&o.archive, "archive", false, "benchmark canopy archive instead: a first run, a no-change re-run and a one-change re-run over generated sessions")
	fs.IntVar(&o.archiveSessions, "archive-sessions", 1000, "with --archive: how many sessions")
	fs.Int64Var(&o.archiveBytes, "archive-bytes", 2e9, "with --archive: their total size in bytes (mixed sizes)")
	fs.BoolVar(&o.search, "search", false, "benchmark an archive's search index instead: its build time, size, and queries in Chromium on file://")
	fs.IntVar(&o.searchSessions, "search-sessions", 10000, "with --search: how many generated sessions")
	fs.StringVar(&o.searchBaseline, "search-baseline", "", "with --search: a canopy `binary` that makes archives without the index, to compare build times")
	fs.StringVar(&o.searchArchive, "search-archive", "", "with --search: time the queries on this existing archive `DIR` instead of building one")
	fs.DurationVar(&o.searchSettle, "search-settle", 0, "with --search: how long to wait after the index page has loaded before typing a cold query (0: at once)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: cd bench && go run ./cmd/canopybench [flags]\n\nBenchmarks canopy export against the reference exporter.\n\n%s", fs.FlagUsages())
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return nil, nil
		}
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	if o.interactAfter != "load" && o.interactAfter != "readable" {
		return nil, fmt.Errorf("--interact-after must be load or readable, not %q", o.interactAfter)
	}
	if o.runs < 1 || o.browserRuns < 1 {
		return nil, errors.New("--runs and --browser-runs must be at least 1")
	}
	return o, nil
}

// setup finds the repository and the shared directory, and makes the
// working directories.
func (o *options) setup() error {
	root, err := repoRoot()
	if err != nil {
		return err
	}
	o.repoRoot = root
	if o.shared == "" {
		o.shared = filepath.Join(root, "..", "shared")
	}
	if o.out, err = filepath.Abs(o.out); err != nil {
		return err
	}
	for _, d := range []string{o.out, filepath.Join(o.out, "inputs"), filepath.Join(o.out, "pages")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	return nil
}

// buildCanopy builds cmd/canopy into the working directory, without
// profile-guided optimization for --pgo.
func buildCanopy(o *options, stderr io.Writer, logf func(string, ...any)) error {
	o.canopyBinary = filepath.Join(o.out, "canopy")
	logf("building %s", o.canopyBinary)
	buildArgs := []string{"build", "-o", o.canopyBinary}
	if o.pgo {
		// Profiled without the current profile's optimizations, so that
		// a new default.pgo depends on the code, not on the last one.
		buildArgs = append(buildArgs, "-pgo=off")
	}
	build := exec.Command("go", append(buildArgs, "./cmd/canopy")...)
	build.Dir = o.repoRoot
	build.Stdout, build.Stderr = stderr, stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("go build ./cmd/canopy: %w", err)
	}
	return nil
}

// benchInputs prepares and measures each input in turn, writing the
// results after each.
func benchInputs(o *options, specs []inputSpec, refs references, br *chrome, res *results, logf func(string, ...any)) {
	for _, sp := range specs {
		row := &row{Input: sp.name}
		res.Rows = append(res.Rows, row)
		path, err := sp.prepare(o, logf)
		if err != nil {
			row.Err = "input: " + err.Error()
			logf("%s: %v", sp.name, err)
			writeResults(o, res)
			continue
		}
		benchInput(o, refs.of(sp), br, row, path, logf)
		writeResults(o, res)
	}
}

// benchInput fills row for one input: both exports, then both pages.
func benchInput(o *options, ref *reference, br *chrome, row *row, in string, logf func(string, ...any)) {
	st, err := os.Stat(in)
	if err != nil {
		row.Err = err.Error()
		return
	}
	row.Path = in
	row.SizeBytes = st.Size()
	row.Entries = countEntries(o.canopyBinary, in)
	row.LoadAvg = loadAvg()
	logf("%s: %.1f MB, %d entries, load %s", row.Input, mb(row.SizeBytes), row.Entries, row.LoadAvg)

	pages := filepath.Join(o.out, "pages")
	ours := filepath.Join(pages, row.Input+".ours.html")
	theirs := filepath.Join(pages, row.Input+".ref.html")

	quiet := func() {
		if o.waitQuiet > 0 {
			if share := waitQuiet(o.waitQuiet); share >= 0.25 {
				logf("%s: the machine is busy (others use %.0f%% of the CPUs); measuring anyway", row.Input, 100*share)
			}
		}
	}
	row.Ours = &toolResult{Out: ours}
	sides := []*exportSide{{row.Ours, func(ctx context.Context) *exec.Cmd {
		return exec.CommandContext(ctx, o.canopyBinary, "export", in, "-o", ours)
	}}}
	if ref.ok {
		row.Ref = &toolResult{Out: theirs}
		sides = append(sides, &exportSide{row.Ref, func(ctx context.Context) *exec.Cmd {
			return ref.cmd(ctx, in, theirs)
		}})
	} else {
		row.Ref = &toolResult{Status: "n/a", Err: ref.reason}
	}
	exportRuns(o, sides, quiet)
	logf("%s: ours %s", row.Input, row.Ours.summary())
	if ref.ok {
		logf("%s: ref %s", row.Input, row.Ref.summary())
	}

	if br == nil {
		return
	}
	for _, side := range []struct {
		tr   *toolResult
		kind *pageKind
		name string
	}{{row.Ours, oursPage, "ours"}, {row.Ref, refPage, "ref"}} {
		if side.tr.Status != "ok" || side.name == "ref" && ref.replay {
			continue
		}
		quiet()
		logf("%s: %s page in Chromium", row.Input, side.name)
		side.tr.Page = br.measure(o, side.tr.Out, side.kind, o.searchWord, logf)
		logf("%s: %s page %s", row.Input, side.name, side.tr.Page.summary())
	}
	row.LoadAvgAfter = loadAvg()
}

// repoRoot is the nearest directory at or above the working directory
// whose go.mod declares the module canopy (not canopy/bench, whose go.mod
// is passed on the way up from bench/).
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && modulePath(b) == "canopy" {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("run canopybench inside the canopy repository, e.g. from bench/ (no go.mod with module canopy at or above the working directory)")
		}
		dir = parent
	}
}

// modulePath is the path the module line of a go.mod declares, or "".
func modulePath(gomod []byte) string {
	for line := range strings.Lines(string(gomod)) {
		f := strings.Fields(line)
		if len(f) >= 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`)
		}
	}
	return ""
}

// revision names the commit of the working tree that was built, with
// "+dirty" when it has uncommitted changes.
func revision(root string) string {
	out, err := exec.Command("git", "-C", root, "rev-parse", "--short", "HEAD").Output()
	if err != nil {
		return "unknown"
	}
	rev := strings.TrimSpace(string(out))
	if st, err := exec.Command("git", "-C", root, "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(bytes.TrimSpace(st)) > 0 {
		rev += "+dirty"
	}
	return rev
}

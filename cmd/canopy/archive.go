package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"

	"canopy/archive"
	"canopy/export"
	"canopy/internal/text"
)

const (
	archiveSynopsis = "canopy archive SRC... -o OUTDIR [--jobs N] [--redact] [--since DATE] [--prune] [--shard I/N] [--quiet]\n       canopy archive merge SHARD... -o OUTDIR [--quiet]"
	verifySynopsis  = "canopy verify OUTDIR [--json]"
)

func runArchive(e *env, args []string) int {
	if len(args) > 0 && args[0] == "merge" {
		return runArchiveMerge(e, args[1:])
	}
	fs := newFlags("archive")
	out := fs.StringP("output", "o", "", "the archive `OUTDIR` (made if missing; an existing one is updated)")
	jobs := fs.IntP("jobs", "j", 0, "sessions rendered at once (default: one per core)")
	doRedact := fs.Bool("redact", false, "replace credentials with [REDACTED:kind#n] markers in every page and in the index")
	since := fs.String("since", "", "only sessions active on or after `DATE` (YYYY-MM-DD, or RFC 3339)")
	prune := fs.Bool("prune", false, "remove the pages of sessions whose sources are gone, instead of keeping them as stale")
	shard := fs.String("shard", "", "render only shard `I/N` of the pages (I from 0 to N-1); canopy archive merge makes the archive of the N shards")
	quiet := fs.BoolP("quiet", "q", false, "no progress on stderr")
	// For building canopy, as export's: where an archive's time goes.
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the run to `FILE`")
	fs.MarkHidden("cpuprofile")
	if st := parseFlags(e, fs, archiveSynopsis, args); st >= 0 {
		return st
	}
	if fs.NArg() == 0 || *out == "" {
		fmt.Fprintf(e.stderr, "canopy archive: want at least one SRC and -o OUTDIR\nUsage: %s\n", archiveSynopsis)
		return exitUsage
	}
	for _, a := range fs.Args() {
		if a == "-" {
			fmt.Fprintf(e.stderr, "canopy archive: SRC -: an archive is made of session files and directories, not standard input (save it to a file, or use canopy export -)\nUsage: %s\n", archiveSynopsis)
			return exitUsage
		}
	}
	// A SRC that is not there is a mistake (a typo, an unmounted disk),
	// not an empty source: nothing is written, and the archive keeps
	// what it had.
	for _, a := range fs.Args() {
		if _, err := os.Stat(a); err != nil {
			printLine(e.stderr, "canopy archive: SRC %v; nothing archived, %s left as it was", err, *out)
			return exitFail
		}
	}
	o := archive.Options{Jobs: *jobs, Redact: *doRedact, Prune: *prune, Version: version}
	if *shard != "" {
		var err error
		if o.Shard, o.Shards, err = parseShard(*shard); err != nil {
			fmt.Fprintf(e.stderr, "canopy archive: --shard: %v\n", err)
			return exitUsage
		}
	}
	if *since != "" {
		t, err := parseSince(*since)
		if err != nil {
			fmt.Fprintf(e.stderr, "canopy archive: --since: %v\n", err)
			return exitUsage
		}
		o.Since = t
	}
	if !*quiet {
		o.Progress = progressPrinter(e.stderr)
		for _, a := range fs.Args() {
			if stores := archive.HomeStores(a); len(stores) > 0 {
				printLine(e.stderr, "canopy archive: %s holds agents' sessions: archiving %s", a, strings.Join(stores, ", "))
			}
		}
	}
	if *cpuProfile != "" {
		stop, err := archiveProfile(fs.Args(), *cpuProfile)
		if err != nil {
			printLine(e.stderr, "canopy archive: %v", err)
			return exitFail
		}
		defer stop()
	}
	res, err := archive.Run(e.ctx, fs.Args(), *out, o)
	if errors.Is(err, archive.ErrInterrupted) {
		printLine(e.stderr, "canopy archive: %s", export.Interrupted(*out))
		return exitInterrupted
	}
	if err != nil {
		printLine(e.stderr, "canopy archive: %v", err)
		return exitFail
	}
	return reportArchive(e, res, *out, *doRedact)
}

// archiveProfile starts the CPU profile of a run (--cpuprofile) into
// path, which must not be one of the sources nor a file canopy did not
// make.
func archiveProfile(srcs []string, path string) (stop func(), err error) {
	if err := checkOutputs(srcs, output{path, gzipHead}); err != nil {
		return nil, fmt.Errorf("CPU profile: %w", err)
	}
	return startCPUProfile(path)
}

// reportArchive tells what a run did: the files skipped, the stale pages,
// the files moved aside, then a summary line; and gives the status to
// exit with.
func reportArchive(e *env, res *archive.Result, out string, redacted bool) int {
	for _, p := range res.Problems {
		printLine(e.stderr, "%s: error: skipped: %s", p.Path, p.Error)
	}
	for _, p := range res.Passed {
		printLine(e.stderr, "%s: note: %s", p.Path, p.Error)
	}
	for _, s := range res.Stale {
		if s.Page == "" {
			printLine(e.stderr, "%s: error: not archived, and its page is lost: %s", s.Source, s.Reason)
			continue
		}
		printLine(e.stderr, "%s: error: stale: %s; its page from an earlier run is kept (%s)", s.Source, s.Reason, s.Page)
	}
	if res.Leftover != "" {
		printLine(e.stderr, "canopy archive: files put in %s while it was being archived were not in its manifest: they are in %s", out, res.Leftover)
	}
	line := fmt.Sprintf("archived %s in %s: %s rendered, %d unchanged", text.Count(res.Sessions, "session", "sessions"), out,
		text.Count(res.Rendered, "page", "pages"), res.Kept)
	if n := len(res.Stale); n > 0 {
		line += fmt.Sprintf(", %d stale", n)
	}
	line += fmt.Sprintf(", %d removed", res.Removed)
	if n := len(res.Problems); n > 0 {
		line += ", " + text.Count(n, "file", "files") + " skipped"
	}
	if n := len(res.Passed); n > 0 {
		line += ", " + text.Count(n, "store file", "store files") + " not archived (listed in the index)"
	}
	printLine(e.stderr, "%s", line)
	switch {
	case res.SecretsHeld == "":
	case redacted:
		printLine(e.stderr, "canopy archive: %s: replaced in their pages", res.SecretsHeld)
	default:
		printLine(e.stderr, "canopy archive: %s, kept as they are (marked in the index): to publish the archive, make it with --redact", res.SecretsHeld)
	}
	if res.Incomplete() {
		// Stale pages: what the archive shows is not what the sources
		// hold now. A script must notice, as it would a failure.
		return exitFail
	}
	return exitOK
}

// parseSince reads a date (midnight UTC) or an RFC 3339 time.
func parseSince(s string) (time.Time, error) {
	if t, err := time.Parse("2006-01-02", s); err == nil {
		return t, nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("%q is not a date (YYYY-MM-DD) or an RFC 3339 time", s)
	}
	return t, nil
}

// progressPrinter reports progress: a bar redrawn in place on a terminal,
// one line per finished file otherwise (a log keeps them all).
func progressPrinter(w io.Writer) func(archive.Progress) {
	tty := false
	if f, ok := w.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			tty = true
		}
	}
	return func(p archive.Progress) {
		if !tty {
			// One line per page: a log of the run, not of every file read.
			if p.Path != "" && p.Phase == "pages" {
				fmt.Fprintf(w, "%s %d/%d %s\n", p.Phase, p.Done, p.Total, termSafe(p.Path))
			}
			return
		}
		const width = 30
		fill := 0
		if p.Total > 0 {
			fill = p.Done * width / p.Total
		}
		name := termSafe(p.Path)
		if r := []rune(name); len(r) > 40 {
			name = "…" + string(r[len(r)-39:])
		}
		fmt.Fprintf(w, "\r\033[K%-9s [%s%s] %d/%d %s", p.Phase, strings.Repeat("#", fill), strings.Repeat(" ", width-fill), p.Done, p.Total, name)
		if p.Done == p.Total {
			fmt.Fprint(w, "\r\033[K")
		}
	}
}

func runVerify(e *env, args []string) int {
	fs := newFlags("verify")
	asJSON := fs.Bool("json", false, "print the findings as JSON")
	if st := parseFlags(e, fs, verifySynopsis, args); st >= 0 {
		return st
	}
	if fs.NArg() != 1 {
		fmt.Fprintf(e.stderr, "canopy verify: want one OUTDIR\nUsage: %s\n", verifySynopsis)
		return exitUsage
	}
	dir := fs.Arg(0)
	findings, ok, err := archive.Verify(dir)
	if err != nil {
		printLine(e.stderr, "canopy verify: %v", err)
		return exitFail
	}
	if *asJSON {
		if findings == nil {
			findings = []archive.Finding{}
		}
		b, _ := json.Marshal(struct {
			OK       bool              `json:"ok"`
			Findings []archive.Finding `json:"findings"`
		}{ok, findings}, jsonv1.DefaultOptionsV1(), jsontext.WithIndent("  ")) // as encoding/json's MarshalIndent
		fmt.Fprintf(e.stdout, "%s\n", b)
	} else {
		for _, f := range findings {
			printLine(e.stdout, "%s: %s", f.Path, f.Problem)
		}
		if ok {
			printLine(e.stdout, "%s: every page matches its manifest", dir)
		} else {
			printLine(e.stdout, "%s: does NOT match its manifest", dir)
		}
	}
	if !ok {
		return exitFail
	}
	return exitOK
}

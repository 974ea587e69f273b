// Package archive turns directories of sessions into an archive for audit:
// one page per session (made by the export pipeline, as canopy export
// makes a page), an index of them all, links between forks, child tasks
// and topics, and a manifest of hashes that `canopy verify` re-checks. A
// re-run renders only what changed, and the archive is swapped in whole,
// so an interrupted run leaves the previous one as it was.
//
// A run, in the order run calls its steps: the sources are found
// (discover.go, gateway.go; a gateway store's rotated and locked
// transcripts, and what else it holds, in rotated.go), hashed and
// summarized (read.go); pages are named (names.go), what the previous
// archive keeps is sorted out (stale.go), sessions are linked (links.go:
// forks, tasks, topics, a gateway key's history); pages are made in a
// staging directory (pages.go, staging.go), then the index (index.go)
// and the manifest (manifest.go); the staging directory is swapped in
// (swap.go, outdir.go).
//
// A run can be one shard of N (shard.go): it reads every source but
// renders only its share of the pages; Merge (merge.go) makes of the N
// shards the archive one run would have made, byte for byte.
package archive

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"canopy/export"
	"canopy/htmlpage"
	"canopy/internal/outpath"
	"canopy/redact"
)

// Options control a run.
type Options struct {
	Jobs    int       // sessions loaded and rendered at once; 0 means one per core
	Redact  bool      // replace credentials in pages and the index, as export --redact does
	Since   time.Time // when set, only sessions active at or after it
	Version string    // the canopy version, written into pages and the manifest
	// Prune removes the pages of sessions whose sources are gone (no
	// longer there, or no longer among the sources named) instead of
	// keeping them as stale. A source that is there but cannot be read,
	// or that changes while it is archived, keeps its page either way:
	// that may pass, and the page is all the archive has of it.
	Prune bool
	// Shard and Shards, when Shards is set, make this run one of Shards
	// (numbered from 0): it renders only its share of the pages, as
	// partition deals them, and records what Merge needs to build the
	// whole archive from the shards.
	Shard, Shards int

	// Progress, when set, is told of each step (from one goroutine at a time).
	Progress func(Progress)
}

// Progress is where a run is.
type Progress struct {
	Phase string // "reading" (sources hashed and summarized), "pages" (made or kept)
	Done  int
	Total int
	Path  string // the file just finished
}

// Result says what a run did.
type Result struct {
	Sessions int       // sessions in the archive, stale ones included
	Rendered int       // pages made anew
	Kept     int       // pages kept from the previous archive, their sources unchanged
	Removed  int       // pages of the previous archive no longer in it
	Stale    []Stale   // pages kept although their sources could not be archived
	Problems []Problem // files reported and skipped
	// Passed are the files of gateway stores not archived, and why (lock
	// files, backups of the store, …): listed, not errors.
	Passed []Problem
	// SecretsHeld says how many sessions hold credentials (SecretsHeld):
	// replaced in their pages with Options.Redact, kept as they are
	// otherwise; "" when none does.
	SecretsHeld string
	// Leftover, when set, is a directory holding files that were put in
	// OUTDIR while the run made the new archive: not in the previous
	// archive's manifest, they were moved there instead of removed.
	Leftover string
}

// Stale is a session whose source this run could not archive (missing,
// unreadable, changed while it was read): its page from the previous
// archive is kept, and marked so in the index and the manifest.
type Stale struct {
	Source string // as the previous manifest names it
	Page   string // "" when the page could not be kept either
	Reason string
}

// Incomplete reports whether the archive is not all this run was asked
// to make: some pages are stale, or files had to be moved aside. The
// command exits 1 then, so that scripts notice.
func (r *Result) Incomplete() bool {
	return len(r.Stale) > 0 || r.Leftover != ""
}

// flags lists the options that shape pages, as the manifest records them.
func (o *Options) flags() []string {
	f := []string{}
	if o.Redact {
		f = append(f, "--redact")
	}
	return f
}

// ErrInterrupted is wrapped (with the context's error) by the error of a
// run stopped by its context. It is the export pipeline's: one error for
// every interrupted export.
var ErrInterrupted = export.ErrInterrupted

// interruptError is the error of a run stopped by its context.
type interruptError struct {
	out   string // OUTDIR, as the user named it
	cause error  // the context's error
}

func (e *interruptError) Error() string   { return export.Interrupted(e.out) + ": " + e.cause.Error() }
func (e *interruptError) Unwrap() []error { return []error{ErrInterrupted, e.cause} }

// testHooks are seams for the tests: nil in a real run.
var testHooks struct {
	// writeFault is called before each write into the staging directory
	// (from every worker at once); the error it returns is that write's
	// (a full disk, say).
	writeFault func(path string) error
	// afterLoad is called when a page's session has been loaded, before
	// it is rendered (a source can then be changed under the render).
	afterLoad func(path string)
	// searchBuilt is called when a run builds its search index (not
	// when it keeps the previous one).
	searchBuilt func()
}

// Run archives the sources into out and returns what it did. A source
// that is a home directory stands for the agents' session stores in it
// (HomeStores).
//
// out is replaced only when it is missing, empty, or an archive canopy
// made that holds nothing its manifest does not list; and never when it
// is, holds or lies inside a source (outpath.Dir). Every refusal comes
// before anything is created. The new archive is made in a staging
// directory beside out and swapped in whole: a failure (a full disk) or
// an interrupt (ctx done) removes the staging directory and leaves out
// as it was; the error then wraps ctx's error and ErrInterrupted.
func Run(ctx context.Context, srcs []string, out string, o Options) (*Result, error) {
	if o.Jobs <= 0 {
		o.Jobs = runtime.GOMAXPROCS(0)
	}
	if err := checkShard(o.Shard, o.Shards); err != nil {
		return nil, err
	}
	for _, s := range srcs {
		switch s {
		case "-":
			return nil, errors.New("SRC -: canopy archive reads session files and directories, not standard input (save it to a file first)")
		case "":
			return nil, errors.New("an empty SRC")
		}
	}
	// A home directory is its agents' session stores (HomeStores): the
	// archive may then be made inside it.
	srcs = expandHomes(srcs)
	abs, err := resolveOutdir(out, srcs)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, &interruptError{out, err}
	}
	r := &runner{ctx: ctx, o: &o, name: out, out: abs, stage: siblingPath(abs, "staging"), counted: newCountedText()}
	res, err := r.run(srcs)
	return r.finish(res, err)
}

// resolveOutdir is OUTDIR as an absolute path (outpath.Dir fills in a
// default from srcs). A directory canopy must not replace is refused
// here, before the lock or any directory is made.
func resolveOutdir(out string, srcs []string) (string, error) {
	resolved, err := outpath.Dir(out, srcs)
	if err != nil {
		return "", err
	}
	abs, err := filepath.Abs(resolved)
	if err != nil {
		return "", fmt.Errorf("%s: %w", out, err)
	}
	if _, err := checkOutdir(abs, out); err != nil {
		return "", err
	}
	return abs, nil
}

// finish ends a run or merge that returned res and err: it removes what a
// failed one left (the staging directory, the lock) and tells an
// interrupt apart from other failures.
func (r *runner) finish(res *Result, err error) (*Result, error) {
	r.cleanup(err == nil)
	if err != nil {
		if cerr := r.ctx.Err(); cerr != nil {
			return nil, &interruptError{r.name, cerr}
		}
		return nil, err
	}
	return res, nil
}

// runner is one run, and what it must undo if it fails.
type runner struct {
	ctx   context.Context
	o     *Options
	name  string // OUTDIR as given, for messages
	out   string // OUTDIR, absolute, a top-level link resolved
	stage string

	madeDirs  []string // OUTDIR's parents this run made, deepest first
	unlock    func()
	stageMade bool
	swapped   bool

	// counted: the search terms of the pages this run makes, counted as
	// their text files are written (nil in a merge, which reads them).
	counted *countedText
}

// cleanup undoes what a run made and does not leave: the staging
// directory, the lock, and on failure the parent directories it made.
func (r *runner) cleanup(ok bool) {
	if r.stageMade && !r.swapped {
		os.RemoveAll(r.stage)
	}
	if r.unlock != nil {
		r.unlock()
	}
	if !ok {
		for _, d := range r.madeDirs {
			os.Remove(d) // fails, as it should, if anything else is in it now
		}
	}
}

// interrupted returns ctx's error once the run is to stop.
func (r *runner) interrupted() error {
	return r.ctx.Err()
}

// run makes the archive, one step after another.
func (r *runner) run(srcs []string) (*Result, error) {
	prev, err := r.open()
	if err != nil {
		return nil, err
	}
	found, problems, passed := DiscoverStore(srcs, r.out, r.stage)
	defer closeStores(found)
	if err := r.interrupted(); err != nil {
		return nil, err
	}
	// Credentials are looked for in every session: an archive that keeps
	// them (an audit record) says which sessions hold them; with --redact
	// they are replaced.
	finder, err := redact.New()
	if err != nil {
		return nil, err
	}
	var redactor *redact.Redactor
	if r.o.Redact {
		redactor = finder
	}
	// 1. Hash every source; summarize the sessions whose source changed.
	recs := prev.records()
	rd := readSources(r.ctx, found, prev, recs, finder, r.o)
	if err := r.interrupted(); err != nil {
		return nil, err
	}
	// 2. Name the pages, see what of the previous archive this run does
	// not make again, and link the sessions.
	b := newBuild(prev, recs, rd, problems)
	b.passed = append(passed, rd.passed...)
	if err := b.plan(r.out, r.o); err != nil {
		return nil, err
	}
	// 3. Make the pages in a staging directory: unchanged ones are linked
	// from the previous archive, the others rendered.
	if err := r.makeStage(); err != nil {
		return nil, err
	}
	rr, err := htmlpage.New()
	if err != nil {
		return nil, err
	}
	made, err := r.makePages(rr, b, redactor)
	if err != nil {
		return nil, err
	}
	if err := b.collect(r, made); err != nil {
		return nil, err
	}
	// 4. The index and the manifest.
	if err := r.writeIndex(b); err != nil {
		return nil, err
	}
	// 5. Swap the new archive in, the last moment an interrupt stops it.
	return r.swapIn(b)
}

// open takes OUTDIR for the run: its missing parents made, the lock
// taken, an earlier run's half-done swap undone. It returns the archive
// there (nil when there is none), checked again now that no other run
// can change it.
func (r *runner) open() (*Manifest, error) {
	var err error
	if r.madeDirs, err = makeParents(filepath.Dir(r.out)); err != nil {
		return nil, err
	}
	// Two runs into one archive would share the staging directory.
	if r.unlock, err = lock(siblingPath(r.out, "lock")); err != nil {
		return nil, err
	}
	if err := recoverSwap(r.out); err != nil {
		return nil, err
	}
	return checkOutdir(r.out, r.name)
}

// makeStage makes an empty staging directory.
func (r *runner) makeStage() error {
	if err := os.RemoveAll(r.stage); err != nil {
		return fmt.Errorf("clearing %s: %w", r.stage, err)
	}
	r.stageMade = true
	return mkdirStaged(r.stage)
}

// swapIn puts the staging directory in OUTDIR's place and removes what
// the previous archive's manifest lists; anything else put in OUTDIR
// during the run is moved aside, never deleted.
func (r *runner) swapIn(b *build) (*Result, error) {
	if err := r.interrupted(); err != nil {
		return nil, err
	}
	old, err := swap(r.stage, r.out)
	if err != nil {
		return nil, err
	}
	r.swapped = true
	if old == "" {
		return b.res, nil
	}
	left, err := removeOwned(old, b.prev)
	if err != nil || len(left) > 0 {
		aside, rerr := moveAside(old, r.out)
		if rerr != nil {
			return nil, fmt.Errorf("the archive is in place, but the previous one in %s still holds %s, not in its manifest: %w", old, describe(left), rerr)
		}
		b.res.Leftover = aside
	}
	return b.res, nil
}

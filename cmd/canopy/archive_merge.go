package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"canopy/archive"
	"canopy/export"
)

const mergeSynopsis = "canopy archive merge SHARD... -o OUTDIR [--quiet]"

// runArchiveMerge makes the archive of the shards of a sharded run
// (canopy archive --shard I/N), as one run over the same sources makes
// it.
func runArchiveMerge(e *env, args []string) int {
	fs := newFlags("archive merge")
	out := fs.StringP("output", "o", "", "the archive `OUTDIR` (made if missing; an existing one is updated)")
	fs.BoolP("quiet", "q", false, "accepted, as archive takes it (merge shows no progress)")
	if st := parseFlags(e, fs, mergeSynopsis, args); st >= 0 {
		return st
	}
	if fs.NArg() == 0 || *out == "" {
		fmt.Fprintf(e.stderr, "canopy archive merge: want at least one SHARD and -o OUTDIR\nUsage: %s\n", mergeSynopsis)
		return exitUsage
	}
	res, err := archive.Merge(e.ctx, fs.Args(), *out, version)
	if errors.Is(err, archive.ErrInterrupted) {
		printLine(e.stderr, "canopy archive merge: %s", export.Interrupted(*out))
		return exitInterrupted
	}
	if err != nil {
		printLine(e.stderr, "canopy archive merge: %v", err)
		return exitFail
	}
	for _, s := range res.Stale {
		printLine(e.stderr, "%s: error: stale: %s; its page from an earlier run is kept (%s)", s.Source, s.Reason, s.Page)
	}
	printLine(e.stderr, "merged %d shards into %s: %d sessions, %d pages from the shards, %d unchanged, %d removed",
		fs.NArg(), *out, res.Sessions, res.Rendered, res.Kept, res.Removed)
	if res.Incomplete() {
		return exitFail
	}
	return exitOK
}

// parseShard reads --shard I/N.
func parseShard(s string) (i, n int, err error) {
	a, b, ok := strings.Cut(s, "/")
	if ok {
		if i, err = strconv.Atoi(a); err == nil {
			n, err = strconv.Atoi(b)
		}
	}
	if !ok || err != nil || n < 1 || i < 0 || i >= n {
		return 0, 0, fmt.Errorf("%q is not I/N with 0 <= I < N (shards are numbered from 0, as JOB_COMPLETION_INDEX is)", s)
	}
	return i, n, nil
}

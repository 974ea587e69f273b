package main

import (
	"os"
	"strings"

	"canopy/catalog"
)

// maxCandidates is how many sessions an ambiguous id prefix names.
const maxCandidates = 10

// sessionFile is the file a command's FILE argument names: the path
// itself when it exists (or "-"), else the one session in the agents'
// stores whose id starts with it (canopy export 6ec7). It returns the
// status to exit with, or -1 to go on. The one place every command that
// reads a FILE resolves it.
func (e *env) sessionFile(arg string) (string, int) {
	if arg == "" {
		// canopy export "$(ls -t … | head -1)" where ls found nothing.
		printLine(e.stderr, "canopy: the session named is an empty word: a path, - or the start of a session's id (canopy list shows the sessions)")
		return "", exitUsage
	}
	if _, err := os.Lstat(arg); err == nil || arg == "-" {
		return arg, -1 // an existing path always wins
	}
	if !catalog.LooksLikeID(arg) {
		if catalog.LooksLikeID(arg + "----") { // letters and digits, too few of them
			printLine(e.stderr, "canopy: %s: no such file; the start of a session's id needs %d characters or more", arg, catalog.MinPrefix)
			return "", exitFail
		}
		return arg, -1 // the loader says what is wrong with it
	}
	dirs, err := catalog.Home()
	if err != nil {
		return arg, -1 // the usual "no such file"
	}
	found, _ := catalog.Resolve(dirs, arg, 0)
	switch {
	case len(found) == 1:
		printLine(e.stderr, "canopy: %s is %s", arg, found[0].Path)
		if found[0].InStore && e.session == "" {
			e.session = found[0].ID // a session of a database
		}
		return found[0].Path, -1
	case len(found) == 0:
		printLine(e.stderr, "canopy: %s: no such file, nor a session whose id starts with it (canopy list shows the sessions)", arg)
		return "", exitFail
	}
	printLine(e.stderr, "canopy: %s is the start of the ids of %d sessions; give more of the id, or the path:", arg, len(found))
	for _, s := range found[:min(len(found), maxCandidates)] {
		printLine(e.stderr, "  %s  %s  %s  %s  %s", s.ID, s.LastActivity, s.Agent, strings.ReplaceAll(s.Title, "\t", " "), s.Path)
	}
	if n := len(found) - maxCandidates; n > 0 {
		printLine(e.stderr, "  and %d more (canopy list shows them all)", n)
	}
	return "", exitFail
}

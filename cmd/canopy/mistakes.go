package main

import (
	"errors"
	"os"
	"strings"

	"canopy/sessiontree"
)

// What canopy says when it is asked for something it does not do: the
// command meant, for a misspelled one; what to run on a directory.

// nearestCommand is the command name a mistyped word most likely meant
// ("exprot" → "export"), or "" when none is near enough: at most one
// edit for a word of four letters or fewer, two for a longer one (a swap
// of two neighbouring letters is one edit).
func nearestCommand(word string) string {
	best, bestDist := "", 3
	for _, c := range commands() {
		d := editDistance(strings.ToLower(word), c.name)
		limit := 2
		if len(word) <= 4 {
			limit = 1
		}
		if d <= limit && d < bestDist {
			best, bestDist = c.name, d
		}
	}
	return best
}

// editDistance is the optimal string alignment distance between a and b
// (insertions, deletions, substitutions and swaps of neighbours, each one
// edit), by rune. Command names are short: the quadratic table is tiny.
func editDistance(a, b string) int {
	x, y := []rune(a), []rune(b)
	d := make([][]int, len(x)+1)
	for i := range d {
		d[i] = make([]int, len(y)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(x); i++ {
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(x)][len(y)]
}

// unknownCommand says whether args[0], which names no command, is a
// mistyped one rather than the FILE of `canopy FILE`, and if so what to
// tell the user. A word that names an existing file is a FILE.
func unknownCommand(args []string) (msg string, ok bool) {
	word := args[0]
	if _, err := os.Lstat(word); err == nil {
		return "", false
	}
	if near := nearestCommand(word); near != "" {
		return "canopy: unknown command " + quote(word) + "; did you mean " + quote(near) + "? (canopy --help lists the commands)", true
	}
	if len(args) > 1 && !strings.HasPrefix(args[1], "-") {
		// `canopy FILE [flags]` takes one FILE: a word that is no file
		// (nor, followed by flags, a session id: canopy 6ec7 -o x.html),
		// before another word, is a command canopy does not have.
		return "canopy: unknown command " + quote(word) + " (canopy --help lists the commands)", true
	}
	return "", false
}

// loadHint is what to add to the error of a session that could not be
// loaded from path: for a directory, the commands that read one.
func loadHint(path string, err error) string {
	if !errors.Is(err, sessiontree.ErrNotSession) {
		return ""
	}
	if fi, serr := os.Stat(path); serr != nil || !fi.IsDir() {
		return ""
	}
	return "; to read the sessions in a directory: canopy list " + path + " lists them, canopy archive " + path + " -o OUTDIR makes a page of each"
}

func quote(s string) string { return `"` + s + `"` }

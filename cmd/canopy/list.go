package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"

	"canopy/catalog"
	"canopy/redact"
)

const listSynopsis = "canopy list [DIR...] [--json] [--limit N] [--project TEXT]"

// defaultListLimit is how many sessions the table shows unless told: a
// screenful of the newest. --json lists them all, for scripts.
const defaultListLimit = 50

// runList lists the sessions canopy reads, newest first: those in the
// agents' stores in the home directory, or in the DIRs named.
func runList(e *env, args []string) int {
	fs := newFlags("list")
	asJSON := fs.Bool("json", false, "print a JSON array of {id, agent, formatVersion, project, title, started, lastActivity, size, path}")
	limit := fs.Int("limit", defaultListLimit, "show at most `N` sessions, the newest (0: all; --json lists all unless given)")
	project := fs.String("project", "", "only the sessions whose project (working directory) contains `TEXT`")
	if st := parseFlags(e, fs, listSynopsis, args); st >= 0 {
		return st
	}
	if *limit < 0 {
		fmt.Fprintf(e.stderr, "canopy list: --limit must be 0 or more\nUsage: %s\n", listSynopsis)
		return exitUsage
	}
	dirs := fs.Args()
	for _, d := range dirs {
		// A DIR that is not there is a mistake (a typo), not an empty
		// store: said so, with a failing status.
		if _, err := os.Stat(d); err != nil {
			printLine(e.stderr, "canopy list: %s: no such file or directory", d)
			return exitFail
		}
	}
	if len(dirs) == 0 {
		var err error
		if dirs, err = catalog.Home(); err != nil {
			printLine(e.stderr, "canopy list: %v", err)
			return exitFail
		}
	}
	all, problems := catalog.List(dirs, 0)
	for _, p := range problems {
		printLine(e.stderr, "canopy list: %v", p)
	}
	// Safe by default, as export is: a title is the session's first
	// prompt, where people paste tokens, and a listing is pasted into
	// bug reports.
	r, err := redact.New()
	if err != nil {
		printLine(e.stderr, "canopy list: %v", err)
		return exitFail
	}
	for i := range all {
		all[i].Title, _ = r.Text(all[i].Title)
	}
	shown := []catalog.Session{} // [] in JSON when there are none
	for _, s := range all {
		if strings.Contains(s.Project, *project) {
			shown = append(shown, s)
		}
	}
	n := *limit
	if *asJSON && !fs.Changed("limit") {
		n = 0
	}
	more := 0
	if n > 0 && len(shown) > n {
		shown, more = shown[:n], len(shown)-n
	}
	if *asJSON {
		// As encoding/json's Encoder wrote it (v1's options, HTML not escaped, indented).
		b, err := json.Marshal(shown, jsonv1.DefaultOptionsV1(), jsontext.EscapeForHTML(false), jsontext.WithIndent("  "))
		if err == nil {
			_, err = e.stdout.Write(append(b, '\n'))
		}
		if err != nil {
			printLine(e.stderr, "canopy list: %v", err)
			return exitFail
		}
	} else {
		printSessions(e.stdout, shown, idPrefixes(all))
	}
	if more > 0 {
		fmt.Fprintf(e.stderr, "canopy list: %d more (--limit 0 lists them all)\n", more)
	}
	switch {
	case len(all) == 0 && len(fs.Args()) == 0:
		fmt.Fprintln(e.stderr, "canopy list: no sessions in ~/.claude/projects, ~/.codex/sessions, ~/.codex/archived_sessions or ~/.pi/agent/sessions; name a directory: canopy list DIR")
	case len(all) == 0:
		printLine(e.stderr, "canopy list: no sessions in %s", strings.Join(fs.Args(), ", "))
	}
	return exitOK
}

// printSessions writes the sessions as an aligned table, one a line, with
// their text escaped for the terminal.
// prefixes gives the start of each id to show: unique among all the
// sessions listed, so that it can be given to canopy export.
func printSessions(w io.Writer, sessions []catalog.Session, prefixes map[string]string) {
	if len(sessions) == 0 {
		return
	}
	home, _ := os.UserHomeDir()
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "LAST ACTIVITY\tAGENT\tID\tSIZE\tPROJECT\tTITLE\tPATH")
	for _, s := range sessions {
		date := s.LastActivity
		if t, err := time.Parse(time.RFC3339, s.LastActivity); err == nil {
			date = t.Local().Format("2006-01-02 15:04")
		}
		cells := []string{date, s.Agent, prefixes[s.ID], shortSize(s.Size), clipLeft(tilde(s.Project, home), 40), s.Title, tilde(s.Path, home)}
		for i, c := range cells {
			// A tab would end the cell: escaped as termSafe escapes the rest.
			cells[i] = strings.ReplaceAll(termSafe(c), "\t", `\t`)
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	tw.Flush()
}

// tilde writes a path below the home directory as ~/…, as people read it.
func tilde(p, home string) string {
	if home == "" || home == "/" {
		return p
	}
	if p == home {
		return "~"
	}
	if rest, ok := strings.CutPrefix(p, home+string(filepath.Separator)); ok {
		return "~" + string(filepath.Separator) + rest
	}
	return p
}

// shortSize is a file size in a few characters: 812B, 12K, 3.4M, 1.2G.
func shortSize(n int64) string {
	const k = 1024
	switch {
	case n < k:
		return fmt.Sprintf("%dB", n)
	case n < 10*k:
		return fmt.Sprintf("%.1fK", float64(n)/k)
	case n < k*k:
		return fmt.Sprintf("%dK", n/k)
	case n < 10*k*k:
		return fmt.Sprintf("%.1fM", float64(n)/(k*k))
	case n < k*k*k:
		return fmt.Sprintf("%dM", n/(k*k))
	}
	return fmt.Sprintf("%.1fG", float64(n)/(k*k*k))
}

// idPrefixes maps each id to its shortest start of at least 8 characters
// that no other id shares (the whole id when another starts with it).
func idPrefixes(sessions []catalog.Session) map[string]string {
	ids := make([]string, 0, len(sessions))
	for _, s := range sessions {
		ids = append(ids, s.ID)
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	out := make(map[string]string, len(ids))
	for i, id := range ids {
		n := 8
		for _, j := range []int{i - 1, i + 1} {
			if j >= 0 && j < len(ids) {
				n = max(n, commonPrefix(id, ids[j])+1)
			}
		}
		out[id] = id[:min(n, len(id))]
	}
	return out
}

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// clipLeft keeps the end of s, the part of a path that tells projects
// apart, in at most n runes.
func clipLeft(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return "…" + string(r[len(r)-n+1:])
}

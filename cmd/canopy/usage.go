package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"canopy/archive"
	"canopy/export"
	"canopy/internal/jobs"
	"canopy/internal/stores"
	"canopy/internal/text"
	"canopy/sessiontree"
	spending "canopy/usage"
)

const usageSynopsis = "canopy usage [DIR...] [--by day|project|agent|model] [--since DATE] [--json] [--jobs N]"

// runUsage prints the tokens and cost of the sessions in the agents'
// stores in the home directory, or in the DIRs named, by day, project,
// agent or model.
func runUsage(e *env, args []string) int {
	fs := newFlags("usage")
	byFlag := fs.String("by", "day", "one row per `day` (UTC), project, agent or model")
	since := fs.String("since", "", "only replies on or after `DATE` (YYYY-MM-DD, midnight UTC, or an RFC 3339 time)")
	asJSON := fs.Bool("json", false, "print {by, rows, total, copies, priceTable} as JSON")
	jobs := fs.IntP("jobs", "j", 0, "sessions read at once (default: one per core)")
	if st := parseFlags(e, fs, usageSynopsis, args); st >= 0 {
		return st
	}
	by, err := spending.ParseBy(*byFlag)
	if err != nil {
		fmt.Fprintf(e.stderr, "canopy usage: --by %v\nUsage: %s\n", err, usageSynopsis)
		return exitUsage
	}
	var from time.Time
	if *since != "" {
		if from, err = parseSince(*since); err != nil {
			fmt.Fprintf(e.stderr, "canopy usage: --since: %v\nUsage: %s\n", err, usageSynopsis)
			return exitUsage
		}
	}
	dirs := fs.Args()
	for _, d := range dirs {
		if _, err := os.Stat(d); err != nil {
			printLine(e.stderr, "canopy usage: %s: no such file or directory", d)
			return exitFail
		}
	}
	if len(dirs) == 0 {
		if dirs, err = stores.Home(); err != nil {
			printLine(e.stderr, "canopy usage: finding the agents' session stores: %v", err)
			return exitFail
		}
	}
	ss, files, problems, err := readUsage(e.ctx, stores.Expand(dirs), from, *jobs)
	for _, p := range problems {
		printLine(e.stderr, "canopy usage: %s: %s", p.Path, strings.TrimPrefix(p.Error, p.Path+": "))
	}
	if err != nil {
		printLine(e.stderr, "canopy usage: %v", err)
		return exitInterrupted
	}
	rep := spending.Sum(ss, by)
	if *asJSON {
		b, err := json.Marshal(rep, json.Deterministic(true), jsontext.EscapeForHTML(false), jsontext.WithIndent("  "))
		if err == nil {
			_, err = e.stdout.Write(append(b, '\n'))
		}
		if err != nil {
			printLine(e.stderr, "canopy usage: %v", err)
			return exitFail
		}
	} else {
		printUsage(e.stdout, &rep)
	}
	if files == 0 {
		where := "the agents' stores in the home directory"
		if len(fs.Args()) > 0 {
			where = strings.Join(fs.Args(), ", ")
		}
		printLine(e.stderr, "canopy usage: no sessions in %s", where)
	}
	return exitOK
}

// readUsage finds the sessions below dirs as canopy archive does (a
// gateway's rotated transcripts and Claude Code's subagents included),
// and reads what each spent, on a pool of workers (one per core
// unless told): loading a session is work for a core, and only its
// spend is kept. A file whose last change is before since is not read:
// it holds no reply after it. The sessions come back in path order;
// files counts the files found, read or not.
func readUsage(ctx context.Context, dirs []string, since time.Time, workers int) (ss []spending.Session, files int, problems []archive.Problem, err error) {
	found, problems := archive.Discover(dirs)
	defer archive.CloseSources(found) // the databases' private copies
	files = len(found)
	var srcs []archive.Source
	for _, src := range found {
		if src.Format == archive.FormatGateway || !archive.CountsUsage(src.Rotation) {
			continue
		}
		if fi, err := os.Stat(src.Path); err == nil && !since.IsZero() && fi.ModTime().Before(since) {
			continue
		}
		srcs = append(srcs, src)
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	type result struct {
		s    spending.Session
		ok   bool
		prob *archive.Problem
	}
	results := make([]result, len(srcs))
	jobs.Each(ctx, len(srcs), workers, func(i int) {
		s, err := spendOf(ctx, srcs[i], since)
		switch {
		case err == nil:
			results[i] = result{s: s, ok: true}
		case quietlySkipped(srcs[i], err) || ctx.Err() != nil:
		default:
			results[i].prob = &archive.Problem{Path: srcs[i].Path, Error: err.Error()}
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, files, problems, fmt.Errorf("interrupted: %w", err)
	}
	for _, r := range results {
		switch {
		case r.ok:
			ss = append(ss, r.s)
		case r.prob != nil:
			problems = append(problems, *r.prob)
		}
	}
	return ss, files, problems, nil
}

// quietlySkipped: a .json file met in a walk that is no session (a
// settings file, a subagent's meta file) is passed over, as canopy
// archive passes over it.
func quietlySkipped(src archive.Source, err error) bool {
	return !src.Explicit && src.Format == archive.FormatFlue && errors.Is(err, sessiontree.ErrNotSession)
}

// spendOf loads one session and returns what it spent.
func spendOf(ctx context.Context, src archive.Source, since time.Time) (spending.Session, error) {
	s, err := archive.LoadSource(ctx, src)
	if err != nil {
		return spending.Session{}, err
	}
	defer s.Close()
	out := spending.Session{
		Agent: spending.Agent(s.Format, src.Gateway != nil), Project: spending.Project(s, src.Path),
		Spend: spending.Of(s, since),
	}
	if src.Session != "" { // a session of a database: its document's hash, and its id
		out.Key = hex.EncodeToString(s.SHA256[:]) + "#session=" + src.Session
		return out, nil
	}
	out.Key, err = fileKey(src.Path, s)
	return out, err
}

// fileKey is the SHA-256 of the session's file, as an archive records
// it: the loaded session's own when it was loaded as the file is (not
// decompressed, not grown since).
func fileKey(path string, s *sessiontree.Session) (string, error) {
	if fi, err := os.Stat(path); err == nil && fi.Size() == s.Size && !export.IsCompressed(path) {
		return hex.EncodeToString(s.SHA256[:]), nil
	}
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("reading %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// printUsage writes the report as a table, numbers aligned right, and
// what its costs mean under it.
func printUsage(w io.Writer, rep *spending.Report) {
	head := []string{strings.ToUpper(rep.By.Heading()), "SESSIONS", "REPLIES", "INPUT", "OUTPUT", "CACHE READ", "CACHE WRITE", "TOTAL TOKENS", "COST"}
	cells := [][]string{head}
	partial := false
	row := func(name string, r *spending.Row) []string {
		cost := r.CostText()
		if r.UnpricedReplies > 0 && !r.Unknown() {
			cost += "*"
			partial = true
		}
		return []string{cellText(termSafe(name), maxKeyWidth), text.Thousands(float64(r.Sessions)), text.Thousands(float64(r.Replies)),
			text.Thousands(r.Input), text.Thousands(r.Output), text.Thousands(r.CacheRead), text.Thousands(r.CacheWrite),
			text.Thousands(r.Tokens), cost}
	}
	for i := range rep.Rows {
		r := &rep.Rows[i]
		cells = append(cells, row(text.Or(r.Key, rep.By.None()), r))
	}
	cells = append(cells, row("TOTAL", &rep.Total))
	writeTable(w, cells)
	for _, note := range usageNotes(rep, partial) {
		fmt.Fprintln(w, note)
	}
}

// maxKeyWidth bounds the first column: a project or a model is named by
// the session, and a name of a thousand characters would push every
// number off the screen (--json has it whole).
const maxKeyWidth = 48

// cellText is s cut to n runes, with an ellipsis.
func cellText(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// usageNotes say what the table's costs are made of.
func usageNotes(rep *spending.Report, partial bool) []string {
	var notes []string
	t := &rep.Total
	if t.CostEstimated {
		notes = append(notes, "≈ estimated: the sessions record tokens, not prices; each reply is priced at its date by "+rep.PriceTable+".")
	}
	if t.UnpricedReplies > 0 {
		what := "— unknown: no price"
		if partial {
			what = "* leaves out what has no price"
		}
		notes = append(notes, termSafe(what+" (for "+strings.Join(t.UnpricedModels, ", ")+"): "+text.Thousands(t.UnpricedTokens)+" tokens, "+text.Count(t.UnpricedReplies, "reply", "replies")+"."))
	}
	if rep.Copies > 0 {
		notes = append(notes, text.Count(rep.Copies, "file is a copy", "files are copies")+" of a session counted once.")
	}
	return notes
}

// writeTable writes cells as columns two spaces apart: the first
// aligned left, the others (numbers) right.
func writeTable(w io.Writer, cells [][]string) {
	widths := make([]int, len(cells[0]))
	for _, r := range cells {
		for j, c := range r {
			widths[j] = max(widths[j], utf8.RuneCountInString(c))
		}
	}
	var b strings.Builder
	for _, r := range cells {
		b.Reset()
		for j, c := range r {
			pad := strings.Repeat(" ", widths[j]-utf8.RuneCountInString(c))
			switch {
			case j == 0:
				b.WriteString(c + pad)
			default:
				b.WriteString("  " + pad + c)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

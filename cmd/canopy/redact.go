package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"canopy/redact"
	"canopy/sessiontree"
)

const scanSynopsis = "canopy scan FILE [--json]"

// redactionReport is what --redact-report and `scan --json` write.
type redactionReport struct {
	File     string            `json:"file"`
	Findings []reportedFinding `json:"findings"`
	Kinds    map[string]int    `json:"kinds"` // distinct secrets per kind
}

type reportedFinding struct {
	Kind    string `json:"kind"`
	Marker  string `json:"marker"`
	Line    int    `json:"line"`
	EntryID string `json:"entryId,omitempty"` // "" for the header
}

// redactSession replaces every secret in s's source and loads the result:
// the page, and the session readers download from it, are then made of
// the redacted text only.
func redactSession(s *sessiontree.Session) (*sessiontree.Session, redactionReport, error) {
	r, err := redact.New()
	if err != nil {
		return nil, redactionReport{}, err
	}
	// The whole file at once: redaction is a rare, explicit choice.
	src, err := s.ReadSource()
	if err != nil {
		return nil, redactionReport{}, err
	}
	data, rep := r.Redact(src)
	red, err := sessiontree.Load(data, s.File)
	if err != nil {
		return nil, redactionReport{}, fmt.Errorf("reloading the redacted session: %w", err)
	}
	return red, report(s, rep), nil
}

// report names the entry of every finding (line numbers do not change
// when secrets are replaced).
func report(s *sessiontree.Session, rep redact.Report) redactionReport {
	byLine := make(map[int]string, len(s.Entries))
	for _, e := range s.Entries {
		byLine[e.Line] = e.ID
	}
	out := redactionReport{File: s.File, Kinds: rep.Kinds, Findings: []reportedFinding{}}
	if out.Kinds == nil {
		out.Kinds = map[string]int{}
	}
	for _, f := range rep.Findings {
		out.Findings = append(out.Findings, reportedFinding{Kind: f.Kind, Marker: f.Marker, Line: f.Line, EntryID: byLine[f.Line]})
	}
	return out
}

// printRedactionSummary writes findings by kind, with the entries they
// were in, one line a kind.
func printRedactionSummary(w io.Writer, rep redactionReport, verb string) {
	if len(rep.Findings) == 0 {
		printLine(w, "%s: no secrets found", rep.File)
		return
	}
	where := map[string][]string{}
	seen := map[string]bool{}
	for _, f := range rep.Findings {
		place := f.EntryID
		if place == "" {
			place = fmt.Sprintf("line %d", f.Line)
		}
		if key := f.Kind + "\x00" + place; !seen[key] {
			seen[key] = true
			where[f.Kind] = append(where[f.Kind], place)
		}
	}
	kinds := make([]string, 0, len(where))
	for k := range where {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	printLine(w, "%s: %d secrets %s (%d occurrences):", rep.File, total(rep.Kinds), verb, len(rep.Findings))
	for _, k := range kinds {
		places := where[k]
		more := ""
		if len(places) > 10 {
			more = fmt.Sprintf(" and %d more", len(places)-10)
			places = places[:10]
		}
		printLine(w, "  %-24s %3d  in %s%s", k, rep.Kinds[k], strings.Join(places, ", "), more)
	}
}

func total(kinds map[string]int) int {
	n := 0
	for _, c := range kinds {
		n += c
	}
	return n
}

func writeReport(ctx context.Context, path string, rep redactionReport) error {
	return writeAtomic(ctx, path, func(f io.Writer) error {
		enc := json.NewEncoder(f)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	})
}

// runScan reports the secrets in a session without exporting it: exit 1
// when any is found, so that pipelines can gate on it.
func runScan(e *env, args []string) int {
	fs := newFlags("scan")
	asJSON := fs.Bool("json", false, "print the findings as JSON")
	maxInput := addMaxInput(fs)
	if st := parseFlags(e, fs, scanSynopsis, args); st >= 0 {
		return st
	}
	if fs.NArg() != 1 {
		fmt.Fprintf(e.stderr, "canopy scan: want one FILE (or - for standard input)\nUsage: %s\n", scanSynopsis)
		return exitUsage
	}
	s, err := loadSession(e, fs.Arg(0), int64(*maxInput))
	if err != nil {
		printLine(e.stderr, "canopy: %v", err)
		return exitFail
	}
	defer s.Close()
	src, err := s.ReadSource()
	if err != nil {
		printLine(e.stderr, "canopy: %v", err)
		return exitFail
	}
	r, err := redact.New()
	if err != nil {
		printLine(e.stderr, "canopy: %v", err)
		return exitFail
	}
	_, raw := r.Redact(src)
	rep := report(s, raw)
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			printLine(e.stderr, "canopy: %v", err)
			return exitFail
		}
	} else {
		printRedactionSummary(e.stdout, rep, "found")
	}
	if len(rep.Findings) > 0 {
		return exitFail
	}
	return exitOK
}

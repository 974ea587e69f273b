package main

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"canopy/sessiontree"
)

const inspectSynopsis = "canopy inspect FILE [--leaf ID] [--json]"

func runInspect(e *env, args []string) int {
	fs := newFlags("inspect")
	leafID := fs.String("leaf", "", "compute the active path and context for this entry `id` instead of the session's leaf")
	asJSON := fs.Bool("json", false, "print one JSON object (a stable format for scripts)")
	if st := parseFlags(e, fs, inspectSynopsis, args); st >= 0 {
		return st
	}
	if fs.NArg() != 1 {
		fmt.Fprintf(e.stderr, "canopy inspect: want one FILE (or - for standard input)\nUsage: %s\n", inspectSynopsis)
		return exitUsage
	}
	s, err := loadSession(e, fs.Arg(0))
	if err != nil {
		fmt.Fprintf(e.stderr, "canopy: %v\n", err)
		return exitFail
	}
	defer s.Close()
	leaf := s.Leaf
	if fs.Changed("leaf") {
		if leaf = s.Entry(*leafID); leaf == nil {
			fmt.Fprintf(e.stderr, "canopy: %s: no entry with id %q\n", s.File, *leafID)
			return exitFail
		}
	}
	printDiagnostics(e.stderr, s)
	r := s.Report(leaf)
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(r); err != nil {
			fmt.Fprintf(e.stderr, "canopy: %v\n", err)
			return exitFail
		}
		return exitOK
	}
	printReport(e.stdout, s, &r)
	return exitOK
}

// loadSession loads a path, or standard input for "-".
func loadSession(e *env, path string) (*sessiontree.Session, error) {
	if path == "-" {
		return sessiontree.Read(e.stdin, "-")
	}
	return sessiontree.LoadFile(path)
}

// printDiagnostics writes the input's problems as "file:line: severity: message".
func printDiagnostics(w io.Writer, s *sessiontree.Session) {
	for _, d := range s.Diagnostics {
		if d.Line > 0 {
			fmt.Fprintf(w, "%s:%d: %s: %s\n", s.File, d.Line, d.Severity, d.Message)
		} else {
			fmt.Fprintf(w, "%s: %s: %s\n", s.File, d.Severity, d.Message)
		}
	}
	if s.Suppressed > 0 {
		fmt.Fprintf(w, "%s: %d more problems not listed\n", s.File, s.Suppressed)
	}
}

func printReport(w io.Writer, s *sessiontree.Session, r *sessiontree.Report) {
	name := "(unnamed)"
	if r.SessionName != nil {
		name = *r.SessionName
	}
	leaf := "(none)"
	if r.LeafID != nil {
		leaf = *r.LeafID
	}
	fmt.Fprintf(w, "file:          %s\n", s.File)
	fmt.Fprintf(w, "format:        %s, version %d\n", r.Format, r.Version)
	fmt.Fprintf(w, "session:       %s\n", orDash(r.SessionID))
	fmt.Fprintf(w, "name:          %s\n", name)
	if s.Header.Cwd != "" {
		fmt.Fprintf(w, "cwd:           %s\n", s.Header.Cwd)
	}
	fmt.Fprintf(w, "entries:       %d\n", r.EntryCount)
	fmt.Fprintf(w, "roots:         %d\n", len(r.Roots))
	fmt.Fprintf(w, "leaves:        %d\n", r.Stats.Leaves)
	fmt.Fprintf(w, "branch points: %d\n", r.Stats.BranchPoints)
	fmt.Fprintf(w, "labels:        %d\n", len(r.Labels))
	ids := make([]string, 0, len(r.Labels))
	for id := range r.Labels {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		fmt.Fprintf(w, "  %s  %s\n", id, r.Labels[id])
	}
	fmt.Fprintf(w, "leaf:          %s\n", leaf)
	fmt.Fprintf(w, "active path:   %d entries, %d context messages\n", len(r.ActivePath), len(r.Context))
	model := "(none)"
	if r.Model != nil {
		model = r.Model.Provider + "/" + r.Model.ModelID
	}
	fmt.Fprintf(w, "model:         %s (thinking %s)\n", model, r.ThinkingLevel)
	for _, c := range s.ChildSessions {
		fmt.Fprintf(w, "child session: %s (task %s)\n", c.Session, c.TaskID)
	}
	printStats(w, "path usage:   ", r.Stats.Path)
	printStats(w, "tree usage:   ", r.Stats.Tree)
	fmt.Fprintf(w, "diagnostics:   %d\n", len(r.Diagnostics)+s.Suppressed)
}

func printStats(w io.Writer, title string, st sessiontree.Stats) {
	roles := make([]string, 0, len(st.Messages))
	for role, n := range st.Messages {
		roles = append(roles, fmt.Sprintf("%s %d", role, n))
	}
	sort.Strings(roles)
	models := make([]string, len(st.Models))
	for i, m := range st.Models {
		models[i] = m.Provider + "/" + m.ModelID
	}
	u := st.Usage
	fmt.Fprintf(w, "%s %d entries; messages: %s; tool calls %d\n", title, st.Entries, orDash(strings.Join(roles, ", ")), st.ToolCalls)
	fmt.Fprintf(w, "               tokens: input %.0f, output %.0f, cache read %.0f, cache write %.0f; cost $%.4f\n",
		u.Input, u.Output, u.CacheRead, u.CacheWrite, u.Cost.Total)
	if len(models) > 0 {
		fmt.Fprintf(w, "               models: %s\n", strings.Join(models, ", "))
	}
	if st.Compactions > 0 {
		fmt.Fprintf(w, "               compactions: %d\n", st.Compactions)
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

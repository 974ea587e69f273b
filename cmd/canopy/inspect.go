package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"

	"canopy/export"
	"canopy/internal/text"
	"canopy/pricing"
	"canopy/sessiontree"
)

const inspectSynopsis = "canopy inspect FILE [--leaf ID] [--branches] [--json]"

func runInspect(e *env, args []string) int {
	fs := newFlags("inspect")
	leafID := fs.String("leaf", "", "compute the active path and context for this entry `id` instead of the session's leaf")
	asJSON := fs.Bool("json", false, "print one JSON object (a stable format for scripts)")
	branches := fs.Bool("branches", false, "list every branch: its leaf, where it forks, its entries, turns, tool calls, tokens, cost, time and files touched")
	maxInput := addMaxInput(fs)
	e.addSession(fs)
	s, st := e.loadOne(fs, inspectSynopsis, args, maxInput)
	if st >= 0 {
		return st
	}
	defer s.Close()
	leaf := s.Leaf
	if fs.Changed("leaf") {
		if leaf = s.Entry(*leafID); leaf == nil {
			printLine(e.stderr, "canopy: %s: no entry with id %q", s.File, *leafID)
			return exitFail
		}
	}
	e.notify(export.Diagnostics(s)...)
	if *branches {
		return e.printBranches(s, leaf, *asJSON)
	}
	r := s.Report(leaf)
	if *asJSON {
		// As encoding/json's Encoder wrote it (v1's options, HTML not escaped).
		b, err := json.Marshal(r, jsonv1.DefaultOptionsV1(), jsontext.EscapeForHTML(false))
		if err == nil {
			_, err = e.stdout.Write(append(b, '\n'))
		}
		if err != nil {
			printLine(e.stderr, "canopy: %v", err)
			return exitFail
		}
		return exitOK
	}
	printReport(e.stdout, s, &r)
	return exitOK
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
	printLine(w, "file:          %s\n", s.File)
	printLine(w, "format:        %s\n", s.FormatLabel())
	printLine(w, "session:       %s\n", text.Or(r.SessionID, "-"))
	printLine(w, "name:          %s\n", name)
	if s.Header.Cwd != "" {
		printLine(w, "cwd:           %s\n", s.Header.Cwd)
	}
	printLine(w, "entries:       %d\n", r.EntryCount)
	printLine(w, "roots:         %d\n", len(r.Roots))
	printLine(w, "leaves:        %d\n", r.Stats.Leaves)
	printLine(w, "branch points: %d\n", r.Stats.BranchPoints)
	printLine(w, "labels:        %d\n", len(r.Labels))
	ids := make([]string, 0, len(r.Labels))
	for id := range r.Labels {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		printLine(w, "  %s  %s\n", id, r.Labels[id])
	}
	printLine(w, "leaf:          %s\n", leaf)
	printLine(w, "active path:   %d entries, %d context messages\n", len(r.ActivePath), len(r.Context))
	model := "(none)"
	if r.Model != nil {
		model = r.Model.Provider + "/" + r.Model.ModelID
	}
	printLine(w, "model:         %s (thinking %s)\n", model, r.ThinkingLevel)
	for _, c := range s.ChildSessions {
		printLine(w, "child session: %s (task %s)\n", c.Session, c.TaskID)
	}
	printStats(w, "path usage:   ", r.Stats.Path)
	printStats(w, "tree usage:   ", r.Stats.Tree)
	printLine(w, "diagnostics:   %d\n", len(r.Diagnostics)+s.Suppressed)
}

func printStats(w io.Writer, title string, st sessiontree.Stats) {
	roles := make([]string, 0, len(st.Messages))
	for role, n := range st.Messages {
		roles = append(roles, fmt.Sprintf("%s %d", role, n))
	}
	sort.Strings(roles)
	models := modelNames(st.Models)
	u := st.Usage
	printLine(w, "%s %d entries; messages: %s; tool calls %d\n", title, st.Entries, text.Or(strings.Join(roles, ", "), "-"), st.ToolCalls)
	printLine(w, "               tokens: input %.0f, output %.0f, cache read %.0f, cache write %.0f; cost %s\n",
		u.Input, u.Output, u.CacheRead, u.CacheWrite, inspectCost(&st))
	if len(models) > 0 {
		printLine(w, "               models: %s\n", strings.Join(models, ", "))
	}
	if len(st.UnpricedModels) > 0 {
		printLine(w, "               no price for: %s (not in %s; their tokens are not in the cost)\n",
			strings.Join(modelNames(st.UnpricedModels), ", "), pricing.Source())
	}
	if st.Compactions > 0 {
		printLine(w, "               compactions: %d\n", st.Compactions)
	}
}

func modelNames(ms []sessiontree.Model) []string {
	names := make([]string, len(ms))
	for i, m := range ms {
		names[i] = m.Provider + "/" + m.ModelID
	}
	return names
}

// inspectCost is the cost as recorded ("$0.0143", as before); else, for
// the formats that record none, estimated and labelled so; "—" when
// nothing priced the tokens, never a $0 that means unknown.
func inspectCost(st *sessiontree.Stats) string {
	c := st.Cost()
	switch {
	case c.Unknown:
		return "— (unknown)"
	case !c.Estimated:
		return fmt.Sprintf("$%.4f", st.Usage.Cost.Total)
	}
	s := fmt.Sprintf("≈$%.4f estimated from %s", c.USD, pricing.Source())
	if r := st.Usage.Cost.Total; r != 0 {
		s += fmt.Sprintf(", $%.4f of it recorded", r)
	}
	return s
}

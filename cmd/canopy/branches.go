package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"

	"canopy/internal/text"
	"canopy/sessiontree"
)

// branchJSON is one branch as `inspect --branches --json` prints it: a
// stable format for scripts.
type branchJSON struct {
	LeafID    string  `json:"leafId"`
	ForkID    *string `json:"forkId"` // null for the active path, and a branch of a root of its own
	Active    bool    `json:"active"`
	Entries   int     `json:"entries"`
	Turns     int     `json:"turns"`
	ToolCalls int     `json:"toolCalls"`
	Tokens    float64 `json:"tokens"`
	// Cost in USD; null when unknown (tokens no price covers), never a 0
	// that means unknown. CostEstimated: at least in part estimated
	// from the price table (the format records tokens, not prices).
	Cost          *float64 `json:"cost"`
	CostEstimated bool     `json:"costEstimated"`
	First         string   `json:"first,omitempty"` // RFC 3339, UTC
	Last          string   `json:"last,omitempty"`
	Seconds       float64  `json:"seconds"` // first to last
	Files         []string `json:"files"`
}

// branchesJSON is what `inspect --branches --json` prints.
type branchesJSON struct {
	File     string       `json:"file"`
	Branches []branchJSON `json:"branches"`
}

// printBranches lists s's branches, the path to leaf first.
func (e *env) printBranches(s *sessiontree.Session, leaf *sessiontree.Entry, asJSON bool) int {
	pairs := sessiontree.PairCalls(s)
	out := branchesJSON{File: s.File, Branches: []branchJSON{}}
	for _, b := range s.Branches(leaf) {
		f := s.Figures(b.Entries, pairs)
		j := branchJSON{LeafID: b.Leaf.ID, Active: b.Active, Entries: f.Entries, Turns: f.Turns,
			ToolCalls: f.ToolCalls, Tokens: f.Tokens, CostEstimated: f.Cost.Estimated,
			Seconds: f.Spent().Seconds(), Files: f.Files}
		if b.Fork != nil {
			j.ForkID = &b.Fork.ID
		}
		if !f.Cost.Unknown {
			j.Cost = &f.Cost.USD
		}
		if !f.First.IsZero() {
			j.First, j.Last = f.First.UTC().Format(time.RFC3339Nano), f.Last.UTC().Format(time.RFC3339Nano)
		}
		if j.Files == nil {
			j.Files = []string{}
		}
		out.Branches = append(out.Branches, j)
	}
	var err error
	if asJSON {
		var b []byte
		b, err = json.Marshal(out, jsonv1.DefaultOptionsV1(), jsontext.EscapeForHTML(false), jsontext.WithIndent("  "))
		if err == nil {
			_, err = e.stdout.Write(append(b, '\n'))
		}
	} else {
		err = writeBranches(e.stdout, out.Branches)
	}
	if err != nil {
		printLine(e.stderr, "canopy: %v", err)
		return exitFail
	}
	return exitOK
}

// writeBranches writes the branches as a table, and under it what the
// branches that were left spent.
func writeBranches(w io.Writer, bs []branchJSON) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "branch\tleaf\tforks at\tentries\tturns\tcalls\ttokens\tcost\ttime\tfiles\t")
	var left branchJSON
	known := true
	nLeft := 0
	for i, b := range bs {
		name := fmt.Sprint(i + 1)
		if b.Active {
			name = "active"
		} else {
			nLeft++
			left.Entries += b.Entries
			left.Turns += b.Turns
			left.ToolCalls += b.ToolCalls
			left.Tokens += b.Tokens
			left.Seconds += b.Seconds
			left.Files = append(left.Files, b.Files...)
			left.CostEstimated = left.CostEstimated || b.CostEstimated
			if b.Cost == nil {
				known = false
			} else {
				left.Cost = addCost(left.Cost, *b.Cost)
			}
		}
		fork := "-"
		if b.ForkID != nil {
			fork = shortID(*b.ForkID)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", name, shortID(b.LeafID), fork, figuresRow(&b))
	}
	if nLeft > 0 {
		if !known {
			left.Cost = nil
		}
		left.Files = distinct(left.Files)
		fmt.Fprintf(tw, "left\t%s\t\t%s\n", text.Count(nLeft, "branch", "branches"), figuresRow(&left))
	}
	return tw.Flush()
}

func addCost(c *float64, v float64) *float64 {
	if c == nil {
		return &v
	}
	sum := *c + v
	return &sum
}

// figuresRow is a branch's figures as table cells.
func figuresRow(b *branchJSON) string {
	cost := "—"
	if b.Cost != nil {
		cost = fmt.Sprintf("$%.4f", *b.Cost)
		if b.CostEstimated {
			cost = "≈" + cost
		}
	}
	return strings.Join([]string{text.Thousands(float64(b.Entries)), text.Thousands(float64(b.Turns)),
		text.Thousands(float64(b.ToolCalls)), text.Thousands(b.Tokens), cost,
		spentText(time.Duration(b.Seconds * float64(time.Second))), fmt.Sprint(len(b.Files))}, "\t") + "\t"
}

// shortID is an id cut to 12 characters for a table.
func shortID(id string) string {
	if r := []rune(id); len(r) > 12 {
		return string(r[:12])
	}
	return id
}

// distinct is ss without repeats, in order.
func distinct(ss []string) []string {
	seen := make(map[string]bool, len(ss))
	out := ss[:0:0]
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// spentText is a duration for a table: "42s", "14m", "2h05m".
func spentText(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	}
	return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
}

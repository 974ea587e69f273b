package usage

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"canopy/pricing"
)

// Session is one session's usage, as Sum adds it up.
type Session struct {
	// Key tells copies of one session apart from sessions: the SHA-256
	// of its file. Sessions with the same Key are counted once (a Codex
	// rollout left in sessions/ when a copy went to archived_sessions/,
	// a file copied under another name); "" is always counted.
	Key     string
	Agent   string // Agent
	Project string // Project
	Spend   []Spend
}

// By is what rows are made of.
type By string

// The dimensions usage is summed by.
const (
	ByDay     By = "day"
	ByProject By = "project"
	ByAgent   By = "agent"
	ByModel   By = "model"
)

// Dimensions are every By, in the order the archive's usage page shows them.
var Dimensions = []By{ByDay, ByProject, ByAgent, ByModel}

// ParseBy reads a --by value.
func ParseBy(s string) (By, error) {
	for _, b := range Dimensions {
		if string(b) == s {
			return b, nil
		}
	}
	return "", fmt.Errorf("%q: want day, project, agent or model", s)
}

// Heading is what the dimension's column is called.
func (b By) Heading() string {
	return map[By]string{ByDay: "Day", ByProject: "Project", ByAgent: "Agent", ByModel: "Model"}[b]
}

// None is what a row of no day, project or model is called.
func (b By) None() string {
	return map[By]string{ByDay: "(no date)", ByProject: "(no project)", ByAgent: "(no agent)", ByModel: "(no model named)"}[b]
}

// Row is the sum of the spend of one day, project, agent or model (or of
// all: a Report's Total). The JSON names are `canopy usage --json`'s.
type Row struct {
	Key      string `json:"key"`      // the day, project, agent or model; "" for none (and for the total)
	Sessions int    `json:"sessions"` // sessions that spent anything here
	Replies  int    `json:"replies"`

	Input      float64 `json:"inputTokens"`
	Output     float64 `json:"outputTokens"`
	CacheRead  float64 `json:"cacheReadTokens"`
	CacheWrite float64 `json:"cacheWriteTokens"`
	Tokens     float64 `json:"totalTokens"`

	// Cost is Recorded plus Estimated, in US dollars; null (nil) when it
	// is unknown: tokens were used and nothing priced any of them.
	Cost          *float64 `json:"cost"`
	Recorded      float64  `json:"costRecorded"`
	Estimated     float64  `json:"costEstimated"`
	CostEstimated bool     `json:"estimated"` // some of Cost is estimated from PriceTable
	// UnpricedTokens are the tokens no price was found for: not in Cost.
	// UnpricedReplies counts the replies whose cost is unknown (those
	// tokens', and replies of a session that records neither tokens nor
	// prices); UnpricedModels names the models of such replies.
	UnpricedTokens  float64  `json:"unpricedTokens"`
	UnpricedReplies int      `json:"unpricedReplies"`
	UnpricedModels  []string `json:"unpricedModels"`

	last int // the last session counted here, +1
}

// add adds one spend of session i (from 0) to the row.
func (r *Row) add(s *Spend, i int) {
	if r.last != i+1 {
		r.last = i + 1
		r.Sessions++
	}
	r.Replies += s.Replies
	sum := func(a *float64, b float64) { *a = min(*a+b, math.MaxFloat64) } // saturates, as Stats does
	sum(&r.Input, s.Input)
	sum(&r.Output, s.Output)
	sum(&r.CacheRead, s.CacheRead)
	sum(&r.CacheWrite, s.CacheWrite)
	sum(&r.Recorded, s.Recorded)
	sum(&r.Estimated, s.Estimated)
	r.CostEstimated = r.CostEstimated || s.CostEstimated
	if s.Unpriced {
		sum(&r.UnpricedTokens, s.Tokens())
		r.UnpricedReplies += max(s.Replies, 1)
		if m := ByModel.None(); !slices.Contains(r.UnpricedModels, cmp.Or(s.Model, m)) {
			r.UnpricedModels = append(r.UnpricedModels, cmp.Or(s.Model, m))
		}
	}
}

// finish fills in the row's totals once every spend is added.
func (r *Row) finish() {
	r.Tokens = min(r.Input+r.Output+r.CacheRead+r.CacheWrite, math.MaxFloat64)
	r.Cost = nil
	if !r.Unknown() {
		c := min(r.Recorded+r.Estimated, math.MaxFloat64)
		r.Cost = &c
	}
	slices.Sort(r.UnpricedModels)
	if r.UnpricedModels == nil {
		r.UnpricedModels = []string{}
	}
}

// Unknown reports whether the row's cost is unknown: some replies had no
// price, and nothing else was priced (the page's rule, Stats.Cost).
func (r *Row) Unknown() bool {
	return r.UnpricedReplies > 0 && !r.CostEstimated && r.Recorded == 0
}

// CostText is the row's cost as people read it: "$1.20" recorded,
// "≈$3.40" when some of it is estimated, "—" when unknown (never a $0
// that means unknown).
func (r *Row) CostText() string {
	switch {
	case r.Unknown():
		return "—"
	case r.CostEstimated:
		return pricing.Approx(r.Recorded + r.Estimated)
	}
	return pricing.Dollars(r.Recorded)
}

// CostNote says what the row's cost leaves out or is made of; "" when it
// is all recorded and complete.
func (r *Row) CostNote() string {
	var parts []string
	if r.CostEstimated {
		if r.Recorded != 0 {
			parts = append(parts, pricing.Dollars(r.Recorded)+" recorded, "+pricing.Approx(r.Estimated)+" estimated")
		} else {
			parts = append(parts, "estimated")
		}
	}
	if r.UnpricedReplies > 0 {
		parts = append(parts, "no price for "+strings.Join(r.UnpricedModels, ", "))
	}
	return strings.Join(parts, "; ")
}

// Report is usage summed by one dimension.
type Report struct {
	By    By    `json:"by"`
	Rows  []Row `json:"rows"`
	Total Row   `json:"total"`
	// Copies counts the sessions left out as copies of one counted
	// (Session.Key).
	Copies int `json:"copies"`
	// PriceTable names the table estimated costs come from.
	PriceTable string `json:"priceTable"`
}

// Sum adds ss up by the dimension by: a row for each day (oldest first),
// project, agent or model (the costliest first). Sessions with a Key
// already met are copies, counted once.
func Sum(ss []Session, by By) Report {
	rep := Report{By: by, Rows: []Row{}, PriceTable: pricing.Source()}
	rows := map[string]*Row{}
	seen := map[string]bool{}
	for i := range ss {
		s := &ss[i]
		if s.Key != "" {
			if seen[s.Key] {
				rep.Copies++
				continue
			}
			seen[s.Key] = true
		}
		for j := range s.Spend {
			sp := &s.Spend[j]
			k := keyOf(s, sp, by)
			r := rows[k]
			if r == nil {
				r = &Row{Key: k}
				rows[k] = r
			}
			r.add(sp, i)
			rep.Total.add(sp, i)
		}
	}
	for _, r := range rows {
		r.finish()
		rep.Rows = append(rep.Rows, *r)
	}
	rep.Total.finish()
	slices.SortFunc(rep.Rows, func(a, b Row) int { return compareRows(&a, &b, by) })
	return rep
}

func keyOf(s *Session, sp *Spend, by By) string {
	switch by {
	case ByDay:
		return sp.Day
	case ByProject:
		return s.Project
	case ByAgent:
		return s.Agent
	}
	return sp.Model
}

// compareRows orders days oldest first (no date last), and the others
// costliest first: known cost, then tokens, then name.
func compareRows(a, b *Row, by By) int {
	if by == ByDay {
		if (a.Key == "") != (b.Key == "") {
			if a.Key == "" {
				return 1
			}
			return -1
		}
		return cmp.Compare(a.Key, b.Key)
	}
	return cmp.Or(-cmp.Compare(costOrZero(a), costOrZero(b)), -cmp.Compare(a.Tokens, b.Tokens), cmp.Compare(a.Key, b.Key))
}

func costOrZero(r *Row) float64 {
	if r.Cost == nil {
		return 0
	}
	return *r.Cost
}

// Package usage adds up what agents' sessions spent (tokens and cost) by
// day, project, agent or model: `canopy usage` prints it from the stores,
// an archive's usage page draws it. Each session's replies are attributed
// to the day of their timestamp (UTC: the same figures on every machine,
// and in an archive made on one machine and read on another) and to their
// model (Of); sessions are then summed into rows (Sum). Tokens and costs
// are the page's: sessiontree.Stats over the replies of each day and
// model, so that the rows of a session add up to its page's figures.
package usage

import (
	"cmp"
	"slices"
	"time"

	"canopy/sessiontree"
)

// Spend is what one session spent on one day with one model: the figures
// sessiontree.Stats gives for its replies (and Flue's compactions) of
// that day and model. The JSON names are kept in archives' manifests.
type Spend struct {
	Day     string `json:"day,omitempty"`   // YYYY-MM-DD, UTC; "" when the replies have no time
	Model   string `json:"model,omitempty"` // provider/model as ModelName writes it; "" when none is named
	Replies int    `json:"replies"`         // assistant replies (a reply streamed over several lines is one)

	Input      float64 `json:"input,omitempty"` // input tokens neither read from nor written to the cache
	Output     float64 `json:"output,omitempty"`
	CacheRead  float64 `json:"cacheRead,omitempty"`
	CacheWrite float64 `json:"cacheWrite,omitempty"`

	// Recorded is the cost the session records (pi's, and Flue's
	// compactions); Estimated the cost estimated from package pricing for
	// the replies that record tokens and no cost (Claude Code's, Codex's);
	// CostEstimated says that some reply was estimated.
	Recorded      float64 `json:"recorded,omitempty"`
	Estimated     float64 `json:"estimated,omitempty"`
	CostEstimated bool    `json:"costEstimated,omitempty"`
	// Unpriced: nothing priced these replies' tokens (a model the table
	// does not know), or the session records neither tokens nor prices
	// (Stats.NoTokens): their cost is unknown, not zero.
	Unpriced bool `json:"unpriced,omitempty"`
}

// Tokens is every token the spend counts.
func (s *Spend) Tokens() float64 { return s.Input + s.Output + s.CacheRead + s.CacheWrite }

// Of is what session s spent, by day and model, in that order. Replies
// before since are left out (and with since set, replies with no time
// too, which cannot be said to come after it); a zero since leaves out
// none.
func Of(s *sessiontree.Session, since time.Time) []Spend {
	type key struct {
		day   string
		model sessiontree.Model
	}
	groups := map[key][]*sessiontree.Entry{}
	var order []key
	for _, e := range s.Entries {
		counted := e.Type == sessiontree.TypeMessage && e.Role == sessiontree.RoleAssistant && !e.Continues ||
			e.Type == sessiontree.TypeCompaction && e.Usage != nil
		if !counted {
			continue
		}
		if !since.IsZero() && (!e.TimeOK || e.Time.Before(since)) {
			continue
		}
		k := key{model: sessiontree.Model{Provider: e.Provider, ModelID: e.Model}}
		if e.TimeOK {
			k.day = Day(e.Time)
		}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], e)
	}
	out := make([]Spend, 0, len(order))
	noTokens, zero := false, true // the whole session's Stats.NoTokens, from its groups'
	stats := make([]sessiontree.Stats, len(order))
	for i, k := range order {
		st := s.Stats(groups[k])
		stats[i] = st
		u := st.Usage
		noTokens = noTokens || st.NoTokens
		zero = zero && u.Input+u.Output+u.CacheRead+u.CacheWrite == 0 && u.Cost.Total == 0
		out = append(out, Spend{
			Day: k.day, Model: ModelName(k.model), Replies: st.Messages[sessiontree.RoleAssistant],
			Input: u.Input, Output: u.Output, CacheRead: u.CacheRead, CacheWrite: u.CacheWrite,
			Recorded:  u.Cost.Total + st.CompactionUsage.Cost.Total,
			Estimated: st.EstimatedCost, CostEstimated: st.CostEstimated,
			Unpriced: len(st.UnpricedModels) > 0,
		})
	}
	// Replies that record no tokens make the cost unknown only when no
	// reply of the session records any, as Stats says of the session
	// (a group of such replies beside others that do is no unknown).
	for i := range out {
		out[i].Unpriced = out[i].Unpriced || noTokens && zero && stats[i].NoTokens
	}
	slices.SortStableFunc(out, func(a, b Spend) int {
		return cmp.Or(cmp.Compare(a.Day, b.Day), cmp.Compare(a.Model, b.Model))
	})
	return out
}

// Day is the day t falls on, UTC, as Spend.Day writes it.
func Day(t time.Time) string { return t.UTC().Format(time.DateOnly) }

// ModelName is "provider/model", or whichever of them is known: how the
// archive's index and the usage rows name a model.
func ModelName(m sessiontree.Model) string {
	switch {
	case m.Provider != "" && m.ModelID != "":
		return m.Provider + "/" + m.ModelID
	case m.ModelID == "":
		return m.Provider
	}
	return m.ModelID
}

// Project is the project a session stands for: its working directory,
// else, for an agent that keeps a directory per project, that
// directory's name (path is the session's file).
func Project(s *sessiontree.Session, path string) string {
	if s.Header.Cwd == "" && sessiontree.AgentOf(s.Format).ProjectDirs {
		return sessiontree.ProjectDir(path)
	}
	return s.Header.Cwd
}

// Agent is the agent a session's usage is counted under: its format as
// its reader names it (what canopy list's AGENT column shows), or
// "gateway" for a transcript a gateway's store lists.
func Agent(format string, gateway bool) string {
	if gateway {
		return "gateway"
	}
	return format
}

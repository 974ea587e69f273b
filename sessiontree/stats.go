package sessiontree

import (
	"math"
	"time"

	"canopy/pricing"
)

// Stats counts what a set of entries holds: the header of a page, the
// summary of `canopy inspect`.
type Stats struct {
	Entries   int            `json:"entries"`
	Messages  map[string]int `json:"messages"` // message entries by role
	ToolCalls int            `json:"toolCalls"`
	Errors    int            `json:"errors"`  // assistant messages that stopped with an error
	Aborted   int            `json:"aborted"` // assistant messages that were aborted
	Usage     Usage          `json:"usage"`   // assistant messages' tokens and cost (USD)
	Models    []Model        `json:"models"`  // distinct, in order of first use

	Compactions     int   `json:"compactions"`
	CompactionUsage Usage `json:"compactionUsage"` // what making the summaries cost (Flue)

	// The cost of the assistant messages that record tokens and no cost
	// (Claude Code's and Codex's), estimated from the table of package
	// pricing (genai-prices); Usage.Cost stays what the session records.
	// CostEstimated says that some message was estimated; UnpricedModels
	// are the models of such messages that the table does not know: their
	// tokens are in Usage, their cost nowhere.
	EstimatedCost  float64 `json:"estimatedCost"`
	CostEstimated  bool    `json:"costEstimated"`
	UnpricedModels []Model `json:"unpricedModels"`
	// NoTokens: the format records tokens, not prices, and no reply
	// recorded any (a Codex rollout without token counts): the cost is
	// unknown, not zero. Tokens recorded as zero cost zero.
	NoTokens bool `json:"noTokens,omitzero"`
}

// Stats sums the given entries (for example s.Entries, or a path).
func (s *Session) Stats(entries []*Entry) Stats {
	return s.Statter().Stats(entries)
}

// A Statter sums entries of one session as Session.Stats does, looking
// each model's price up once for all its calls: for a caller that sums
// many small sets (the compare view sums every entry on its own).
type Statter struct {
	s    *Session
	est  estimator
	seen map[Model]bool // the models a sum has named, cleared for each
}

// Statter is a Statter of s.
func (s *Session) Statter() *Statter {
	a := AgentOf(s.Format)
	return &Statter{s: s, est: estimator{on: a.EstimateCost, noModelFree: a.NoModelUnbilled}}
}

// Stats is Session.Stats of entries.
func (c *Statter) Stats(entries []*Entry) Stats {
	var st Stats
	c.StatsInto(&st, entries)
	return st
}

// StatsInto is Stats of entries into *st, reusing its map and slices: for
// a caller that sums one small set after another and keeps none (the
// compare view sums each of 100,000 entries on its own).
func (c *Statter) StatsInto(st *Stats, entries []*Entry) {
	msgs, models, unpriced := st.Messages, st.Models[:0], st.UnpricedModels[:0]
	if msgs == nil {
		msgs = map[string]int{}
	}
	clear(msgs)
	if models == nil {
		models = []Model{}
	}
	if unpriced == nil {
		unpriced = []Model{}
	}
	*st = Stats{Entries: len(entries), Messages: msgs, Models: models, UnpricedModels: unpriced}
	var missing unrecorded // replies that record no usage, of a format whose cost is estimated from tokens
	est := &c.est
	clear(est.named) // each sum names its unpriced models
	if c.seen == nil {
		c.seen = map[Model]bool{}
	}
	seen := c.seen
	clear(seen)
	addModel := func(m Model) {
		if (m.Provider != "" || m.ModelID != "") && !seen[m] {
			seen[m] = true
			st.Models = append(st.Models, m)
		}
	}
	for _, e := range entries {
		switch e.Type {
		case TypeMessage:
			if e.Continues {
				continue // counted with the line that starts its turn
			}
			st.Messages[e.Role]++
			if e.Role == RoleAssistant {
				st.ToolCalls += e.ToolCalls
				st.Usage.add(e.Usage)
				addModel(Model{e.Provider, e.Model})
				est.add(st, e)
				missing.add(est, e)
				switch e.StopReason {
				case "error":
					st.Errors++
				case "aborted":
					st.Aborted++
				}
			}
		case TypeCustomMessage:
			// An extension's message, which the model saw: a message kind
			// of its own, counted as the reference counts it ("1 custom").
			st.Messages[RoleCustom]++
		case TypeModelChange:
			addModel(Model{e.Provider, e.Model})
		case TypeCompaction:
			st.Compactions++
			st.CompactionUsage.add(e.Usage)
		}
	}
	u := st.Usage
	st.NoTokens = missing.any() && u.Input+u.Output+u.CacheRead+u.CacheWrite == 0 && u.Cost.Total == 0
}

// UsageSince sums the entries appended after the entry `since` on the path
// to leaf, Flue's rule. When `since` is not on that path the answer is
// unknown, never a guess: ok is false.
func (s *Session) UsageSince(since string, leaf *Entry) (st Stats, ok bool) {
	path := s.Path(leaf)
	for i, e := range path {
		if e.ID == since {
			return s.Stats(path[i+1:]), true
		}
	}
	return Stats{}, false
}

// unrecorded counts the replies of a format whose cost is estimated from
// tokens that record no usage: when no reply records any, the cost is
// unknown, not zero (Stats.NoTokens).
type unrecorded struct {
	named, modelless int // with a model; without one
	modelled         int // replies with a model, usage or not
}

// add counts e, a reply. One with no model, of an agent that makes such
// replies itself (NoModelUnbilled: Claude Code's API errors), is never
// billed, unless no reply of the sum has a model: then nothing says what
// ran them (a Copilot session that names no model).
func (m *unrecorded) add(x *estimator, e *Entry) {
	if e.Model != "" {
		m.modelled++
	}
	if !x.on || e.Usage != nil {
		return
	}
	if e.Model == "" && x.noModelFree {
		m.modelless++
	} else {
		m.named++
	}
}

func (m *unrecorded) merge(o *unrecorded) {
	m.named += o.named
	m.modelless += o.modelless
	m.modelled += o.modelled
}

// any reports whether some reply should have recorded usage and did not.
func (m *unrecorded) any() bool { return m.named > 0 || m.modelless > 0 && m.modelled == 0 }

// estimator prices the messages of a format that records no cost, each
// model looked up once.
type estimator struct {
	on, noModelFree bool
	models          map[Model]*pricing.Model // nil: the table does not know it
	named           map[Model]bool           // the unpriced models add has named
}

// add adds e's estimated cost to st, or names its model as unpriced (once).
func (x *estimator) add(st *Stats, e *Entry) {
	usd, p := x.price(e)
	switch p {
	case priced:
		st.CostEstimated = true
		st.EstimatedCost = min(st.EstimatedCost+usd, math.MaxFloat64) // saturates, as Usage.add does
	case unpriced:
		key := Model{e.Provider, e.Model}
		if !x.named[key] {
			if x.named == nil {
				x.named = map[Model]bool{}
			}
			x.named[key] = true
			st.UnpricedModels = append(st.UnpricedModels, key)
		}
	}
}

// What price made of a message.
const (
	notPriced = iota // nothing to price: a cost recorded, no tokens, a message never billed, or a format with prices
	priced           // estimated from the table
	unpriced         // tokens of a model the table does not know
)

// price is e's estimated cost, and whether it was estimated. A message
// with a cost recorded (Claude Code's old costUSD) keeps it: notPriced.
func (x *estimator) price(e *Entry) (usd float64, p int) {
	u := e.Usage
	if !x.on || u == nil || u.Cost.Total != 0 || !(u.Input+u.Output+u.CacheRead+u.CacheWrite > 0) {
		return 0, notPriced
	}
	if x.noModelFree && e.Model == "" {
		return 0, notPriced // "<synthetic>": a message Claude Code made itself (an API error), never billed
	}
	key := Model{e.Provider, e.Model}
	m, seen := x.models[key]
	if !seen {
		if found, ok := pricing.Lookup(e.Provider, e.Model); ok {
			m = &found
		}
		if x.models == nil {
			x.models = map[Model]*pricing.Model{}
		}
		x.models[key] = m
	}
	if m == nil {
		return 0, unpriced
	}
	var at time.Time // none: the table's date
	if e.TimeOK {
		at = e.Time
	}
	return m.Cost(pricing.Usage{Input: u.Input, Output: u.Output, CacheRead: u.CacheRead, CacheWrite: u.CacheWrite, CacheWrite1h: u.CacheWrite1h}, at), priced
}

// Cost is what the entries cost, as far as it is known.
type Cost struct {
	USD float64 // recorded (with Flue's compactions) plus estimated
	// Estimated: USD is, at least in part, genai-prices' estimate
	// (pricing.Source names the table).
	Estimated bool
	// Unknown: tokens were used and nothing priced them, neither the
	// session nor the table. USD is no figure then, not even zero.
	Unknown bool
	// Unpriced: the models whose tokens USD does not count.
	Unpriced []Model
}

// Cost is st's cost: what the session records, plus what was estimated.
func (st *Stats) Cost() Cost {
	recorded := st.Usage.Cost.Total + st.CompactionUsage.Cost.Total
	return Cost{
		USD:       min(recorded+st.EstimatedCost, math.MaxFloat64),
		Estimated: st.CostEstimated,
		Unknown:   (len(st.UnpricedModels) > 0 || st.NoTokens) && !st.CostEstimated && recorded == 0,
		Unpriced:  st.UnpricedModels,
	}
}

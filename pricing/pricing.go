// Package pricing estimates what a message cost from the tokens it used,
// for the sessions that record tokens but no price (Claude Code, Codex).
//
// The prices are genai-prices' (https://github.com/pydantic/genai-prices,
// MIT), pinned in tools/prices and written into prices_gen.go by
// `go generate ./pricing`; CI does not regenerate it. A model is found and
// priced as genai-prices' calcPrice does: the provider by id or match rule
// (else by the model's prefix), the model by its match rules, the prices
// that applied at the message's time, tiers chosen by the input size, cache
// reads and writes at their own prices. testdata/calcprice.json holds
// prices calcPrice computed; the tests hold Estimate to them.
package pricing

//go:generate go run ./internal/genprices

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// Usage is what one message used, in canopy's terms (pi's): Input is the
// input tokens neither read from nor written to the cache; genai-prices
// counts all of them as input and the cache's as part of it.
//
// CacheWrite1h is the part of CacheWrite written to Anthropic's one-hour
// cache (Claude Code records it as cache_creation's
// ephemeral_1h_input_tokens). Anthropic charges those writes twice the
// input price, the five-minute ones 1.25 times; genai-prices 0.1.8 has
// one cache-write price, the five-minute one, so Cost prices the
// one-hour part at twice the model's input price itself.
type Usage struct {
	Input, Output, CacheRead, CacheWrite float64
	CacheWrite1h                         float64
}

// Model is a model the table prices.
type Model struct {
	m *model
}

// ID is genai-prices' id of the model ("claude-sonnet-4-5" for
// "claude-sonnet-4-5-20250929").
func (m Model) ID() string { return m.m.id }

// Source names the table, for a label: "genai-prices 0.1.8 (2026-09-23)".
func Source() string {
	return "genai-prices " + Version + " (" + DataDate + ")"
}

// Estimate is what a message of the model cost, in US dollars, at time
// at; ok is false when the table does not know the model. A zero at is
// the table's date.
func Estimate(provider, model string, u Usage, at time.Time) (cost float64, ok bool) {
	m, ok := Lookup(provider, model)
	if !ok {
		return 0, false
	}
	return m.Cost(u, at), true
}

// Lookup finds a model as calcPrice does. Callers pricing many messages
// look each model up once and call Cost for each message.
func Lookup(providerName, model string) (Model, bool) {
	id := strings.ToLower(strings.TrimSpace(model))
	pid := providerName
	// LiteLLM names models "provider/model": the provider, when known,
	// is the one that prices it.
	if pid != "" && strings.ToLower(pid) == "litellm" {
		if pre, rest, ok := strings.Cut(id, "/"); ok && pre != "" && rest != "" && providerByID(pre) != nil {
			pid, id = pre, rest
		}
	}
	var p *provider
	if pid != "" {
		p = providerByID(pid)
		if p == nil && strings.ToLower(pid) != "litellm" {
			return Model{}, false // a provider the table does not know
		}
	}
	if p == nil {
		for i := range providers {
			if mm := providers[i].modelMatch; mm != nil && mm.match(id) {
				p = &providers[i]
				break
			}
		}
	}
	if p == nil {
		return Model{}, false
	}
	if m := p.find(id, true); m != nil {
		return Model{m}, true
	}
	// Model names with a date written without dashes
	// ("gpt-4o-20240806") are tried again with them ("gpt-4o-2024-08-06").
	if d := dashDates(id); d != id {
		if m := p.find(d, true); m != nil {
			return Model{m}, true
		}
	}
	return Model{}, false
}

// providerByID is the provider whose id is id, else the first whose
// provider match accepts it.
func providerByID(id string) *provider {
	id = strings.ToLower(strings.TrimSpace(id))
	for i := range providers {
		if providers[i].id == id {
			return &providers[i]
		}
	}
	for i := range providers {
		if pm := providers[i].providerMatch; pm != nil && pm.match(id) {
			return &providers[i]
		}
	}
	return nil
}

// find is the first of p's models that matches id, else (when fallback)
// the first of its fallback providers' models.
func (p *provider) find(id string, fallback bool) *model {
	for i := range p.models {
		if p.models[i].match.match(id) {
			return &p.models[i]
		}
	}
	if !fallback {
		return nil
	}
	for _, fid := range p.fallbacks {
		for i := range providers {
			if providers[i].id == fid {
				if m := providers[i].find(id, false); m != nil {
					return m
				}
				break
			}
		}
	}
	return nil
}

// dashDates writes each "-YYYYMMDD" (a valid date in 20xx, followed by
// '-', ':' or the end) as "-YYYY-MM-DD", as genai-prices does.
func dashDates(s string) string {
	var b strings.Builder
	last := 0
	for i := 0; i+9 <= len(s); i++ {
		if s[i] != '-' || s[i+1] != '2' || s[i+2] != '0' || !digits(s[i+3:i+9]) {
			continue
		}
		if end := i + 9; end < len(s) && s[end] != '-' && s[end] != ':' {
			continue
		}
		y, mo, d := atoi(s[i+1:i+5]), atoi(s[i+5:i+7]), atoi(s[i+7:i+9])
		if mo < 1 || mo > 12 || d < 1 || d > 31 || time.Date(y, time.Month(mo), d, 0, 0, 0, 0, time.UTC).Day() != d {
			continue
		}
		b.WriteString(s[last:i])
		fmt.Fprintf(&b, "-%04d-%02d-%02d", y, mo, d)
		last = i + 9
		i += 8
	}
	if last == 0 {
		return s
	}
	return b.String() + s[last:]
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func atoi(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}

// Cost is what a message of the model cost at time at (a zero at is the
// table's date), in US dollars: one request with usage u. Counts below
// zero, or not numbers, count as zero.
func (m Model) Cost(u Usage, at time.Time) float64 {
	if at.IsZero() {
		at = dataTime
	}
	ps := m.m.pricesAt(at)
	in, out, cr, cw := count(u.Input), count(u.Output), count(u.CacheRead), count(u.CacheWrite)
	total := in + cr + cw // genai-prices' input_tokens, which also chooses the tier
	// A kind of token the model has no price for is priced as its parent
	// kind: cache reads and writes as input when it has none for them.
	leafIn := total
	var inCost, outCost float64
	if ps.cacheRead != nil {
		leafIn -= cr
		inCost += ps.cacheRead.cost(cr, total)
	}
	if ps.cacheWrite != nil {
		leafIn -= cw
		hour := 0.0 // without an input price to double, all at the cache-write price
		if ps.input != nil {
			hour = min(count(u.CacheWrite1h), cw)
			inCost += 2 * ps.input.cost(hour, total)
		}
		inCost += ps.cacheWrite.cost(cw-hour, total)
	}
	if ps.input != nil {
		inCost += ps.input.cost(leafIn, total)
	}
	if ps.output != nil {
		outCost += ps.output.cost(out, total)
	}
	return inCost + outCost + ps.requestsK/1e3
}

func count(f float64) float64 {
	if !(f > 0) || math.IsInf(f, 1) {
		return 0
	}
	return f
}

// cost is n tokens at p per million, at the tier that input tokens
// reach (tiers chosen by the whole input, as genai-prices does).
func (p *price) cost(n, input float64) float64 {
	if n <= 0 {
		return 0
	}
	if len(p.tiers) == 0 {
		return p.base * n / 1e6
	}
	v := p.base
	for _, t := range p.tiers {
		if input > t.start {
			v = t.price
		}
	}
	return v * n / 1e6 * 1e6 / 1e6 // calcPrice's arithmetic, to the last bit
}

// pricesAt is the model's prices at time at: the last of its price sets
// whose condition holds, else the first (genai-prices' rule).
func (m *model) pricesAt(at time.Time) *priceSet {
	for i := len(m.prices) - 1; i >= 0; i-- {
		ps := &m.prices[i]
		switch ps.kind {
		case always:
			return ps
		case fromDate:
			if !at.Before(time.Unix(ps.start, 0)) {
				return ps
			}
		case timeOfDay:
			u := at.UTC()
			sec := float64(u.Hour()*3600+u.Minute()*60+u.Second()) + float64(u.Nanosecond()/1e6)/1e3
			if ps.endSec < ps.startSec {
				if sec >= ps.startSec || sec < ps.endSec {
					return ps
				}
			} else if sec >= ps.startSec && sec < ps.endSec {
				return ps
			}
		}
	}
	return &m.prices[0]
}

// Approx writes an estimated cost: "≈$1.23", or four decimals below a
// cent ("≈$0.0042"), where two would read as nothing.
func Approx(usd float64) string {
	return "≈" + Dollars(usd)
}

// Dollars writes a cost: cents, or four decimals below a cent ("$0.0042"),
// where two would read as nothing.
func Dollars(usd float64) string {
	if usd > 0 && usd < 0.01 {
		return fmt.Sprintf("$%.4f", usd)
	}
	return fmt.Sprintf("$%.2f", usd)
}

package archive

import (
	"strconv"
	"strings"

	"canopy/internal/text"
	"canopy/pricing"
)

// sessionCost is what a session cost as the index shows it: recorded
// ("$0.35", as before); estimated from genai-prices for the formats that
// record tokens and no cost ("≈$0.04"); "—" when nothing priced its
// tokens, never a $0 that means unknown. value sorts the column ("" for
// unknown); note, when not "", says what the figure leaves out.
func sessionCost(s *Session) (cell, title, value, note string) {
	usd := s.Usage.Cost.Total + s.EstimatedCost
	if len(s.UnpricedModels) > 0 {
		note = "no price for " + strings.Join(s.UnpricedModels, ", ") + " in " + pricing.Source()
	}
	switch {
	case s.NoTokens && !s.CostEstimated && s.Usage.Cost.Total == 0:
		return "—", "unknown: the session records neither tokens nor prices", "", note
	case len(s.UnpricedModels) > 0 && !s.CostEstimated && s.Usage.Cost.Total == 0:
		return "—", "unknown: " + note, "", note
	case s.CostEstimated:
		title = "estimated from " + pricing.Source()
		if s.Usage.Cost.Total != 0 {
			title = dollars(s.Usage.Cost.Total) + " recorded, " + pricing.Approx(s.EstimatedCost) + " " + title
		}
		return pricing.Approx(usd), title, strconv.FormatFloat(usd, 'f', -1, 64), note
	}
	return dollars(usd), "", strconv.FormatFloat(usd, 'f', -1, 64), note
}

// costTotals sums the costs of a group of sessions, recorded and
// estimated apart, so that a total that mixes them says so.
type costTotals struct {
	recorded, estimated float64
	anyEstimated        bool
	unknown             int // sessions with tokens no price was found for
	noTokens            int // sessions whose agent records tokens and that recorded none
}

func (c *costTotals) add(s *Session) {
	c.recorded += s.Usage.Cost.Total
	c.estimated += s.EstimatedCost
	c.anyEstimated = c.anyEstimated || s.CostEstimated
	switch {
	case len(s.UnpricedModels) > 0:
		c.unknown++
	case s.NoTokens && !s.CostEstimated && s.Usage.Cost.Total == 0:
		c.noTokens++
	}
}

// format is the total ("$1.20", "≈$3.40", "—") and what it is made of,
// "" when it is all recorded.
func (c *costTotals) format() (total, note string) {
	var parts []string
	switch {
	case c.anyEstimated && c.recorded != 0:
		total = pricing.Approx(c.recorded + c.estimated)
		parts = append(parts, dollars(c.recorded)+" recorded, "+pricing.Approx(c.estimated)+" estimated from "+pricing.Source())
	case c.anyEstimated:
		total = pricing.Approx(c.estimated)
		parts = append(parts, "estimated from "+pricing.Source())
	case c.unknown+c.noTokens > 0 && c.recorded == 0:
		total = "—"
	default:
		total = dollars(c.recorded)
	}
	if c.unknown > 0 {
		parts = append(parts, text.Count(c.unknown, "session", "sessions")+" with models it has no price for, not counted")
	}
	if c.noTokens > 0 {
		parts = append(parts, text.Count(c.noTokens, "session", "sessions")+" that recorded no tokens, not counted")
	}
	return total, strings.Join(parts, "; ")
}

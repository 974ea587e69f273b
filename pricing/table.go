package pricing

import (
	"strings"

	"github.com/dlclark/regexp2/v2"
)

// The table prices_gen.go holds: genai-prices' providers, reduced to what
// an estimate from a session's usage needs.

// provider is a provider of models: its id, the rules that tell it from
// a provider's name or (with no provider given) a model's, and the
// providers whose models it also serves.
type provider struct {
	id            string
	providerMatch *matcher
	modelMatch    *matcher
	fallbacks     []string
	models        []model
}

// model is one of a provider's models: the rule its names match, and its
// price sets (the first applies unless a later one's condition holds).
type model struct {
	id     string
	match  matcher
	prices []priceSet
}

type condition uint8

const (
	always    condition = iota
	fromDate            // from start (Unix seconds) on
	timeOfDay           // between startSec and endSec after midnight UTC
)

// priceSet is the prices of a model under a condition, per million tokens
// (nil: no price of that kind), and per thousand requests.
type priceSet struct {
	kind                                 condition
	start                                int64
	startSec, endSec                     float64
	input, output, cacheRead, cacheWrite *price
	requestsK                            float64
}

// price is a price per million tokens: base, or the last tier whose start
// the message's input tokens exceed.
type price struct {
	base  float64
	tiers []tier // by start, ascending
}

type tier struct {
	start, price float64
}

type matchOp uint8

const (
	opEquals matchOp = iota
	opStartsWith
	opEndsWith
	opContains
	opRegex
	opOr
	opAnd
)

// matcher is one of genai-prices' match rules. Its strings are lower
// case, and so is the name it is given: matching ignores case, except in
// a regex, which is tested against the lower-cased name as written (as
// genai-prices does).
type matcher struct {
	op  matchOp
	s   string
	re  *regexp2.Regexp
	sub []matcher
}

func (m *matcher) match(name string) bool {
	switch m.op {
	case opEquals:
		return name == m.s
	case opStartsWith:
		return strings.HasPrefix(name, m.s)
	case opEndsWith:
		return strings.HasSuffix(name, m.s)
	case opContains:
		return strings.Contains(name, m.s)
	case opRegex:
		ok, err := m.re.MatchString(name)
		return ok && err == nil // an error is a match that timed out: none
	case opOr:
		for i := range m.sub {
			if m.sub[i].match(name) {
				return true
			}
		}
		return false
	case opAnd:
		for i := range m.sub {
			if !m.sub[i].match(name) {
				return false
			}
		}
		return true
	}
	return false
}

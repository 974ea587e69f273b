package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/dlclark/regexp2/v2"
)

// dump is what `node dump.cjs data` prints.
type dump struct {
	Version   string         `json:"version"`
	Providers []dumpProvider `json:"providers"`
}

type dumpProvider struct {
	ID            string          `json:"id"`
	ProviderMatch json.RawMessage `json:"providerMatch"`
	ModelMatch    json.RawMessage `json:"modelMatch"`
	Fallbacks     []string        `json:"fallbacks"`
	Models        []dumpModel     `json:"models"`
}

type dumpModel struct {
	ID     string          `json:"id"`
	Match  json.RawMessage `json:"match"`
	Prices []dumpPrices    `json:"prices"`
}

type dumpPrices struct {
	StartDate      string          `json:"startDate"`
	StartSec       *float64        `json:"startSec"`
	EndSec         *float64        `json:"endSec"`
	Input          json.RawMessage `json:"input"`
	Output         json.RawMessage `json:"output"`
	CacheRead      json.RawMessage `json:"cacheRead"`
	CacheWrite     json.RawMessage `json:"cacheWrite"`
	RequestsKcount float64         `json:"requestsKcount"`
}

type writer struct {
	buf     bytes.Buffer
	regexps []string // in order of first use; their index in the generated array
}

func (w *writer) printf(f string, args ...any) { fmt.Fprintf(&w.buf, f, args...) }

func num(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// providers writes the providers array; the regexes go to head's list.
func (w *writer) providers(ps []dumpProvider, head *writer) error {
	w.printf("var providers = [...]provider{\n")
	for _, p := range ps {
		w.printf("{id: %q,\n", p.ID)
		for _, m := range []struct {
			field string
			raw   json.RawMessage
		}{{"providerMatch", p.ProviderMatch}, {"modelMatch", p.ModelMatch}} {
			if len(m.raw) == 0 {
				continue
			}
			s, err := head.matcher(m.raw)
			if err != nil {
				return fmt.Errorf("provider %s: %w", p.ID, err)
			}
			w.printf("%s: &%s,\n", m.field, s)
		}
		if len(p.Fallbacks) > 0 {
			w.printf("fallbacks: %#v,\n", p.Fallbacks)
		}
		w.printf("models: []model{\n")
		for _, m := range p.Models {
			s, err := head.matcher(m.Match)
			if err != nil {
				return fmt.Errorf("model %s/%s: %w", p.ID, m.ID, err)
			}
			w.printf("{id: %q, match: %s, prices: []priceSet{\n", m.ID, s)
			for _, ps := range m.Prices {
				s, err := priceSetOf(ps)
				if err != nil {
					return fmt.Errorf("model %s/%s: %w", p.ID, m.ID, err)
				}
				w.printf("%s,\n", s)
			}
			w.printf("}},\n")
		}
		w.printf("}},\n")
	}
	w.printf("}\n")
	return nil
}

// matcher is a match rule as a Go literal. Its strings are lower-cased
// here, as genai-prices lower-cases them at each comparison.
func (w *writer) matcher(raw json.RawMessage) (string, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || len(m) != 1 {
		return "", fmt.Errorf("match rule %s: want an object with one key", raw)
	}
	for k, v := range m {
		switch k {
		case "or", "and":
			var subs []json.RawMessage
			if err := json.Unmarshal(v, &subs); err != nil {
				return "", fmt.Errorf("match rule %s: %w", raw, err)
			}
			var parts []string
			for _, s := range subs {
				p, err := w.matcher(s)
				if err != nil {
					return "", err
				}
				parts = append(parts, strings.TrimPrefix(p, "matcher")) // gofmt -s: the element type is implied
			}
			op := map[string]string{"or": "opOr", "and": "opAnd"}[k]
			return fmt.Sprintf("matcher{op: %s, sub: []matcher{%s}}", op, strings.Join(parts, ", ")), nil
		}
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return "", fmt.Errorf("match rule %s: %w", raw, err)
		}
		op, ok := map[string]string{"equals": "opEquals", "starts_with": "opStartsWith", "ends_with": "opEndsWith", "contains": "opContains"}[k]
		if ok {
			return fmt.Sprintf("matcher{op: %s, s: %q}", op, strings.ToLower(s)), nil
		}
		if k != "regex" {
			return "", fmt.Errorf("match rule %s: unknown kind %q", raw, k)
		}
		if _, err := regexp2.Compile(s, regexp2.ECMAScript); err != nil {
			return "", fmt.Errorf("match rule %s: %w", raw, err)
		}
		i := len(w.regexps)
		for j, r := range w.regexps {
			if r == s {
				i = j
			}
		}
		if i == len(w.regexps) {
			w.regexps = append(w.regexps, s)
		}
		return fmt.Sprintf("matcher{op: opRegex, re: regexps[%d]}", i), nil
	}
	panic("unreachable")
}

func priceSetOf(p dumpPrices) (string, error) {
	var fields []string
	switch {
	case p.StartDate != "":
		t, err := time.Parse(time.DateOnly, p.StartDate)
		if err != nil {
			return "", fmt.Errorf("start date: %w", err)
		}
		fields = append(fields, "kind: fromDate", fmt.Sprintf("start: %d /* %s */", t.Unix(), p.StartDate))
	case p.StartSec != nil && p.EndSec != nil:
		fields = append(fields, "kind: timeOfDay", "startSec: "+num(*p.StartSec), "endSec: "+num(*p.EndSec))
	}
	for _, f := range []struct {
		name string
		raw  json.RawMessage
	}{{"input", p.Input}, {"output", p.Output}, {"cacheRead", p.CacheRead}, {"cacheWrite", p.CacheWrite}} {
		if len(f.raw) == 0 {
			continue
		}
		s, err := priceOf(f.raw)
		if err != nil {
			return "", fmt.Errorf("%s: %w", f.name, err)
		}
		fields = append(fields, f.name+": "+s)
	}
	if p.RequestsKcount != 0 {
		fields = append(fields, "requestsK: "+num(p.RequestsKcount))
	}
	return "{" + strings.Join(fields, ", ") + "}", nil
}

// priceOf is a price, a number or {base, tiers}, as a *price literal.
func priceOf(raw json.RawMessage) (string, error) {
	var f float64
	if err := json.Unmarshal(raw, &f); err == nil {
		return "&price{base: " + num(f) + "}", nil
	}
	var t struct {
		Base  *float64 `json:"base"`
		Tiers []struct {
			Start *float64 `json:"start"`
			Price *float64 `json:"price"`
		} `json:"tiers"`
	}
	if err := json.Unmarshal(raw, &t); err != nil || t.Base == nil {
		return "", fmt.Errorf("price %s: want a number or tiers", raw)
	}
	sort.SliceStable(t.Tiers, func(i, j int) bool { return *t.Tiers[i].Start < *t.Tiers[j].Start })
	var tiers []string
	for _, x := range t.Tiers {
		if x.Start == nil || x.Price == nil {
			return "", fmt.Errorf("price %s: a tier without start or price", raw)
		}
		tiers = append(tiers, "{"+num(*x.Start)+", "+num(*x.Price)+"}")
	}
	return "&price{base: " + num(*t.Base) + ", tiers: []tier{" + strings.Join(tiers, ", ") + "}}", nil
}

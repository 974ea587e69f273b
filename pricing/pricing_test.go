package pricing

import (
	"encoding/json"
	"math"
	"os"
	"testing"
	"time"
)

// calcCase is one line of testdata/calcprice.json: a usage priced by
// genai-prices' own calcPrice (tools/prices/dump.cjs cases).
type calcCase struct {
	Provider string   `json:"provider"`
	Model    string   `json:"model"`
	Usage    Usage    `json:"usage"`
	At       string   `json:"at"`
	Price    *float64 `json:"price"` // null: calcPrice found no model
	ModelID  string   `json:"modelId"`
}

func (u *Usage) UnmarshalJSON(b []byte) error {
	var v struct{ Input, Output, CacheRead, CacheWrite float64 }
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*u = Usage{Input: v.Input, Output: v.Output, CacheRead: v.CacheRead, CacheWrite: v.CacheWrite}
	return nil
}

// TestCalcPrice holds Estimate to genai-prices: every case's price within
// 1e-9 relative, the same model, the same unknown names.
func TestCalcPrice(t *testing.T) {
	b, err := os.ReadFile("testdata/calcprice.json")
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Version string     `json:"version"`
		Cases   []calcCase `json:"cases"`
	}
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	if d.Version != Version {
		t.Fatalf("testdata from genai-prices %s, table from %s: run go generate ./pricing", d.Version, Version)
	}
	if len(d.Cases) < 1000 {
		t.Fatalf("%d cases, want the whole table's", len(d.Cases))
	}
	unknown := 0
	for _, c := range d.Cases {
		at, err := time.Parse(time.RFC3339Nano, c.At)
		if err != nil {
			t.Fatal(err)
		}
		m, ok := Lookup(c.Provider, c.Model)
		if c.Price == nil {
			unknown++
			if ok {
				t.Errorf("%q/%q: found %s, calcPrice found none", c.Provider, c.Model, m.ID())
			}
			continue
		}
		if !ok {
			t.Errorf("%q/%q: not found, calcPrice found %s", c.Provider, c.Model, c.ModelID)
			continue
		}
		if m.ID() != c.ModelID {
			t.Errorf("%q/%q: model %s, calcPrice's %s", c.Provider, c.Model, m.ID(), c.ModelID)
		}
		got, _ := Estimate(c.Provider, c.Model, c.Usage, at)
		if want := *c.Price; math.Abs(got-want) > 1e-9*math.Abs(want) {
			t.Errorf("%q/%q %+v at %s: $%.12g, calcPrice $%.12g", c.Provider, c.Model, c.Usage, c.At, got, want)
		}
	}
	if unknown == 0 {
		t.Error("no case of an unknown model")
	}
}

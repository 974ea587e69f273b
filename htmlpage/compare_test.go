package htmlpage

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/go-json-experiment/json"

	cv "canopy/conversation"
	"canopy/internal/sessiongen"
	"canopy/sessiontree"
)

// sideSums is a side's figures summed from the compare data as the
// page's script sums them (assets/page/compare.js: sideFigures, costText).
type sideSums struct {
	roles                       map[string]int
	calls                       int
	in, out, cr, cw, rec, est   float64
	estimated, unpriced, noToks bool
}

func sumPage(t *testing.T, u [][]any, roles []string, pos []int, side []*sessiontree.Entry) sideSums {
	t.Helper()
	f := sideSums{roles: map[string]int{}}
	for _, e := range side {
		a := u[pos[e.Index]]
		if a == nil {
			continue
		}
		num := func(i int) float64 {
			if i < len(a) {
				return a[i].(float64)
			}
			return 0
		}
		if r := int(a[0].(float64)); r >= 0 {
			f.roles[roles[r]]++
		}
		f.calls += int(num(1))
		f.in, f.out, f.cr, f.cw = f.in+num(2), f.out+num(3), f.cr+num(4), f.cw+num(5)
		f.rec, f.est = f.rec+num(6), f.est+num(7)
		fl := int(num(8))
		f.estimated = f.estimated || fl&figEstimated != 0
		f.unpriced = f.unpriced || fl&figUnpriced != 0
		f.noToks = f.noToks || fl&figNoTokens != 0
	}
	return f
}

// TestCompareFiguresSum: the compare data's figures, summed over the
// entries of each side of every pair of leaves as the page sums them,
// are Session.Stats of that side: entries' roles, tool calls, tokens,
// and the cost (recorded, estimated, unknown).
func TestCompareFiguresSum(t *testing.T) {
	var buf bytes.Buffer
	if err := sessiongen.Generate(&buf, sessiongen.Config{Entries: 800, Shape: sessiongen.ShapeBranched, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	gen := filepath.Join(t.TempDir(), "gen.jsonl")
	if err := os.WriteFile(gen, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	files := []string{"../testdata/demo/demo.jsonl", "../testdata/claude/session.jsonl", "../testdata/markdown/hostile.jsonl", gen}
	for _, f := range files {
		s, err := sessiontree.LoadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		r, err := New()
		if err != nil {
			t.Fatal(err)
		}
		ec := r.gather(s, nil)
		order := treeOrder(s)
		pos := make([]int, len(s.Entries))
		for p, i := range order {
			pos[i] = p
		}
		d := newCompareData(s, order, pos, ec.rows)
		if d == nil {
			t.Fatalf("%s: no compare data for a session of several leaves", f)
		}
		raw, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		var back struct {
			U     [][]any  `json:"u"`
			Roles []string `json:"roles"`
		}
		if err := json.Unmarshal(raw, &back); err != nil {
			t.Fatal(err)
		}
		leaves := s.Leaves()
		if len(leaves) < 2 {
			t.Fatalf("%s: %d leaves", f, len(leaves))
		}
		leaves = leaves[:min(len(leaves), 12)]
		pairs := 0
		for i, a := range leaves {
			for _, b := range leaves[i+1:] {
				fk := cv.ForkOf(s, a, b)
				for _, side := range [][]*sessiontree.Entry{fk.A, fk.B} {
					checkSum(t, f, s, sumPage(t, back.U, back.Roles, pos, side), side)
				}
				pairs++
			}
		}
		t.Logf("%s: %d pairs of leaves", f, pairs)
	}
}

func checkSum(t *testing.T, name string, s *sessiontree.Session, got sideSums, side []*sessiontree.Entry) {
	t.Helper()
	st := s.Stats(side)
	for r, n := range st.Messages {
		if got.roles[r] != n {
			t.Errorf("%s: %d %s messages summed, Stats says %d", name, got.roles[r], r, n)
		}
	}
	if len(got.roles) != len(st.Messages) {
		t.Errorf("%s: roles %v summed, Stats says %v", name, got.roles, st.Messages)
	}
	u := st.Usage
	if got.calls != st.ToolCalls || got.in != u.Input || got.out != u.Output || got.cr != u.CacheRead || got.cw != u.CacheWrite {
		t.Errorf("%s: summed calls %d, tokens %v/%v/%v/%v; Stats: %d, %v/%v/%v/%v", name, got.calls, got.in, got.out, got.cr, got.cw,
			st.ToolCalls, u.Input, u.Output, u.CacheRead, u.CacheWrite)
	}
	c := st.Cost()
	usd := got.rec + got.est
	if math.Abs(usd-c.USD) > 1e-9*max(1, c.USD) || got.estimated != c.Estimated {
		t.Errorf("%s: summed cost %v (estimated %v), Stats: %v (%v)", name, usd, got.estimated, c.USD, c.Estimated)
	}
	noTokens := got.noToks && got.in+got.out+got.cr+got.cw == 0 && got.rec == 0
	unknown := (got.unpriced || noTokens) && !got.estimated && got.rec == 0
	if unknown != c.Unknown {
		t.Errorf("%s: summed cost unknown %v, Stats: %v", name, unknown, c.Unknown)
	}
}

// TestCompareDataSinglePath: a session of one path has no compare data
// (nothing to compare), and the page's script shows no compare control.
func TestCompareDataSinglePath(t *testing.T) {
	var buf bytes.Buffer
	if err := sessiongen.Generate(&buf, sessiongen.Config{Entries: 50, Shape: sessiongen.ShapeLinear, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	s, err := sessiontree.Load(buf.Bytes(), "linear.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	order := treeOrder(s)
	if d := newCompareData(s, order, order, make([]rowInfo, len(s.Entries))); d != nil {
		t.Errorf("a linear session has compare data")
	}
}

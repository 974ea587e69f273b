package mdpage

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	cv "canopy/conversation"
	"canopy/internal/text"
	"canopy/sessiontree"
)

// compareMD is the comparison of the paths to a and b.
func compareMD(t *testing.T, s *sessiontree.Session, a, b *sessiontree.Entry, limit int) (string, error) {
	t.Helper()
	var buf bytes.Buffer
	err := Write(&buf, s, Options{Leaf: a, Compare: b, Limit: limit, Link: "https://example.com/page.html"})
	return buf.String(), err
}

var figureRow = regexp.MustCompile(`(?m)^\| ([A-Za-z /]+) \| ([^|]*) \| ([^|]*) \|$`)

// figuresOf reads the figures table: name to [A's, B's].
func figuresOf(t *testing.T, md string) map[string][2]string {
	t.Helper()
	rows := map[string][2]string{}
	from, to := strings.Index(md, "#### Figures from the fork"), strings.Index(md, "#### Files touched")
	if from < 0 || to < from {
		t.Fatalf("no figures:\n%s", head(md, 3000))
	}
	for _, m := range figureRow.FindAllStringSubmatch(md[from:to], -1) {
		rows[m[1]] = [2]string{m[2], m[3]}
	}
	if len(rows) != 9 {
		t.Fatalf("figures table has %d rows:\n%s", len(rows), head(md, 3000))
	}
	return rows
}

// sumFigures adds up a side's entries one by one (Stats of each alone):
// the figures the table must show.
func sumFigures(s *sessiontree.Session, side []*sessiontree.Entry) map[string]string {
	var prompts, replies, calls int
	var in, out, cr, cw, usd float64
	estimated, unknown := false, false
	for _, e := range side {
		st := s.Stats([]*sessiontree.Entry{e})
		prompts += st.Messages[sessiontree.RoleUser]
		replies += st.Messages[sessiontree.RoleAssistant]
		calls += st.ToolCalls
		in, out, cr, cw = in+st.Usage.Input, out+st.Usage.Output, cr+st.Usage.CacheRead, cw+st.Usage.CacheWrite
		c := st.Cost()
		usd += c.USD
		estimated = estimated || c.Estimated
		unknown = unknown || c.Unknown
	}
	n := func(f float64) string { return text.Thousands(f) }
	cost := fmt.Sprintf("\\$%.4f", usd)
	switch {
	case estimated:
		cost = strings.Replace(approx(usd), "$", "\\$", 1) + " (estimated)"
	case unknown && usd == 0:
		cost = "unknown"
	}
	return map[string]string{
		"Entries": n(float64(len(side))), "Prompts": n(float64(prompts)), "Replies": n(float64(replies)),
		"Tool calls": n(float64(calls)), "Tokens in / out": n(in) + " / " + n(out),
		"Cache read / write": n(cr) + " / " + n(cw), "Cost": cost, "Files touched": n(float64(len(s.Touched(side, sessiontree.PairCalls(s))))),
	}
}

func approx(usd float64) string {
	if usd > 0 && usd < 0.01 {
		return fmt.Sprintf("≈$%.4f", usd)
	}
	return fmt.Sprintf("≈$%.2f", usd)
}

// TestCompareFigures: each side's figures are the sums over its entries
// from the fork, and the fork is where the two paths part; on the demo
// (recorded costs) and a Claude Code session (estimated costs), for
// every pair of leaves and a leaf against an entry on its own path.
func TestCompareFigures(t *testing.T) {
	for _, f := range []string{demoFixture, "../testdata/claude/session.jsonl", hostileFixture} {
		s := load(t, f)
		leaves := s.Leaves()
		var pairs [][2]*sessiontree.Entry
		for i, a := range leaves {
			for _, b := range leaves[i+1:] {
				pairs = append(pairs, [2]*sessiontree.Entry{a, b}, [2]*sessiontree.Entry{b, a})
			}
			if p := s.Path(a); len(p) > 2 {
				pairs = append(pairs, [2]*sessiontree.Entry{a, p[len(p)/2]})
			}
		}
		for _, p := range pairs {
			md, err := compareMD(t, s, p[0], p[1], 0)
			if err != nil {
				t.Fatalf("%s %s/%s: %v", f, p[0].ID, p[1].ID, err)
			}
			fk := cv.ForkOf(s, p[0], p[1])
			if fk.At != nil && !strings.Contains(md, "**Fork:** "+idSpan(fk.At.ID)) {
				t.Errorf("%s %s/%s: the fork %s is not named", f, p[0].ID, p[1].ID, fk.At.ID)
			}
			got := figuresOf(t, md)
			for k, side := range [][]*sessiontree.Entry{fk.A, fk.B} {
				for name, want := range sumFigures(s, side) {
					if got[name][k] != want {
						t.Errorf("%s %s/%s side %c: %s %q, want %q (the sum over its entries)", f, p[0].ID, p[1].ID, 'A'+k, name, got[name][k], want)
					}
				}
			}
			// Each side's entries are under its heading, in order, its
			// prompts among them.
			for k, side := range [][]*sessiontree.Entry{fk.A, fk.B} {
				sec := md[strings.Index(md, "### Branch "+string(rune('A'+k))+":"):]
				if k == 0 {
					sec = sec[:strings.Index(sec, "### Branch B:")]
				}
				checkOrder(t, f, side, sec)
			}
			if probs := append(mdProblems(md), htmlProblems(md, githubHTML(md))...); len(probs) > 0 {
				t.Errorf("%s %s/%s: %v", f, p[0].ID, p[1].ID, probs)
			}
		}
	}
}

// TestCompareLimit: within a limit, on the hostile sessions, a
// comparison of any two leaves (or a leaf and an entry above it) fits,
// or fails with a LimitError whose Need fits; nothing in it is markup.
func TestCompareLimit(t *testing.T) {
	for _, f := range []string{hostileFixture, legacyHostile, demoFixture} {
		s := load(t, f)
		leaves := s.Leaves()
		var pairs [][2]*sessiontree.Entry
		for _, a := range leaves {
			for _, b := range leaves {
				pairs = append(pairs, [2]*sessiontree.Entry{a, b})
			}
			pairs = append(pairs, [2]*sessiontree.Entry{a, s.Path(a)[0]})
		}
		for _, p := range pairs {
			for _, limit := range []int{65536, 12000, 4000, 2500, 1200} {
				md, err := compareMD(t, s, p[0], p[1], limit)
				var le *LimitError
				if errors.As(err, &le) {
					if le.Need <= limit {
						t.Errorf("%s %s/%s: limit %d too small, though it needs %d", f, p[0].ID, p[1].ID, limit, le.Need)
					}
					if md2, err := compareMD(t, s, p[0], p[1], le.Need); err != nil || Length(md2) > le.Need {
						t.Errorf("%s %s/%s: at the Need %d: %v, %d characters", f, p[0].ID, p[1].ID, le.Need, err, Length(md2))
					}
					continue
				}
				if err != nil {
					t.Fatalf("%s %s/%s limit %d: %v", f, p[0].ID, p[1].ID, limit, err)
				}
				if n := Length(md); n > limit {
					t.Errorf("%s %s/%s: %d characters, over the limit %d", f, p[0].ID, p[1].ID, n, limit)
				}
				if probs := append(mdProblems(md), htmlProblems(md, githubHTML(md))...); len(probs) > 0 {
					t.Errorf("%s %s/%s limit %d: %v", f, p[0].ID, p[1].ID, limit, probs)
				}
			}
		}
	}
}

// TestCompareManyFiles: a branch that changes thousands of files with
// long, hostile names lists them within a quarter of the limit, and says
// how many it left out.
func TestCompareManyFiles(t *testing.T) {
	var calls []map[string]any
	for i := range 200 {
		calls = append(calls, callBlock(fmt.Sprintf("c%d", i), "write", map[string]any{
			"path": fmt.Sprintf("dir/%d-%s</details><script>x</script>|`", i, strings.Repeat("é", 300))}))
	}
	a := assistant(calls...)
	a["parentId"] = "e1"
	entries := []map[string]any{user("go"), assistant(textBlock("one way")), a}
	for i := range 200 { // each call ran: its result follows
		entries = append(entries, result(fmt.Sprintf("c%d", i), "write", "ok"))
	}
	s := loadBytes(t, session(entries...))
	one, two := s.Entry("e2"), s.Entry(fmt.Sprintf("e%d", len(entries)))
	md, err := compareMD(t, s, one, two, 65536)
	if err != nil {
		t.Fatal(err)
	}
	if n := Length(md); n > 65536 {
		t.Errorf("%d characters", n)
	}
	if !strings.Contains(md, "more files, not listed here") {
		t.Errorf("no note of the files left out")
	}
	if probs := append(mdProblems(md), htmlProblems(md, githubHTML(md))...); len(probs) > 0 {
		t.Errorf("%v", probs[:min(3, len(probs))])
	}
	whole, err := compareMD(t, s, one, two, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := figuresOf(t, whole)["Files touched"]; got != [2]string{"0", "200"} {
		t.Errorf("files touched %q", got)
	}
}

var idRef = regexp.MustCompile("· `([^`]+)`")

// checkOrder checks that the entries a side's section names are the
// side's, in its order, and that its prompts are all there.
func checkOrder(t *testing.T, name string, side []*sessiontree.Entry, sec string) {
	t.Helper()
	at := map[string]int{}
	for i, e := range side {
		at[e.ID] = i
	}
	seen, last := map[string]bool{}, -1
	for _, m := range idRef.FindAllStringSubmatch(sec, -1) {
		i, ok := at[m[1]]
		if !ok {
			continue // an entry named in a note, or a result drawn with its call
		}
		if i < last {
			t.Errorf("%s: entry %s is out of order", name, m[1])
		}
		last = i
		seen[m[1]] = true
	}
	for _, e := range side {
		if e.Type == sessiontree.TypeMessage && e.Role == sessiontree.RoleUser && !seen[e.ID] && !strings.Contains(sec, "· "+idSpan(e.ID)) {
			t.Errorf("%s: the prompt %s is not in its side", name, e.ID)
		}
	}
}

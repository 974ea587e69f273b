package sessiontree

import (
	"reflect"
	"strings"
	"testing"
)

// A session whose replies record no usage and name no model costs what
// is not known ("—"), not $0: Copilot CLI replies take the model the
// session names, and one that names none leaves nothing to price. A
// Claude Code reply with no model (an API error the CLI made itself)
// beside replies with a model is never billed: the session's cost is
// theirs.
func TestUnrecordedCost(t *testing.T) {
	copilot := func(model string) string {
		lines := []string{
			`{"id":"a","type":"session.start","timestamp":"2026-06-02T23:06:54.049Z","data":{"sessionId":"s1","producer":"copilot-agent","startTime":"2026-06-02T23:06:54.049Z"}}`,
			`{"id":"b","parentId":"a","type":"user.message","timestamp":"2026-06-02T23:07:00.000Z","data":{"content":"run a search"}}`,
		}
		if model != "" {
			lines = append(lines, `{"id":"m","parentId":"b","type":"session.model_change","timestamp":"2026-06-02T23:07:01.000Z","data":{"newModel":"`+model+`"}}`)
		}
		lines = append(lines, `{"id":"c","parentId":"b","type":"assistant.message","timestamp":"2026-06-02T23:07:05.000Z","data":{"content":"done"}}`)
		return strings.Join(lines, "\n") + "\n"
	}
	claude := `{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s2","timestamp":"2026-01-01T00:00:00Z","message":{"role":"user","content":"hi"}}
{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s2","timestamp":"2026-01-01T00:00:01Z","message":{"id":"m1","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[{"type":"text","text":"hello"}],"usage":{"input_tokens":10,"output_tokens":5}}}
{"type":"assistant","uuid":"a2","parentUuid":"a1","sessionId":"s2","timestamp":"2026-01-01T00:00:02Z","message":{"id":"m2","role":"assistant","model":"<synthetic>","content":[{"type":"text","text":"API Error"}]}}
`
	for _, c := range []struct {
		name, in        string
		noTokens, known bool
	}{
		{"copilot, no model named", copilot(""), true, false},
		{"copilot, a model named", copilot("gpt-5"), true, false},
		{"claude code, an API error beside a priced reply", claude, false, true},
	} {
		s, err := Load([]byte(c.in), "x.jsonl")
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		st := s.Stats(s.Entries)
		if st.NoTokens != c.noTokens {
			t.Errorf("%s: NoTokens %v, want %v (%+v)", c.name, st.NoTokens, c.noTokens, st.Usage)
		}
		if unknown := st.Cost().Unknown; unknown == c.known {
			t.Errorf("%s: cost unknown %v, want %v", c.name, unknown, !c.known)
		}
		if f := s.Figures(s.Entries, nil); f.Cost.Unknown != st.Cost().Unknown {
			t.Errorf("%s: the figures' cost unknown %v, the stats' %v", c.name, f.Cost.Unknown, st.Cost().Unknown)
		}
	}
}

// StatsInto, reusing one Stats for one set after another, sums each as
// Stats does with a Stats of its own.
func TestStatsInto(t *testing.T) {
	for _, f := range []string{"../testdata/claude/session.jsonl", "../testdata/codex/rollout.jsonl", "../testdata/demo/demo.jsonl"} {
		s, err := LoadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		c := s.Statter()
		var reused Stats
		sets := [][]*Entry{s.Entries}
		for _, e := range s.Entries {
			sets = append(sets, []*Entry{e})
		}
		sets = append(sets, s.Entries)
		for i, set := range sets {
			c.StatsInto(&reused, set)
			if want := s.Stats(set); !reflect.DeepEqual(reused, want) {
				t.Fatalf("%s, set %d: StatsInto %+v, Stats %+v", f, i, reused, want)
			}
		}
		s.Close()
	}
}

package export

import (
	"context"
	"strings"
	"testing"

	"canopy/redact"
	"canopy/scope"
)

const (
	agents      = "../testdata/claude/agents/s1.jsonl"
	agentSecret = "../testdata/claude/subagents/secret/s2.jsonl"
)

// TestPrepareSubagents: what Prepare makes of a Claude Code session's
// subagents: grafted (or not) under their calls, cut with their own
// leaves, redacted with the session, their secrets in its report.
func TestPrepareSubagents(t *testing.T) {
	red, err := redact.New()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name        string
		file        string
		o           Options
		grafts      int      // conversations grafted
		entries     []string // in the session prepared
		absent      []string // not in it
		notices     []string // among the notices
		wantOmitted string   // among the page's notes ("": none checked)
		report      int      // findings (-1: no report)
	}{
		{name: "left out", file: agents, absent: []string{"a1-1"}, report: -1},
		{name: "grafted", file: agents, o: Options{Subagents: true}, grafts: 6,
			entries: []string{"a1-1", "a4-2", "w1-1", "o-2"}, notices: []string{"agent-bad.jsonl"}, report: -1},
		{name: "path only: no subagent no call ran", file: agents, o: Options{Subagents: true, Scope: scope.Options{PathOnly: true}},
			grafts: 4, entries: []string{"a1-1", "a4-2", "a2-2"}, absent: []string{"w1-1", "o-1"}, report: -1},
		{name: "cut, and what was cut said", file: agents, o: Options{Subagents: true, Scope: scope.Options{NoToolOutput: true}},
			grafts: 6, entries: []string{"a1-3"}, wantOmitted: "in subagent a1: tool output (2 results)", report: -1},
		{name: "redacted", file: agentSecret, o: Options{Subagents: true, Redactor: red}, grafts: 1,
			entries: []string{"s9-3"}, wantOmitted: SecretsNote(1), report: 1},
		{name: "redaction without subagents", file: agentSecret, o: Options{Redactor: red}, absent: []string{"s9-3"},
			report: 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := Load(context.Background(), Input{Path: c.file})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			p, err := Prepare(context.Background(), s, c.o)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Session.Close()
			if got := len(p.Session.Grafts()); got != c.grafts {
				t.Errorf("%d conversations grafted, want %d", got, c.grafts)
			}
			for _, id := range c.entries {
				if p.Session.Entry(id) == nil {
					t.Errorf("no entry %s", id)
				}
			}
			for _, id := range c.absent {
				if p.Session.Entry(id) != nil {
					t.Errorf("entry %s is there", id)
				}
			}
			all := strings.Join(p.Notices, "\n")
			for _, w := range c.notices {
				if !strings.Contains(all, w) {
					t.Errorf("notices lack %q:\n%s", w, all)
				}
			}
			if c.wantOmitted != "" && !strings.Contains(strings.Join(p.Page.Omitted, "\n"), c.wantOmitted) {
				t.Errorf("omitted %q lacks %q", p.Page.Omitted, c.wantOmitted)
			}
			checkSubagentReport(t, p, c.report)
		})
	}
}

// checkSubagentReport checks the findings of a redaction (-1: none made):
// the one in agentSecret's subagent is named by its entry and file, and
// replaced in the session prepared.
func checkSubagentReport(t *testing.T, p *Prepared, findings int) {
	t.Helper()
	switch {
	case findings < 0 && p.Report != nil:
		t.Error("a report without redaction")
	case findings >= 0 && (p.Report == nil || len(p.Report.Findings) != findings):
		t.Errorf("report %+v, want %d findings", p.Report, findings)
	case findings > 0:
		f := p.Report.Findings[0]
		if f.EntryID != "s9-3" || !strings.HasSuffix(f.File, "agent-s9.jsonl") || f.Kind != "aws-access-key" {
			t.Errorf("finding %+v", f)
		}
		raw, err := p.Session.Entry("s9-3").Raw()
		if err != nil || strings.Contains(string(raw), "AKIAZ7Q3MPLK4RTX2WVB") || !strings.Contains(string(raw), "[REDACTED:aws-access-key#1]") {
			t.Errorf("s9-3 is not redacted: %s %v", raw, err)
		}
	}
	if err := p.Session.Err(); err != nil {
		t.Error(err)
	}
}

// TestPrepareSubagentsInterrupted: an interrupt while the subagents are
// prepared stops the export.
func TestPrepareSubagentsInterrupted(t *testing.T) {
	s, err := Load(context.Background(), Input{Path: agents})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	p := &Prepared{Session: s, Leaf: s.Leaf}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := addSubagents(ctx, s, p, Options{Subagents: true}); err != ErrInterrupted {
		t.Errorf("err %v, want ErrInterrupted", err)
	}
}

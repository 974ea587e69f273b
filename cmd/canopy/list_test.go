package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// listHome makes a home directory whose agents' stores hold the test
// sessions, sets HOME to it, and returns it. The demo session is there
// twice (a copy under another name: the same id).
func listHome(t *testing.T) string {
	h := t.TempDir()
	t.Setenv("HOME", h)
	cp := func(src, dst string) {
		t.Helper()
		b, err := os.ReadFile(filepath.Join("../../testdata", src))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(h, dst)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cp("claude/session.jsonl", ".claude/projects/-work-p/7f3c2a10-5b6e-4c1d-9a2f-1e0b3c4d5e6f.jsonl")
	cp("claude/agent-a1b2c3.jsonl", ".claude/projects/-work-p/agent-a1b2c3.jsonl")
	cp("codex/rollout.jsonl", ".codex/sessions/2026/03/03/rollout-2026-03-03T09-00-00-0199a213-81c0-7800-8aa1-bbab2a035a53.jsonl")
	cp("demo/demo.jsonl", ".pi/agent/sessions/--home-maya-src-linkstash--/2026-03-02T09-12-04-318Z_019cadd2-7c1e-7a4b-9f3d-2b8e51c04a67.jsonl")
	cp("demo/demo.jsonl", ".pi/agent/sessions/--home-maya-src-linkstash--/copy.jsonl")
	return h
}

func TestListJSON(t *testing.T) {
	h := listHome(t)
	code, out, errs := canopy(t, nil, "list", "--json")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got []map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, s := range got {
		var keys []string
		for k := range s {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if strings.Join(keys, ",") != "agent,formatVersion,id,lastActivity,path,project,size,started,title" &&
			strings.Join(keys, ",") != "agent,id,lastActivity,path,project,size,started,title" {
			t.Errorf("fields %v", keys)
		}
		if !strings.HasPrefix(s["path"].(string), h) || s["size"].(float64) <= 0 {
			t.Errorf("path, size: %v", s)
		}
		rows = append(rows, s["agent"].(string)+" "+s["title"].(string)+" "+s["lastActivity"].(string))
	}
	want := []string{ // newest first; the subagent not listed
		"codex Verbose flag 2026-03-03T09:00:42Z",
		"claude-code Parser returns errors 2026-03-02T10:00:45Z",
		"pi Fix 500 on expired links 2026-03-02T09:35:18Z",
		"pi Fix 500 on expired links 2026-03-02T09:35:18Z",
	}
	if !slices.Equal(rows, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
}

func TestListTable(t *testing.T) {
	h := listHome(t)
	// A name with an escape sequence reaches the terminal escaped.
	evil := `{"type":"session","version":3,"id":"evil-1","timestamp":"2026-01-01T00:00:00Z","cwd":"/x"}` + "\n" +
		`{"type":"session_info","id":"e1","parentId":null,"timestamp":"2026-01-01T00:00:00Z","name":"red \u001b[31m\tname"}` + "\n"
	os.WriteFile(filepath.Join(h, ".pi/agent/sessions/--home-maya-src-linkstash--/evil.jsonl"), []byte(evil), 0o644)
	tests := []struct {
		args      []string
		want      []string // in the output, in order
		notWant   []string
		stderrHas string
	}{
		{[]string{"list"}, []string{"LAST ACTIVITY", "Verbose flag", "Parser returns errors", "~/.claude/projects/-work-p/7f3c", `red \x1b[31m name`}, []string{"\x1b", "agent-a1b2c3"}, ""},
		{[]string{"list", "--project", "linkstash", "--limit", "1"}, []string{"Fix 500 on expired links"}, []string{"Verbose", "Parser"}, "1 more (--limit 0"},
		{[]string{"list", filepath.Join(h, ".codex")}, []string{"0199a213", "Verbose flag"}, []string{"Parser"}, ""},
	}
	for _, tc := range tests {
		code, out, errs := canopy(t, nil, tc.args...)
		if code != 0 || !strings.Contains(errs, tc.stderrHas) {
			t.Errorf("%v: exit %d, stderr %q", tc.args, code, errs)
		}
		at := 0
		for _, w := range tc.want {
			i := strings.Index(out[at:], w)
			if i < 0 {
				t.Errorf("%v: %q missing after offset %d in\n%s", tc.args, w, at, out)
				break
			}
			at += i
		}
		for _, nw := range tc.notWant {
			if strings.Contains(out, nw) {
				t.Errorf("%v: %q in\n%s", tc.args, nw, out)
			}
		}
	}
	// A title is redacted, as an export is: a first prompt may hold a token.
	secrets, _ := filepath.Abs(secretsFile)
	for _, args := range [][]string{{"list", filepath.Dir(secrets)}, {"list", "--json", filepath.Dir(secrets)}} {
		code, out, _ := canopy(t, nil, args...)
		if code != 0 || strings.Contains(out, plantedSecrets[0]) || !strings.Contains(out, "Deploy with token [REDACTED:github-pat#1] please") {
			t.Errorf("%v: exit %d, the title not redacted:\n%s", args, code, out)
		}
	}
	if code, out, _ := canopy(t, nil, "list", "--help"); code != 0 || !strings.Contains(out, "--limit") {
		t.Errorf("--help: exit %d\n%s", code, out)
	}
	if code, _, _ := canopy(t, nil, "list", "--limit", "-1"); code != exitUsage {
		t.Errorf("--limit -1: exit %d", code)
	}
}

func TestFileByID(t *testing.T) {
	h := listHome(t)
	dir := t.TempDir()
	t.Chdir(dir)
	// A file named like an id prefix: the path wins.
	local := `{"type":"session","version":3,"id":"local-file","timestamp":"2026-01-01T00:00:00Z","cwd":"/x"}` + "\n"
	os.WriteFile(filepath.Join(dir, "7f3c2a10"), []byte(local), 0o644)
	claude := filepath.Join(h, ".claude/projects/-work-p/7f3c2a10-5b6e-4c1d-9a2f-1e0b3c4d5e6f.jsonl")
	tests := []struct {
		args           []string
		code           int
		stdout, stderr string
		stderrNot      string
	}{
		{[]string{"inspect", "7f3c"}, 0, "claude-code", "canopy: 7f3c is " + claude, ""},
		{[]string{"inspect", "7F3C2A10-5b6e"}, 0, "7f3c2a10-5b6e-4c1d-9a2f-1e0b3c4d5e6f", "is " + claude, ""},
		{[]string{"inspect", "7f3c2a10"}, 0, "local-file", "", " is "},
		{[]string{"scan", "0199a"}, 0, "no secrets found", "rollout-2026-03-03T09-00-00-0199a213", ""},
		{[]string{"inspect", "019cadd2"}, 1, "", "is the start of the ids of 2 sessions", ""},
		{[]string{"scan", "dead"}, 1, "", "dead: no such file, nor a session whose id starts with it (canopy list", ""},
		{[]string{"inspect", "nope.jsonl"}, 1, "", "nope.jsonl", "canopy list"},
		{[]string{"inspect", "agent-a1b2c3"}, 1, "", "no such file", ""}, // a subagent is no session of its own
	}
	for _, tc := range tests {
		code, out, errs := canopy(t, nil, tc.args...)
		if code != tc.code || !strings.Contains(out, tc.stdout) || !strings.Contains(errs, tc.stderr) ||
			(tc.stderrNot != "" && strings.Contains(errs, tc.stderrNot)) {
			t.Errorf("%v: exit %d\nstdout %s\nstderr %s", tc.args, code, out, errs)
		}
	}
	// export names the page after the file found, not the prefix.
	code, _, errs := canopy(t, nil, "export", "0199a2")
	if _, err := os.Stat(filepath.Join(dir, "rollout-2026-03-03T09-00-00-0199a213-81c0-7800-8aa1-bbab2a035a53.html")); code != 0 || err != nil {
		t.Errorf("export by id: exit %d, %v\n%s", code, err, errs)
	}
	code, _, errs = canopy(t, nil, "019cadd2")
	if code != 1 || strings.Count(errs, "\n  019cadd2") != 2 {
		t.Errorf("canopy ID, ambiguous: exit %d\n%s", code, errs)
	}
}

// TestListMistakes: a DIR that is not there fails naming it; one that
// holds no sessions says so, and --json prints an empty array, not null.
func TestListMistakes(t *testing.T) {
	empty := t.TempDir()
	for _, c := range []struct {
		args           []string
		code           int
		stdout, stderr string
	}{
		{[]string{"list", filepath.Join(empty, "nope")}, exitFail, "", "canopy list: " + filepath.Join(empty, "nope") + ": no such file or directory\n"},
		{[]string{"list", empty}, exitOK, "", "canopy list: no sessions in " + empty + "\n"},
		{[]string{"list", "--json", empty}, exitOK, "[]\n", "canopy list: no sessions in " + empty + "\n"},
	} {
		code, out, errs := canopy(t, nil, c.args...)
		if code != c.code || out != c.stdout || errs != c.stderr {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %d, %q, %q", c.args, code, out, errs, c.code, c.stdout, c.stderr)
		}
	}
}

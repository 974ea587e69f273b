package catalog

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Sessions as the agents write them, made in the test.

func claudeSession(id, cwd, prompt, ts string, pad int) string {
	var b strings.Builder
	fmt.Fprintf(&b, `{"type":"file-history-snapshot","messageId":"m0","snapshot":{}}`+"\n")
	fmt.Fprintf(&b, `{"parentUuid":null,"isSidechain":false,"type":"user","isMeta":true,"message":{"role":"user","content":"<local-command-caveat>Caveat</local-command-caveat>"},"uuid":"u0","timestamp":%q,"sessionId":%q,"cwd":%q,"version":"2.1.3"}`+"\n", ts, id, cwd)
	fmt.Fprintf(&b, `{"parentUuid":"u0","isSidechain":false,"type":"user","message":{"role":"user","content":%q},"uuid":"u1","timestamp":%q,"sessionId":%q,"cwd":%q,"version":"2.1.3"}`+"\n", prompt, ts, id, cwd)
	for i := 0; b.Len() < pad; i++ {
		fmt.Fprintf(&b, `{"parentUuid":"u1","isSidechain":false,"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"t%d","name":"Read","input":{"file_path":"/x.go"}}]},"uuid":"a%d","timestamp":%q,"sessionId":%q,"cwd":%q}`+"\n", i, i, ts, id, cwd)
		fmt.Fprintf(&b, `{"parentUuid":"a%d","isSidechain":false,"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t%d","content":%q}]},"uuid":"r%d","timestamp":%q,"sessionId":%q,"cwd":%q}`+"\n", i, i, strings.Repeat("package main // code\n", 200), i, ts, id, cwd)
	}
	return b.String()
}

func codexSession(id, cwd, prompt, ts string, pad int) string {
	var b strings.Builder
	fmt.Fprintf(&b, `{"timestamp":%q,"type":"session_meta","payload":{"id":%q,"timestamp":%q,"cwd":%q,"cli_version":"0.46.0","instructions":null}}`+"\n", ts, id, ts, cwd)
	fmt.Fprintf(&b, `{"timestamp":%q,"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>\n  <cwd>%s</cwd>\n</environment_context>"}]}}`+"\n", ts, cwd)
	fmt.Fprintf(&b, `{"timestamp":%q,"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":%q}]}}`+"\n", ts, prompt)
	for i := 0; b.Len() < pad; i++ {
		fmt.Fprintf(&b, `{"timestamp":%q,"type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"ls\"]}","call_id":"c%d"}}`+"\n", ts, i)
		fmt.Fprintf(&b, `{"timestamp":%q,"type":"response_item","payload":{"type":"function_call_output","call_id":"c%d","output":%q}}`+"\n", ts, i, strings.Repeat("file.go\n", 300))
	}
	return b.String()
}

func piSession(id, cwd, prompt, ts string, pad int) string {
	var b strings.Builder
	fmt.Fprintf(&b, `{"type":"session","version":3,"id":%q,"timestamp":%q,"cwd":%q}`+"\n", id, ts, cwd)
	fmt.Fprintf(&b, `{"type":"message","id":"e0","parentId":null,"timestamp":%q,"message":{"role":"user","content":%q,"timestamp":1}}`+"\n", ts, prompt)
	for i := 1; b.Len() < pad; i++ {
		fmt.Fprintf(&b, `{"type":"message","id":"e%d","parentId":"e%d","timestamp":%q,"message":{"role":"assistant","content":[{"type":"text","text":%q}]}}`+"\n", i, i-1, ts, strings.Repeat("Some words of an answer. ", 100))
	}
	return b.String()
}

func write(t testing.TB, path, content string, mtime time.Time) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, mtime, mtime); err != nil {
		t.Fatal(err)
	}
}

// home makes a home directory with a session of each agent, a subagent,
// and files that are not sessions.
func home(t *testing.T) string {
	h := t.TempDir()
	old := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	write(t, filepath.Join(h, ".claude/projects/-work-p/6ec7a000-1111-4222-8333-444455556666.jsonl"),
		claudeSession("6ec7a000-1111-4222-8333-444455556666", "/work/p", "Fix the parser", "2026-03-02T10:00:00.000Z", 0), old)
	write(t, filepath.Join(h, ".claude/projects/-work-p/6ec7a000-1111-4222-8333-444455556666/subagents/agent-a1.jsonl"),
		claudeSession("6ec7a000-1111-4222-8333-444455556666", "/work/p", "sub", "2026-03-09T10:00:00.000Z", 0), old)
	write(t, filepath.Join(h, ".claude/projects/-work-p/agent-b2.jsonl"),
		claudeSession("6ec7a000-1111-4222-8333-444455556666", "/work/p", "sub", "2026-03-09T10:00:00.000Z", 0), old)
	write(t, filepath.Join(h, ".codex/sessions/2026/03/03/rollout-2026-03-03T09-00-00-6ec7b000-1111-4222-8333-444455556666.jsonl"),
		codexSession("6ec7b000-1111-4222-8333-444455556666", "/work/q", "Add a flag", "2026-03-03T09:00:00.000Z", 0), old)
	write(t, filepath.Join(h, ".pi/agent/sessions/--home-me-app--/2026-03-01T09-00-00-000Z_0199c000-1111-4222-8333-444455556666.jsonl"),
		piSession("0199c000-1111-4222-8333-444455556666", "/home/me/app", "Make it faster", "2026-03-01T09:00:00.000Z", 0), old)
	write(t, filepath.Join(h, ".claude/projects/-work-p/empty.jsonl"), "", old)
	write(t, filepath.Join(h, ".claude/projects/-work-p/notes.jsonl"), "not json\n", old)
	write(t, filepath.Join(h, ".codex/sessions/other.json"), `{"theme":"dark"}`, old)
	write(t, filepath.Join(h, "project/stray.jsonl"), piSession("stray", "/", "not in a store", "2026-03-04T00:00:00Z", 0), old)
	return h
}

func TestList(t *testing.T) {
	h := home(t)
	got, problems := List([]string{h}, 0)
	if len(problems) > 0 {
		t.Errorf("problems: %v", problems)
	}
	want := []Session{
		{ID: "6ec7b000-1111-4222-8333-444455556666", Agent: "codex", FormatVersion: "0.46.0", Project: "/work/q", Title: "Add a flag",
			Started: "2026-03-03T09:00:00Z", LastActivity: "2026-03-03T09:00:00Z"},
		{ID: "6ec7a000-1111-4222-8333-444455556666", Agent: "claude-code", FormatVersion: "2.1.3", Project: "/work/p", Title: "Fix the parser",
			Started: "2026-03-02T10:00:00Z", LastActivity: "2026-03-02T10:00:00Z"},
		{ID: "0199c000-1111-4222-8333-444455556666", Agent: "pi", Project: "/home/me/app", Title: "Make it faster",
			Started: "2026-03-01T09:00:00Z", LastActivity: "2026-03-01T09:00:00Z"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d sessions, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if g.ID != w.ID || g.Agent != w.Agent || g.FormatVersion != w.FormatVersion || g.Project != w.Project ||
			g.Title != w.Title || g.Started != w.Started || g.LastActivity != w.LastActivity || g.Size == 0 ||
			!strings.HasPrefix(g.Path, h) {
			t.Errorf("session %d:\ngot  %+v\nwant %+v", i, g, w)
		}
	}
}

// Without a timestamp, the file's modification time orders it; a title
// is the prompt's first line, cut; a session without a prompt is named by
// its id.
func TestListOrderAndTitles(t *testing.T) {
	d := t.TempDir()
	t0 := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	noTime := `{"type":"session","version":3,"id":"no-time","cwd":"/a"}` + "\n" + `{"type":"message","id":"e1","parentId":null,"message":{"role":"user","content":"first  line  ` + strings.Repeat("long ", 40) + `\nsecond line"}}` + "\n"
	write(t, filepath.Join(d, "a.jsonl"), noTime, t0)
	write(t, filepath.Join(d, "b.jsonl"), `{"type":"session","version":3,"id":"no-prompt","timestamp":"2026-04-01T00:00:00Z","cwd":"/b"}`+"\n", t0)
	write(t, filepath.Join(d, "c.jsonl"), piSession("newer", "/c", "newest", "2026-06-01T00:00:00Z", 0), t0)
	got, _ := List([]string{d}, 2)
	var ids, titles []string
	for _, s := range got {
		ids, titles = append(ids, s.ID), append(titles, s.Title)
	}
	if strings.Join(ids, ",") != "newer,no-time,no-prompt" {
		t.Errorf("order: %v", ids)
	}
	if !strings.HasPrefix(titles[1], "first line long long") || len([]rune(titles[1])) != TitleRunes || !strings.HasSuffix(titles[1], "…") {
		t.Errorf("title %q", titles[1])
	}
	if titles[2] != "no-prompt" {
		t.Errorf("title without a prompt: %q", titles[2])
	}
}

func TestListProblems(t *testing.T) {
	d := t.TempDir()
	write(t, filepath.Join(d, "ok.jsonl"), piSession("ok", "/", "hi", "2026-01-01T00:00:00Z", 0), time.Now())
	locked := filepath.Join(d, "locked.jsonl")
	write(t, locked, piSession("locked", "/", "hi", "2026-01-01T00:00:00Z", 0), time.Now())
	os.Chmod(locked, 0)
	got, problems := List([]string{d, filepath.Join(d, "missing")}, 0)
	ids := map[string]bool{}
	for _, s := range got {
		ids[s.ID] = true
	}
	named := map[string]bool{}
	for _, p := range problems {
		named[p.Path] = true
	}
	if !ids["ok"] || !named[filepath.Join(d, "missing")] {
		t.Errorf("got %+v, problems %v", got, problems)
	}
	if os.Geteuid() != 0 && (ids["locked"] || !named[locked]) { // root reads it anyway
		t.Errorf("an unreadable file: got %+v, problems %v", got, problems)
	}
}

func TestResolve(t *testing.T) {
	h := home(t)
	tests := []struct {
		prefix string
		want   []string // ids
	}{
		{"6ec7b", []string{"6ec7b000-1111-4222-8333-444455556666"}},
		{"6EC7A", []string{"6ec7a000-1111-4222-8333-444455556666"}}, // case does not matter
		{"6ec7", []string{"6ec7b000-1111-4222-8333-444455556666", "6ec7a000-1111-4222-8333-444455556666"}},
		{"ffff", nil},
		{"stray", nil},    // not in a store
		{"agent-b2", nil}, // a subagent is not a session of its own
	}
	for _, tc := range tests {
		got, _ := Resolve([]string{h}, tc.prefix, 0)
		var ids []string
		for _, s := range got {
			ids = append(ids, s.ID)
		}
		if strings.Join(ids, ",") != strings.Join(tc.want, ",") {
			t.Errorf("%s: got %v, want %v", tc.prefix, ids, tc.want)
		}
	}
}

func TestLooksLikeID(t *testing.T) {
	for s, want := range map[string]bool{
		"6ec7": true, "6ec": false, "0199a213-81c0": true, "a_b-c": true,
		"s.jsonl": false, "dir/6ec7": false, "-": false, "6ec7 ": false, "": false,
	} {
		if LooksLikeID(s) != want {
			t.Errorf("LooksLikeID(%q) = %v", s, !want)
		}
	}
}

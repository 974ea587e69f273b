package archive

import (
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// agentsHome lays out a home directory as Claude Code and Codex leave it,
// from the fixtures in testdata/claude and testdata/codex, under dir:
//
//	.claude/projects/-home-me-src-app/       s1.jsonl, its 2.1 subagents (one run by another, a workflow's step, a file that is no transcript), a 2.0 subagent beside it and another session's
//	.claude/projects/-home-me-src-web/       a 2.1.3 session with a 2.0 subagent beside it
//	.claude/projects/-home-me-src-old-app/   a session whose lines record no cwd
//	.codex/sessions/2026/03/03/              three rollouts (in /work/old, /work/p, /work/q)
//	src/app/notes.jsonl                      not in an agent's store: not read
//
// The projects' directories are named unlike the cwd the sessions record
// (/work/q, /work/p): the index must name projects by the latter.
func agentsHome(t *testing.T, dir string) string {
	t.Helper()
	home := filepath.Join(dir, "home")
	td := filepath.Join(cwdAtStart, "..", "testdata")
	app := filepath.Join(home, ".claude", "projects", "-home-me-src-app")
	if err := os.CopyFS(app, os.DirFS(filepath.Join(td, "claude", "agents"))); err != nil {
		t.Fatal(err)
	}
	web := filepath.Join(home, ".claude", "projects", "-home-me-src-web")
	copyFile(t, filepath.Join(td, "claude", "session.jsonl"), filepath.Join(web, "7f3c2a10.jsonl"))
	copyFile(t, filepath.Join(td, "claude", "agent-a1b2c3.jsonl"), filepath.Join(web, "agent-a1b2c3.jsonl"))
	old := mustRead(t, filepath.Join(td, "claude", "compaction.jsonl"))
	write(t, filepath.Join(home, ".claude", "projects", "-home-me-src-old-app", "2b9d0c1e.jsonl"), strings.ReplaceAll(old, `"cwd":"/work/p",`, ""))
	for _, f := range []string{"rollout.jsonl", "legacy-2025.jsonl", "events-only.jsonl"} {
		copyFile(t, filepath.Join(td, "codex", f), filepath.Join(home, ".codex", "sessions", "2026", "03", "03", "rollout-2026-03-03T09-00-00-"+f))
	}
	write(t, filepath.Join(home, "src", "app", "notes.jsonl"), "{\"not\": \"a session\"}\n")
	return home
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	write(t, to, mustRead(t, from))
}

// transcripts lists the session files under the home's stores: every one
// is to have a page.
func transcripts(t *testing.T, home string) []string {
	t.Helper()
	var out []string
	for _, store := range HomeStores(home) {
		err := filepath.WalkDir(store, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") && !strings.HasSuffix(p, "agent-bad.jsonl") {
				out = append(out, p)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	slices.Sort(out)
	return out
}

// related are the pages a page's links of one kind ("Subagents", "Run
// by") lead to, as paths in the archive.
func related(t *testing.T, out, page, kind string) []string {
	t.Helper()
	html := mustRead(t, filepath.Join(out, page))
	m := regexp.MustCompile(`<dt>` + regexp.QuoteMeta(kind) + `</dt><dd><ul class="related">(.*?)</ul></dd>`).FindStringSubmatch(html)
	if m == nil {
		return nil
	}
	var pages []string
	for _, h := range regexp.MustCompile(`href="([^"]*)"`).FindAllStringSubmatch(m[1], -1) {
		u, err := url.PathUnescape(h[1])
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, path.Join(path.Dir(page), u))
	}
	return pages
}

// The archive of a home directory: Claude Code's and Codex's stores are
// found (and nothing else in the home is read); every transcript has a
// page; each session's page links its subagents' pages, and each
// subagent's page links back to what ran it.
func TestArchiveAgentsHome(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	home := agentsHome(t, dir)
	res := run(t, []string{home}, filepath.Join(home, "archive"), Options{})
	out := filepath.Join(home, "archive")
	m := manifest(t, out)
	bySource := map[string]Session{}
	for _, s := range m.Sessions {
		bySource[s.Source] = s
		if _, err := os.Stat(filepath.Join(out, s.Page)); err != nil {
			t.Errorf("%s: no page: %v", s.Source, err)
		}
	}
	want := transcripts(t, home)
	if len(want) != 14 {
		t.Fatalf("the fixture has %d transcripts: %v", len(want), want)
	}
	for _, p := range want {
		if _, ok := bySource[p]; !ok {
			t.Errorf("%s: not archived", p)
		}
	}
	if res.Sessions != len(want) || len(res.Problems) != 1 || !strings.HasSuffix(res.Problems[0].Path, "agent-bad.jsonl") {
		t.Errorf("%d sessions (want %d), problems %v: want only agent-bad.jsonl", res.Sessions, len(want), res.Problems)
	}

	app := filepath.Join(home, ".claude", "projects", "-home-me-src-app")
	pageOf := func(rel string) string {
		t.Helper()
		s, ok := bySource[filepath.Join(app, filepath.FromSlash(rel))]
		if !ok {
			t.Fatalf("%s: not archived", rel)
		}
		return s.Page
	}
	s1, a1, a4 := pageOf("s1.jsonl"), pageOf("s1/subagents/agent-a1.jsonl"), pageOf("s1/subagents/agent-a4.jsonl")
	direct := []string{a1, pageOf("s1/subagents/agent-a2.jsonl"), pageOf("s1/subagents/agent-a3.jsonl"),
		pageOf("s1/subagents/workflows/wf_1/agent-w1.jsonl"), pageOf("agent-old.jsonl")}
	for _, tc := range []struct {
		page, kind string
		want       []string
	}{
		{s1, "Subagents", direct}, // in the order they started; a4 is a1's
		{a1, "Subagents", []string{a4}},
		{a1, "Run by", []string{s1}},
		{a4, "Run by", []string{a1}},
		{a4, "In session", []string{s1}},
		{direct[1], "Run by", []string{s1}},
		{direct[3], "Run by", []string{s1}},
		{direct[4], "Run by", []string{s1}}, // 2.0: beside its session, which its lines name
		{pageOf("agent-other.jsonl"), "Run by", nil},
		{bySource[filepath.Join(home, ".claude", "projects", "-home-me-src-web", "7f3c2a10.jsonl")].Page, "Subagents",
			[]string{bySource[filepath.Join(home, ".claude", "projects", "-home-me-src-web", "agent-a1b2c3.jsonl")].Page}},
	} {
		if got := related(t, out, tc.page, tc.kind); !slices.Equal(got, tc.want) {
			t.Errorf("%s, %s: %v, want %v", tc.page, tc.kind, got, tc.want)
		}
	}
	if other := mustRead(t, filepath.Join(out, pageOf("agent-other.jsonl"))); !strings.Contains(other, "session 99999999-0000-4000-8000-000000000000 (not in the archive)") {
		t.Errorf("the subagent whose session is not in the archive does not say so")
	}
	if !strings.Contains(mustRead(t, filepath.Join(out, a1)), ">general-purpose: Read cli.go</a>") {
		t.Errorf("a subagent's link does not name its type and description (from its meta file)")
	}
	checkAgentsIndex(t, out)
}

// checkAgentsIndex checks the index of agentsHome's archive: projects
// named by the cwd the sessions record, formats shown, subagents listed
// under what ran them.
func checkAgentsIndex(t *testing.T, out string) {
	t.Helper()
	index := mustRead(t, filepath.Join(out, "index.html"))
	var projects []string
	for _, m := range regexp.MustCompile(`<h2>([^<]*)</h2>`).FindAllStringSubmatch(index, -1) {
		projects = append(projects, m[1])
	}
	if want := []string{"-home-me-src-old-app", "/work/old", "/work/p", "/work/q", "Files skipped"}; !slices.Equal(projects, want) {
		t.Errorf("projects %v, want %v (named by the cwd their sessions record; the directory's name when none does)", projects, want)
	}
	// The rows of /work/q, in order, with their depth.
	q := index[strings.Index(index, "<h2>/work/q</h2>"):]
	q = q[:strings.Index(q, "</tbody>")]
	var rows []string
	for _, m := range regexp.MustCompile(`<tr( class="sub")?( data-depth="(\d)")?><td data-v="([^"]*)"`).FindAllStringSubmatch(q, -1) {
		rows = append(rows, m[3]+m[1]+" "+m[4])
	}
	want := []string{
		` class="sub" Another session&#39;s.`, // its session is not in the archive: listed on its own
		` Review the parser and its tests.`,
		`1 class="sub" Find every caller of Parse.`,
		`2 class="sub" Read cli.go and say how it calls Parse.`,
		`1 class="sub" Run the tests in the background.`,
		`1 class="sub" Summarise parse.go in one line.`,
		`1 class="sub" Step one of the release workflow.`,
		`1 class="sub" An older subagent.`,
		` What does this repository do?`, // a Codex rollout in the same directory
	}
	if !slices.Equal(rows, want) {
		t.Errorf("rows of /work/q:\n%s\nwant:\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
	for _, want := range []string{
		`<td data-v="claude-code 2.1.20">claude-code 2.1.20</td>`, `<td data-v="codex 0.46.0">codex 0.46.0</td>`,
		`<th scope="row">2 sessions and 7 subagents</th>`,
		"Explore subagent: Find callers · agent a1", "run by Explore: Find callers", "5 subagents",
		"run by session 99999999-0000-4000-8000-000000000000, not in the archive",
	} {
		if !strings.Contains(index, want) {
			t.Errorf("the index does not hold %q", want)
		}
	}
}

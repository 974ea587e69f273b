package archive

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// transcript is a small pi session: a prompt and its reply.
func transcript(id, started, prompt string) string {
	return fmt.Sprintf(`{"type":"session","version":3,"id":%q,"timestamp":%q,"cwd":"/srv/gateway"}
{"type":"message","id":"u1","parentId":null,"timestamp":%q,"message":{"role":"user","content":%q,"timestamp":0}}
{"type":"message","id":"a1","parentId":"u1","timestamp":%q,"message":{"role":"assistant","content":[{"type":"text","text":"Done."}],"timestamp":0,"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","stopReason":"stop","usage":{"input":10,"output":2,"cacheRead":0,"cacheWrite":0,"totalTokens":12,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}}}}
`, id, started, started, prompt, started)
}

// realStore writes a gateway store as users keep them: written on
// Windows, with rotated transcripts (reset, deleted, backups), a lock
// file, a backup of the store and a stray note. It returns the store's
// directory.
func realStore(t *testing.T, root string) string {
	t.Helper()
	dir := filepath.Join(root, "agents", "main", "sessions")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"sessions.json": `{
  "agent:main:main": {"sessionId": "live", "updatedAt": 1778000000000, "sessionFile": "C:\\Users\\ada\\.openclaw\\agents\\main\\sessions\\live.jsonl", "displayName": "Ada (DM)"},
  "cron:nightly": {"sessionId": "cron1", "sessionFile": "C:/Users/ada/.openclaw/agents/main/sessions/cron1.jsonl", "chatType": "cron"}
}`,
		"live.jsonl":        transcript("live", "2026-05-05T07:00:00Z", "Today's plan"),
		"live.jsonl.backup": transcript("live", "2026-05-04T07:00:00Z", "The backup's plan"),
		"live.jsonl.bak.2026-05-03T08-00-00.000Z":    transcript("live", "2026-05-03T07:00:00Z", "An older plan"),
		"gone.jsonl.reset.2026-05-01T10-00-00.000Z":  transcript("gone", "2026-05-01T09:00:00Z", "Before the reset"),
		"dropped.jsonl.deleted.2026-05-02T11-30-00Z": transcript("dropped", "2026-05-02T11:00:00Z", "A deleted session"),
		"cron1.jsonl":                  transcript("cron1", "2026-05-06T02:00:00Z", "Write the nightly report"),
		"cron1.jsonl.lock":             "pid 4242\n",
		"sessions.json.bak.1777000000": "{}",
		"notes.txt":                    "not a transcript\n",
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestArchiveKeepsTheWholeStore(t *testing.T) {
	t.Chdir(t.TempDir())
	realStore(t, "src")
	res := run(t, []string{"src"}, "out", Options{})
	if res.Sessions != 6 || len(res.Problems) != 0 {
		t.Fatalf("%d sessions, problems %v; want the 6 transcripts and no problem", res.Sessions, res.Problems)
	}
	m := manifest(t, "out")
	by := map[string]Session{}
	for _, s := range m.Sessions {
		by[filepath.Base(s.Source)] = s
	}
	for name, want := range map[string]struct {
		key, kind, at, page string
		locked              bool
	}{
		"live.jsonl":        {key: "agent:main:main", page: "sessions/src/agents/main/sessions/live.html"},
		"live.jsonl.backup": {key: "agent:main:main", kind: RotationBackup, page: "sessions/src/agents/main/sessions/live.backup.html"},
		"live.jsonl.bak.2026-05-03T08-00-00.000Z": {key: "agent:main:main", kind: RotationBackup, at: "2026-05-03T08:00:00Z",
			page: "sessions/src/agents/main/sessions/live.bak.2026-05-03T08-00-00.000Z.html"},
		"gone.jsonl.reset.2026-05-01T10-00-00.000Z":  {kind: RotationReset, at: "2026-05-01T10:00:00Z"},
		"dropped.jsonl.deleted.2026-05-02T11-30-00Z": {kind: RotationDeleted, at: "2026-05-02T11:30:00Z"},
		"cron1.jsonl": {key: "cron:nightly", locked: true}, // a sessionFile written on Windows, with forward slashes
	} {
		s, ok := by[name]
		switch {
		case !ok:
			t.Errorf("%s is not archived", name)
			continue
		case s.Gateway == nil || s.Gateway.Key != want.key:
			t.Errorf("%s: gateway %+v, want key %q", name, s.Gateway, want.key)
		case want.kind == "" && s.Rotation != nil, want.kind != "" && (s.Rotation == nil || s.Rotation.Kind != want.kind || s.Rotation.At != want.at):
			t.Errorf("%s: rotation %+v, want %s at %q", name, s.Rotation, want.kind, want.at)
		case s.Locked != want.locked:
			t.Errorf("%s: locked %v", name, s.Locked)
		case want.page != "" && s.Page != want.page:
			t.Errorf("%s: page %s, want %s", name, s.Page, want.page)
		}
	}
	if g := by["live.jsonl.backup"].Gateway; g != nil && g.InputTokens+g.TotalTokens != 0 {
		t.Errorf("a backup has the live session's counters: %+v", g)
	}

	checkStorePages(t, m)

	// Everything else in the store is listed, with the reason.
	index := mustRead(t, "out/index.html")
	for _, w := range []string{
		"2 earlier sessions of this key", "followed by Today", "reset at 2026-05-01 10:00", "deleted at 2026-05-02 11:30",
		"gateway key not recorded", "locked when archived: archived as it stood",
		"<code>src/agents/main/sessions/cron1.jsonl.lock</code>: not archived: a lock file; cron1.jsonl is archived as it stood, marked locked",
		"<code>src/agents/main/sessions/notes.txt</code>: not archived: not a transcript",
		"<code>src/agents/main/sessions/sessions.json.bak.1777000000</code>: not archived: not a transcript",
	} {
		if !strings.Contains(index, w) {
			t.Errorf("index lacks %q", w)
		}
	}
	if len(res.Passed) != 3 || len(m.Skipped) != 3 {
		t.Errorf("passed %v, manifest skipped %v; want the lock file, the store's backup and the note", res.Passed, m.Skipped)
	}
	if findings, ok, err := Verify("out"); err != nil || !ok {
		t.Errorf("Verify: ok %v, err %v, %v", ok, err, findings)
	}
}

// checkStorePages checks the marks and the key's history on the pages of
// realStore's transcripts.
func checkStorePages(t *testing.T, m *Manifest) {
	t.Helper()
	// The key's page lists its earlier sessions, oldest first; each links to the next.
	live := page(t, "out", m, "/live.jsonl")
	if !strings.Contains(live, `<dt>Earlier sessions</dt><dd><ul class="related"><li><a href="live.bak.2026-05-03T08-00-00.000Z.html">An older plan</a></li><li><a href="live.backup.html">The backup`) {
		t.Errorf("the key's page does not list its earlier sessions in order:\n%s", between(live, "Earlier", 300))
	}
	for src, want := range map[string][]string{
		"/live.jsonl.bak.2026-05-03T08-00-00.000Z":    {`<dt>Next session</dt><dd><ul class="related"><li><a href="live.backup.html">`, "backup made at 2026-05-03 08:00 UTC"},
		"/live.jsonl.backup":                          {`<dt>Next session</dt><dd><ul class="related"><li><a href="live.html">Today`, `<li>agent:main:main</li>`},
		"/gone.jsonl.reset.2026-05-01T10-00-00.000Z":  {"reset at 2026-05-01 10:00 UTC", "not recorded: no entry of the store names session gone now"},
		"/dropped.jsonl.deleted.2026-05-02T11-30-00Z": {"deleted at 2026-05-02 11:30 UTC"},
		"/cron1.jsonl": {"<dt>Locked</dt>", "<li>cron:nightly</li>"},
	} {
		p := page(t, "out", m, src)
		for _, w := range want {
			if !strings.Contains(p, w) {
				t.Errorf("page of %s lacks %s", src, w)
			}
		}
	}
}

// between is up to n bytes of s from the first want, for a message.
func between(s, want string, n int) string {
	i := strings.Index(s, want)
	if i < 0 {
		return "(no " + want + ")"
	}
	return s[i:min(len(s), i+n)]
}

func TestRotatedName(t *testing.T) {
	for _, c := range []struct {
		name, live, kind, at string
		ok                   bool
	}{
		{"a.jsonl.reset.2026-02-02T20-29-47.344Z", "a.jsonl", RotationReset, "2026-02-02T20:29:47Z", true},
		{"a.jsonl.deleted.2026-02-02T20-29-47Z", "a.jsonl", RotationDeleted, "2026-02-02T20:29:47Z", true},
		{"a.jsonl.bak.1770000000000", "a.jsonl", RotationBackup, "2026-02-02T02:40:00Z", true},
		{"a.jsonl.backup", "a.jsonl", RotationBackup, "", true},
		{"a.jsonl.reset.someday", "a.jsonl", RotationReset, "someday", true},
		{"a.jsonl", "", "", "", false},
		{"a.jsonl.lock", "", "", "", false},
		{"a.jsonl.reset.", "", "", "", false},
		{".jsonl.reset.x", "", "", "", false},
	} {
		live, r, ok := rotatedName(c.name)
		if ok != c.ok || live != c.live || r.Kind != c.kind || r.At != c.at {
			t.Errorf("rotatedName(%q) = %q, %+v, %v", c.name, live, r, ok)
		}
	}
}

func TestTranscriptPathOnAnySystem(t *testing.T) {
	for _, c := range []struct{ file, want string }{
		{`C:\Users\x\.openclaw\agents\main\sessions\s1.jsonl`, "store/s1.jsonl"},
		{`C:/Users/x/sessions/s1.jsonl`, "store/s1.jsonl"},
		{`\\server\share\sessions\s1.jsonl`, "store/s1.jsonl"},
		{`/home/x/.openclaw/agents/main/sessions/s1.jsonl`, "store/s1.jsonl"},
		{`s1.jsonl`, "store/s1.jsonl"},
		{`sub\s1.jsonl`, "store/sub/s1.jsonl"},
	} {
		e := storeEntry{SessionFile: []byte(fmt.Sprintf("%q", c.file))}
		if got := filepath.ToSlash(transcriptPath("store", e)); got != c.want {
			t.Errorf("transcriptPath(%s) = %s, want %s", c.file, got, c.want)
		}
	}
}

func TestForkNamedByAWindowsPath(t *testing.T) {
	ss := []Session{{Source: "src/a/parent.jsonl"}, {Source: "src/b/fork.jsonl", ParentSession: `C:\Users\ada\.pi\sessions\parent.jsonl`}}
	if r := relate(ss); r.ForkOf[1] != 0 {
		t.Errorf("a fork naming its parent by a Windows path is not linked: %v", r.ForkOf)
	}
}

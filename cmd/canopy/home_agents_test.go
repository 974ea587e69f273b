package main

import (
	"crypto/sha256"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
)

// TestArchiveHomeEveryAgent: canopy archive of a home directory that
// holds a session of every agent whose sessions are files, each where
// its agent keeps them, gives every one a page and names its agent in
// the manifest and the index; the home is left exactly as it was (no
// file changed, none created).
func TestArchiveHomeEveryAgent(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	st := "../../sessiontree/testdata/"
	for _, c := range []struct{ src, dst string }{
		{"../../testdata/claude/session.jsonl", ".claude/projects/-work-p/7f3c2a10-0000-4000-8000-000000000001.jsonl"},
		{"../../testdata/codex/rollout.jsonl", ".codex/sessions/2026/03/02/rollout-2026-03-02T10-00-00-0199a000-0000-7000-8000-000000000001.jsonl"},
		{"../../testdata/demo/demo.jsonl", ".pi/agent/sessions/--home-maya-src-linkstash--/demo.jsonl"},
		{st + "gemini/session-2026-03-04T08-00-a1b2c3d4.jsonl", ".gemini/tmp/proj/chats/session-2026-03-04T08-00-a1b2c3d4.jsonl"},
		{st + "qwen/3f1e0a52-qs-0001.jsonl", ".qwen/projects/-work-q/chats/3f1e0a52-qs-0001.jsonl"},
		{st + "copilot/events.jsonl", ".copilot/session-state/0c1d2e3f/events.jsonl"},
		{st + "kimi/wire.jsonl", ".kimi/sessions/4f2a/0be84c98/wire.jsonl"},
		{st + "amp/T-3f1c2a9e-1b2c-4d5e-8f90-a1b2c3d4e5f6.json", ".local/share/amp/threads/T-3f1c2a9e-1b2c-4d5e-8f90-a1b2c3d4e5f6.json"},
		{st + "cursor/5b0e8c1a-2f3d-4e5f-9a0b-1c2d3e4f5a6b.jsonl", ".cursor/projects/work-p/agent-transcripts/5b0e8c1a-2f3d-4e5f-9a0b-1c2d3e4f5a6b.jsonl"},
		{st + "hermes/20260101_100000_5a3e2ff1.jsonl", ".hermes/sessions/20260101_100000_5a3e2ff1.jsonl"},
		{st + "cline/task1/api_conversation_history.json", ".config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks/task1/api_conversation_history.json"},
		{st + "cline/task1/ui_messages.json", ".config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks/task1/ui_messages.json"},
	} {
		data, err := os.ReadFile(c.src)
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(home, filepath.FromSlash(c.dst))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	before := treeHashes(t, home)
	out := filepath.Join(t.TempDir(), "archive")
	code, _, stderr := canopy(t, nil, "archive", home, "-o", out, "--quiet")
	if code != exitOK {
		t.Fatalf("archive: exit %d: %s", code, stderr)
	}
	if after := treeHashes(t, home); !equalMaps(before, after) {
		t.Errorf("the home changed: before %v, after %v", before, after)
	}
	raw, err := os.ReadFile(filepath.Join(out, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Sessions []struct {
			Format string `json:"format"`
			Page   string `json:"page"`
		} `json:"sessions"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, s := range m.Sessions {
		if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(s.Page))); err != nil {
			t.Errorf("%s session: no page: %v", s.Format, err)
		}
		got[strings.TrimSpace(s.Format)]++
	}
	index, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"claude-code", "codex", "pi", "gemini-cli", "qwen-code", "copilot-cli", "kimi-cli", "amp", "cursor-cli", "hermes", "cline"} {
		if got[f] == 0 {
			t.Errorf("no %s session archived (archived: %v)", f, got)
		}
		if !strings.Contains(string(index), f) {
			t.Errorf("the index does not name %s", f)
		}
	}
}

// treeHashes is every file under dir by its path, with its SHA-256 and
// modification time.
func treeHashes(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		out[p] = string(sum[:]) + info.ModTime().String()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

package catalog

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// TestListCompressed: a session kept compressed (.jsonl.gz, .jsonl.zst)
// is listed as its plain file is, its id taken from its name without the
// compression's extension; a damaged one is a problem, not a panic.
func TestListCompressed(t *testing.T) {
	plain, err := os.ReadFile(filepath.Join("..", "testdata", "codex", "rollout.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var gz, zs bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(plain)
	zw.Close()
	enc, _ := zstd.NewWriter(&zs)
	enc.Write(plain)
	enc.Close()
	dir := t.TempDir()
	name := "rollout-2026-03-03T09-00-00-0199a213-81c0-7800-8aa1-bbab2a035a53"
	for ext, data := range map[string][]byte{".jsonl": plain, ".jsonl.gz": gz.Bytes(), ".jsonl.ZST": zs.Bytes(), "-cut.jsonl.gz": gz.Bytes()[:gz.Len()/2]} {
		if err := os.WriteFile(filepath.Join(dir, name+ext), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, problems := List([]string{dir}, 0)
	if len(got) != 3 || len(problems) != 1 || filepath.Base(problems[0].Path) != name+"-cut.jsonl.gz" {
		t.Fatalf("%d sessions, problems %v; want 3 and the cut file", len(got), problems)
	}
	for _, s := range got[1:] {
		if s.Title != got[0].Title || s.Agent != got[0].Agent || s.ID != got[0].ID || s.LastActivity != got[0].LastActivity || s.Title == "" {
			t.Errorf("%s: %q %s %s %s, want as %s: %q %s %s %s", s.Path, s.Title, s.Agent, s.ID, s.LastActivity,
				got[0].Path, got[0].Title, got[0].Agent, got[0].ID, got[0].LastActivity)
		}
	}
}

// TestListOnce: a session copied into two stores (a Codex rollout in
// sessions/ and archived_sessions/) is listed once, so its id names one.
func TestListOnce(t *testing.T) {
	plain, err := os.ReadFile(filepath.Join("..", "testdata", "codex", "rollout.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	name := "rollout-2026-03-03T09-00-00-0199a213-81c0-7800-8aa1-bbab2a035a53.jsonl"
	for _, d := range []string{".codex/sessions/2026/03/03", ".codex/archived_sessions"} {
		os.MkdirAll(filepath.Join(home, d), 0o755)
		if err := os.WriteFile(filepath.Join(home, d, name), plain, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, _ := List([]string{home}, 0)
	found, _ := Resolve([]string{home}, "0199a213", 0)
	if len(got) != 1 || len(found) != 1 {
		t.Errorf("%d sessions listed, %d found by id; want 1 and 1", len(got), len(found))
	}
}

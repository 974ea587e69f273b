package catalog

import (
	"path/filepath"
	"testing"
	"time"
)

// Hermes Agent keeps a session as a transcript (<id>.jsonl) and as a
// snapshot of its messages (session_<id>.json) in one directory: it is one
// session, listed once, by its transcript. A snapshot alone is listed.
func TestListHermesTwinOnce(t *testing.T) {
	h := t.TempDir()
	t0 := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	dir := filepath.Join(h, ".hermes", "sessions")
	transcript := `{"role":"session_meta","model":"anthropic/claude-sonnet-4","platform":"cli","timestamp":"2026-05-01T10:00:00"}` + "\n" +
		`{"role":"user","content":"hi","timestamp":"2026-05-01T10:00:01"}` + "\n" +
		`{"role":"assistant","content":"hello","timestamp":"2026-05-01T10:00:02"}` + "\n"
	snapshot := func(id string) string {
		return `{"session_id":"` + id + `","model":"anthropic/claude-sonnet-4","platform":"cli","session_start":"2026-05-01T10:00:00","last_updated":"2026-05-01T10:00:02","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]}`
	}
	write(t, filepath.Join(dir, "20260501_100000_aaaa.jsonl"), transcript, t0)
	write(t, filepath.Join(dir, "session_20260501_100000_aaaa.json"), snapshot("20260501_100000_aaaa"), t0)
	write(t, filepath.Join(dir, "session_20260502_100000_bbbb.json"), snapshot("20260502_100000_bbbb"), t0)
	got, problems := List([]string{dir}, 0)
	if len(problems) > 0 {
		t.Errorf("problems: %v", problems)
	}
	var names []string
	for _, s := range got {
		names = append(names, filepath.Base(s.Path))
	}
	if len(names) != 2 || !contains(names, "20260501_100000_aaaa.jsonl") || !contains(names, "session_20260502_100000_bbbb.json") {
		t.Fatalf("listed %v, want the transcript and the lone snapshot", names)
	}
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

package archive

import (
	"path/filepath"
	"testing"
)

// A Hermes session kept as a transcript and as a snapshot is archived
// once, as its transcript; the snapshot named on the command line is
// archived as named; a snapshot alone is archived.
func TestDiscoverHermesTwinOnce(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sessions")
	transcript := `{"role":"session_meta","model":"anthropic/claude-sonnet-4","platform":"cli","timestamp":"2026-05-01T10:00:00"}` + "\n" +
		`{"role":"user","content":"hi","timestamp":"2026-05-01T10:00:01"}` + "\n"
	snapshot := `{"session_id":"x","session_start":"2026-05-01T10:00:00","last_updated":"2026-05-01T10:00:02","messages":[{"role":"user","content":"hi"}]}`
	write(t, filepath.Join(dir, "20260501_100000_aaaa.jsonl"), transcript)
	write(t, filepath.Join(dir, "session_20260501_100000_aaaa.json"), snapshot)
	write(t, filepath.Join(dir, "session_20260502_100000_bbbb.json"), snapshot)
	names := func(found []Source) []string {
		var out []string
		for _, s := range found {
			out = append(out, filepath.Base(s.Path))
		}
		return out
	}
	found, problems := Discover([]string{dir})
	if len(problems) > 0 {
		t.Errorf("problems: %v", problems)
	}
	if got := names(found); len(got) != 2 || got[0] != "20260501_100000_aaaa.jsonl" || got[1] != "session_20260502_100000_bbbb.json" {
		t.Errorf("found %v", got)
	}
	found, _ = Discover([]string{dir, filepath.Join(dir, "session_20260501_100000_aaaa.json")})
	if got := names(found); len(got) != 3 {
		t.Errorf("with the snapshot named: found %v", got)
	}
}

package sessiontree

import (
	"strings"
	"testing"
)

// TestStatsCountCustomMessages: an extension's custom_message is a message
// kind of its own in the counts ("1 custom", as the reference's header
// has it), beside a message entry of role custom; extension state (custom)
// is not a message.
func TestStatsCountCustomMessages(t *testing.T) {
	lines := []string{
		`{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/"}`,
		`{"type":"message","id":"u","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":"hi"}}`,
		`{"type":"custom_message","id":"c","parentId":"u","timestamp":"2026-01-01T00:00:02Z","customType":"note","content":"x","display":true}`,
		`{"type":"custom","id":"d","parentId":"c","timestamp":"2026-01-01T00:00:03Z","customType":"state","data":{}}`,
		`{"type":"message","id":"m","parentId":"d","timestamp":"2026-01-01T00:00:04Z","message":{"role":"custom","customType":"hook","content":"y","display":false}}`,
	}
	s, err := Load([]byte(strings.Join(lines, "\n")+"\n"), "t.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	st := s.Stats(s.Entries)
	if st.Messages[RoleUser] != 1 || st.Messages[RoleCustom] != 2 || len(st.Messages) != 2 {
		t.Errorf("Messages = %v, want 1 user and 2 custom", st.Messages)
	}
}

package sessiontree

import "testing"

func TestFormatLabel(t *testing.T) {
	for _, c := range []struct {
		s    Session
		want string
	}{
		{Session{Format: "pi", Version: 3}, "pi, version 3"},
		{Session{Format: "flue", Version: 1}, "flue, version 1"},
		{Session{Format: "claude-code", Version: 2, FormatVersion: "2.1.3"}, "claude-code, version 2.1.3"},
		{Session{Format: "codex", Version: 0, FormatVersion: "0.46.0"}, "codex, version 0.46.0"},
	} {
		if got := c.s.FormatLabel(); got != c.want {
			t.Errorf("FormatLabel() = %q, want %q", got, c.want)
		}
	}
}

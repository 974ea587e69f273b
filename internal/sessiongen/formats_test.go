package sessiongen

import (
	"bytes"
	"testing"

	"canopy/sessiontree"
)

// TestGenerateAgent: the generated sessions read as their formats, every
// entry decoding, on one path, one user message a turn, without a
// diagnostic, at about the size a turn is said to take; the same config
// writes the same bytes.
func TestGenerateAgent(t *testing.T) {
	for _, c := range []struct {
		cfg     AgentConfig
		format  string
		perTurn int
	}{
		{AgentConfig{FormatClaude, 20}, sessiontree.FormatClaude, 15_700},
		{AgentConfig{FormatCodex, 20}, sessiontree.FormatCodex, 9_500},
	} {
		t.Run(c.cfg.Format, func(t *testing.T) {
			var b, again bytes.Buffer
			if err := GenerateAgent(&b, c.cfg); err != nil {
				t.Fatal(err)
			}
			if err := GenerateAgent(&again, c.cfg); err != nil || !bytes.Equal(b.Bytes(), again.Bytes()) {
				t.Fatalf("a second run differs (%v)", err)
			}
			s, err := sessiontree.Load(b.Bytes(), c.cfg.Format)
			if err != nil {
				t.Fatal(err)
			}
			if s.Format != c.format || len(s.Path(s.Leaf)) != len(s.Entries) || len(s.Diagnostics) != 0 {
				t.Fatalf("format %s, path %d of %d, diagnostics %v", s.Format, len(s.Path(s.Leaf)), len(s.Entries), s.Diagnostics)
			}
			if st := s.Stats(s.Entries); st.Messages[sessiontree.RoleUser] != c.cfg.Turns {
				t.Errorf("%d user messages", st.Messages[sessiontree.RoleUser])
			}
			if per := b.Len() / c.cfg.Turns; per < c.perTurn*7/10 || per > c.perTurn*13/10 {
				t.Errorf("%d bytes a turn", per)
			}
			for _, e := range s.Entries {
				if _, err := e.Decode(); err != nil {
					t.Fatalf("%s: %v", e.ID, err)
				}
			}
		})
	}
	if err := GenerateAgent(&bytes.Buffer{}, AgentConfig{"gemini", 1}); err == nil {
		t.Error("a format with no generator")
	}
}

package main

import (
	"bytes"
	"testing"

	"canopy/sessiontree"
)

// TestAgentGen: the generated inputs read as their formats, every entry
// decoding, on one path, without a diagnostic, at about the size a turn
// is said to take.
func TestAgentGen(t *testing.T) {
	for _, c := range []struct {
		g       agentGen
		perTurn int
	}{
		{agentGen{"claude-code", 20}, 15_700},
		{agentGen{"codex", 20}, 9_500},
	} {
		var b bytes.Buffer
		if err := c.g.write(&b); err != nil {
			t.Fatal(err)
		}
		s, err := sessiontree.Load(b.Bytes(), c.g.Format)
		if err != nil {
			t.Fatal(err)
		}
		if s.Format != c.g.Format || len(s.Path(s.Leaf)) != len(s.Entries) || len(s.Diagnostics) != 0 {
			t.Fatalf("%s: format %s, path %d of %d, diagnostics %v", c.g.Format, s.Format, len(s.Path(s.Leaf)), len(s.Entries), s.Diagnostics)
		}
		if per := b.Len() / c.g.Turns; per < c.perTurn*7/10 || per > c.perTurn*13/10 {
			t.Errorf("%s: %d bytes a turn", c.g.Format, per)
		}
		for _, e := range s.Entries {
			if _, err := e.Decode(); err != nil {
				t.Fatalf("%s: %v", e.ID, err)
			}
		}
	}
	if err := (agentGen{"gemini", 1}).write(&bytes.Buffer{}); err == nil {
		t.Error("a format with no generator")
	}
}

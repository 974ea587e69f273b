package sessiontree

import "testing"

// The wording the reference sends the model, byte for byte: note the
// branch summary has no newline before its closing tag.
func TestSummaryTexts(t *testing.T) {
	tests := []struct {
		name, got, want string
	}{
		{"compaction", CompactionSummaryText("S"),
			"The conversation history before this point was compacted into the following summary:\n\n<summary>\nS\n</summary>"},
		{"branch", BranchSummaryText("S"),
			"The following is a summary of a branch that this conversation came back from:\n\n<summary>\nS</summary>"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, tt.got, tt.want)
		}
	}
}

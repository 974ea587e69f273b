package htmlpage

import (
	"os"
	"path/filepath"
	"testing"

	"canopy/sessiontree"
)

// TestFilterCountsReference checks the Go statement of the filter rules
// against the counts the reference page shows for the real corpus session.
func TestFilterCountsReference(t *testing.T) {
	dir := os.Getenv("CANOPY_SHARED")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared")
	}
	path := filepath.Join(dir, "corpus", "large-session.jsonl")
	if _, err := os.Stat(path); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI is set but %s is missing", path)
		}
		t.Skipf("%s not found", path)
	}
	s, err := sessiontree.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got := FilterCounts(s, nil)
	want := map[string]int{"default": 720, "no-tools": 347, "user-only": 89, "labeled-only": 1, "all": 824}
	for mode, n := range want {
		if got[mode] != n {
			t.Errorf("%s: %d rows, the reference shows %d", mode, got[mode], n)
		}
	}
}

func TestVisible(t *testing.T) {
	tests := []struct {
		name    string
		mode    string
		flags   int
		labeled bool
		leaf    bool
		want    bool
	}{
		{"default hides settings", "default", flagSettings, false, false, false},
		{"default shows tool results", "default", flagToolResult, false, false, true},
		{"no-tools hides tool results", "no-tools", flagToolResult, false, false, false},
		{"no-tools hides settings", "no-tools", flagSettings, false, false, false},
		{"user-only shows users", "user-only", flagUser, false, false, true},
		{"user-only hides others", "user-only", 0, false, false, false},
		{"labeled-only shows labeled", "labeled-only", 0, true, false, true},
		{"labeled-only hides unlabeled", "labeled-only", flagUser, false, false, false},
		{"all shows settings", "all", flagSettings, false, false, true},
		{"empty assistant hidden even in all", "all", flagEmpty, false, false, false},
		{"the leaf is always shown", "user-only", flagEmpty | flagSettings, false, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Visible(tt.mode, tt.flags, tt.labeled, tt.leaf); got != tt.want {
				t.Errorf("Visible(%q, %b, %v, %v) = %v, want %v", tt.mode, tt.flags, tt.labeled, tt.leaf, got, tt.want)
			}
		})
	}
}

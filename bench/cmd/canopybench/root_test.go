package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRepoRoot: from inside the bench module, the root found is the
// product's module (not bench/ itself), where cmd/canopy and the
// default.pgo that --pgo rewrites are.
func TestRepoRoot(t *testing.T) {
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	if m := modulePath(b); m != "canopy" {
		t.Fatalf("root %s: module %q", root, m)
	}
	for _, p := range []string{"cmd/canopy/main.go", "cmd/canopy/default.pgo", "bench/go.mod"} {
		if _, err := os.Stat(filepath.Join(root, p)); err != nil {
			t.Error(err)
		}
	}
}

func TestModulePath(t *testing.T) {
	for in, want := range map[string]string{
		"module canopy\n\ngo 1.26.0\n":           "canopy",
		"module canopy/bench\n":                  "canopy/bench",
		"// comment\nmodule \"canopy\"\n":        "canopy",
		"go 1.26.0\n":                            "",
		"module canopybench // not ours\ngo 1\n": "canopybench",
	} {
		if got := modulePath([]byte(in)); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

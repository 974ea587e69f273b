package sessiontree

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// TestWalkGenUpToDate fails when walk_gen.go is not what internal/walkgen
// makes of the structs as they are now: run go generate ./sessiontree.
func TestWalkGenUpToDate(t *testing.T) {
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	want, err := exec.Command(goTool, "run", "./internal/walkgen", "-o", "-").Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			t.Fatalf("walkgen: %v\n%s", err, ee.Stderr)
		}
		t.Fatalf("walkgen: %v", err)
	}
	have, err := os.ReadFile("walk_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(have, want) {
		t.Fatal("walk_gen.go is stale: run go generate ./sessiontree")
	}
}

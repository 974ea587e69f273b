package render

import (
	"testing"
)

func TestZZPrint(t *testing.T) {
	r, _ := New()
	for _, n := range []string{"entry", "part", "tool"} {
		t.Logf("%s: %s", n, r.page.Lookup(n).Tree.Root.String())
	}
}

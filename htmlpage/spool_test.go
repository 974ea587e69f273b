package htmlpage

import (
	"bytes"
	"testing"
)

// TestBlocks: what is written in pieces of any size comes out whole (as
// a JSON string: what a spool holds is base64 already).
func TestBlocks(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 64 << 10, 64<<10 + 1, 3 << 20, spoolMemory + 1, 9 << 20} {
		data := make([]byte, n)
		for i := range data {
			data[i] = byte(i * 7)
		}
		var b blocks
		sp := new(spool)
		for p := data; len(p) > 0; {
			k := min(len(p), 1+len(p)%5000)
			b.Write(p[:k])
			sp.Write(p[:k])
			p = p[k:]
		}
		want := `"` + string(data) + `"`
		var out bytes.Buffer
		if err := (&spool{mem: b, n: n}).writeJSON(&out); err != nil {
			t.Fatal(err)
		}
		if out.String() != want {
			t.Errorf("%d bytes: got %d bytes of JSON, want %d", n, out.Len(), len(want))
		}
		// Past spoolMemory, a spool keeps its bytes in a file: the same
		// JSON comes out, and Close leaves no file behind.
		out.Reset()
		if err := sp.writeJSON(&out); err != nil {
			t.Fatal(err)
		}
		if out.String() != want {
			t.Errorf("%d bytes spooled: got %d bytes of JSON, want %d", n, out.Len(), len(want))
		}
		if (sp.file != nil) != (n > spoolMemory) {
			t.Errorf("%d bytes: in a file %v", n, sp.file != nil)
		}
		sp.Close()
		if held := func() (c int) {
			for _, blk := range b {
				c += cap(blk)
			}
			return c
		}(); held > n+1<<20 {
			t.Errorf("%d bytes held in %d", n, held)
		}
	}
}

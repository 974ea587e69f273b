package render

import (
	"bytes"
	"encoding/base64"
	"strconv"
	"testing"
)

// TestBlocks: what is written in pieces of any size comes out whole, as a
// JSON string of its base64.
func TestBlocks(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 64 << 10, 64<<10 + 1, 3 << 20} {
		data := make([]byte, n)
		for i := range data {
			data[i] = byte(i * 7)
		}
		var b blocks
		for p := data; len(p) > 0; {
			k := min(len(p), 1+len(p)%5000)
			b.Write(p[:k])
			p = p[k:]
		}
		var out bytes.Buffer
		if err := b.writeJSON(&out); err != nil {
			t.Fatal(err)
		}
		if want := strconv.Quote(base64.StdEncoding.EncodeToString(data)); out.String() != want {
			t.Errorf("%d bytes: got %d bytes of JSON, want %d", n, out.Len(), len(want))
		}
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

package render

import (
	"encoding/base64"
	"html/template"
	"io"
)

// sourceSlot stands for the embedded source in the page template's bottom
// part (see executeAround).
const sourceSlot template.JS = "__canopy_source__"

// blocks holds bytes in blocks of 64 KB, then twice that, up to 1 MB: it
// grows without copying, and by at most a block beyond what it holds. A
// bytes.Buffer doubles: 18 MB of compressed source took 32 MB.
type blocks [][]byte

func (b *blocks) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		if len(*b) == 0 || len((*b)[len(*b)-1]) == cap((*b)[len(*b)-1]) {
			*b = append(*b, make([]byte, 0, 64<<min(len(*b), 4)<<10))
		}
		last := &(*b)[len(*b)-1]
		k := min(len(p), cap(*last)-len(*last))
		*last = append(*last, p[:k]...)
		p = p[k:]
	}
	return n, nil
}

// writeJSON writes the bytes to w as a JSON string of base64, for the
// download button, encoding as it goes: the 24 MB string of an 85 MB
// session is never held whole.
func (b blocks) writeJSON(w io.Writer) error {
	if _, err := io.WriteString(w, `"`); err != nil {
		return err
	}
	enc := base64.NewEncoder(base64.StdEncoding, w)
	for _, blk := range b {
		if _, err := enc.Write(blk); err != nil {
			return err
		}
	}
	if err := enc.Close(); err != nil {
		return err
	}
	_, err := io.WriteString(w, `"`)
	return err
}

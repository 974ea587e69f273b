package htmlpage

import "bytes"

// An entry's HTML goes into the page as raw text: in a <noscript> (the
// conversation's; see writeEntries). Raw text ends at the first
// "</noscript" or "</script", and in a script "<!--" starts an escaped
// state: none may be in an entry's HTML. The store's entries are
// compressed, in base64 (no "<"), in a <script type="text/x-canopy">;
// their HTML is made safe all the same: the page's script puts it back
// as the text of that script (loadStore in assets/page/store.js).

// writeRawSafe writes an entry's HTML h to w, safe to put in a <noscript>
// or <script> as raw text: "</noscript", "</script" (any case) and "<!--"
// are written with "&lt;". Our HTML never holds them ("<" in session text
// is "&lt;"); if it ever did, it could only be in text or an attribute
// value, where "&lt;" reads as the same "<". Only "</" and "<!" are looked
// at, found with bytes.Index (vectorized), not byte by byte.
func writeRawSafe(w *bytes.Buffer, h []byte) {
	for len(h) > 0 {
		i := nextRawEnder(h)
		if i < 0 {
			w.Write(h)
			return
		}
		w.Write(h[:i])
		w.WriteString("&lt;")
		h = h[i+1:]
	}
}

// makeRawSafe makes an entry's HTML in b safe as raw text (writeRawSafe),
// copying it only when there is something to change, which there never
// should be.
func makeRawSafe(b *bytes.Buffer) {
	if nextRawEnder(b.Bytes()) < 0 {
		return
	}
	var safe bytes.Buffer
	writeRawSafe(&safe, b.Bytes())
	*b = safe
}

// nextRawEnder is the index of the first "<" in h that ends raw text or
// starts a comment, or -1. One pass from "<" to "<" (a vectorized search):
// an entry's HTML has a "<" every few dozen bytes, and most are rejected
// by the byte after it.
func nextRawEnder(h []byte) int {
	for i := 0; i < len(h); i++ {
		j := bytes.IndexByte(h[i:], '<')
		if j < 0 {
			return -1
		}
		i += j
		if rawEnder(h[i+1:]) {
			return i
		}
	}
	return -1
}

// rawEnder reports whether what follows a "<" ends raw text ("/script",
// "/noscript", any case) or starts a comment ("!--"). Two bytes are
// compared before the whole name: "</span" and "</strong" are in every
// entry, and comparing "script" with each was most of this check's time.
func rawEnder(rest []byte) bool {
	if len(rest) < 3 {
		return false
	}
	switch rest[0] {
	case '!':
		return rest[1] == '-' && rest[2] == '-'
	case '/':
		switch c1, c2 := rest[1]|0x20, rest[2]|0x20; {
		case c1 == 's' && c2 == 'c':
			return len(rest) > len("script") && bytes.EqualFold(rest[1:1+len("script")], []byte("script"))
		case c1 == 'n' && c2 == 'o':
			return len(rest) > len("noscript") && bytes.EqualFold(rest[1:1+len("noscript")], []byte("noscript"))
		}
	}
	return false
}

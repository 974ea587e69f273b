package sessiontree

// readHead decodes a line into h as json.Unmarshal(raw, h, jsonOpts) does,
// for raw a valid JSON object (decodeHead checks). Every field of a head is
// lenient (a value of the wrong type reads as absent), so on valid JSON it
// cannot fail but for a walker's errSyntax.
//
// Measured (BenchmarkTwins, -cpu 1): checking and reading the heads of
// every line takes 3.1/1.9/9.6/183 ms on the two corpus sessions, a
// code-heavy one and the 100,000-entry generated one, where json.Unmarshal
// takes 5.0/3.1/13.7/444 ms: 29-78% of the load's time (5.2/3.0/14.2/337
// ms).
func readHead(raw []byte, h *head) error {
	w := walker{b: raw}
	if _, err := w.objectHead(h); err != nil {
		return err
	}
	return w.end()
}

// The lenient types, read as their UnmarshalJSONFrom methods read them.

func (w *walker) lstr(s *lstr) error {
	if w.kind() == '"' {
		text, err := w.text()
		if err == nil {
			*s = lstr(text)
		}
		return err
	}
	*s = ""
	return w.skip()
}

// optStr: Set once a string was seen (a later value of another type
// leaves it set, as the method does).
func (w *walker) optStr(o *optStr) error {
	if w.kind() == '"' {
		o.Set = true
	}
	var s lstr
	err := w.lstr(&s)
	o.V = string(s)
	return err
}

func (w *walker) lnum(n *lnum) error {
	if w.kind() != '0' {
		*n = 0
		return w.skip()
	}
	f, ok := w.number()
	if !ok {
		// Out of range: ±Inf, read as 0 (see lnum); the walker's
		// number could also be malformed, when raw is not valid JSON.
		f = 0
	}
	*n = lnum(f)
	return nil
}

// lnumPtr: null is nil; anything else is a number, 0 when it is not one.
func (w *walker) lnumPtr(p **lnum) error {
	if w.kind() == 'n' {
		*p = nil
		return w.skip()
	}
	if *p == nil {
		*p = new(lnum)
	}
	return w.lnum(*p)
}

func (w *walker) lbool(b *lbool) error {
	switch k := w.kind(); k {
	case 't', 'f':
		*b = k == 't'
	default:
		*b = false
	}
	return w.skip()
}

// rawPrefix: whether a string starts with one of silentMarks, any other value
// read as it is and false.
func (w *walker) rawPrefix(p *rawPrefix) error {
	raw, err := w.rawValue()
	*p = rawPrefix(startsSilent(raw))
	return err
}

// blockHeads counts tool calls and looks at the first text, as
// blockHeads.UnmarshalJSONFrom does (a member given twice adds up).
func (w *walker) blockHeads(b *blockHeads) error {
	switch w.kind() {
	case '"':
		raw, err := w.rawString()
		b.silent = startsSilent(raw)
		return err
	case '[':
	default:
		return w.skip()
	}
	sawText := false
	return w.array(func() error {
		if w.kind() != '{' {
			return w.skip()
		}
		var blk blockHead
		if _, err := w.objectBlockHead(&blk); err != nil {
			return err
		}
		sawText = b.add(&blk, sawText)
		return nil
	})
}

// raw reads any value as its bytes (valid while the line is).
func (w *walker) raw(p *[]byte) error {
	raw, err := w.rawValue()
	*p = raw
	return err
}

// seen records that a member was there, whatever its value.
type seen bool

func (w *walker) seen(s *seen) error {
	*s = true
	return w.skip()
}

// seenStr records that a member was there, and its value when a string
// (see lstr).
type seenStr struct {
	Seen bool
	V    lstr
}

func (w *walker) seenStr(s *seenStr) error {
	s.Seen = true
	return w.lstr(&s.V)
}

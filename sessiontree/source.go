package sessiontree

import (
	"bytes"
	"errors"
	"fmt"
	"hash/crc32"
	"hash/maphash"
	"io"
	"sync"

	"github.com/go-json-experiment/json/jsontext"
)

// ErrChanged is returned (wrapped, with the file's name) when the bytes of
// a session loaded from a file are read again and are no longer the ones
// loaded: agents append to live sessions, and some rewrite them.
var ErrChanged = errors.New("the session file changed while it was being exported")

// source is where a session's bytes are: the input in memory, or the file,
// kept open so that entries can be read again when asked for. Memory then
// holds the entries, not the file; the OS page cache keeps re-reads cheap.
type source struct {
	name  string
	data  []byte       // the input, for a session loaded from memory
	file  io.ReaderAt  // else the file, read-only
	size  int64        // bytes loaded; nothing past them is ever read
	seed  maphash.Seed // and the hash of those bytes, with this seed
	check uint64       // (a file's: memory is never read again)

	noSHA256 bool            // the load leaves Session.SHA256 zero (LoadOptions)
	session  string          // the session to read of a store holding several (LoadOptions)
	stop     <-chan struct{} // closed: the load stops (LoadOptions)

	close func() error // closes file; nil for memory
	cache blockCache   // of file

	// body decodes the entries of a format whose lines are not pi's
	// (Claude Code, Codex) into the tree model's Body; nil for pi and
	// Flue, whose entries are read as they are written. Read-only once
	// the session is loaded: entries are decoded on every core.
	body bodyDecoder

	mu  sync.Mutex
	err error // the first failed re-read, for Session.Err
}

// bodyDecoder decodes one entry, raw being its bytes (which it must not
// keep), into a Body shaped as pi's: what the renderers know.
type bodyDecoder interface {
	decode(e *Entry, raw []byte) (*Body, error)
}

// castagnoli is the CRC-32C table: the checksum entries keep to tell that
// their bytes changed in the file. Computed in hardware on most machines.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// fail records err as the session's first re-read failure, and returns it.
func (src *source) fail(err error) error {
	src.mu.Lock()
	defer src.mu.Unlock()
	if src.err == nil {
		src.err = err
	}
	return err
}

func (src *source) changed(format string, args ...any) error {
	return src.fail(fmt.Errorf("%s: %w: %s", src.name, ErrChanged, fmt.Sprintf(format, args...)))
}

// Raw returns the entry's JSON exactly as it is in the input: the source of
// truth, which also keeps the fields Load does not decode. For v1 files it
// has no id or parentId; the entry's ID and ParentID are ours.
//
// A session loaded from memory returns a slice of its input, not to be
// modified. A session loaded from a file reads the bytes again, into a new
// slice that is the caller's; if they are not the bytes loaded, the error
// wraps ErrChanged. Every error is also kept for Session.Err. An entry not
// made by a load has no bytes: nil.
func (e *Entry) Raw() (jsontext.Value, error) {
	return e.read(nil)
}

// RawLen is the length of the entry's JSON in the input, known without
// reading it.
func (e *Entry) RawLen() int { return e.n }

// read is Raw, reading into buf's array when it is big enough.
func (e *Entry) read(buf []byte) (jsontext.Value, error) {
	src := e.src
	switch {
	case src == nil:
		return nil, nil
	case src.data != nil:
		return jsontext.Value(src.data[e.off : e.off+int64(e.n) : e.off+int64(e.n)]), nil
	}
	if cap(buf) < e.n {
		buf = make([]byte, e.n)
	}
	buf = buf[:e.n]
	if err := src.readAt(buf, e.off); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, src.changed("line %d is past its end", e.Line)
		}
		return nil, src.fail(fmt.Errorf("%s: reading line %d again: %w", src.name, e.Line, err))
	}
	if crc32.Checksum(buf, castagnoli) != e.crc {
		return nil, src.changed("line %d is not what was loaded", e.Line)
	}
	return jsontext.Value(buf), nil
}

// Entries are read again in blocks of blockSize at least, a few of which
// are kept: renderers read entries mostly in file order, many to a block,
// and a read(2) per entry was most of the cost of reading them again.
const (
	blockSize   = 64 << 10
	cacheBlocks = 8 // a few for each core reading
)

// blockCache holds the blocks of the file read last.
type blockCache struct {
	mu   sync.Mutex
	hand int // the next slot to fill
	slot [cacheBlocks]struct {
		off  int64
		data []byte
	}
}

// blockPool holds the buffers blocks are read into.
var blockPool = sync.Pool{New: func() any { return new([blockSize]byte) }}

// readAt reads len(p) bytes of the file at off, from a block kept when it
// has them. A short read (the file is now shorter) is io.EOF.
func (src *source) readAt(p []byte, off int64) error {
	if len(p) > blockSize/2 {
		_, err := src.file.ReadAt(p, off)
		return err
	}
	c := &src.cache
	c.mu.Lock()
	for _, b := range c.slot {
		if b.off <= off && off+int64(len(p)) <= b.off+int64(len(b.data)) {
			copy(p, b.data[off-b.off:])
			c.mu.Unlock()
			return nil
		}
	}
	c.mu.Unlock()
	// A block from off on, not past the bytes loaded.
	blk := blockPool.Get().(*[blockSize]byte)
	n, err := src.file.ReadAt(blk[:min(blockSize, src.size-off)], off)
	if n < len(p) {
		blockPool.Put(blk)
		if err == nil {
			err = io.EOF
		}
		return err
	}
	copy(p, blk[:])
	c.mu.Lock()
	old := c.slot[c.hand].data
	c.slot[c.hand].off, c.slot[c.hand].data = off, blk[:n]
	c.hand = (c.hand + 1) % cacheBlocks
	c.mu.Unlock()
	if old != nil {
		blockPool.Put((*[blockSize]byte)(old[:blockSize]))
	}
	return nil
}

// rawBuffers are the buffers Decode reads file-backed entries into:
// decoding copies what it keeps, so a buffer serves entry after entry.
var rawBuffers sync.Pool

// Pooled buffers start at minPooled, which most entries fit, and are kept
// up to maxPooled: a 50 MB picture is read once, and its buffer should not
// outlive it.
const (
	minPooled = 16 << 10
	maxPooled = 1 << 20
)

// withRaw calls f with the entry's bytes, which f must not keep.
func (e *Entry) withRaw(f func(jsontext.Value) error) error {
	if e.src == nil || e.src.data != nil {
		raw, _ := e.read(nil)
		return f(raw)
	}
	p, _ := rawBuffers.Get().(*[]byte)
	if p == nil {
		b := make([]byte, 0, minPooled)
		p = &b
	}
	defer rawBuffers.Put(p)
	raw, err := e.read(*p)
	if err != nil {
		return err
	}
	if cap(raw) <= maxPooled {
		*p = raw[:0]
	}
	return f(raw)
}

// Close closes the file a session was loaded from, and those of the
// sessions grafted into it (Graft). Entries cannot be read again after it
// (Raw, Decode and SourceReader fail). It does nothing for a session
// loaded from memory, nor the second time.
func (s *Session) Close() error {
	var errs []error
	for _, g := range s.grafted {
		errs = append(errs, g.Close())
	}
	if s.src == nil || s.src.close == nil {
		return errors.Join(errs...)
	}
	c := &s.src.cache
	c.mu.Lock()
	clear(c.slot[:])
	c.mu.Unlock()
	closeFile := s.src.close
	s.src.close = nil
	return errors.Join(append(errs, closeFile())...)
}

// Err returns the first error met reading the session's input again after
// the load: by Raw, Decode, SourceReader or ReadSource.
// It wraps ErrChanged when the file changed. Decode errors are read as a
// malformed entry by most callers (they show its JSON instead); whoever
// makes something of a whole session checks Err before trusting it.
func (s *Session) Err() error {
	for _, g := range s.grafted {
		if err := g.Err(); err != nil {
			return err
		}
	}
	if s.src == nil {
		return nil
	}
	s.src.mu.Lock()
	defer s.src.mu.Unlock()
	return s.src.err
}

// InMemory reports whether the session's input is held in memory (it was
// loaded from memory: standard input, a pipe, a decompressed file), all
// Size bytes of it, rather than read again from its file.
func (s *Session) InMemory() bool {
	return s.src != nil && s.src.data != nil
}

// SourceReader returns the input, byte for byte: the Size bytes loaded.
// For a session loaded from a file they are read again, and checked at the
// end against the hash taken at load: an error wrapping ErrChanged
// takes the place of io.EOF when the file changed.
func (s *Session) SourceReader() io.Reader {
	src := s.src
	switch {
	case src == nil: // a Session not made by a load
		return bytes.NewReader(nil)
	case src.data != nil:
		return bytes.NewReader(src.data)
	}
	c := &checkedReader{src: src, r: io.NewSectionReader(src.file, 0, src.size)}
	c.h.SetSeed(src.seed)
	return c
}

// ReadSource returns the whole input, as SourceReader reads it. For a
// session loaded from memory it is the input itself, not to be modified.
// It is for the rare passes that need all of it at once (redaction, a page
// whose pictures are left out of its download): it costs the file's size
// in memory.
func (s *Session) ReadSource() ([]byte, error) {
	switch {
	case s.src == nil: // a Session not made by a load
		return nil, nil
	case s.src.data != nil:
		return s.src.data, nil
	}
	// One byte more than was loaded: ReadFull then reads to io.EOF, where
	// the reader checks the bytes.
	buf := make([]byte, s.Size+1)
	n, err := io.ReadFull(s.SourceReader(), buf)
	if err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, err // nil is impossible: the reader stops at Size
	}
	return buf[:n:n], nil
}

// checkedReader reads a file's loaded bytes again and checks their hash.
type checkedReader struct {
	src *source
	r   *io.SectionReader
	h   maphash.Hash
	n   int64
}

func (c *checkedReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.h.Write(p[:n])
	c.n += int64(n)
	switch {
	case err == io.EOF && c.n < c.src.size:
		return n, c.src.changed("it is now %d bytes long, not the %d loaded", c.n, c.src.size)
	case err == io.EOF && c.h.Sum64() != c.src.check:
		return n, c.src.changed("its bytes are not the ones loaded")
	case err != nil && err != io.EOF:
		return n, c.src.fail(fmt.Errorf("%s: reading again: %w", c.src.name, err))
	}
	return n, err
}

// readerAt reads the input at any offset, during the load too.
func (src *source) readerAt() io.ReaderAt {
	if src.data != nil {
		return bytes.NewReader(src.data)
	}
	return src.file
}

package sessiontree

import (
	"bytes"
	"crypto/sha256"
	"hash"
	"hash/maphash"
	"io"
	"math"
	"runtime"
	"slices"
	"sync"
)

// The input layer: the input read a chunk of whole lines at a time, hashed
// as it is read, and, for line formats, its lines decoded on every core.
// It knows nothing of any format.

// chunkSize is how much of the input is read and decoded at a time: enough
// lines that handing them to a decoder costs nothing, few enough that
// memory holds a handful of chunks, not the file. A chunk holds at least
// one whole line, however long (a picture in base64 can be tens of MB).
const chunkSize = 256 << 10

// input reads the input a chunk of whole lines at a time, and hashes it.
type input struct {
	src   *source
	r     io.Reader   // the file, read in order; nil for memory
	chunk int         // bytes to read at a time
	off   int64       // the offset of the next chunk: at the end, the size
	carry []byte      // the start of a line the last chunk did not end
	free  chan []byte // buffers of decoded chunks, to read the next ones into
	eof   bool
	hash  io.Writer // the hashes of the bytes read: sha and check, those taken
	sha   hash.Hash // nil when src.noSHA256
	check *maphash.Hash
}

// newInput returns an input that reads src in chunks of chunk bytes. It
// takes two hashes of what it reads: the SHA-256 is the session's, for
// the page and the archive; the 64-bit hash, with src's seed, is what
// SourceReader checks the bytes read again against (on an 85 MB file,
// hash/maphash took 23-40 ms where a second SHA-256 took 98 ms). Input in
// memory is never read again, so it takes no 64-bit hash; and no SHA-256
// when src.noSHA256 says nobody asks for it.
func newInput(src *source, chunk int) *input {
	in := &input{src: src, chunk: chunk}
	var hashes []io.Writer
	if !src.noSHA256 {
		in.sha = sha256.New()
		hashes = append(hashes, in.sha)
	}
	if src.data == nil {
		src.seed = maphash.MakeSeed()
		in.check = &maphash.Hash{}
		in.check.SetSeed(src.seed)
		hashes = append(hashes, in.check)
		in.r = io.NewSectionReader(src.file, 0, math.MaxInt64)
	}
	switch len(hashes) {
	case 0:
		in.hash = io.Discard
	case 1:
		in.hash = hashes[0]
	default:
		in.hash = io.MultiWriter(hashes...)
	}
	return in
}

// sums returns the hashes of what was read: zero for those not taken.
func (in *input) sums() (sha [sha256.Size]byte, check uint64) {
	if in.sha != nil {
		in.sha.Sum(sha[:0])
	}
	if in.check != nil {
		check = in.check.Sum64()
	}
	return sha, check
}

// next returns the next chunk: whole lines, the last of the input perhaps
// with no newline after it. It returns nil at the end of the input. A
// chunk read from a file is in a buffer of its own, until recycled.
func (in *input) next() ([]byte, error) {
	var c []byte
	if in.src.data != nil {
		c = in.cut(in.src.data[in.off:])
	} else {
		var err error
		if c, err = in.read(); err != nil {
			return nil, err
		}
	}
	if len(c) == 0 {
		return nil, nil
	}
	in.off += int64(len(c))
	return c, nil
}

// cut returns the first chunk of rest, held in memory: no copy.
func (in *input) cut(rest []byte) []byte {
	n := len(rest)
	if n > in.chunk {
		if i := bytes.LastIndexByte(rest[:in.chunk], '\n'); i >= 0 {
			n = i + 1
		} else if i := bytes.IndexByte(rest[in.chunk:], '\n'); i >= 0 {
			n = in.chunk + i + 1
		}
	}
	in.hash.Write(rest[:n])
	return rest[:n:n]
}

// read reads the next chunk from the file, growing the buffer while it
// holds no line end.
func (in *input) read() ([]byte, error) {
	buf := append(in.buffer(max(in.chunk, 2*len(in.carry))), in.carry...)
	in.carry = in.carry[:0]
	for !in.eof {
		if len(buf) == cap(buf) {
			if i := bytes.LastIndexByte(buf, '\n'); i >= 0 {
				in.carry = append(in.carry, buf[i+1:]...)
				return buf[:i+1], nil
			}
			buf = slices.Grow(buf, len(buf))
		}
		n, err := in.r.Read(buf[len(buf):cap(buf)])
		in.hash.Write(buf[len(buf) : len(buf)+n])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			in.eof = true
		} else if err != nil {
			return nil, err
		}
	}
	return buf, nil
}

// buffer returns an empty buffer of at least size bytes: one that a
// decoder is done with when there is one. Without them, the garbage of
// the chunks read, the size of the file, made the collector run ten
// times during a load rather than two or three.
func (in *input) buffer(size int) []byte {
	select {
	case b := <-in.free:
		if cap(b) >= size {
			return b[:0]
		}
	default:
	}
	return make([]byte, 0, size)
}

// recycle takes back a chunk read from the file once it is decoded.
func (in *input) recycle(b []byte) {
	if in.src.data != nil || cap(b) > 4*in.chunk {
		return // the input itself; or a long line's, better let go
	}
	select {
	case in.free <- b:
	default:
	}
}

// all returns the whole input, first being its first chunk: for formats
// that are one document, not lines.
func (in *input) all(first []byte) ([]byte, error) {
	if in.src.data != nil {
		in.hash.Write(in.src.data[in.off:])
		in.off = int64(len(in.src.data))
		return in.src.data, nil
	}
	data := first
	for {
		c, err := in.next()
		if err != nil || c == nil {
			return data, err
		}
		data = append(data, c...)
	}
}

// firstChunk returns the input's first chunk as a load in chunks of
// chunkSize cuts it, whatever in's chunk size: what the load makes of the
// input's start must not depend on how it was read (tests read inputs a
// few bytes at a time). For after the input was read whole: in.off is its
// size.
func (in *input) firstChunk() ([]byte, error) {
	again := &input{src: in.src, chunk: chunkSize, hash: io.Discard}
	if in.src.data == nil {
		again.r = io.NewSectionReader(in.src.file, 0, in.off)
	}
	return again.next()
}

// stopped tells whether the load is to stop (LoadOptions.Stop). Only the
// lines of a line format read from the input itself are stopped
// (decodeLines): a store's session, made a document in memory, or a
// document read whole, is loaded to its end.
func (in *input) stopped() bool {
	select {
	case <-in.src.stop: // nil: never
		return true
	default:
		return false
	}
}

// bom is the UTF-8 byte-order mark some editors put at the start of a file.
var bom = []byte("\xef\xbb\xbf")

// rawLine is one physical line of the input.
type rawLine struct {
	text []byte // without the line end (nor a byte-order mark on line 1); nil once decoded
	off  int64  // text's offset in the input
	n    int32  // 1-based line number
	last bool   // the input's last line, with no newline after it
}

// countLines is the number of lines in a chunk: the last may have no
// newline after it.
func countLines(chunk []byte) int {
	n := bytes.Count(chunk, []byte{'\n'})
	if len(chunk) > 0 && chunk[len(chunk)-1] != '\n' {
		n++
	}
	return n
}

// appendLines cuts a chunk of the input into lines, appended to lines.
// off is the chunk's offset in the input, first the number of its first
// line.
func appendLines(lines []rawLine, chunk []byte, off int64, first int32) []rawLine {
	for n := first; len(chunk) > 0; n++ {
		i := bytes.IndexByte(chunk, '\n')
		var text []byte
		last := false
		if i < 0 {
			text, chunk, last = chunk, nil, true
		} else {
			text, chunk = chunk[:i], chunk[i+1:]
		}
		at := off
		off += int64(len(text)) + 1
		if n == 1 && bytes.HasPrefix(text, bom) {
			text, at = text[3:], at+3
		}
		text = bytes.TrimSuffix(text, []byte{'\r'})
		lines = append(lines, rawLine{text: text, off: at, n: n, last: last})
	}
	return lines
}

// A lineDecoder decodes the lines of one chunk, lines[i] into out[i]. Each
// worker has its own (made by the newDecoder given to decodeLines), so it
// may keep scratch space; it must not keep lines, nor their text: both
// are reused once it returns.
type lineDecoder[T any] func(lines []rawLine, out []T)

// slabLine is a format's per-line record, decoded in place by decodeRaw
// (raw's text is reused once it returns), with e, the line's entry.
type slabLine[T any] interface {
	*T
	decodeRaw(raw rawLine, e *Entry, src *source, it interner)
}

// newSlabDecoder returns a worker's decoder of one format's lines: the
// entries of a chunk live in one slab (one allocation; the per-line
// records are garbage once the load is done), and their repeated strings
// are shared through the worker's interner.
func newSlabDecoder[T any, P slabLine[T]](src *source) func() lineDecoder[T] {
	return func() lineDecoder[T] {
		it := interner{}
		return func(raws []rawLine, out []T) {
			slab := make([]Entry, len(raws))
			for i := range raws {
				P(&out[i]).decodeRaw(raws[i], &slab[i], src, it)
			}
		}
	}
}

// decodeLines reads and decodes every line of the input, first being its
// first chunk, into one record of type T per line, in order. Chunks are
// decoded on every core while the next ones are read: lines are
// independent, and decoding is the bulk of the load time. A chunk's bytes
// are dropped once it is decoded, so memory holds a few chunks at a time,
// not the file.
func decodeLines[T any](in *input, first []byte, newDecoder func() lineDecoder[T]) ([]T, error) {
	type chunk struct {
		data  []byte
		off   int64 // data's offset in the input
		first int32 // the number of its first line
		out   []T   // a record for each of its lines
	}
	workers := runtime.GOMAXPROCS(0)
	jobs := make(chan *chunk, workers)
	in.free = make(chan []byte, 2*workers+1) // every chunk that can be out at once
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			decode := newDecoder()
			var lines []rawLine // the worker's, for chunk after chunk
			for c := range jobs {
				lines = appendLines(slices.Grow(lines[:0], len(c.out)), c.data, c.off, c.first)
				decode(lines, c.out)
				in.recycle(c.data)
				c.data = nil
			}
		}()
	}
	var chunks []*chunk
	var err error
	line, off := int32(1), int64(0)
	for data := first; data != nil; {
		n := countLines(data)
		c := &chunk{data: data, off: off, first: line, out: make([]T, n)}
		line += int32(n)
		off += int64(len(data))
		chunks = append(chunks, c)
		jobs <- c
		if in.stopped() {
			err = ErrStopped
			break
		}
		if data, err = in.next(); err != nil {
			break
		}
	}
	close(jobs)
	wg.Wait()
	if err != nil {
		return nil, err
	}
	// The records in one slice, for the format's passes over them.
	n := 0
	for _, c := range chunks {
		n += len(c.out)
	}
	out := make([]T, 0, n)
	for _, c := range chunks {
		out = append(out, c.out...)
	}
	return out, nil
}

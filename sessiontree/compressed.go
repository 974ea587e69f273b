package sessiontree

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// Compressed sessions. People keep old sessions gzipped or zstd'd; such a
// file is told by its first bytes (Sniff), never by its name, and
// decompressed into memory (Decompress), bounded, to be loaded with
// LoadWith as if it had never been compressed. The compressed bytes are
// only ever read. export.Load is what puts these together, for every
// command and the archive alike; file names ending in a compression
// extension are only used to name what is made of the file
// (TrimCompressedExt).

// Compression is how a session file is compressed.
type Compression uint8

const (
	Uncompressed Compression = iota
	Gzip
	Zstd
)

func (c Compression) String() string {
	switch c {
	case Gzip:
		return "gzip"
	case Zstd:
		return "zstd"
	}
	return "uncompressed"
}

// MagicSize is how many of a file's first bytes Sniff needs.
const MagicSize = 4

// Sniff tells the compression of a file by its first bytes (MagicSize of
// them; fewer: the file is too short to be compressed). No session starts
// with these bytes: JSON starts with a printable character, whitespace or
// a byte-order mark.
func Sniff(head []byte) Compression {
	switch {
	case len(head) >= 3 && head[0] == 0x1f && head[1] == 0x8b && head[2] == 8: // RFC 1952, deflate
		return Gzip
	case len(head) < 4:
		return Uncompressed
	}
	switch m := binary.LittleEndian.Uint32(head); {
	case m == 0xFD2FB528:
		return Zstd
	case m&0xFFFFFFF0 == 0x184D2A50:
		// A skippable frame, as pzstd writes first: the decoder skips it.
		return Zstd
	}
	return Uncompressed
}

// compressedExts are the extensions of compressed files, as people name
// them: what TrimCompressedExt strips.
var compressedExts = []string{".gz", ".zst"}

// TrimCompressedExt is name without a compression extension (.gz, .zst,
// in any case): x.jsonl.gz is x.jsonl. For naming what is made of a file
// (a page, a download), not for telling whether it is compressed: that is
// Sniff's, by content.
func TrimCompressedExt(name string) string {
	for _, ext := range compressedExts {
		if n := len(name) - len(ext); n > 0 && strings.EqualFold(name[n:], ext) {
			return name[:n]
		}
	}
	return name
}

// TooLargeError is Decompress's error for a stream that decompresses to
// more than its limit: the caller words how to raise it.
type TooLargeError struct {
	Compression Compression
	Limit       int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("more than %d bytes uncompressed, the limit for a %s session", e.Limit, e.Compression)
}

// CorruptError is Decompress's error for a stream it cannot decompress:
// damaged, truncated, or with bytes after its end that are no stream.
type CorruptError struct {
	Compression Compression
	Err         error // the decompressor's
}

func (e *CorruptError) Error() string {
	switch {
	case errors.Is(e.Err, io.ErrUnexpectedEOF):
		return fmt.Sprintf("corrupt %s stream: it ends too soon (truncated)", e.Compression)
	case errors.Is(e.Err, zstd.ErrWindowSizeExceeded):
		return fmt.Sprintf("unsupported %s stream: it needs a window of more than %d MiB to decompress (zstd --long=28 or more)", e.Compression, maxZstdWindow>>20)
	}
	return fmt.Sprintf("corrupt %s stream: %v", e.Compression, e.Err)
}

func (e *CorruptError) Unwrap() error { return e.Err }

// maxZstdWindow bounds the memory the zstd decoder keeps besides what it
// decompresses: the window a stream declares it needs. 128 MiB is what
// the zstd command decompresses by default (--memory=128MB), so a file
// it made without --long=28 or more is read.
const maxZstdWindow = 128 << 20

// Decompress reads the compressed stream r (of compression c, as Sniff
// told it) to its end and returns what it decompresses to, or a
// *TooLargeError once that is more than limit bytes: the limit, not the
// stream's claims, bounds the memory a decompression bomb can take. The
// stream is decompressed as it is read, straight into the slice returned;
// hint, when above zero, is the size the stream says it decompresses to
// (SizeHint), the slice's first size: with it, a stream that tells the
// truth is decompressed without a copy. A stream that cannot be
// decompressed is a *CorruptError; an error reading r is returned as r
// returned it.
func Decompress(r io.Reader, c Compression, limit, hint int64) ([]byte, error) {
	src := &sourceReader{r: r}
	var dec io.Reader
	switch c {
	case Gzip:
		z, err := gzip.NewReader(src)
		if err != nil {
			return nil, src.blame(c, err)
		}
		dec = z
	case Zstd:
		// One decoder, no goroutines of its own: the asynchronous one
		// (the default) was slower on a 100 MB session, 80 ms against
		// 65, and holds blocks in flight besides the output.
		z, err := zstd.NewReader(src, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(maxZstdWindow))
		if err != nil {
			return nil, src.blame(c, err)
		}
		defer z.Close()
		dec = z
	default:
		return nil, fmt.Errorf("decompress: %v is no compression", c)
	}
	data, err := readBounded(dec, limit, hint)
	switch {
	case errors.Is(err, errTooLarge):
		return nil, &TooLargeError{Compression: c, Limit: limit}
	case err != nil:
		return nil, src.blame(c, err)
	}
	return data, nil
}

var errTooLarge = errors.New("too large")

// readBounded reads r to its end into one slice, failing with errTooLarge
// once it has more than limit bytes. It reads into chunks, each as large
// as all the others together (the first hint+1 bytes: the extra byte is
// where the end is found), then copies them into one slice: a stream that
// tells its size truly is read into one chunk, never copied; a bomb
// holds no more than limit+1 bytes before it fails, and a session of
// unknown size twice its size at the end. (Growing one slice by
// doubling held three times the limit, garbage and all: a 66 KB zstd
// bomb took 1.6 GB to fail at 512 MiB; 660 MB in chunks.)
func readBounded(r io.Reader, limit, hint int64) ([]byte, error) {
	limit = min(limit, math.MaxInt64-1) // limit+1 is a size
	next := int64(64 << 10)
	if hint > 0 {
		next = hint + 1
	}
	var chunks [][]byte
	var total int64
	for {
		if total > limit {
			return nil, errTooLarge
		}
		c, err := readFull(r, make([]byte, min(next, limit+1-total)))
		chunks, total = append(chunks, c), total+int64(len(c))
		switch {
		case err == io.EOF && total > limit:
			return nil, errTooLarge
		case err == io.EOF:
			return joinChunks(chunks, total), nil
		case err != nil:
			return nil, err
		}
		next = total
	}
}

// readFull reads r into buf until buf is full (a nil error) or r ends
// (io.EOF), returning what it read.
func readFull(r io.Reader, buf []byte) ([]byte, error) {
	n := 0
	for n < len(buf) {
		m, err := r.Read(buf[n:])
		n += m
		if err != nil {
			return buf[:n], err
		}
	}
	return buf, nil
}

// joinChunks is the chunks in one slice: the first when it is the only
// one with bytes.
func joinChunks(chunks [][]byte, total int64) []byte {
	if int64(len(chunks[0])) == total {
		return chunks[0]
	}
	out := make([]byte, 0, total)
	for _, c := range chunks {
		out = append(out, c...)
	}
	return out
}

// sourceReader remembers the error reading the compressed stream failed
// with, so that an I/O error (or an interrupt) is told apart from a
// stream that is corrupt.
type sourceReader struct {
	r   io.Reader
	err error
}

func (s *sourceReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if err != nil && err != io.EOF && s.err == nil {
		s.err = err
	}
	return n, err
}

// blame is the error to return for err, met while decompressing: the
// source's own, when reading it failed; else the stream's fault.
func (s *sourceReader) blame(c Compression, err error) error {
	if s.err != nil {
		return s.err
	}
	if err == io.EOF {
		err = io.ErrUnexpectedEOF // a header cut short
	}
	return &CorruptError{Compression: c, Err: err}
}

// maxRatio bounds what SizeHint believes: deflate cannot make more than
// 1032 bytes of one, and a stream that claims more is lying. (zstd can,
// with runs of one byte; such a session only grows its slice as it is
// read.) A lie costs at most limit+1 bytes of memory, all the same.
const maxRatio = 1032

// SizeHint is the size a compressed file of size bytes says it
// decompresses to, for Decompress's hint: gzip's last four bytes (the
// size of its last member, modulo 4 GiB), a zstd frame's content size
// when its header has one. 0 when it says nothing, or nothing plausible.
func SizeHint(f io.ReaderAt, size int64, c Compression) int64 {
	var n uint64
	switch c {
	case Gzip:
		var b [4]byte
		if size < 18 { // a header and a trailer
			return 0
		}
		if _, err := f.ReadAt(b[:], size-4); err != nil {
			return 0
		}
		n = uint64(binary.LittleEndian.Uint32(b[:]))
	case Zstd:
		b := make([]byte, min(size, zstd.HeaderMaxSize))
		var h zstd.Header
		if _, err := f.ReadAt(b, 0); err != nil || h.Decode(b) != nil || !h.HasFCS {
			return 0
		}
		n = h.FrameContentSize
	default:
		return 0
	}
	if n > uint64(size)*maxRatio {
		return 0
	}
	return int64(n)
}

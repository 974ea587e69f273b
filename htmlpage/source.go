package htmlpage

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"time"

	"github.com/klauspost/compress/gzip"

	"canopy/sessiontree"
)

// embeddedSource is the original file as the page embeds it for download,
// gzip-compressed in base64 (compressSource): compressed while the
// entries are rendered, on the core they leave free; or, for a session
// with pictures, once the entries are written and the pictures the page
// shows are known (shown), with each of them replaced by a marker
// (dedupImages).
type embeddedSource struct {
	s     *sessiontree.Session
	shown imageSet // the pictures the page shows, when they are replaced; else nil
	gz    *spool
	err   error
	done  chan struct{}
}

// embedSource starts the source's compression; noSource: there is none.
func embedSource(s *sessiontree.Session, noSource bool) *embeddedSource {
	src := &embeddedSource{s: s, done: make(chan struct{})}
	if !noSource && s.HasImages {
		src.shown = imageSet{}
		close(src.done)
		return src
	}
	go func() {
		defer close(src.done)
		if !noSource {
			src.gz, src.err = compressSource(s.SourceReader())
		}
	}()
	return src
}

// finish is the compressed source (nil when there is none) once it is
// made, and whether pictures in it were replaced by markers.
func (src *embeddedSource) finish() (gz *spool, deduped bool, err error) {
	<-src.done
	if src.shown != nil {
		src.gz, deduped, src.err = compressDeduped(src.s, src.shown)
	}
	if src.err != nil {
		return nil, false, fmt.Errorf("embedding the source: %w", src.err)
	}
	return src.gz, deduped, nil
}

// close waits for the compression and releases what it made.
func (src *embeddedSource) close() {
	<-src.done
	if src.gz != nil {
		src.gz.Close()
	}
}

// dedupImages replaces, in a session file, every JSON string value of a
// "data" member that is one of the pictures the page shows (set) by a
// marker: NUL, its length, ":", a 64-bit hash (imageHash) in hex, NUL. The
// page's script puts the pictures back from its own <img> elements when
// the file is downloaded, byte for byte: a page of twenty 5 MB pictures
// holds them once, not twice. A file that holds a NUL byte (no valid JSON
// does) is left as it is, as are pictures written with escapes.
func dedupImages(src []byte, set imageSet) ([]byte, bool) {
	if len(set) == 0 || bytes.IndexByte(src, 0) >= 0 {
		return src, false
	}
	key := []byte(`"data":"`)
	var out bytes.Buffer
	last, i := 0, 0
	for {
		j := bytes.Index(src[i:], key)
		if j < 0 {
			break
		}
		p := i + j + len(key)
		q := bytes.IndexByte(src[p:], '"')
		if q < 0 {
			break
		}
		if q >= minDedup && set.has(src[p:p+q]) {
			if out.Len() == 0 {
				out.Grow(len(src) / 4)
			}
			out.Write(src[last:p])
			h1, h2 := imageHash(src[p : p+q])
			fmt.Fprintf(&out, "\x00%d:%08x%08x\x00", q, h1, h2)
			last = p + q
		}
		i = p + q
	}
	if last == 0 {
		return src, false
	}
	out.Write(src[last:])
	return out.Bytes(), true
}

// compressDeduped compresses the source with the pictures the page shows
// replaced by markers (dedupImages), reading it line by line: memory holds
// one line (a JSON string, and so a picture, never spans lines), not the
// file. A first pass makes sure the file holds no NUL byte, which the page
// would take for a marker's; if it does, it is compressed as it is.
func compressDeduped(s *sessiontree.Session, shown imageSet) (*spool, bool, error) {
	clean := len(shown) > 0
	if clean {
		var err error
		if clean, err = noNUL(s.SourceReader()); err != nil {
			return nil, false, err
		}
	}
	if !clean {
		gz, err := compressSource(s.SourceReader())
		return gz, false, err
	}
	pr, pw := io.Pipe()
	var marked bool
	go func() {
		var err error
		marked, err = dedupLines(pw, s.SourceReader(), shown)
		pw.CloseWithError(err)
	}()
	gz, err := compressSource(pr)
	pr.Close()
	return gz, marked, err
}

// noNUL reports whether r holds no NUL byte.
func noNUL(r io.Reader) (bool, error) {
	buf := make([]byte, 256<<10)
	for {
		n, err := r.Read(buf)
		if bytes.IndexByte(buf[:n], 0) >= 0 {
			return false, nil
		}
		if err == io.EOF {
			return true, nil
		}
		if err != nil {
			return false, err
		}
	}
}

// dedupLines copies r to w a line at a time, each through dedupImages, and
// reports whether any picture was replaced.
func dedupLines(w io.Writer, r io.Reader, shown imageSet) (bool, error) {
	br := bufio.NewReaderSize(r, 1<<20)
	marked := false
	var long []byte
	for {
		line, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull { // a line over 1 MB: gather it
			long = append(long[:0], line...)
			for err == bufio.ErrBufferFull {
				line, err = br.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		out, m := dedupImages(line, shown)
		marked = marked || m
		if _, werr := w.Write(out); werr != nil {
			return marked, werr
		}
		if err == io.EOF {
			return marked, nil
		}
		if err != nil {
			return marked, err
		}
	}
}

// imageHash is cyrb53's two 32-bit halves over b (imageHash in assets/page/download.js).
func imageHash(b []byte) (uint32, uint32) {
	h1, h2 := uint32(0xdeadbeef), uint32(0x41c6ce57)
	for _, c := range b {
		h1 = (h1 ^ uint32(c)) * 2654435761
		h2 = (h2 ^ uint32(c)) * 1597334677
	}
	h1 = (h1 ^ h1>>16) * 2246822507
	h1 ^= (h2 ^ h2>>13) * 3266489909
	h2 = (h2 ^ h2>>16) * 2246822507
	h2 ^= (h1 ^ h1>>13) * 3266489909
	return h1, h2
}

// compressSource is the original file, gzip-compressed and in base64, for
// the download button (spool.writeJSON puts it in the page). gzip without a
// name or time is deterministic: same input, same page.
//
// klauspost/compress rather than compress/gzip: on the 84.7 MB benchmark
// session, its level 5 makes the same size as the standard library's
// level 4 (18.1 MB) in 0.86 s instead of 1.39 s.
//
// Level 3: the source is the largest part of a page. On the code-heavy
// 214 MB benchmark session its base64 is 68.6 MB at level 3, 69.9 at
// level 2, 66.6 at 4, 62.2 at 6 (0.85, 0.75, 0.99, 1.27 s alone); on the
// 85 MB generated one level 2 took 0.25 s, 3 0.29 s, 6 0.46 s. What it
// costs is the export's time where the rendering wants both cores: level
// 6 made gen-100k's export 0.1 s (8%) slower, level 4 0.05 s, level 3
// as fast as level 2 within the noise, and level 3 is what brings the
// code-heavy page under the reference's (with the store compressed).
func compressSource(source io.Reader) (*spool, error) {
	z := new(spool)
	// Buffered: the compressor writes a few hundred bytes at a time, and
	// past spoolMemory each write was a system call (56,000 of them for an
	// 85 MB session). In base64 already, as the page holds it: encoding it
	// here, while the entries are rendered on the other core, took 40 ms
	// off the end of an export of 85 MB, when nothing else runs.
	bz := bufio.NewWriterSize(z, 256<<10)
	b64 := base64.NewEncoder(base64.StdEncoding, bz)
	zw, err := gzip.NewWriterLevel(b64, 3)
	if err == nil {
		// No time: 0 (klauspost writes the zero time.Time as a time in 2042).
		zw.ModTime = time.Unix(0, 0)
		_, err = io.Copy(zw, source)
	}
	if err == nil {
		err = zw.Close()
	}
	if err == nil {
		err = b64.Close()
	}
	if err == nil {
		err = bz.Flush()
	}
	if err != nil {
		z.Close()
		return nil, err
	}
	return z, nil
}

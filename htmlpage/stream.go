package htmlpage

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/klauspost/compress/gzip"

	"canopy/sessiontree"
)

// renderedBody is the page's entries, rendered before the page is written:
// the store's (off the path, in tree order), then the conversation's, in a
// spool (a temporary file past a few MB).
type renderedBody struct {
	spool
	mid int // where the conversation's entries start
}

func (b *renderedBody) writeStore(w io.Writer) error        { return b.copyTo(w, 0, b.mid) }
func (b *renderedBody) writeConversation(w io.Writer) error { return b.copyTo(w, b.mid, b.n) }

// renderBody renders the entries with a block of their own: the store's
// and then the conversation's. Rendering them also gathers their tree rows
// (gatherRow), which the page needs before them, and the pictures they show
// (into images, when not nil).
func (r *Renderer) renderBody(ec *entryContext, order []int, path []*sessiontree.Entry, images imageSet) (*renderedBody, error) {
	shown, stored, storedPos := bodyEntries(ec, order, path)
	body := new(renderedBody)
	bw := bufio.NewWriterSize(body, 1<<20) // writeEntries writes entry by entry
	err := r.writeEntries(bw, ec, stored, storedPos, images)
	if err == nil {
		err = bw.Flush()
	}
	body.mid = body.n
	if err == nil {
		err = r.writeEntries(bw, ec, shown, nil, images)
	}
	if err == nil {
		err = bw.Flush()
	}
	if err != nil {
		body.Close()
		return nil, err
	}
	return body, nil
}

// bodyEntries is what the conversation shows (the path, less results drawn
// in their call's card), and what the store keeps inert (everything else,
// in tree order, by tree position).
func bodyEntries(ec *entryContext, order []int, path []*sessiontree.Entry) (shown, stored, storedPos []int) {
	onPath := make([]bool, len(ec.s.Entries))
	for _, e := range path {
		onPath[e.Index] = true
		if ec.rows[e.Index].flags&flagEmbedded == 0 {
			shown = append(shown, e.Index)
		}
	}
	for pos, i := range order {
		if !onPath[i] && ec.rows[i].flags&flagEmbedded == 0 {
			stored = append(stored, i)
			storedPos = append(storedPos, pos)
		}
	}
	return shown, stored, storedPos
}

// writeBatch is how many entries are rendered at once: enough to keep
// every core busy, few enough that memory holds only a small part of the
// page. It is also the most entries one chunk of the page holds (see
// writeEntries).
const writeBatch = 512

// batchBytes bounds a batch by the size of its entries in the file: twenty
// 5 MB pictures in one batch were 100 MB of HTML held at once.
const batchBytes = 8 << 20

// writeEntries renders the entries (by index) in order and writes them in
// chunks of at most writeBatch entries and about chunkBytes. The entries of
// the conversation (no positions) go in a <noscript data-at="index of the
// first"> per chunk: without JavaScript the browser
// parses and shows them as they are; with it, they are raw text, which the
// browser reads in a fraction of the time it takes to build their elements,
// and the page's script builds elements only for the entries in view. The
// stored entries (positions given: their places in tree order) go in a
// <script type="text/x-canopy" data-i="positions" data-z> per chunk,
// gzip-compressed and in base64 (chunkZipper): inert text, with or
// without JavaScript, that only the script reads (it shows no entry
// without it), decoding it once the store has arrived.
//
// Raw text ends at the first "</noscript" or "</script"; in a script, "<!--"
// starts an escaped state. Neither can come from a session: its text is
// escaped, so "<" only starts our own tags, and we write no noscript,
// script or comment; writeRawSafe makes sure of it. (Base64 holds no "<".)
func (r *Renderer) writeEntries(w io.Writer, ec *entryContext, entries, positions []int, images imageSet) error {
	var z *chunkZipper
	if positions != nil {
		z = newChunkZipper(w)
	}
	err := r.writeBatches(w, z, ec, entries, positions, images)
	if z != nil {
		if zerr := z.close(); err == nil {
			err = zerr
		}
	}
	return err
}

// writeBatches renders the entries a batch at a time (see writeEntries)
// and writes each batch's chunks (writeChunks).
func (r *Renderer) writeBatches(w io.Writer, z *chunkZipper, ec *entryContext, entries, positions []int, images imageSet) error {
	// One buffer per place in a batch, reused batch after batch: growing a
	// fresh buffer for every entry was a tenth of the export's allocations.
	out := make([]bytes.Buffer, writeBatch)
	var chunk bytes.Buffer
	for lo, hi := 0, 0; lo < len(entries); lo = hi {
		// A batch ends at writeBatch entries or batchBytes of their JSON
		// (two entries at least, one for each core): its HTML is held until
		// it is written.
		for size := 0; hi < len(entries) && hi-lo < writeBatch && (hi-lo < 2 || size < batchBytes); hi++ {
			size += ec.s.Entries[entries[hi]].RawLen()
		}
		parallel(hi-lo, func(j int) {
			r.renderEntry(&out[j], ec, entries[lo+j])
			makeRawSafe(&out[j])
		})
		if err := writeChunks(w, z, &chunk, out[:hi-lo], lo, positions, images); err != nil {
			return err
		}
	}
	return nil
}

// writeChunks writes the HTML of one batch's entries (out; lo is the
// first one's place in the list written) in chunks of about chunkBytes,
// so that the script can use the first entries before big ones have
// arrived, and empties the buffers for the next batch. The store's chunks
// (z not nil) go to z, which compresses them.
func writeChunks(w io.Writer, z *chunkZipper, chunk *bytes.Buffer, out []bytes.Buffer, lo int, positions []int, images imageSet) error {
	for j := 0; j < len(out); {
		k := j
		size := 0
		for k < len(out) && (k == j || size+out[k].Len() <= chunkBytes) {
			size += out[k].Len()
			k++
		}
		chunk.Reset()
		if positions != nil {
			chunk.WriteString(`<script type="text/x-canopy" data-i="`)
			for i := lo + j; i < lo+k; i++ {
				if i > lo+j {
					chunk.WriteByte(' ')
				}
				chunk.WriteString(strconv.Itoa(positions[i]))
			}
			chunk.WriteString(`" data-z>`)
		} else {
			chunk.WriteString(`<noscript data-at="` + strconv.Itoa(lo+j) + `">`)
		}
		var html io.Writer = w
		var zbuf *bytes.Buffer
		if z != nil {
			zbuf = z.buffer()
			html = zbuf
		} else if _, err := w.Write(chunk.Bytes()); err != nil {
			return err
		}
		for ; j < k; j++ {
			h := out[j].Bytes()
			if images != nil {
				collectImages(h, images)
			}
			if _, err := html.Write(h); err != nil {
				return err
			}
			out[j].Reset()
			if out[j].Cap() > 64<<10 {
				// A big entry: do not keep its room for the next
				// batch (512 places of the biggest entry each held
				// was 15 MB on the 100,000-entry session).
				out[j] = bytes.Buffer{}
			}
		}
		if z != nil {
			if err := z.send(chunk.String(), zbuf); err != nil {
				return err
			}
		} else if _, err := io.WriteString(w, "</noscript>"); err != nil {
			return err
		}
	}
	return nil
}

// storeLevel is the gzip level of the store's chunks. On the 100,000-entry
// code session (a store of 18.0 MB of HTML in 20 chunks), one core made
// in base64: level 1 5.95 MB in 76 ms, 2 5.62 MB in 76 ms, 3 5.51 MB in
// 83 ms, 5 4.98 MB in 101 ms, 6 4.89 MB in 113 ms, 7 4.81 MB in 180 ms,
// 9 4.67 MB in 505 ms (the best of 3 runs of each). Unpacking in the
// browser takes about as long at any level.
const storeLevel = 5

// chunkZipper writes the store's chunks to w, each as its opening tag,
// its HTML gzip-compressed and in base64, and "</script>", on a goroutine
// of its own: a chunk is compressed while the next batch of entries is
// rendered, not between batches, while a core waits. Each chunk is a gzip
// stream of its own, without a name or a time: the page's script decodes
// each alone, and the same session makes the same page.
type chunkZipper struct {
	jobs chan zipJob
	free chan *bytes.Buffer // the buffers the HTML of a chunk is gathered in
	done chan error
	err  error // the first error, once done
}

// zipJob is one chunk for the zipper: its opening tag and its HTML.
type zipJob struct {
	head string
	html *bytes.Buffer
}

// newChunkZipper starts the zipper. Two buffers: one chunk is gathered
// while the one before is compressed.
func newChunkZipper(w io.Writer) *chunkZipper {
	z := &chunkZipper{jobs: make(chan zipJob), free: make(chan *bytes.Buffer, 2), done: make(chan error, 1)}
	z.free <- new(bytes.Buffer)
	z.free <- new(bytes.Buffer)
	go z.run(w)
	return z
}

// buffer is an empty buffer to gather a chunk's HTML in, once the zipper
// is done with it.
func (z *chunkZipper) buffer() *bytes.Buffer { return <-z.free }

// send hands a chunk to the zipper; an error is the zipper's, which has
// stopped (see close).
func (z *chunkZipper) send(head string, html *bytes.Buffer) error {
	select {
	case z.jobs <- zipJob{head, html}:
		return nil
	case err := <-z.done:
		z.err = err
		z.done = nil // closed: close returns z.err
		return err
	}
}

// close waits until every chunk sent is written, and is the first error.
func (z *chunkZipper) close() error {
	if z.done == nil {
		return z.err
	}
	close(z.jobs)
	return <-z.done
}

// run writes the chunks sent to w until the zipper is closed or a write
// fails.
func (z *chunkZipper) run(w io.Writer) {
	var zw *gzip.Writer
	for job := range z.jobs {
		b64 := base64.NewEncoder(base64.StdEncoding, w)
		if zw == nil {
			zw, _ = gzip.NewWriterLevel(b64, storeLevel) // a valid level: no error
		} else {
			zw.Reset(b64)
		}
		// No time: 0 (the zero time.Time is a time in 2042 to gzip).
		zw.ModTime = time.Unix(0, 0)
		_, err := io.WriteString(w, job.head)
		if err == nil {
			_, err = zw.Write(job.html.Bytes())
		}
		if err == nil {
			err = zw.Close()
		}
		if err == nil {
			err = b64.Close()
		}
		if err == nil {
			_, err = io.WriteString(w, "</script>")
		}
		if err != nil {
			z.done <- fmt.Errorf("writing the store: %w", err)
			return
		}
		job.html.Reset()
		z.free <- job.html
	}
	z.done <- nil
}

// chunkBytes is about the most HTML one chunk holds (one entry may be
// more): the script uses a chunk once it is complete.
const chunkBytes = 1 << 20

// renderEntry appends one entry's HTML to buf (nothing for a result drawn
// inside its call's card). It decodes the entry (and the results its tool calls show)
// afresh: bodies are not kept between the passes.
//
// Entries are not run through the HTML minifier: their markup is that of
// the minified "entry" template (writeEntry), and what goldmark and chroma
// add is close to minimal. Measured, minifying each entry saved 0.7-2% of a
// page for 14% of the export's time, and tdewolff's attribute handling is
// quadratic in the entities of one value (an image's data: URL, whose every
// "+" is "&#43;"): a 2 MB picture took 8 s.
func (r *Renderer) renderEntry(buf *bytes.Buffer, ec *entryContext, i int) {
	if ec.rows[i].flags&flagEmbedded != 0 {
		return
	}
	e := ec.s.Entries[i]
	b, err := e.Decode() // nil when err is not
	ec.gotBody(e, b)
	ec.gatherRow(i, b)
	writeEntry(buf, r.view(ec, e, b, err))
}

// gather renders every entry with a block of its own, in file order, into
// html (by index; nil: nowhere), and returns the context with every row
// filled in: the two passes of Render, without a page.
func (r *Renderer) gather(s *sessiontree.Session, html []string) *entryContext {
	ec := newEntryContext(s, treeOrder(s))
	var buf bytes.Buffer
	for i := range s.Entries {
		buf.Reset()
		r.renderEntry(&buf, ec, i)
		if html != nil {
			html[i] = buf.String()
		}
	}
	return ec
}

package sessiontree

import (
	"bytes"
	"fmt"
	"io"
	"strings"
)

// Peek is what a listing of sessions shows of one (canopy list), read from
// the start and the end of its file only: a store of thousands of
// sessions is listed in well under a second, where loading each would
// take minutes.
type Peek struct {
	Format        string // FormatPi, FormatOhMyPi, FormatFlue, FormatClaude, FormatCodex
	FormatVersion string // as Session.FormatVersion
	ID            string // the session's id, as its file records it ("" when it does not)
	Cwd           string // the working directory
	Started       string // the first timestamp read, as written
	Last          string // the last timestamp read (of the file's last lines), as written
	// Name is the session's own name, as Session.Name has it, where the
	// lines that give it were read: a pi session_info, oh-my-pi's title,
	// Claude Code's custom-title, ai-title, agent-name or summary,
	// Codex's thread name.
	Name string
	// Prompt is the text of the first prompt the user typed (its first
	// maxPeekPrompt bytes): not Claude Code's meta, caveat, command and
	// system-reminder lines, nor what Codex writes itself (developer and
	// environment messages, AGENTS.md), and without a gateway's envelope
	// (PromptText).
	Prompt string
}

// What a peek reads: the head from the start, in doubling steps while the
// first prompt is not found, up to peekHeadMax; then the file's last
// peekTailSize bytes, for the last timestamp and for names written late
// (a rename). A name written in between, in a file over a megabyte, is not
// seen. A JSON document (Flue) is read whole up to peekDocMax.
const (
	peekFirst    = 32 << 10
	peekHeadMax  = 1 << 20
	peekTailSize = 64 << 10
	peekDocMax   = 8 << 20
	// peekLastLines: how many of the tail's last lines are read whole for
	// their timestamp; the others only when they may name the session.
	peekLastLines = 8
	// maxPeekPrompt bounds the prompt kept: a listing shows a line of it.
	maxPeekPrompt = 4 << 10
)

// A Peeker peeks at sessions, reusing its buffers. It is not safe for
// concurrent use: give each goroutine its own.
type Peeker struct {
	head, tail []byte
}

// Peek reads what a listing shows of the session in r, of size bytes. An
// error wraps ErrNotSession when r holds no session canopy reads (empty,
// not JSON, JSON of another kind), else it is the read's.
func (pk *Peeker) Peek(r io.ReaderAt, size int64) (Peek, error) {
	if size <= 0 {
		return Peek{}, fmt.Errorf("empty file: %w", ErrNotSession)
	}
	head, err := readInto(&pk.head, r, 0, min(size, peekFirst))
	if err != nil {
		return Peek{}, err
	}
	if int64(len(head)) < size && size <= peekDocMax && jsonDocument(head) {
		// A pretty-printed document is told only when read whole.
		if head, err = readInto(&pk.head, r, 0, size); err != nil {
			return Peek{}, err
		}
	}
	lp, format, err := peekFormat(head)
	if err != nil || lp == nil {
		if err == nil {
			return peekDocument(r, size, format)
		}
		return Peek{}, err
	}
	end, head, err := pk.scanHead(r, size, head, lp)
	if err != nil {
		return Peek{}, err
	}
	var tail []byte
	if end < size {
		if tail, err = pk.scanTail(r, end, size, lp); err != nil {
			return Peek{}, err
		}
	}
	lp.finish(head, tail)
	return *lp.peek(), nil
}

// readInto reads n bytes at off into *buf (grown as needed) and returns
// them; a short read is an error, the file having shrunk.
func readInto(buf *[]byte, r io.ReaderAt, off, n int64) ([]byte, error) {
	if int64(cap(*buf)) < n {
		*buf = make([]byte, n)
	}
	b := (*buf)[:n]
	if k, err := r.ReadAt(b, off); int64(k) < n {
		if err == nil || err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, fmt.Errorf("reading at %d: %w", off, err)
	}
	return b, nil
}

// peekFormat tells the session's format from its head with the loader's
// own detection (readers), and returns the reader of its lines; nil for a
// format peeked by loading it whole (peekDocument: a Flue document, or a
// format with no peek of its own), with the name of that format.
func peekFormat(head []byte) (peekLines, string, error) {
	in := newInput(&source{data: head, noSHA256: true}, chunkSize)
	first, err := in.next()
	if err != nil {
		return nil, "", err
	}
	p := newProbe(in, first)
	defer p.close()
	for _, r := range readers() {
		if !r.detect(p) {
			continue
		}
		if pr, ok := r.(peekReader); ok {
			if lp, err := pr.peek(p); lp != nil || err != nil {
				return lp, "", err
			}
			// nil, nil: this input is a document of the format (Hermes'
			// snapshots beside its JSONL), peeked by loading it whole.
		}
		return nil, r.agent().Formats[0], nil
	}
	return nil, "", fmt.Errorf("no reader for this input: %w", ErrNotSession)
}

// A peekReader is a reader with a peek of its own: what canopy list shows
// of a session, read from a few of its first and last lines. A reader
// without one is peeked by loading the session whole (peekDocument).
type peekReader interface {
	// peek is the peek of an input the reader detected, or the error that
	// says it holds no session.
	peek(p *probe) (peekLines, error)
}

// scanHead reads the head's whole lines until lp has what it looks for,
// growing the head while a line runs past it, up to peekHeadMax. It
// returns the offset past the last line read, and the head as read.
func (pk *Peeker) scanHead(r io.ReaderAt, size int64, head []byte, lp peekLines) (int64, []byte, error) {
	off := 0
	for !lp.done() {
		rest := head[off:]
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			lp.line(rest[:i])
			off += i + 1
			continue
		}
		if int64(len(head)) == size { // the last line, with no newline
			lp.line(rest)
			off = len(head)
			break
		}
		if len(head) >= peekHeadMax {
			break
		}
		var err error
		if head, err = readInto(&pk.head, r, 0, min(size, int64(2*len(head)), peekHeadMax)); err != nil {
			return 0, nil, err
		}
	}
	return int64(off), head, nil
}

// scanTail reads the file's last lines, past end (where the head's
// lines ended): each that may name the session, and the last few for
// their timestamps.
func (pk *Peeker) scanTail(r io.ReaderAt, end, size int64, lp peekLines) ([]byte, error) {
	start := max(end, size-peekTailSize)
	tail, err := readInto(&pk.tail, r, start, size-start)
	if err != nil {
		return nil, err
	}
	if start > end { // it starts inside a line
		i := bytes.IndexByte(tail, '\n')
		if i < 0 {
			return tail, nil
		}
		tail = tail[i+1:]
	}
	lines := bytes.Split(bytes.TrimSuffix(tail, []byte{'\n'}), []byte{'\n'})
	marks := lp.marks()
	for k, l := range lines {
		if k >= len(lines)-peekLastLines || containsAny(l, marks) {
			lp.line(l)
		}
	}
	return tail, nil
}

func containsAny(b []byte, subs [][]byte) bool {
	for _, s := range subs {
		if bytes.Contains(b, s) {
			return true
		}
	}
	return false
}

// peekLines reads the lines of one format for a Peek.
type peekLines interface {
	// line reads one line (without its line end): the first lines of the
	// file in order, then some of its last (scanTail).
	line(raw []byte)
	// done: the head has given what the listing needs of it.
	done() bool
	// marks are what a line that may name the session holds.
	marks() [][]byte
	// finish settles what depends on every line read; head and tail are
	// the bytes read.
	finish(head, tail []byte)
	peek() *Peek
}

// peekBase is what every format's peek keeps.
type peekBase struct {
	p Peek
}

func (b *peekBase) peek() *Peek { return &b.p }

// done: the first prompt is what only the head can give.
func (b *peekBase) done() bool { return b.p.Prompt != "" }

// stamp notes a line's timestamp.
func (b *peekBase) stamp(ts string) {
	if ts == "" {
		return
	}
	if b.p.Started == "" {
		b.p.Started = ts
	}
	b.p.Last = ts
}

// prompt takes the first typed prompt among blocks (typedPrompt, the
// rule Session.Title follows).
func (b *peekBase) prompt(blocks Blocks) {
	if b.p.Prompt != "" {
		return
	}
	t := typedPrompt(blocks)
	if len(t) > maxPeekPrompt {
		t = strings.ToValidUTF8(t[:maxPeekPrompt], "")
	}
	b.p.Prompt = t
}

// trimLine is a line without its surrounding white space (a \r left by
// a CRLF file included).
func trimLine(raw []byte) []byte {
	t, _ := trimSpace(raw)
	return t
}

package export

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"

	"canopy/sessiontree"
)

// DefaultMaxInput bounds what is read from an input that is not a regular
// file (standard input, a pipe, a device): such input is held in memory,
// and /dev/zero or an endless pipe would otherwise be read until the
// process runs out of memory. Regular files have no such bound: they are
// not held in memory, and their size is known.
const DefaultMaxInput = 512 << 20

// Input is a session to load: a file, or standard input.
type Input struct {
	Path  string    // a file; "-": Stdin
	Stdin io.Reader // what "-" reads
	// MaxInput bounds what is read of input that is not a regular file
	// (it is held in memory). 0: such input is refused, never opened (an
	// archive's sources: a FIFO put among them must not hang the run).
	MaxInput int64
	// NoSHA256: the caller never shows the input's SHA-256 (canopy scan),
	// so input read into memory is loaded without it (see
	// sessiontree.LoadOptions). A regular file is loaded in place, as ever.
	NoSHA256 bool
	// Session names the session to read of a database that holds
	// several (canopy export opencode.db --session ID).
	Session string
	// stop, when closed, stops the load of a regular file that is not
	// compressed (sessiontree.LoadOptions.Stop): Export's scan found
	// credentials, and the file as it is will not be used (prescan.go).
	stop <-chan struct{}
}

// Load loads a session. A regular file is loaded in place (kept open,
// read again entry by entry: the caller closes the session); anything
// else is read into memory, at most in.MaxInput bytes. A compressed
// session (gzip or zstd, told by its first bytes, in a file or on
// standard input) is decompressed into memory, and loaded as if it had
// never been compressed: see loadCompressed.
func Load(ctx context.Context, in Input) (*sessiontree.Session, error) {
	if ctx.Err() != nil {
		return nil, ErrInterrupted
	}
	if in.Path == "-" {
		return in.loadStream(ctx, in.Stdin, "standard input")
	}
	fi, err := os.Stat(in.Path)
	if errors.Is(err, fs.ErrNotExist) {
		// Said plainly, naming the file: "stat x: no such file or
		// directory" is the system's call, not the user's words.
		return nil, noSuchFile(in.Path)
	}
	if err != nil {
		return nil, err
	}
	switch {
	case in.MaxInput <= 0 && !fi.Mode().IsRegular():
		// sessiontree opens the file with a plain open, which would wait
		// forever on a FIFO.
		return nil, fmt.Errorf("%s: %s", in.Path, NotRegular(fi.Mode()))
	case fi.IsDir():
		return sessiontree.LoadFile(in.Path)
	case fi.Mode().IsRegular():
		return in.loadRegular(ctx)
	}
	f, err := os.Open(in.Path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return in.loadStream(ctx, f, in.Path)
}

// loadRegular loads the regular file in.Path: in place, unless its first
// bytes say it is compressed. Telling is one read of MagicSize bytes.
func (in Input) loadRegular(ctx context.Context) (*sessiontree.Session, error) {
	f, err := os.Open(in.Path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	head := make([]byte, sessiontree.MagicSize)
	n, err := f.ReadAt(head, 0)
	if err != nil && err != io.EOF {
		return nil, fmt.Errorf("%s: %w", in.Path, err)
	}
	c := sessiontree.Sniff(head[:n])
	if c == sessiontree.Uncompressed {
		return sessiontree.LoadFileWith(in.Path, sessiontree.LoadOptions{Session: in.Session, Stop: in.stop})
	}
	var hint int64
	if fi, err := f.Stat(); err == nil {
		hint = sessiontree.SizeHint(f, fi.Size(), c)
	}
	return in.loadCompressed(ctxReader{ctx, f}, c, hint, in.Path)
}

// loadStream loads what r holds (standard input, a pipe): into memory, at
// most in.MaxInput bytes of it, or of what it decompresses to. shown is
// how messages name it.
func (in Input) loadStream(ctx context.Context, r io.Reader, shown string) (*sessiontree.Session, error) {
	br := bufio.NewReader(ctxReader{ctx, r})
	head, _ := br.Peek(sessiontree.MagicSize) // an error is met again below
	if c := sessiontree.Sniff(head); c != sessiontree.Uncompressed {
		return in.loadCompressed(br, c, 0, shown)
	}
	data, err := readAtMost(br, in.MaxInput, shown)
	if err != nil {
		return nil, err
	}
	return sessiontree.LoadWith(data, in.Path, in.loadOptions())
}

// loadCompressed decompresses the stream r of compression c into memory
// and loads what it holds under in.Path's name; shown names it in
// messages. What it decompresses to is bounded by in.MaxInput, else (an
// archive's sources) by DefaultMaxInput: a few bytes can decompress to
// gigabytes. hint is the size the stream claims (sessiontree.SizeHint).
//
// The session is the decompressed one, Size and SHA-256 included: the
// page and the Markdown show the hash of the session's JSONL (what the
// page's download gives, what `zcat x.jsonl.gz | sha256sum` prints), so
// a session exports to the same page compressed or not, but for the
// file's name; and a cut or redacted copy that changed nothing is not
// called cut down. The archive's manifest records the compressed file's
// own hash (it hashes its sources as stored), which `canopy verify`
// checks.
func (in Input) loadCompressed(r io.Reader, c sessiontree.Compression, hint int64, shown string) (*sessiontree.Session, error) {
	limit := in.MaxInput
	if limit <= 0 {
		limit = DefaultMaxInput
	}
	data, err := sessiontree.Decompress(r, c, limit, hint)
	var tooLarge *sessiontree.TooLargeError
	switch {
	case errors.As(err, &tooLarge):
		return nil, fmt.Errorf("%s: more than %s uncompressed, %s", shown, sizeText(limit), in.limitText(c))
	case err != nil:
		return nil, fmt.Errorf("%s: %w", shown, err)
	}
	return sessiontree.LoadWith(data, in.Path, in.loadOptions())
}

// limitText says what bounds a compressed session's size, and how to
// raise it.
func (in Input) limitText(c sessiontree.Compression) string {
	if in.MaxInput <= 0 {
		return "the limit for a " + c.String() + " session in an archive"
	}
	return "the limit for a " + c.String() + " session (--max-input raises it)"
}

// IsCompressed tells whether the regular file at path is compressed, by
// its first bytes: false when it cannot be read (loading it then says
// why).
func IsCompressed(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, sessiontree.MagicSize)
	n, _ := f.ReadAt(head, 0)
	return sessiontree.Sniff(head[:n]) != sessiontree.Uncompressed
}

func (in Input) loadOptions() sessiontree.LoadOptions {
	return sessiontree.LoadOptions{NoSHA256: in.NoSHA256, Session: in.Session}
}

// noSuchFile is the error of an input that is not there: it names the
// file, and is fs.ErrNotExist.
type noSuchFile string

func (p noSuchFile) Error() string      { return string(p) + ": no such file" }
func (noSuchFile) Is(target error) bool { return target == fs.ErrNotExist }

// readAtMost reads all of r, failing once it has read more than max bytes.
func readAtMost(r io.Reader, max int64, name string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s: more than %s to read, the limit for input that is not a regular file (--max-input raises it)", name, sizeText(max))
	}
	return data, nil
}

// sizeText writes a byte count the way --max-input reads it back.
func sizeText(n int64) string {
	for _, u := range []struct {
		shift  uint
		suffix string
	}{{40, "T"}, {30, "G"}, {20, "M"}, {10, "K"}} {
		if n >= 1<<u.shift && n%(1<<u.shift) == 0 {
			return strconv.FormatInt(n>>u.shift, 10) + u.suffix + "iB"
		}
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// ctxReader reads from r until ctx is done: a long read of standard input
// stops at the next read after an interrupt.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if c.ctx.Err() != nil {
		return 0, ErrInterrupted
	}
	return c.r.Read(p)
}

package export

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"canopy/redact"
	"canopy/sessiontree"
)

// A regular file's credentials are looked for while the file loads: its
// bytes are read and scanned on the other core as the loader parses it
// in place. Scanned after the load (the whole file read again, then
// scanned), an 85 MB session took half as long again to export; in
// parallel, most of that is hidden, and a session with nothing to
// replace is not held in memory past the scan.
//
// When there are credentials to replace (and the sharing flags cut
// nothing, so the file is what is shared), the session loaded in place
// is not the one rendered: the page is made of the session loaded from
// the redacted bytes alone, and the heap does not hold both sessions'
// entries (with both, the collector ran all along: 4 CPU-s instead of 2).
// So the load in place is stopped as soon as the scan detects a first
// credential (sessiontree.LoadOptions.Stop), leaving both cores to the
// scan, and the secrets are replaced where the scan found them, without
// a second scan (redact.Found). The file's first megabyte is scanned
// before the rest is read (readFile): a credential there stops the load
// within milliseconds, not after the whole file is read. On the 100,000-entry benchmark session
// (an 85 MB file with a credential on its fourth line, 1,332 times),
// finishing the load and scanning twice took 0.5 CPU-s more.

// scanned is a file's bytes and the credentials found in them.
type scanned struct {
	data  []byte
	sum   [sha256.Size]byte // of data: the original file's
	found redact.Found
	rep   redact.Report // found's; once redacted, Apply's
	err   error
	// loaded is the session the scan stands for: loaded from the file,
	// or from its redacted bytes (redacted true).
	loaded   *sessiontree.Session
	redacted bool
}

// A prescan is a scan started while the file loads (startScan).
type prescan struct {
	result <-chan *scanned
	// stop is closed once the scan has detected a credential, when the
	// load in place is to stop then (it is passed to Load); nil: never.
	stop chan struct{}
}

// load loads the session; with FindSecrets, a regular file is scanned
// for credentials as it loads (startScan), and the session returned is
// the one to prepare: loaded in place, or from the redacted bytes
// (useScan). The caller closes it.
func (j *Job) load(ctx context.Context) (*sessiontree.Session, error) {
	var found func(size int64) // when the scan finds credentials; nil: the load runs on
	if !j.KeepSecrets && !j.Scope.Active() {
		found = func(size int64) {
			if j.Copying != nil {
				j.Copying(size)
			}
		}
	}
	redactor, scan := startScan(j.In.Path, j.startRedactor(), found)
	in := j.In
	if scan != nil {
		in.stop = scan.stop
		beforeLoad(scan)
	}
	s, err := Load(ctx, in)
	if errors.Is(err, sessiontree.ErrStopped) {
		s = nil // the scan found credentials: useScan loads the redacted bytes
	} else if err != nil {
		return nil, err
	}
	if redactor != nil {
		m := <-redactor
		if m.err != nil {
			closeSession(s)
			return nil, m.err
		}
		j.Redactor = m.r
	}
	if scan == nil {
		return s, nil
	}
	sc := <-scan.result
	if s == nil && !sc.redacts() {
		// The credential detected was dropped by the rest of the scan:
		// the file is loaded in place after all.
		if s, err = Load(ctx, j.In); err != nil {
			return nil, err
		}
	}
	red, err := j.useScan(s, sc)
	if err != nil {
		closeSession(s)
		return nil, fmt.Errorf("%s: %w", j.In.Path, err)
	}
	return red, nil
}

// closeSession closes s, if there is one.
func closeSession(s *sessiontree.Session) {
	if s != nil {
		s.Close()
	}
}

// beforeLoad is called before the load in place that scan may stop:
// tests wait there for the scan to stop it.
var beforeLoad = func(scan *prescan) {}

// startScan reads the regular file at path and scans it with the
// redactor that redactors gives, if that is one; nil when path is not a regular
// file (standard input is in memory already: it is scanned there), nor
// when it is compressed (its session is in memory once decompressed). It
// passes the redactor on, once made. With found, the load in place stops
// once a credential is detected (the whole file is what is redacted),
// and found is told the file's size then.
func startScan(path string, redactors <-chan made[*redact.Redactor], found func(size int64)) (redactor <-chan made[*redact.Redactor], scan *prescan) {
	if redactors == nil || path == "-" {
		return redactors, nil
	}
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() || IsCompressed(path) {
		return redactors, nil // a compressed file's bytes are not the session's: scanned once decompressed
	}
	again := make(chan made[*redact.Redactor], 1)
	out := make(chan *scanned, 1)
	scan = &prescan{result: out}
	var first func()
	if found != nil {
		scan.stop = make(chan struct{})
		first = sync.OnceFunc(func() {
			close(scan.stop)
			found(fi.Size())
		})
	}
	go func() {
		m := <-redactors
		again <- m
		// Hashed as it is read, on the core the read leaves free.
		pieces := make(chan []byte, 64)
		hashed := make(chan [sha256.Size]byte, 1)
		go func() {
			h := sha256.New()
			for p := range pieces {
				h.Write(p)
			}
			var sum [sha256.Size]byte
			h.Sum(sum[:0])
			hashed <- sum
		}()
		data, err := readFile(path, func(head []byte) {
			// The start of the file, scanned before the rest is read:
			// a credential there stops the load in place at once.
			if first != nil && m.err == nil {
				m.r.Find(head, first)
			}
		}, func(p []byte) { pieces <- p })
		close(pieces)
		if err != nil || m.err != nil {
			<-hashed
			out <- &scanned{err: err}
			return
		}
		sc := &scanned{data: data}
		sc.found = m.r.Find(data, first)
		sc.rep = sc.found.Report
		sc.sum = <-hashed
		out <- sc
	}()
	return again, scan
}

// pieceBytes is the most readFile reads at a time past the head.
const pieceBytes = 4 << 20

// headBytes is how much of the file's start readFile hands to its head
// function before it reads the rest.
const headBytes = 1 << 20

// readFile is os.ReadFile, calling head with the file's first lines
// (about headBytes of them, those whole in it) before it reads the rest
// of a file over 4 headBytes,
// and piece with each piece of the file as it is read, in order.
func readFile(path string, head, piece func([]byte)) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := 0
	if fi, err := f.Stat(); err == nil && fi.Size() < 1<<40 {
		size = int(fi.Size())
	}
	data := make([]byte, 0, size+512) // as os.ReadFile: room to tell the end
	n, err := io.ReadFull(f, data[:min(size, headBytes)])
	data = data[:n]
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, err
	}
	if i := bytes.LastIndexByte(data, '\n'); i >= 0 && size > 4*headBytes {
		// A smaller file is scanned whole soon enough: its head scanned
		// first was a second scan of most of it.
		head(data[:i+1])
	}
	piece(data)
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := f.Read(data[len(data):min(cap(data), len(data)+pieceBytes)])
		piece(data[len(data) : len(data)+n])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// useScan takes the scan of the file s was loaded from (nil: its load
// was stopped by the scan, which found credentials): when its bytes are
// the ones loaded (the file may have changed between the two reads) and
// hold credentials to replace in the whole file, it returns the session
// loaded from the redacted bytes in s's place (and closes s); else s.
// The scan stands for the session returned from then on.
func (j *Job) useScan(s *sessiontree.Session, sc *scanned) (*sessiontree.Session, error) {
	if s == nil {
		return j.loadRedacted(sc)
	}
	if sc.err != nil || sc.sum != s.SHA256 {
		return s, nil // read and scanned again as the pipeline goes
	}
	j.scanned, sc.loaded = sc, s
	if j.KeepSecrets || !sc.redacts() || j.Scope.Active() {
		return s, nil
	}
	s.Close()
	return j.loadRedacted(sc)
}

// redacts tells whether the scan found credentials to replace.
func (sc *scanned) redacts() bool {
	return sc.err == nil && len(sc.rep.Findings) > 0
}

// loadRedacted loads the session from sc's bytes, its credentials
// replaced.
func (j *Job) loadRedacted(sc *scanned) (*sessiontree.Session, error) {
	data, rep := sc.found.Apply(sc.data)
	red, err := sessiontree.Load(data, j.In.Path)
	if err != nil {
		return nil, fmt.Errorf("reloading the redacted session: %w", err)
	}
	j.scanned = sc
	sc.data, sc.found, sc.rep, sc.loaded, sc.redacted = nil, redact.Found{}, rep, red, true
	return red, nil
}

// of says whether sc stands for s, the session being prepared.
func (sc *scanned) of(s *sessiontree.Session) bool {
	return sc != nil && s == sc.loaded
}

// originalSHA256 is the hash of the file s was loaded from.
func originalSHA256(s *sessiontree.Session, sc *scanned) string {
	if sc.of(s) {
		return hex.EncodeToString(sc.sum[:])
	}
	return hex.EncodeToString(s.SHA256[:])
}

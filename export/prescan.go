package export

import (
	"crypto/sha256"
	"encoding/hex"
	"os"

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
// is dropped for the one loaded from the redacted bytes: the page is made
// of that alone, and the heap does not hold both sessions' entries (with
// both, the collector ran all along: 4 CPU-s instead of 2).

// scanned is a file's bytes and the credentials found in them.
type scanned struct {
	data []byte
	sum  [sha256.Size]byte // of data: the original file's
	rep  redact.Report
	err  error
	// loaded is the session the scan stands for: loaded from the file,
	// or from its redacted bytes (redacted true).
	loaded   *sessiontree.Session
	redacted bool
}

// startScan reads the regular file at path and scans it with the
// redactor that redactors gives, if that is one; nil when path is not a regular
// file (standard input is in memory already: it is scanned there), nor
// when it is compressed (its session is in memory once decompressed). It
// passes the redactor on, once made.
func startScan(path string, redactors <-chan made[*redact.Redactor]) (redactor <-chan made[*redact.Redactor], result <-chan *scanned) {
	if redactors == nil || path == "-" {
		return redactors, nil
	}
	if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() || IsCompressed(path) {
		return redactors, nil // a compressed file's bytes are not the session's: scanned once decompressed
	}
	again := make(chan made[*redact.Redactor], 1)
	out := make(chan *scanned, 1)
	go func() {
		data, err := os.ReadFile(path)
		m := <-redactors
		again <- m
		if err != nil || m.err != nil {
			out <- &scanned{err: err}
			return
		}
		out <- &scanned{data: data, sum: sha256.Sum256(data), rep: m.r.Scan(data)}
	}()
	return again, out
}

// useScan takes the scan of the file s was loaded from: when its bytes
// are the ones loaded (the file may have changed between the two reads)
// and hold credentials to replace in the whole file, it returns the
// session loaded from the redacted bytes in s's place (and closes s);
// else s. The scan stands for the session returned from then on.
func (j *Job) useScan(s *sessiontree.Session, sc *scanned) (*sessiontree.Session, error) {
	if sc.err != nil || sc.sum != s.SHA256 {
		return s, nil // read and scanned again as the pipeline goes
	}
	j.scanned, sc.loaded = sc, s
	if j.KeepSecrets || len(sc.rep.Findings) == 0 || j.Scope.Active() {
		return s, nil
	}
	red, rep, err := redactData(sc.data, s.File, j.Redactor)
	if err != nil {
		return nil, err
	}
	s.Close()
	sc.data, sc.rep, sc.loaded, sc.redacted = nil, rep, red, true
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

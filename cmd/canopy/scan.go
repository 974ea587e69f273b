package main

import (
	"context"
	"os"

	"canopy/export"
	"canopy/redact"
	"canopy/sessiontree"
)

const scanSynopsis = "canopy scan FILE [--json]"

// runScan reports the secrets in a session without exporting it: exit 1
// when any is found, so that pipelines can gate on it.
func runScan(e *env, args []string) int {
	fs := newFlags("scan")
	asJSON := fs.Bool("json", false, "print the findings as JSON")
	maxInput := addMaxInput(fs)
	e.addSession(fs)
	noSubagents := fs.Bool("no-subagents", false, "Claude Code: scan only the session's file, not its subagents' (which export includes by default)")
	if st := parseOneFile(e, fs, scanSynopsis, args); st >= 0 {
		return st
	}
	in, st := e.sessionFile(fs.Arg(0))
	if st >= 0 {
		return st
	}
	s, raw, r, err := scanInput(e.ctx, e.input(in, int64(*maxInput)))
	if err != nil {
		printLine(e.stderr, "canopy: %v%s", err, loadHint(in, err))
		return exitFail
	}
	defer s.Close()
	rep := export.NamedReport(s, raw)
	if sessiontree.AgentOf(s.Format).Subagents && !*noSubagents {
		// What export draws of the subagents is scanned too.
		subs, notices := export.ScanSubagents(e.ctx, s, r)
		for _, n := range notices {
			printLine(e.stderr, "canopy: %s", n)
		}
		export.MergeReports(&rep, subs)
	}
	if *asJSON {
		if err := export.EncodeReport(e.stdout, rep); err != nil {
			printLine(e.stderr, "canopy: %v", err)
			return exitFail
		}
	} else {
		for _, l := range export.RedactionSummary(rep, "found") {
			printLine(e.stdout, "%s", l)
		}
	}
	if len(rep.Findings) > 0 {
		return exitFail
	}
	return exitOK
}

// scanInput loads the session at in and scans its bytes for secrets with
// the redactor it returns (made once: loading the rules takes a while).
//
// A regular file is read once, into memory, and loaded from there while
// its bytes are scanned, on other cores: the load (which names the entry
// of every finding, and says whether the input is a session at all) and
// the scan each take about half the time. Loaded in place as export.Load
// does, the file was read twice, the second time (Session.ReadSource)
// checked against a hash of the first. The errors are export.Load's: the
// same stat, open and load, in that order. Other input (standard input,
// a pipe, a directory, a compressed file) goes through export.Load, as
// before: its bytes scanned are the session's, decompressed.
func scanInput(ctx context.Context, in export.Input) (*sessiontree.Session, redact.Report, *redact.Redactor, error) {
	if ctx.Err() != nil {
		return nil, redact.Report{}, nil, export.ErrInterrupted
	}
	if in.Path != "-" {
		if fi, err := os.Stat(in.Path); err == nil && fi.Mode().IsRegular() && !export.IsCompressed(in.Path) && !isDatabase(in.Path) {
			return scanFile(in.Path)
		}
	}
	in.NoSHA256 = true // scan never shows it
	s, err := export.Load(ctx, in)
	if err != nil {
		return nil, redact.Report{}, nil, err
	}
	src, err := s.ReadSource()
	if err == nil {
		var r *redact.Redactor
		if r, err = redact.New(); err == nil {
			return s, r.Scan(src), r, nil
		}
	}
	s.Close()
	return nil, redact.Report{}, nil, err
}

// isDatabase tells a file that is a database of sessions: its session
// is a document made of its rows (sessiontree's stores), which is what
// is scanned, not the database's bytes.
func isDatabase(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 16)
	n, _ := f.ReadAt(head, 0)
	return sessiontree.IsDatabase(head[:n])
}

// scanFile reads the regular file at path once, then loads and scans its
// bytes at the same time. Neither modifies them. The redactor is made
// while the file is read (its rules take a few milliseconds to make, the
// read of a large file is mostly the kernel's copy), so that the scan
// can start as soon as the bytes are in. Errors are the read's first,
// then the load's, then the redactor's: as when each step waited for the
// one before.
func scanFile(path string) (*sessiontree.Session, redact.Report, *redact.Redactor, error) {
	type made struct {
		r   *redact.Redactor
		err error
	}
	redactor := make(chan made, 1)
	go func() {
		r, err := redact.New()
		redactor <- made{r, err}
	}()
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, redact.Report{}, nil, err
	}
	type loaded struct {
		s   *sessiontree.Session
		err error
	}
	done := make(chan loaded, 1)
	go func() {
		// Scan never shows the file's SHA-256: a fifth of its CPU time.
		s, err := sessiontree.LoadWith(data, path, sessiontree.LoadOptions{NoSHA256: true})
		done <- loaded{s, err}
	}()
	m := <-redactor
	var rep redact.Report
	if m.err == nil {
		rep = m.r.Scan(data)
	}
	l := <-done
	switch {
	case l.err != nil:
		return nil, redact.Report{}, nil, l.err
	case m.err != nil:
		l.s.Close()
		return nil, redact.Report{}, nil, m.err
	}
	return l.s, rep, m.r, nil
}

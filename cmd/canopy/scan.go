package main

import (
	"canopy/export"
	"canopy/redact"
)

const scanSynopsis = "canopy scan FILE [--json]"

// runScan reports the secrets in a session without exporting it: exit 1
// when any is found, so that pipelines can gate on it.
func runScan(e *env, args []string) int {
	fs := newFlags("scan")
	asJSON := fs.Bool("json", false, "print the findings as JSON")
	maxInput := addMaxInput(fs)
	s, st := e.loadOne(fs, scanSynopsis, args, maxInput)
	if st >= 0 {
		return st
	}
	defer s.Close()
	src, err := s.ReadSource()
	if err != nil {
		printLine(e.stderr, "canopy: %v", err)
		return exitFail
	}
	r, err := redact.New()
	if err != nil {
		printLine(e.stderr, "canopy: %v", err)
		return exitFail
	}
	raw := r.Scan(src)
	rep := export.NewRedactionReport(s, raw)
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

package export

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"canopy/redact"
	"canopy/sessiontree"
)

// Subagents: a Claude Code session's subagents, read from the files
// beside it (sessiontree.LoadSubagents), each cut as the session is (with
// its own leaf) and redacted by the same Redactor, then grafted into the
// prepared session's tree under the call that ran it, with the
// sidechains of the session's own file (sessiontree.GraftSubagents). The
// page then draws each under its call, with its own entries in the tree.

// subagentsDone is what adding the subagents tells: the page's notes on
// what was left out of them, the redaction reports of their files, and
// notices (problems in their files, subagents left out).
type subagentsDone struct {
	omitted []string
	reports []redact.Report
	notices []string
}

// addSubagents grafts the subagents of s (the session as loaded, read from
// s.File) into p.Session, as o cuts and redacts s. A subagent with no call
// is left out of a path-only cut (it is on no path). It fails only when
// ctx is done.
func addSubagents(ctx context.Context, s *sessiontree.Session, p *Prepared, o Options) (subagentsDone, error) {
	var d subagentsDone
	subs, err := sessiontree.LoadSubagents(s, s.File)
	if err != nil {
		d.notices = append(d.notices, fmt.Sprintf("%v: some subagents may be left out", err))
	}
	if o.Redactor != nil && !o.KeepSecrets && subs != nil {
		// The words of a subagent's meta file (agentType, description)
		// are shown on the page, and are not in any transcript redacted.
		for _, x := range subs.List {
			x.Type, _ = o.Redactor.Text(x.Type)
			x.Description, _ = o.Redactor.Text(x.Description)
		}
	}
	// GraftSubagents closes the subagents' sessions it does not graft;
	// p.Session.Close closes the others.
	prepare := func(x *sessiontree.Subagent) (*sessiontree.Session, error) {
		if ctx.Err() != nil {
			return nil, ErrInterrupted
		}
		if x.Call == nil && o.Scope.PathOnly {
			return nil, nil
		}
		d.notices = append(d.notices, Diagnostics(x.Session)...)
		cut, err := Scope(ctx, x.Session, x.Session.Leaf, o.Scope)
		if err != nil {
			return nil, err
		}
		for _, om := range cut.Omitted {
			d.omitted = append(d.omitted, "in subagent "+agentName(x)+": "+om)
		}
		if o.Redactor == nil {
			return cut.Session, nil
		}
		red, rep, err := findSecrets(ctx, cut.Session, o)
		if err != nil {
			return nil, err
		}
		d.reports = append(d.reports, rep)
		return red, nil
	}
	for _, err := range p.Session.GraftSubagents(subs, prepare) {
		d.notices = append(d.notices, err.Error())
	}
	if ctx.Err() != nil {
		return d, ErrInterrupted
	}
	return d, nil
}

// agentName names a subagent in the page's notes: its agent id, else its
// file's name.
func agentName(x *sessiontree.Subagent) string {
	if x.AgentID != "" {
		return x.AgentID
	}
	return filepath.Base(x.Path)
}

// mergeReports adds the findings of the subagents' files to the session's
// report: each names its file (redact.Finding.File), and the kinds count
// each file's distinct secrets (markers are numbered in each file).
func mergeReports(into *redact.Report, subs []redact.Report) {
	for _, r := range subs {
		for _, f := range r.Findings {
			f.File = r.File
			into.Findings = append(into.Findings, f)
		}
		for k, n := range r.Kinds {
			into.Kinds[k] += n
		}
	}
}

// placeOf is where a finding was, for a summary: its entry, else its
// line, with the file's name when it is not the session's.
func placeOf(f redact.Finding) string {
	place := f.EntryID
	if place == "" {
		place = fmt.Sprintf("line %d", f.Line)
	}
	if f.File != "" {
		place += " (" + filepath.Base(f.File) + ")"
	}
	return place
}

// ScanSubagents scans for secrets what the page of the Claude Code
// session s would show of its subagents (canopy scan covers what export
// shares): each subagent's transcript, and its meta file, whose type and
// description the page shows. It returns one report per file with
// findings, to be merged into the session's (MergeReports), and a notice
// for each subagent that could not be read.
func ScanSubagents(ctx context.Context, s *sessiontree.Session, r *redact.Redactor) ([]redact.Report, []string) {
	subs, err := sessiontree.LoadSubagents(s, s.File)
	defer subs.Close()
	var notices []string
	if err != nil {
		notices = append(notices, fmt.Sprintf("%v: some subagents may not be scanned", err))
	}
	var reps []redact.Report
	for _, x := range subs.List {
		if ctx.Err() != nil {
			break
		}
		if x.Session == nil {
			notices = append(notices, fmt.Sprintf("subagent not scanned: %v", x.Err))
			continue
		}
		src, err := x.Session.ReadSource()
		if err != nil {
			notices = append(notices, fmt.Sprintf("subagent not scanned: %v", err))
			continue
		}
		if rep := NamedReport(x.Session, r.Scan(src)); len(rep.Findings) > 0 {
			reps = append(reps, rep)
		}
		if x.MetaPath == "" {
			continue
		}
		if meta, err := os.ReadFile(x.MetaPath); err == nil {
			rep := r.Scan(meta)
			if len(rep.Findings) > 0 {
				reps = append(reps, metaReport(x.MetaPath, rep))
			}
		}
	}
	return reps, notices
}

// metaReport is the report of a subagent's meta file: its findings by
// line, in no entry.
func metaReport(path string, rep redact.Report) redact.Report {
	out := redact.Report{File: path, Kinds: rep.Kinds, Findings: []redact.Finding{}}
	for _, f := range rep.Findings {
		out.Findings = append(out.Findings, redact.Finding{Kind: f.Kind, Marker: f.Marker, Line: f.Line})
	}
	return out
}

// MergeReports adds the reports of the subagents' files to the session's.
func MergeReports(into *redact.Report, subs []redact.Report) { mergeReports(into, subs) }

package export

import (
	"context"
	"fmt"
	"io"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"

	"canopy/redact"
	"canopy/sessiontree"
)

// Redact replaces every secret in s's source and loads the result: the
// page, and the session readers download from it, are then made of the
// redacted text only. s stays open; the session returned is in memory,
// or s itself when nothing was found.
func Redact(ctx context.Context, s *sessiontree.Session, r *redact.Redactor) (*sessiontree.Session, redact.Report, error) {
	if ctx.Err() != nil {
		return nil, redact.Report{}, ErrInterrupted
	}
	// The whole file at once: redaction works on the text as a whole.
	src, err := s.ReadSource()
	if err != nil {
		return nil, redact.Report{}, err
	}
	red, rep, err := redactData(src, s.File, r)
	if red == nil && err == nil {
		// Nothing replaced: the session as loaded is the redacted one,
		// and a large file is not parsed a second time.
		return s, rep, nil
	}
	return red, rep, err
}

// redactData replaces the secrets in src, the bytes of the session file
// name, and loads the result; nil when there was nothing to replace.
func redactData(src []byte, name string, r *redact.Redactor) (*sessiontree.Session, redact.Report, error) {
	data, rep := r.Redact(src)
	if len(rep.Findings) == 0 {
		return nil, rep, nil
	}
	red, err := sessiontree.Load(data, name)
	if err != nil {
		return nil, redact.Report{}, fmt.Errorf("reloading the redacted session: %w", err)
	}
	return red, rep, nil
}

// Scan finds the secrets in s's source without replacing them.
func Scan(ctx context.Context, s *sessiontree.Session, r *redact.Redactor) (redact.Report, error) {
	if ctx.Err() != nil {
		return redact.Report{}, ErrInterrupted
	}
	src, err := s.ReadSource()
	if err != nil {
		return redact.Report{}, err
	}
	return r.Scan(src), nil
}

// findSecrets finds the credentials in s with o.Redactor and, unless
// o.KeepSecrets, replaces them: the session returned is s itself when
// nothing was replaced. The report names the entries of s.
func findSecrets(ctx context.Context, s *sessiontree.Session, o Options) (*sessiontree.Session, RedactionReport, error) {
	red, rep := s, redact.Report{}
	var err error
	switch sc := o.scanned; {
	case ctx.Err() != nil:
		return nil, RedactionReport{}, ErrInterrupted
	case sc.of(s):
		// The file as loaded: its bytes were scanned as it loaded, and
		// s holds them redacted already where there was anything to
		// replace (Job.useScan).
		rep = sc.rep
	case o.KeepSecrets:
		rep, err = Scan(ctx, s, o.Redactor)
	default:
		red, rep, err = Redact(ctx, s, o.Redactor)
	}
	if err != nil {
		return nil, RedactionReport{}, err
	}
	return red, NewRedactionReport(s, rep), nil
}

// RedactionReport is what --redact-report and `canopy scan --json` write.
type RedactionReport struct {
	File     string            `json:"file"`
	Findings []ReportedFinding `json:"findings"`
	Kinds    map[string]int    `json:"kinds"` // distinct secrets per kind
}

// ReportedFinding is one secret found, and where.
type ReportedFinding struct {
	Kind    string `json:"kind"`
	Marker  string `json:"marker"`
	Line    int    `json:"line"`
	EntryID string `json:"entryId,omitempty"` // "" for the header
	// File is the subagent's transcript the finding is in (Line and
	// EntryID are its); "" for the session's own file.
	File string `json:"file,omitempty"`
}

// NewRedactionReport names the entry of every finding in s, the session
// redacted (line numbers do not change when secrets are replaced).
func NewRedactionReport(s *sessiontree.Session, rep redact.Report) RedactionReport {
	byLine := make(map[int]string, len(s.Entries))
	for _, e := range s.Entries {
		byLine[e.Line] = e.ID
	}
	out := RedactionReport{File: s.File, Kinds: rep.Kinds, Findings: []ReportedFinding{}}
	if out.Kinds == nil {
		out.Kinds = map[string]int{}
	}
	for _, f := range rep.Findings {
		out.Findings = append(out.Findings, ReportedFinding{Kind: f.Kind, Marker: f.Marker, Line: f.Line, EntryID: byLine[f.Line]})
	}
	return out
}

// Total is the number of distinct secrets found.
func (r *RedactionReport) Total() int {
	n := 0
	for _, c := range r.Kinds {
		n += c
	}
	return n
}

// EncodeReport writes rep as indented JSON, as the report file holds it.
func EncodeReport(w io.Writer, rep RedactionReport) error {
	// As encoding/json's Encoder wrote it (v1's options, indented).
	b, err := json.Marshal(rep, jsonv1.DefaultOptionsV1(), jsontext.WithIndent("  "))
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// WriteReport writes rep to the file at path, atomically.
func WriteReport(ctx context.Context, path string, rep RedactionReport) error {
	return WriteAtomic(ctx, path, func(w io.Writer) error { return EncodeReport(w, rep) })
}

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
func findSecrets(ctx context.Context, s *sessiontree.Session, o Options) (*sessiontree.Session, redact.Report, error) {
	red, rep := s, redact.Report{}
	var err error
	switch sc := o.scanned; {
	case ctx.Err() != nil:
		return nil, redact.Report{}, ErrInterrupted
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
		return nil, redact.Report{}, err
	}
	return red, NamedReport(s, rep), nil
}

// NamedReport is rep, the scan of s's input, with the entry of every
// finding named in s, the session redacted (line numbers do not change
// when secrets are replaced), and s's file.
func NamedReport(s *sessiontree.Session, rep redact.Report) redact.Report {
	byLine := make(map[int]string, len(s.Entries))
	for _, e := range s.Entries {
		byLine[e.Line] = e.ID
	}
	out := redact.Report{File: s.File, Kinds: rep.Kinds, Findings: make([]redact.Finding, 0, len(rep.Findings))}
	if out.Kinds == nil {
		out.Kinds = map[string]int{}
	}
	for _, f := range rep.Findings {
		f.EntryID = byLine[f.Line]
		out.Findings = append(out.Findings, f)
	}
	return out
}

// EncodeReport writes rep as indented JSON, as the report file holds it.
func EncodeReport(w io.Writer, rep redact.Report) error {
	// As encoding/json's Encoder wrote it (v1's options, indented).
	b, err := json.Marshal(rep, jsonv1.DefaultOptionsV1(), jsontext.WithIndent("  "))
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// WriteReport writes rep to the file at path, atomically.
func WriteReport(ctx context.Context, path string, rep redact.Report) error {
	return WriteAtomic(ctx, path, func(w io.Writer) error { return EncodeReport(w, rep) })
}

// Package export is the one pipeline every page and Markdown export goes
// through, for `canopy export` and for each page of an archive alike:
//
//	Load → Scope → Redact → Subagents → Render (or Markdown) → Write
//
// (Subagents, for a page that asks for them: a Claude Code session's
// subagents, each cut and redacted as the session is, grafted into its
// tree: subagents.go.)
// Each step is a function of its own, taking a context (once it is done,
// a step stops with ErrInterrupted) and returning what the callers
// report. Prepare runs the steps between loading and rendering; Export
// runs them all for one session, as `canopy export` does. The notices a
// user reads about an export (problems in the file, the redaction
// summary, an interrupt, what was written) are worded in notice.go, once.
package export

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"

	"canopy/htmlpage"
	"canopy/mdpage"
	"canopy/redact"
	"canopy/scope"
	"canopy/sessiontree"
)

// Options shape what is made of a loaded session. The zero value makes
// the whole session's page as it is.
type Options struct {
	Leaf     *sessiontree.Entry // the conversation's last entry; nil: the session's leaf
	Scope    scope.Options      // what the sharing flags leave out
	Redactor *redact.Redactor   // finds credentials; nil: nothing is looked for
	// KeepSecrets: with a Redactor, the credentials it finds are counted
	// (Prepared.Report) but left in place, for a page its maker keeps to
	// himself (export --keep-secrets). Without it they are replaced.
	KeepSecrets bool
	// Page is how the page looks (Theme, Title, NoSource, Version, Nav);
	// Prepare fills in its Leaf, Omitted and OriginalSHA256.
	Page htmlpage.Options
	// Subagents: a Claude Code session's subagents, in the files beside
	// it and in its own, are drawn under the calls that ran them, cut
	// and redacted as the session is (addSubagents).
	Subagents bool
	// scanned, when set, is the loaded file's bytes and the credentials
	// found in them while it loaded (Export; prescan.go), used in place of
	// reading and scanning it again when the session is not cut.
	scanned *scanned
	// Archived: the page is one of an archive's. The archive's manifest,
	// not the page, gives the original file's hash, and the page's note on
	// redaction gives no count, as archive pages always have (a count
	// would change every archived page).
	Archived bool
}

// Prepared is a session ready to render: cut to scope, redacted, and the
// page's options filled in.
type Prepared struct {
	Session *sessiontree.Session // s itself, or a session in memory made from it
	Leaf    *sessiontree.Entry   // in Session
	Page    htmlpage.Options
	Report  *redact.Report // the credentials found (replaced unless KeepSecrets); nil without a Redactor
	// Notices are what preparing it found to tell: problems in its
	// subagents' files, subagents left out.
	Notices []string
}

// Prepare cuts s to o.Scope and redacts it, and with o.Subagents grafts
// its subagents, cut and redacted alike, into the session prepared: the
// steps between Load and Render. When it grafted subagents, closing
// p.Session closes their files. Its errors do not name s's file; the
// caller does.
func Prepare(ctx context.Context, s *sessiontree.Session, o Options) (*Prepared, error) {
	page := o.Page
	page.Omitted = append([]string(nil), o.Page.Omitted...)
	if !o.Archived {
		page.OriginalSHA256 = originalSHA256(s, o.scanned)
	}
	leaf := o.Leaf
	if leaf == nil {
		leaf = s.Leaf
	}
	cut, err := Scope(ctx, s, leaf, o.Scope)
	if err != nil {
		return nil, err
	}
	page.Omitted = append(page.Omitted, cut.Omitted...)
	p := &Prepared{Session: cut.Session, Leaf: cut.Leaf}
	if o.Redactor != nil {
		red, report, err := findSecrets(ctx, cut.Session, o)
		if err != nil {
			return nil, err
		}
		p.Session, p.Leaf, p.Report = red, sameEntry(red, cut.Leaf), &report
	}
	if o.Subagents {
		d, err := addSubagents(ctx, s, p, o)
		if err != nil {
			return nil, err
		}
		page.Omitted = append(page.Omitted, d.omitted...)
		p.Notices = d.notices
		if p.Report != nil {
			mergeReports(p.Report, d.reports)
		}
	}
	if note := secretsNote(p.Report, o); note != "" {
		page.Omitted = append(page.Omitted, note)
	}
	page.Leaf = p.Leaf
	p.Page = page
	return p, nil
}

// sha256Hex is the hash of the file s was loaded from.
func sha256Hex(s *sessiontree.Session) string {
	return hex.EncodeToString(s.SHA256[:])
}

// Job is one `canopy export`: a session in, a page or a Markdown export
// out.
type Job struct {
	In Input
	Options
	// LeafID and FromID name entries by id (nil: not given): the
	// conversation ends at LeafID and, in Markdown, starts at FromID.
	LeafID, FromID *string
	// Compare, with Markdown, names two entries by id: the export is
	// the comparison of the paths to them (mdpage.Options.Compare).
	Compare *[2]string
	// Markdown, when set, writes Markdown (its Link, Limit and Version)
	// instead of a page.
	Markdown   *mdpage.Options
	Dest       string    // the file written; "-": Stdout
	Stdout     io.Writer // where "-" writes
	ReportPath string    // with a Redactor, the findings go here too, as JSON ("": nowhere)
	// Notify is told each notice, a line at a time, as plain text: the
	// caller makes it safe for a terminal.
	Notify func(line string)
	// Loaded, when set, is called once the session is loaded (the command
	// sets the process's memory limit by its size), and again, with copy
	// true, when what is rendered is a copy of it held in memory (cut down
	// or redacted): the heap then holds that copy's bytes too.
	Loaded func(s *sessiontree.Session, copy bool)
	// Copying, when set, is told, before the load of the copy, that a
	// redacted copy of the file (of size bytes) is to be loaded: the scan
	// found credentials while the file loaded (prescan.go), and the heap
	// is about to hold the file's bytes twice. The command sets its
	// memory limit then, as Loaded does once the copy is loaded.
	Copying func(size int64)
	// FindSecrets: when Options has no Redactor, Export makes one while
	// the session loads (its rules take a few milliseconds to build), so
	// that credentials are found, and replaced unless KeepSecrets.
	FindSecrets bool
}

// FlagError is an error in what the flags ask of the session loaded (a
// --from off the path, a --limit too small): the command names itself
// in it, as for a usage error, but it is found only once the session is
// read.
type FlagError struct{ msg string }

func (e *FlagError) Error() string { return e.msg }

func flagError(format string, args ...any) error {
	return &FlagError{fmt.Sprintf(format, args...)}
}

// Export runs the whole pipeline for one session. The errors it returns
// wrap ErrInterrupted when ctx was done; a *FlagError is one about the
// flags; any other names the file or the step it failed in.
func Export(ctx context.Context, j Job) error {
	renderer := j.startRenderer()
	s, err := j.load(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	if j.Loaded != nil {
		j.Loaded(s, j.scanned.of(s) && j.scanned.redacted)
	}
	j.notify(Diagnostics(s)...)
	if j.Options.Leaf, err = j.pick(s); err != nil {
		return err
	}
	p, err := Prepare(ctx, s, j.Options)
	j.scanned = nil // the file's bytes, no longer needed
	if err != nil {
		return fmt.Errorf("%s: %w", s.File, err)
	}
	defer p.Session.Close() // and the subagents' sessions grafted into it
	if j.Loaded != nil && p.Session != s {
		j.Loaded(p.Session, true)
	}
	j.notify(p.Notices...)
	if p.Report != nil {
		if line := SecretsLine(*p.Report, j.KeepSecrets, j.Dest, j.ReportPath); line != "" {
			j.notify(line)
		}
		if j.ReportPath != "" {
			if err := WriteReport(ctx, j.ReportPath, *p.Report); err != nil {
				return err
			}
		}
	}
	if j.Markdown != nil {
		err = j.writeMarkdown(ctx, p)
	} else {
		err = j.writePage(ctx, p, renderer)
	}
	if err != nil {
		return err
	}
	if j.Dest != "-" {
		j.notify(Wrote(j.Dest))
	}
	return nil
}

// pick finds the entries LeafID and FromID name, and checks that FromID
// is on the path to the leaf.
func (j *Job) pick(s *sessiontree.Session) (*sessiontree.Entry, error) {
	if j.Compare != nil {
		for _, id := range j.Compare {
			if s.Entry(id) == nil {
				return nil, fmt.Errorf("%s: --compare: no entry with id %q", s.File, id)
			}
		}
		return s.Entry(j.Compare[0]), nil
	}
	leaf := s.Leaf
	if j.LeafID != nil {
		if leaf = s.Entry(*j.LeafID); leaf == nil {
			return nil, fmt.Errorf("%s: --leaf: no entry with id %q", s.File, *j.LeafID)
		}
	}
	if j.FromID == nil {
		return leaf, nil
	}
	from := s.Entry(*j.FromID)
	if from == nil {
		return nil, fmt.Errorf("%s: --from: no entry with id %q", s.File, *j.FromID)
	}
	for _, e := range s.Path(leaf) {
		if e == from {
			return leaf, nil
		}
	}
	leafID := ""
	if leaf != nil {
		leafID = leaf.ID
	}
	return nil, offPath(from.ID, leafID)
}

func offPath(from, leaf string) error {
	return flagError("--from %q is not on the path to the leaf %q: pick an entry above it, or a --leaf below it", from, leaf)
}

// made is what a build returned, made on another goroutine while the
// session loads.
type made[T any] struct {
	r   T
	err error
}

// async runs build on a goroutine of its own; its result arrives on the
// channel returned.
func async[T any](build func() (T, error)) <-chan made[T] {
	c := make(chan made[T], 1)
	go func() {
		r, err := build()
		c <- made[T]{r, err}
	}()
	return c
}

// startRenderer makes the renderer for a page while the session loads:
// it minifies the page's stylesheet, script and templates, 10-20 ms that
// were a tenth of the export of a 2 MB session.
func (j *Job) startRenderer() <-chan made[*htmlpage.Renderer] {
	if j.Markdown != nil {
		return nil
	}
	return async(htmlpage.New)
}

// startRedactor makes the redactor FindSecrets asks for, if one is
// needed, while the session loads (its rules take a millisecond or more
// to build).
func (j *Job) startRedactor() <-chan made[*redact.Redactor] {
	if !j.FindSecrets || j.Redactor != nil {
		return nil
	}
	return async(redact.New)
}

func (j *Job) writePage(ctx context.Context, p *Prepared, renderer <-chan made[*htmlpage.Renderer]) error {
	m := <-renderer
	if m.err != nil {
		return m.err
	}
	return Write(ctx, j.Dest, j.Stdout, func(w io.Writer) error { return Render(ctx, m.r, w, p) })
}

func (j *Job) writeMarkdown(ctx context.Context, p *Prepared) error {
	mo := *j.Markdown
	if j.FromID != nil {
		// The entry is on the path (pick checked), and the sharing flags
		// keep the path; a hidden entry --no-hidden leaves out is not
		// there any more.
		if mo.From = p.Session.Entry(*j.FromID); mo.From == nil {
			return flagError("--from %q: the sharing flags left that entry out; pick one after it", *j.FromID)
		}
	}
	if j.Compare != nil {
		if mo.Compare = p.Session.Entry(j.Compare[1]); mo.Compare == nil {
			return flagError("--compare %q: the sharing flags left that entry out; pick another", j.Compare[1])
		}
	}
	err := Write(ctx, j.Dest, j.Stdout, func(w io.Writer) error { return Markdown(ctx, w, p, mo) })
	var tooSmall *mdpage.LimitError
	var notOnPath *mdpage.PathError
	switch {
	case errors.Is(err, ErrInterrupted):
		return err
	case errors.As(err, &tooSmall) && j.Compare != nil:
		return flagError("--limit %d is too small for the comparison: its header and each branch's last entry with its prompt need about %d characters",
			tooSmall.Limit, tooSmall.Need)
	case errors.As(err, &tooSmall):
		return flagError("--limit %d is too small: the header and the last entry with its prompt, cut as short as they go, need %d characters",
			tooSmall.Limit, tooSmall.Need)
	case errors.As(err, &notOnPath):
		return offPath(notOnPath.From, notOnPath.Leaf)
	}
	return err
}

func (j *Job) notify(lines ...string) {
	if j.Notify == nil {
		return
	}
	for _, l := range lines {
		j.Notify(l)
	}
}

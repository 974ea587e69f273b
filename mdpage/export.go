// Package mdpage writes the conversation on one path of a session as
// GitHub-flavoured Markdown, to paste into a bug report: a header that
// identifies the session (id, date, models, the source's SHA-256, what was
// left out), then each entry of the path under a small heading with its
// id, and a deep link into the session's page when one is given.
//
// Nothing in the session becomes markup: assistant Markdown is parsed and
// written again with all its text escaped (see sanitizer), everything
// else (prompts, tool calls and output, thinking) is in code fences that
// nothing inside can close, and the only HTML is our own <details> and
// <summary>. Text GitHub would make a link of by itself (www., a scheme,
// an address) is written so that it stays text (see textWriter.line), and
// fences GitHub would draw (a diagram, a map, a model, math) are shown as
// text. Terminal escape sequences are removed, and a program's output
// shows as a terminal shows it (see cleanOutput). With a Limit, tool output, then thinking, then long texts
// are shortened, then entries left out, the oldest turns first, so that
// the result fits a bug tracker's comment: the leaf and the turns before
// it are kept, a turn's prompt before the rest of it (see fitter).
package mdpage

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"

	cv "canopy/conversation"
	"canopy/internal/text"
	"canopy/sessiontree"
)

// Options say what to export and how.
type Options struct {
	// Leaf ends the path exported (the session's leaf when nil); From
	// starts it (the root when nil), and must be on the path to Leaf.
	// Both are looked up by id in the session written, so entries of the
	// session before it was cut down or redacted may be passed.
	Leaf *sessiontree.Entry
	From *sessiontree.Entry
	// Compare, when set, makes the export a comparison of two branches:
	// the path to Leaf (branch A) and the path to Compare (branch B),
	// each from the entry where they part (compare.go). From is then
	// not used.
	Compare *sessiontree.Entry

	// Link, when set, is the address of the session's page (http or
	// https, with no user name or password, which every link would
	// repeat; see CheckLink): each entry gets a deep link
	// Link?leafId=<leaf>&targetId=<id> (any other query parameters of
	// Link are kept).
	Link string

	// Limit, when > 0, is the most characters the result may have, as
	// Length counts them (UTF-16 code units, a line break as two: what is
	// safe for GitHub's 65,536-character limit however it counts).
	Limit int

	Version        string   // canopy's version, for the header
	OriginalSHA256 string   // hex SHA-256 of the file the user gave (the session may be a cut-down copy of it)
	Omitted        []string // what the sharing flags and redaction left out, for the header
}

// ErrLimitTooSmall is returned (wrapped, in a *LimitError) when not even
// the header, the leaf entry and its prompt, cut as far as they go, fit
// in Options.Limit.
var ErrLimitTooSmall = errors.New("limit too small")

// LimitError says how small Limit was, and the smallest that would do.
type LimitError struct {
	Limit int
	Need  int // the smallest Limit that holds the header, the leaf entry and its prompt, cut as far as they go
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("markdown: a limit of %d characters is too small: the header, the leaf entry and its prompt, cut as short as they go, need %d",
		e.Limit, e.Need)
}

func (e *LimitError) Unwrap() error { return ErrLimitTooSmall }

// PathError is returned when Options.From is not on the path to the leaf.
type PathError struct {
	From, Leaf string // ids; Leaf is "" when the session has no entries
}

func (e *PathError) Error() string {
	return fmt.Sprintf("markdown: entry %q is not on the path to %q", e.From, e.Leaf)
}

// CheckLink reports what is wrong with a page's address for Options.Link,
// if anything. The message does not repeat the address (it may hold a
// password).
func CheckLink(page string) error {
	_, err := newLinker(page, "")
	return err
}

// Write writes the conversation on the path to o.Leaf as Markdown to w.
// The same session and options give the same bytes.
func Write(w io.Writer, s *sessiontree.Session, o Options) error {
	if o.Compare != nil {
		return writeCompare(w, s, o)
	}
	x, err := newExporter(s, o)
	if err != nil {
		return err
	}
	if o.Limit > 0 {
		err = x.writeFitted(w)
	} else {
		err = x.writeAll(w)
	}
	if err != nil {
		return err
	}
	// An entry that could not be read again (the file changed while it
	// was exported) was noted as unreadable: the export is not what the
	// file holds.
	if err := s.Err(); err != nil {
		return fmt.Errorf("markdown: reading %s: %w", s.File, err)
	}
	return nil
}

// exporter holds what one Write needs; nothing is shared between calls.
type exporter struct {
	s     *sessiontree.Session
	o     Options
	leaf  *sessiontree.Entry
	path  []*sessiontree.Entry // the entries exported, From to leaf
	skip  int                  // entries of the path before From
	links *linker
	z     *sanitizer
	// model pairs the calls with their results (see callFor).
	model      *cv.Context
	lastCalls  *sessiontree.Entry // the message whose calls callFor read last
	made       map[string]call    // lastCalls's calls, by id, as toolCall made them
	sequential bool               // entries are built in order, each once (writeAll)
	// section, when set, is the header instead of the session's: a side
	// of a comparison (compare.go).
	section func(cuts) string
}

func newExporter(s *sessiontree.Session, o Options) (*exporter, error) {
	x := &exporter{s: s, o: o, leaf: s.Leaf, z: newSanitizer(), model: cv.New(s), made: map[string]call{}}
	if o.Leaf != nil {
		if x.leaf = s.Entry(o.Leaf.ID); x.leaf == nil {
			return nil, fmt.Errorf("markdown: leaf %q is not in the session", o.Leaf.ID)
		}
	}
	full := s.Path(x.leaf)
	x.path = full
	if o.From != nil {
		i := -1
		for k, e := range full {
			if e.ID == o.From.ID {
				i = k
				break
			}
		}
		if i < 0 {
			leafID := ""
			if x.leaf != nil {
				leafID = x.leaf.ID
			}
			return nil, &PathError{From: o.From.ID, Leaf: leafID}
		}
		x.path, x.skip = full[i:], i
	}
	if o.Link != "" {
		leafID := ""
		if x.leaf != nil {
			leafID = x.leaf.ID
		}
		l, err := newLinker(o.Link, leafID)
		if err != nil {
			return nil, fmt.Errorf("markdown: link: %w", err)
		}
		x.links = l
	}
	return x, nil
}

// writeAll writes everything, entry by entry, holding one at a time.
func (x *exporter) writeAll(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.WriteString(x.header(cuts{}))
	x.sequential = true
	for i := range x.path {
		for _, b := range x.entry(i).blocks {
			bw.WriteString("\n\n")
			bw.WriteString(x.draw(b, -1))
		}
	}
	bw.WriteString("\n")
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("markdown: writing: %w", err)
	}
	return nil
}

// draw is a block's Markdown, its part shortened to limit (Length of the
// part's text; -1: in full).
func (x *exporter) draw(b block, limit int) string {
	p := b.p
	if p == nil {
		return b.text
	}
	x.drawFull(p)
	if limit < 0 || p.size <= limit {
		return p.full
	}
	kept, removed := cutText(p.content, limit)
	if s := x.drawPart(p, kept, removed); Length(s) < p.fullLen {
		return s
	}
	// Cutting saves nothing: a short part is shorter than the note.
	return p.full
}

// drawFull draws p in full, once.
func (x *exporter) drawFull(p *part) {
	if !p.drawn {
		p.full = x.drawPart(p, p.content, 0)
		p.fullLen = Length(p.full)
		p.drawn = true
	}
}

// drawPart draws a part's text, shown: all of it, or its start when removed > 0.
func (x *exporter) drawPart(p *part, shown string, removed int) string {
	cut := ""
	if removed > 0 {
		if strings.TrimSpace(shown) == "" {
			return "*" + p.label + " left out to fit the length limit (" +
				text.Count(removed, "character", "characters") + "); see the full session.*"
		}
		cut = "*… " + text.Count(removed, "more character", "more characters") + " cut to fit the length limit; see the full session.*"
	}
	switch p.kind {
	case kindMarkdown:
		lines := x.z.markdown(shown)
		if cut != "" {
			lines = append(lines, "", cut)
		}
		if p.quote {
			for i, l := range lines {
				if l == "" {
					lines[i] = ">"
				} else {
					lines[i] = "> " + l
				}
			}
		}
		return strings.Join(lines, "\n")
	case kindThinking:
		return details(p.label+" · "+text.Count(len([]rune(p.content)), "character", "characters"), fence(shown, p.info), cut)
	}
	body := fence(shown, p.info)
	n := lineCount(p.content)
	if p.fold && (n > foldLines || len([]rune(p.content)) > foldChars) {
		return details(p.label+" · "+text.Count(n, "line", "lines")+", "+text.Count(len([]rune(p.content)), "character", "characters"), body, cut)
	}
	if cut != "" {
		body += "\n\n" + cut
	}
	return body
}

// details folds body (a fence) under a summary of our own words. The
// <details> line and the </details> line are HTML blocks that end at the
// blank lines we put after them; the body between is Markdown, a fence,
// which nothing inside can close, so nothing inside can close the
// <details> either.
func details(summary, body, cut string) string {
	s := "<details><summary>" + htmlText(summary) + "</summary>\n\n" + body
	if cut != "" {
		s += "\n\n" + cut
	}
	return s + "\n\n</details>"
}

package sessiontree

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"

	"canopy/internal/fastpath"

	"github.com/go-json-experiment/json/jsontext"
)

// A reader reads one format of session file into the tree model, and
// holds all that is particular to the format: a new format is one new
// file (a reader), its test data, and its place in readers (the recipe
// is in doc.go, "Adding an agent").
type reader interface {
	// detect reports whether the input is in this format, from what p
	// shows of its start. It reads no more than it must: most inputs are
	// told by their first line.
	detect(p *probe) bool
	// read reads the whole input into s: Format, Version, Header, the
	// entries in file order (each with an ID, its ParentID as written, its
	// Line and place in the input), what the format stores beyond them,
	// and the problems found as diagnostics. It returns an error, wrapping
	// ErrNotSession, only when the input holds no session at all. The
	// tree (ids made unique, parents, children, labels, the leaf) is then
	// built from the entries the same way for every format (Session.build).
	// Line formats decode their records with decodeRecords; documents read
	// theirs whole with input.all (p.first is the input's first chunk).
	// It marks the entries that are the agent's bookkeeping
	// (Entry.Bookkeeping), and sets s.guessParents when the format's
	// files lose parents.
	read(s *Session, in *input, p *probe) error
	// cut is how a cut of s (a session this reader read), made for
	// sharing by package scope, is written in this format: what in an
	// entry is thinking, a tool's output, the session's name (cut.go).
	cut(s *Session) Cut
	// agent is what the reader declares of the agent that writes the
	// format: its format names, where it keeps its sessions and how
	// (agent.go).
	agent() Agent
}

// readers are the formats canopy reads, in the order they are tried: the
// first whose detect says yes reads the input. Detection is by content,
// never by file name. The last, refusal, takes what no other reader
// claims: JSON of another kind, refused with one message that says what
// it is. Input with no JSON object at its start at all (text, binary) is
// pi's, which reports it line by line, or as not a session.
func readers() []reader {
	return append(storeReaders(), flueReader{}, claudeReader{}, codexReader{}, geminiReader{}, qwenReader{}, copilotReader{},
		kimiReader{}, kimiContextReader{}, ampReader{}, cursorReader{}, hermesReader{}, clineReader{}, aiderReader{}, piReader{}, refusal{})
}

// inputKind is what the start of an input looks like (probe.classify).
type inputKind int

const (
	kindText    inputKind = iota // no JSON object among the lines probed
	kindPi                       // pi or oh-my-pi JSONL
	kindClaude                   // a Claude Code transcript
	kindCodex                    // a Codex rollout
	kindGemini                   // a Gemini CLI session (JSONL, or the older document)
	kindQwen                     // a Qwen Code chat
	kindCopilot                  // a GitHub Copilot CLI event log
	kindRefused                  // JSON of another kind: probe.refusal says what
)

// probe is what detection sees of the input's start.
type probe struct {
	in    *input
	first []byte // the first chunk, as read (a byte-order mark included)
	bom   int    // the length of the byte-order mark the input starts with (0 or 3)
	chunk []byte // the first chunk: whole lines, past the byte-order mark
	line  []byte // its first line, without its line end

	classified bool
	kind       inputKind
	// stream: the input is not JSONL but whole-file JSON, a stream of
	// pretty-printed objects of the format kind names (see splitValues).
	stream  bool
	refusal error // for kindRefused

	store *storeProbe // what storeKind found (store.go)
}

// newProbe looks at the input's first chunk.
func newProbe(in *input, first []byte) *probe {
	p := &probe{in: in, first: first, chunk: first}
	if bytes.HasPrefix(first, bom) {
		p.bom, p.chunk = len(bom), first[len(bom):]
	}
	p.line = p.chunk
	if i := bytes.IndexByte(p.line, '\n'); i >= 0 {
		p.line = p.line[:i]
	}
	return p
}

// body reads the whole input from its start, past the byte-order mark:
// for a format whose first line does not tell it (a pretty-printed
// document).
func (p *probe) body() io.Reader {
	return p.from(0)
}

// from reads the input from off bytes past the byte-order mark.
func (p *probe) from(off int64) io.Reader {
	at := int64(p.bom) + off
	return io.NewSectionReader(p.in.src.readerAt(), at, math.MaxInt64-at)
}

// read detects the input's format and reads it with that format's reader.
func (s *Session) read(in *input) error {
	first, err := in.next()
	if err != nil {
		return err
	}
	p := newProbe(in, first)
	defer p.close()
	for _, r := range readers() {
		if r.detect(p) {
			s.reader = r
			return r.read(s, in, p)
		}
	}
	return fmt.Errorf("no reader for this input: %w", ErrNotSession) // never: refusal takes the rest
}

// How much of a JSONL input classify looks at: most inputs are told by
// their first line; a Claude Code transcript may start with a few lines
// of bookkeeping, and a damaged file with a few broken lines. Whatever
// the budget, the first line is read whole.
const (
	probeLines = 64
	probeBytes = 4 << 20
)

// classify tells what the input's start looks like, once: the kind of the
// first line that is a record of a format canopy reads (pi, Claude Code,
// Codex). An input whose first line opens a JSON value it does not close
// is whole-file JSON, decided up front (classifyDocument).
func (p *probe) classify() inputKind {
	if p.classified {
		return p.kind
	}
	p.classified = true
	lines := p.lines()
	var first *shape // the first object line, for the refusal
	objects, nonBlank := 0, 0
	for n := 1; n <= probeLines && lines.used <= probeBytes; n++ {
		line, at, ok := lines.next()
		if !ok {
			break
		}
		t := bytes.TrimSpace(line)
		if len(t) == 0 {
			continue
		}
		nonBlank++
		if !fastpath.ValidJSON(t) {
			if nonBlank == 1 && (t[0] == '{' || t[0] == '[') && p.classifyDocument(at) {
				return p.kind
			}
			continue
		}
		if t[0] == '[' && nonBlank == 1 {
			// An array of objects on one line: an export of another
			// program (ChatGPT's conversations.json), said as such.
			if _, el := arrayShape(t); el != nil {
				p.kind, p.refusal = kindRefused, refuseDocument(t, false)
				return p.kind
			}
		}
		if t[0] != '{' {
			continue
		}
		sh := shapeOf(t)
		if k := sh.kind(); k != kindText {
			p.kind = k
			return k
		}
		objects++
		if first == nil {
			first = &sh
		}
	}
	if objects > 0 {
		p.kind, p.refusal = kindRefused, refuseLines(first, nonBlank)
	}
	return p.kind
}

// classifyDocument decides an input whose first line (at off) opens a
// JSON value it does not close: whole-file JSON. Its first value read
// whole is an object of a format canopy reads (a stream of pretty-printed
// objects), or a document of another kind, refused. It reports false when
// the value cannot be read (a broken line): the input is then read as
// JSONL, where that line is one bad line among others.
func (p *probe) classifyDocument(off int64) bool {
	d := jsontext.NewDecoder(bufio.NewReaderSize(p.from(off), 64<<10), jsonOpts)
	v, err := d.ReadValue()
	if err != nil {
		return false
	}
	if v.Kind() == '{' {
		sh := shapeOf(v)
		if k := sh.kind(); k != kindText {
			p.kind, p.stream = k, true
			return true
		}
	}
	p.kind, p.refusal = kindRefused, refuseDocument(v, true)
	return true
}

// probeLineReader reads the input's lines for classify: from the first
// chunk while it lasts (no copy), then from the input itself, so that what
// it reads does not depend on how the input was cut into chunks.
type probeLineReader struct {
	p     *probe
	chunk []byte // what is left of the first chunk
	rest  *bufio.Reader
	off   int64 // the offset past the byte-order mark of the next line
	used  int   // bytes read so far
}

func (p *probe) lines() *probeLineReader {
	return &probeLineReader{p: p, chunk: p.chunk}
}

// next returns the next line, without its line end, and its offset.
func (r *probeLineReader) next() (line []byte, off int64, ok bool) {
	off = r.off
	if len(r.chunk) > 0 {
		line, r.chunk, _ = bytes.Cut(r.chunk, []byte{'\n'})
		r.off += int64(len(line)) + 1
		r.used += len(line) + 1
		return line, off, true
	}
	if r.rest == nil {
		r.rest = bufio.NewReaderSize(r.p.from(int64(len(r.p.chunk))), 64<<10)
	}
	line, err := r.rest.ReadBytes('\n')
	if len(line) == 0 && err != nil {
		return nil, off, false
	}
	r.off += int64(len(line))
	r.used += len(line)
	return bytes.TrimSuffix(line, []byte{'\n'}), off, true
}

// refusal is the reader of last resort: it refuses JSON of another kind
// with the one message classify made for it.
type refusal struct{}

func (refusal) detect(p *probe) bool { return p.classify() == kindRefused }

func (refusal) read(_ *Session, _ *input, p *probe) error { return p.refusal }

func (refusal) cut(*Session) Cut { return noCut{} }

func (refusal) agent() Agent { return Agent{} }

// jsonDocument reports whether the input's first chunk starts like a JSON
// object or array spread over lines (pretty-printed), whose first line
// alone is not JSON: a settings file or an export of another tool, which
// deserves one message that says so, not "line 1: malformed JSON".
func jsonDocument(first []byte) bool {
	first = bytes.TrimPrefix(first, bom)
	t := bytes.TrimLeft(first, " \t\r\n")
	if len(t) == 0 || (t[0] != '{' && t[0] != '[') {
		return false
	}
	line, _, more := bytes.Cut(t, []byte("\n"))
	return more && !jsontext.Value(bytes.TrimSpace(line)).IsValid()
}

// errJSONDocument is the error for an input jsonDocument recognises that
// could not be read as JSON at all (it is cut short, or broken).
var errJSONDocument = notSession("a JSON document of several lines that is not valid JSON")

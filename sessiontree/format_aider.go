package sessiontree

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// aiderReader reads Aider's chat history (.aider.chat.history.md, in the
// repository Aider ran in): Markdown that Aider appends to, run after
// run. A run starts with "# aider chat started at <date time>", then
// "> " lines of what Aider printed at start (its command, version,
// model); the user's prompts are "#### " lines; Aider's replies are
// plain Markdown; what Aider printed while working (edits applied,
// commits, command output, "Tokens: … Cost: …") is "> " lines.
//
// The rules, as this reader applies them:
//   - The file is one session, its runs one after the other: each run's
//     start is an entry that says so, and the conversation goes on from
//     the run before (Aider starts a run with the history it restores).
//   - A block of lines is an entry, L<n> (n its first line), the child of
//     the block before: a run's start (a notice), a prompt (consecutive
//     "####" lines), a reply (the text up to the next prompt, output or
//     run), Aider's output (consecutive ">" lines: command output, shown
//     as a terminal showed it).
//   - "Tokens: N sent, N received. Cost: $X message" is the usage and
//     the recorded cost of the reply before it; the model is the run's
//     ("Model:" or "Main model:" at its start).
//   - Only a file whose first line that is not blank starts a run is
//     Aider's: other text is not a session.
type aiderReader struct{}

// aiderRunMark starts a run, and the file.
const aiderRunMark = "# aider chat started at "

// CustomAiderRun is the custom type of the entry that starts an Aider
// run.
const CustomAiderRun = "aider run"

func (aiderReader) agent() Agent {
	// Aider keeps its history in each repository, not in a store below
	// the home: a home's projects are looked through for it.
	return Agent{Formats: []string{FormatAider}, EstimateCost: true, ProjectFile: ".aider.chat.history.md",
		DirNamed: ".aider.chat.history.md"} // named by its repository
}

func (aiderReader) detect(p *probe) bool {
	return bytes.HasPrefix(firstObjectLine(p), []byte(aiderRunMark))
}

// aiderKind is what a block of lines is.
type aiderKind uint8

const (
	aNone aiderKind = iota
	aRun
	aPrompt
	aReply
	aOutput
)

// aiderBlock is a block of lines: its kind, its bytes and first line.
type aiderBlock struct {
	kind       aiderKind
	start, end int // in the data
	line       int
}

// aiderBlocks cuts the history into blocks.
func aiderBlocks(data []byte) []aiderBlock {
	var out []aiderBlock
	cur := aiderBlock{}
	lastText := 0   // the end of cur's last line that is not blank
	fenced := false // in a reply's fenced code block
	flush := func() {
		if cur.kind != aNone && lastText > cur.start {
			cur.end = lastText
			out = append(out, cur)
		}
		cur = aiderBlock{}
	}
	off := 0
	for n := 1; off < len(data); n++ {
		end := bytes.IndexByte(data[off:], '\n')
		next := len(data)
		if end >= 0 {
			end += off
			next = end + 1
		} else {
			end = len(data)
		}
		line := bytes.TrimRight(data[off:end], "\r")
		kind := aReply
		switch {
		case fenced:
			// Inside a reply's fenced code: its lines are the reply's,
			// whatever they start with (an edit's >>>>>>> REPLACE).
		case len(bytes.TrimSpace(line)) == 0:
			kind = aNone
		case bytes.HasPrefix(line, []byte(aiderRunMark)):
			kind = aRun
		case bytes.HasPrefix(line, []byte("####")):
			kind = aPrompt
		case line[0] == '>':
			kind = aOutput
		}
		switch {
		case kind == aNone, fenced && kind == aReply:
		case kind == aRun, kind != cur.kind && !(kind == aOutput && cur.kind == aRun):
			flush()
			cur = aiderBlock{kind: kind, start: off, line: n}
		}
		if kind != aNone {
			lastText = off + len(line)
		}
		if kind == aReply && bytes.HasPrefix(bytes.TrimSpace(line), []byte("```")) {
			fenced = !fenced
		}
		off = next
	}
	flush()
	return out
}

func (aiderReader) read(s *Session, in *input, p *probe) error {
	data, err := in.all(p.first)
	if err != nil {
		return err
	}
	base := 0
	if bytes.HasPrefix(data, bom) {
		data, base = data[len(bom):], len(bom)
	}
	s.Format, s.Version = FormatAider, 1
	// Named by its repository, where Aider keeps it (the git root it ran
	// in): the project.
	if s.Header.ID = SessionID(s.Format, s.File); s.Header.ID != "" {
		if abs, err := filepath.Abs(s.File); err == nil {
			s.Header.Cwd = filepath.Dir(abs)
		}
	}
	c := newChain(s)
	var model string
	var reply *Entry
	for _, b := range aiderBlocks(data) {
		raw := data[b.start:b.end]
		e := s.newEntry(b.line, int64(base+b.start), raw, "")
		switch b.kind {
		case aRun:
			e.Role = RoleCustom
			e.Detail = &Detail{CustomType: CustomAiderRun, Display: true, Notice: true}
			first, _, _ := strings.Cut(string(raw), "\n")
			e.setTime(strings.TrimSpace(strings.TrimPrefix(first, aiderRunMark)), 0) // local time, read as UTC: the file does not say
			if s.Header.Timestamp == "" {
				s.Header.Timestamp = e.Timestamp
			}
			model = aiderModel(string(raw))
			reply = nil
		case aPrompt:
			e.Role = RoleUser
		case aReply:
			e.Role, reply = RoleAssistant, e
			e.Provider, e.Model = splitModel(model)
		case aOutput:
			e.Role = RoleCustom
			e.Detail = &Detail{CustomType: CustomCommandOutput, Display: true, Notice: true}
			if u := aiderUsage(string(raw)); u != nil && reply != nil && reply.Usage == nil {
				reply.Usage = u
			}
		}
		c.add(e)
	}
	if len(s.Entries) == 0 {
		return notSession("an Aider chat history with nothing in it")
	}
	s.src.body = &listDecoder{groups: c.groups, one: aiderDecode}
	return nil
}

// aiderModelLine finds the model a run names.
var aiderModelLine = regexp.MustCompile(`(?m)^> (?:Main )?[Mm]odel: (\S+)`)

func aiderModel(run string) string {
	if m := aiderModelLine.FindStringSubmatch(run); m != nil {
		return m[1]
	}
	return ""
}

// aiderTokens reads Aider's report of a message's tokens and cost.
var (
	aiderTokens = regexp.MustCompile(`(?m)^> Tokens: (.*)$`)
	aiderCount  = regexp.MustCompile(`([0-9.]+)([kKmM]?) (sent|received|cache write|cache hit)`)
	aiderCost   = regexp.MustCompile(`Cost: \$([0-9.]+) message`)
)

// aiderUsage is the usage an output block reports, nil when none.
func aiderUsage(out string) *Usage {
	m := aiderTokens.FindStringSubmatch(out)
	if m == nil {
		return nil
	}
	u := &Usage{}
	for _, c := range aiderCount.FindAllStringSubmatch(m[1], -1) {
		n, err := strconv.ParseFloat(c[1], 64)
		if err != nil {
			continue
		}
		switch strings.ToLower(c[2]) {
		case "k":
			n *= 1e3
		case "m":
			n *= 1e6
		}
		switch c[3] {
		case "sent":
			u.Input = n
		case "received":
			u.Output = n
		case "cache write":
			u.CacheWrite = n
		case "cache hit":
			u.CacheRead = n
		}
	}
	if c := aiderCost.FindStringSubmatch(m[1]); c != nil {
		u.Cost.Total, _ = strconv.ParseFloat(c[1], 64)
	}
	u.TotalTokens = u.Input + u.Output + u.CacheRead + u.CacheWrite
	return u
}

// unprefix is the block's lines without their prefix ("#### ", "> ").
func unprefix(raw, prefix string) string {
	lines := strings.Split(raw, "\n")
	for i, l := range lines {
		l = strings.TrimRight(l, " \t\r")
		l = strings.TrimPrefix(l, strings.TrimSpace(prefix))
		lines[i] = strings.TrimPrefix(l, " ")
	}
	return strings.Join(lines, "\n")
}

func aiderDecode(e *Entry, raw []byte) (*Body, error) {
	m := &Message{Role: e.Role, CustomType: e.CustomType, Display: e.Display}
	text := string(raw)
	switch {
	case e.Role == RoleUser:
		text = strings.TrimSpace(unprefix(text, "#### "))
	case e.CustomType == CustomAiderRun:
		first, rest, _ := strings.Cut(text, "\n")
		text = "Aider started at " + strings.TrimSpace(strings.TrimPrefix(first, aiderRunMark))
		if rest = strings.TrimSpace(unprefix(rest, "> ")); rest != "" {
			text += "\n\n" + rest
		}
	case e.Role == RoleCustom:
		text = strings.TrimSpace(unprefix(text, "> "))
	default:
		text = strings.TrimSpace(text)
	}
	m.Content = textBlock(text)
	return &Body{Message: m}, nil
}

// aiderCut writes the blocks kept at their lines, so that each keeps its
// id; left out, Aider's output keeps its "Tokens:" line, the usage of
// the reply before it.
type aiderCut struct{ s *Session }

func (aiderReader) cut(s *Session) Cut { return aiderCut{s} }

func (aiderCut) Thinking(*Entry) (bool, int) { return false, 0 }
func (aiderCut) Needed(*Entry) bool          { return false }
func (aiderCut) Names([]bool, *Entry)        {}

func (f aiderCut) Write(keep []bool, _ *Entry, o CutOptions, c *CutCounts) ([]byte, error) {
	var out bytes.Buffer
	at := 1
	for _, e := range f.s.Entries {
		if !keep[e.Index] {
			continue
		}
		raw, err := e.Raw()
		if err != nil {
			return nil, err
		}
		text := string(raw)
		if o.NoToolOutput && e.CustomType == CustomCommandOutput {
			kept := "> " + OutputLeftOut
			if m := aiderTokens.FindString(text); m != "" {
				kept += "\n" + m
			}
			text = kept
			c.Outputs++
		}
		for ; at < e.Line; at++ {
			out.WriteByte('\n')
		}
		out.WriteString(text)
		out.WriteByte('\n')
		at += strings.Count(text, "\n") + 1
	}
	return out.Bytes(), nil
}

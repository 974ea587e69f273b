package mdpage

import (
	"fmt"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"

	cv "canopy/conversation"
	"canopy/internal/jsonindent"
	"canopy/internal/text"
	"canopy/sessiontree"
)

// class is what a part of the output is, for Limit: the classes are
// shortened in this order, and fixed text never.
type class int

const (
	classFixed    class = iota
	classTool           // tool arguments and output, user commands and their output
	classThinking       // thinking blocks
	classText           // assistant text, summaries, extension messages
	classPrompt         // user prompts: the last resort
	numClasses
)

// How a part is drawn.
type partKind int

const (
	kindCode     partKind = iota // fenced, in <details> when long and fold is set
	kindThinking                 // fenced, always in <details>
	kindMarkdown                 // sanitized Markdown, in a quote when quote is set
)

// Outputs longer than this (lines or characters) are folded into a
// <details> block, closed: a page of output under every tool call buries
// the conversation. The reference page previews 5 to 12 lines.
const (
	foldLines = 15
	foldChars = 1500
)

// part is a piece of an entry made of session text, which Limit may
// shorten.
type part struct {
	class   class
	kind    partKind
	content string // clean
	info    string // fence language
	label   string // Output, Arguments, Thinking, ...
	fold    bool
	quote   bool
	size    int // Length(content)

	full    string // drawn in full, once drawn
	fullLen int
	drawn   bool

	// Length drawn at the last limit asked (see fitter.blockLen).
	memoLimit, memoLen int
	memoSet            bool
}

// block is one block of the output: fixed Markdown, or a part.
type block struct {
	text string
	p    *part
}

// entryDoc is what one entry of the path becomes.
type entryDoc struct {
	id       string
	blocks   []block
	fixedLen int // Length of the blocks that are not parts (see fitter)
}

func (d *entryDoc) add(text string) { d.blocks = append(d.blocks, block{text: text}) }

func (d *entryDoc) addPart(p *part) {
	p.size = Length(p.content)
	d.blocks = append(d.blocks, block{p: p})
}

// entry builds the output of the entry at index i of the path. Entries
// may be built in any order (the fitter builds only those it may keep).
func (x *exporter) entry(i int) *entryDoc {
	e := x.path[i]
	d := &entryDoc{id: e.ID}
	if e.Bookkeeping {
		return d // a record the agent keeps for itself: no turn of the conversation
	}
	if e.ParentGuessed {
		defer func() { d.add("*" + sessiontree.ParentGuessedNote + "*") }()
	}
	var body *sessiontree.Body
	var err error
	if cv.NeedsBody(e) {
		body, err = e.Decode()
	}
	switch k := cv.Classify(e, body, err); k {
	case cv.Continuation:
		// A later line of a streamed reply: written whole at its first line.
	case cv.Unreadable, cv.NoMessage:
		x.unreadable(d, e)
	case cv.Prompt, cv.Reply, cv.ToolResult, cv.Command, cv.UnknownRole:
		x.message(d, i, body.Message, k)
	case cv.CustomMessage:
		if m := body.Message; e.Type == sessiontree.TypeMessage {
			x.custom(d, e, m.CustomType, m.Display, m.Content)
		} else {
			x.custom(d, e, e.CustomType, e.Display, body.Content)
		}
	case cv.Compaction:
		d.add(x.heading(e, "Compaction"))
		d.add("*The conversation before this point was compacted (" + tokens(e.TokensBefore) +
			" tokens); from here on the model saw this summary of it:*")
		d.addPart(&part{class: classText, kind: kindMarkdown, content: clean(e.Summary), quote: true, label: "Summary"})
	case cv.BranchSummary:
		d.add(x.heading(e, "Branch summary"))
		d.add("*The conversation came back here from another branch; the model saw this summary of it:*")
		d.addPart(&part{class: classText, kind: kindMarkdown, content: clean(e.Summary), quote: true, label: "Summary"})
	case cv.ModelChange:
		d.add(x.line(e, "Model: "+idSpan(modelName(e.Provider, e.Model))))
	case cv.ThinkingLevelChange:
		d.add(x.line(e, "Thinking level: "+idSpan(e.ThinkingLevel)))
	case cv.LabelChange:
		if e.Label == "" {
			d.add(x.line(e, "Label cleared on "+idSpan(e.TargetID)))
		} else {
			d.add(x.line(e, "Label “"+inlineText(e.Label)+"” set on "+idSpan(e.TargetID)))
		}
	case cv.SessionInfo:
		d.add(x.line(e, "Session named “"+inlineText(e.Name)+"”"))
	case cv.State:
		d.add(x.line(e, sessiontree.StateName(x.s.Format)+" "+idSpan(text.Or(e.CustomType, "custom"))+" (not shown)"))
	default:
		d.add(x.line(e, "Entry of type "+idSpan(e.Type)+" (not shown)"))
	}
	return d
}

// message draws a message entry of kind k.
func (x *exporter) message(d *entryDoc, i int, m *sessiontree.Message, k cv.Kind) {
	e := x.path[i]
	switch k {
	case cv.Prompt:
		x.userMessage(d, e, m)
	case cv.Reply:
		x.assistantMessage(d, i, m)
	case cv.ToolResult:
		if len(m.Results) == 0 {
			x.toolResult(d, i, m)
			break
		}
		// A Claude Code line answering several calls: each result under
		// the call it answers.
		for _, r := range m.Results {
			if one := m.ResultFor(r.ToolCallID); one != nil {
				x.toolResult(d, i, one)
			}
		}
	case cv.Command:
		x.bashExecution(d, e, m)
	default:
		d.add(x.line(e, "Message of role "+idSpan(m.Role)+" (not shown)"))
	}
}

// userMessage draws a user's prompt: its text as it was typed, in a fence.
func (x *exporter) userMessage(d *entryDoc, e *sessiontree.Entry, m *sessiontree.Message) {
	d.add(x.heading(e, "User"))
	n := len(d.blocks)
	for _, pc := range x.model.BlockPieces(e, m.Content) {
		switch {
		case pc.Part == cv.Text:
			d.addPart(&part{class: classPrompt, kind: kindCode, content: clean(pc.Block.Text), info: "text", label: "Prompt"})
		case pc.Part == cv.Blank && pc.Block.Type == "text":
		default:
			x.otherBlock(d, *pc.Block)
		}
	}
	if len(d.blocks) == n {
		d.add("*(empty message)*")
	}
}

// assistantMessage draws the model's reply at index i of the path: its
// text, thinking and tool calls, then how it stopped when not normally.
func (x *exporter) assistantMessage(d *entryDoc, i int, m *sessiontree.Message) {
	e := x.path[i]
	title := "Assistant"
	if m.Model != "" {
		title += " (" + idSpan(m.Model) + ")"
	}
	d.add(x.heading(e, title))
	x.hold(e)
	n := len(d.blocks)
	for _, pc := range x.model.Pieces(e, m) {
		if pc.Anchor != nil {
			continue // a later line of a streamed reply: the page links to it
		}
		blk := *pc.Block
		switch pc.Part {
		case cv.Blank:
		case cv.Text:
			d.addPart(&part{class: classText, kind: kindMarkdown, content: clean(blk.Text), label: "Text"})
		case cv.RedactedThinking:
			d.add("*Thinking (redacted by the provider)*")
		case cv.Thinking:
			d.addPart(&part{class: classThinking, kind: kindThinking, content: clean(blk.Thinking), info: "text", label: "Thinking"})
		case cv.ToolCall:
			c := x.toolCall(d, blk)
			if _, dup := x.made[blk.ID]; !dup && blk.ID != "" {
				x.made[blk.ID] = c
			}
		default:
			x.otherBlock(d, blk)
		}
	}
	if e.Silent {
		d.add("*Silent turn (" + text.Or(m.SilentMark(), "NO_REPLY") + "): not delivered to the user.*")
	}
	if note := stopNote(m); note != "" {
		d.add(note)
	}
	if len(d.blocks) == n {
		d.add("*(no content)*")
	}
}

// stopNote says how a reply stopped when it did not end normally: "" when
// it did.
func stopNote(m *sessiontree.Message) string {
	switch cv.StopOf(m) {
	case cv.Failed:
		return "**Error:** " + inlineText(shorten(text.Or(m.ErrorMessage, "the request failed"), 2000))
	case cv.Aborted:
		s := "**Aborted**"
		if m.ErrorMessage != "" {
			s += ": " + inlineText(shorten(m.ErrorMessage, 2000))
		}
		return s
	case cv.Cut:
		return "*Stopped: the output reached the length limit.*"
	}
	return ""
}

// toolResult draws a tool's result at index i of the path, named after the
// call it answers: its text output (in the language of the file read), its
// other blocks, and an edit's diff.
func (x *exporter) toolResult(d *entryDoc, i int, m *sessiontree.Message) {
	title := "Tool result · " + idSpan(text.Or(m.ToolName, "tool"))
	c, called := x.callFor(i, m.ToolCallID)
	if called && c.what != "" {
		title += " " + idSpan(c.what)
	}
	d.add(x.heading(x.path[i], title))
	if m.IsError {
		d.add("*The tool reported an error.*")
	}
	n := len(d.blocks)
	var texts []string
	for _, blk := range m.Content {
		if blk.Type == "text" {
			texts = append(texts, blk.Text)
		}
	}
	if out := strings.TrimRight(cleanOutput(strings.Join(texts, "\n")), "\n"); strings.TrimSpace(out) != "" {
		lang := ""
		if called && c.name == "read" && !m.IsError {
			lang = extLanguage(c.path)
		}
		d.addPart(&part{class: classTool, kind: kindCode, content: out, info: lang, label: "Output", fold: true})
	}
	for _, blk := range m.Content {
		if blk.Type != "text" {
			x.otherBlock(d, blk)
		}
	}
	if diff := editDiff(m.Details); diff != "" {
		d.addPart(&part{class: classTool, kind: kindCode, content: diff, info: "diff", label: "Diff", fold: true})
	}
	if len(d.blocks) == n {
		d.add("*(no output)*")
	}
}

// bashExecution draws a command the user ran, its output, and what became
// of it (exit code, cancelled, truncated, kept from the model).
func (x *exporter) bashExecution(d *entryDoc, e *sessiontree.Entry, m *sessiontree.Message) {
	d.add(x.heading(e, "User ran a command"))
	d.addPart(&part{class: classTool, kind: kindCode, content: clean(m.Command), info: "sh", label: "Command", fold: true})
	if out := strings.TrimRight(cleanOutput(m.Output), "\n"); strings.TrimSpace(out) != "" {
		d.addPart(&part{class: classTool, kind: kindCode, content: out, label: "Output", fold: true})
	}
	var notes []string
	if m.ExitCode != nil && *m.ExitCode != 0 {
		notes = append(notes, fmt.Sprintf("exit code %d", *m.ExitCode))
	}
	if m.Cancelled {
		notes = append(notes, "cancelled")
	}
	if m.Truncated {
		notes = append(notes, "output truncated by the agent")
	}
	if m.ExcludeFromContext {
		notes = append(notes, "not sent to the model (!!)")
	}
	if len(notes) > 0 {
		d.add("*" + strings.Join(notes, "; ") + "*")
	}
}

// custom draws an extension's message: its content when the user saw it,
// a note when only the model did.
func (x *exporter) custom(d *entryDoc, e *sessiontree.Entry, customType string, display bool, content sessiontree.Blocks) {
	d.add(x.heading(e, "Extension message "+idSpan(text.Or(customType, "custom"))))
	if !display {
		n := 0
		for _, blk := range content {
			n += len([]rune(blk.Text))
		}
		d.add("*Hidden from the user; the model saw it (" + text.Count(n, "character", "characters") + ", not shown here).*")
		return
	}
	k := len(d.blocks)
	for _, pc := range x.model.BlockPieces(e, content) {
		switch {
		case pc.Part == cv.Text:
			d.addPart(&part{class: classText, kind: kindMarkdown, content: clean(pc.Block.Text), label: "Text"})
		case pc.Part == cv.Blank && pc.Block.Type == "text":
		default:
			x.otherBlock(d, *pc.Block)
		}
	}
	if len(d.blocks) == k {
		d.add("*(empty message)*")
	}
}

// toolCall draws a call's name and arguments: a shell command as a
// command, a file written as the file, anything else as JSON.
func (x *exporter) toolCall(d *entryDoc, blk sessiontree.Block) call {
	d.add("**Tool call:** " + idSpan(text.Or(blk.Name, "tool")))
	if len(blk.Arguments) == 0 {
		return call{name: blk.Name}
	}
	args, _ := sessiontree.DecodeArguments(blk.Arguments)
	c := makeCall(blk.Name, args)
	cmd, isCmd := args["command"].(string)
	p, isPath := args["path"].(string)
	content, isContent := args["content"].(string)
	switch {
	case blk.Name == "bash" && isCmd && len(args) == 1:
		d.addPart(&part{class: classTool, kind: kindCode, content: clean(cmd), info: "sh", label: "Command", fold: true})
	case blk.Name == "write" && isPath && isContent && len(args) == 2:
		d.add("File " + idSpan(p) + ":")
		d.addPart(&part{class: classTool, kind: kindCode, content: clean(content), info: extLanguage(p), label: "Content", fold: true})
	default:
		d.addPart(&part{class: classTool, kind: kindCode, content: clean(jsonindent.Indent(blk.Arguments)), info: "json", label: "Arguments", fold: true})
	}
	return c
}

// call is what a tool result needs of its call: its name, the path it
// read, and what its heading shows of it (the path, or the command).
type call struct{ name, path, what string }

func makeCall(name string, args map[string]any) call {
	c := call{name: name}
	cmd, isCmd := args["command"].(string)
	p, isPath := args["path"].(string)
	if !isPath {
		p, isPath = args["file_path"].(string) // Claude Code's name for it, as the page reads it
	}
	c.path, c.what = p, p
	if isCmd && !isPath {
		c.what = cmd
	}
	c.what = callSummary(c.what)
	return c
}

// callFor is the call the result with the id, in the entry at index i of
// the path, answers (conversation.Context.CallOf; a Claude Code line
// answering several calls answers them all in one message): a read's
// output is shown in its file's language, and its heading names the call.
func (x *exporter) callFor(i int, id string) (call, bool) {
	e := x.path[i]
	tc, ok := x.model.Pairs.CallOf(e)
	if !ok || id == "" {
		return call{}, false
	}
	x.hold(tc.Message)
	if c, ok := x.made[id]; ok {
		return c, true // made as its reply was drawn
	}
	c, ok := x.model.CallIn(tc.Message, id)
	if !ok {
		return call{}, false
	}
	args, _ := sessiontree.DecodeArguments(c.Args)
	return makeCall(c.Name, args), true
}

// hold notes that callFor reads the calls of message m now (x.made holds
// them as its reply's toolCall made them, when drawn). Written in
// order (sequential), the calls of the message before are not asked for
// again, and are not held.
func (x *exporter) hold(m *sessiontree.Entry) {
	if x.lastCalls == m {
		return
	}
	if x.sequential && x.lastCalls != nil {
		x.model.Forget(x.lastCalls)
	}
	x.lastCalls = m
	clear(x.made)
}

// callSummary is a path or a command for a heading: its first line, cut
// at 60 characters.
func callSummary(s string) string {
	s = strings.TrimSpace(clean(s))
	line, rest, _ := strings.Cut(s, "\n")
	line = strings.TrimSpace(line)
	if utf8.RuneCountInString(line) > 60 {
		return shorten(line, 60)
	}
	if strings.TrimSpace(rest) != "" {
		line += " …"
	}
	return line
}

// otherBlock notes a content block that is not text: a picture as its type
// and size, never its data.
func (x *exporter) otherBlock(d *entryDoc, blk sessiontree.Block) {
	switch blk.Type {
	case "image":
		d.add("*" + inlineText("[image: "+imageType(blk.MimeType)+", "+byteSize(base64Size(blk.Data))+"]") + "*")
	case "text", "thinking", "toolCall":
		// Where the role has no such content: noted, not shown.
		d.add("*A " + inlineText(blk.Type) + " block (not shown).*")
	default:
		d.add("*Content of type " + idSpan(blk.Type) + " (not shown).*")
	}
}

func (x *exporter) unreadable(d *entryDoc, e *sessiontree.Entry) {
	d.add(x.line(e, "Entry of type "+idSpan(e.Type)+" that could not be read (not shown)"))
}

// heading is an entry's heading: what it is, its id, its label, its link.
func (x *exporter) heading(e *sessiontree.Entry, title string) string {
	return "#### " + title + x.suffix(e)
}

// line is a small entry (a setting) on one line, with its id.
func (x *exporter) line(e *sessiontree.Entry, text string) string {
	return "*" + text + "*" + x.suffix(e)
}

func (x *exporter) suffix(e *sessiontree.Entry) string {
	s := " · " + idSpan(e.ID)
	if l := x.s.Labels[e.ID]; l != "" {
		s += " · label “" + inlineText(l) + "”"
	}
	if x.links != nil {
		s += " · " + x.links.markdown("link", e.ID)
	}
	return s
}

// modelName is conversation.ModelName (header.go names models too).
func modelName(provider, model string) string { return cv.ModelName(provider, model) }

// editDiff is the diff an edit tool's result carries
// (conversation.EditDiff), clean.
func editDiff(details jsontext.Value) string {
	return strings.TrimRight(clean(cv.EditDiff(details)), "\n")
}

// extLanguage names a file's language for a fence by its extension, which
// GitHub's highlighter knows as an alias for most languages.
func extLanguage(p string) string {
	return fenceInfo(strings.TrimPrefix(path.Ext(p), "."))
}

// imageType is a picture's MIME type when it looks like one.
func imageType(mime string) string {
	m := strings.ToLower(strings.TrimSpace(mime))
	typ, sub, ok := strings.Cut(m, "/")
	if !ok || typ == "" || sub == "" || len(m) > 64 {
		return "unknown type"
	}
	for i := 0; i < len(m); i++ {
		c := m[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || strings.IndexByte("/.+-", c) >= 0) {
			return "unknown type"
		}
	}
	return m
}

// base64Size is the size of the data a base64 text decodes to.
func base64Size(data string) int {
	n := 0
	pad := 0
	for i := 0; i < len(data); i++ {
		switch c := data[i]; {
		case c == '=':
			pad++
		case c == '\r' || c == '\n' || c == ' ':
		default:
			n++
		}
	}
	return max(0, (n+pad)/4*3+((n+pad)%4)*3/4-pad)
}

// byteSize writes a size as people read it: 512 bytes, 123 KB, 4.5 MB.
func byteSize(n int) string {
	switch {
	case n < 1024:
		return text.Count(n, "byte", "bytes")
	case n < 1024*1024:
		return text.Thousands(float64((n+512)/1024)) + " KB"
	}
	return fmt.Sprintf("%.1f MB", float64(n)/(1024*1024))
}

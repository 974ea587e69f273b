package htmlpage

import (
	"html/template"
	"strings"

	"canopy/sessiontree"
)

// entryView is what the templates need to draw one entry.
type entryView struct {
	ID      string
	Kind    string // CSS class and template: user, assistant, tool-result, bash, compaction, …
	Heading string
	Time    string
	Label   string
	Parts   []part
	Notes   []note // flags under the entry: errors, aborts, hidden-from-user, …
	Meta    string // small print: model, tokens
	Silent  bool   // a silent turn (NO_REPLY, HEARTBEAT_OK), never delivered to the user
	// Records: the bookkeeping entries that hang off this one (progress
	// lines, attachments, token counts, …), folded at the end of its
	// card: never a card of their own, one click away (recordsView).
	Records *recordsView

	grafts []*sessiontree.Graft // the conversations its cards draw (subagentViews)
}

// part is one piece of an entry's body, in order. Exactly one field is
// set; the template tests them in turn (a field test is much cheaper in
// text/template than comparing a kind string).
type part struct {
	Anchor   string // a later line of a streamed reply: its id, where its blocks start
	Markdown template.HTML
	Code     template.HTML // highlighted or escaped, in a <pre>
	Tool     *toolView
	More     *fold // the folded rest of an output
	Thinking *fold
	Command  template.HTML // a shell command
	Image    template.HTML // an <img> with a data: URL (imageSrc)
	JSON     *fold
	Diff     template.HTML
	Text     template.HTML
	Note     string // why the part before is shown plain (a bound was passed)
}

// recordsView is the fold of an entry's bookkeeping records.
type recordsView struct {
	Summary string
	Entries []*entryView
}

// fold is a collapsible part.
type fold struct {
	Summary string
	HTML    template.HTML
	Open    bool
}

type note struct {
	Kind, Text string // Kind: error, warning, info
}

// toolView is a tool call with its result.
type toolView struct {
	ResultID string // the result entry's id: its anchor for deep links
	Name     string
	Class    string // the card's class after "tool": toolClass, never the name itself
	Summary  string
	Input    []part // arguments, as the tool's renderer shows them
	Output   []part // the result
	IsError  bool
	Pending  bool            // no result found
	Agents   []*subagentView // the subagents' conversations the call ran
}

// domID is an entry id as an HTML id attribute can hold it, and as the
// browser reads it back: HTML has no NUL (the parser turns it into U+FFFD)
// and turns CR LF and CR into LF. The page's script maps ids the same way
// (domId in assets/page/prologue.js) to find an entry's element.
func domID(id string) string {
	if !strings.ContainsAny(id, "\r\x00") {
		return id
	}
	id = strings.ReplaceAll(id, "\r\n", "\n")
	id = strings.ReplaceAll(id, "\r", "\n")
	return strings.ReplaceAll(id, "\x00", "\uFFFD")
}

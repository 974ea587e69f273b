package htmlpage

import (
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"canopy/internal/text"
	"canopy/sessiontree"
)

// The tree's rows: for each entry, the text of its row in the sidebar, its
// filter flags and its kind (its colour), as treeJSON writes them.

// Row flags: what the page's script needs to apply the reference's filter
// rules. The same rules are in Visible, for tests independent of the page.
const (
	flagSettings   = 1 << iota // label, custom, model_change, thinking_level_change
	flagToolResult             // a toolResult message
	flagUser                   // a user message
	flagEmpty                  // an assistant message with no text that did not fail: hidden
	flagEmbedded               // shown inside its tool call's card, no block of its own
	flagSilent                 // a silent (NO_REPLY, HEARTBEAT_OK) assistant turn, never delivered to the user
)

// rowInfo is what the tree needs of one entry.
type rowInfo struct {
	text  string
	flags int
	// files: what the entry's calls that ran wrote, edited or patched
	// (sessiontree.FileTargets), found as its card is drawn: the
	// sidebar's and the header's figures count them.
	files []string
}

// gatherRow records the tree row of entry i, which the second pass has
// just decoded (b is nil when it could not be): its flags join those
// newEntryContext set. Each row is written by the one worker that renders its entry (a
// result drawn in its call's card: the call's), so workers never write the
// same row.
func (ec *entryContext) gatherRow(i int, b *sessiontree.Body) {
	e := ec.s.Entries[i]
	row := rowOf(e, b)
	if isResult(e) {
		// A result's row is its call's ("[read: path]"): messageView
		// writes it when it finds the call, which it decodes anyway.
		row.text = "[" + text.Or(e.ToolName, "tool") + "]"
	}
	ec.rows[i].text = row.text
	ec.rows[i].flags |= row.flags
}

// rowOf computes the tree row text and the filter flags of an entry, with
// the reference's wording.
func rowOf(e *sessiontree.Entry, b *sessiontree.Body) rowInfo {
	var r rowInfo
	if e.IsSettings() {
		r.flags |= flagSettings
	}
	if e.Silent {
		r.flags |= flagSilent
	}
	var m *sessiontree.Message
	if b != nil {
		m = b.Message
	}
	switch e.Type {
	case sessiontree.TypeMessage:
		if m == nil {
			r.text = "[message]"
			break
		}
		switch m.Role {
		case sessiontree.RoleUser:
			r.flags |= flagUser
			// A gateway's envelope (sessiontree.PromptText) would make
			// every row read the same; the entry shows it whole.
			r.text = "user: " + flatten(sessiontree.PromptText(blocksText(m.Content, "")), rowTextMax)
		case sessiontree.RoleAssistant:
			t := flatten(blocksText(m.Content, ""), rowTextMax)
			switch {
			case t != "":
				r.text = "assistant: " + t
			case m.StopReason == "aborted":
				r.text = "assistant: (aborted)"
			case m.ErrorMessage != "":
				r.text = "assistant: " + flatten(m.ErrorMessage, rowTextMax)
			default:
				r.text = "assistant: (no text)"
			}
			// The reference hides assistant messages without text unless
			// they ended abnormally (error, aborted, length, ...).
			if t == "" && (m.StopReason == "" || m.StopReason == "stop" || m.StopReason == "toolUse") {
				r.flags |= flagEmpty
			}
		case sessiontree.RoleToolResult:
			r.flags |= flagToolResult // the text comes from the call: see scan
		case sessiontree.RoleBashExecution:
			r.text = "[bash]: " + flatten(m.Command, rowTextMax)
		case sessiontree.RoleCustom:
			r.text = "[" + text.Or(m.CustomType, "custom") + "]: " + flatten(blocksText(m.Content, ""), rowTextMax)
		default:
			r.text = "[" + m.Role + "]"
		}
	case sessiontree.TypeCompaction:
		r.text = "[compaction: " + kTokens(e.TokensBefore) + " tokens]"
	case sessiontree.TypeBranchSummary:
		r.text = "[branch summary]: " + flatten(e.Summary, rowTextMax)
	case sessiontree.TypeCustomMessage:
		t := ""
		if b != nil {
			t = blocksText(b.Content, "")
		}
		r.text = "[" + text.Or(e.CustomType, "custom") + "]: " + flatten(t, rowTextMax)
	case sessiontree.TypeModelChange:
		r.text = "[model: " + e.Model + "]"
	case sessiontree.TypeThinkingLevelChange:
		r.text = "[thinking: " + e.ThinkingLevel + "]"
	case sessiontree.TypeLabel:
		if e.Label == "" {
			r.text = "[label cleared]"
		} else {
			r.text = "[label: " + e.Label + "]"
		}
	case sessiontree.TypeSessionInfo:
		r.text = "[session name: " + e.Name + "]"
	case sessiontree.TypeCustom:
		r.text = "[" + text.Or(e.CustomType, "custom") + "]"
	default:
		r.text = "[" + text.Or(e.Type, "entry") + "]"
	}
	return r
}

// rowKind is a short class for a row's colour.
func rowKind(e *sessiontree.Entry) string {
	switch e.Type {
	case sessiontree.TypeMessage:
		switch e.Role {
		case sessiontree.RoleUser:
			return "u"
		case sessiontree.RoleAssistant:
			return "a"
		case sessiontree.RoleToolResult:
			return "t"
		}
		return "m"
	case sessiontree.TypeCompaction, sessiontree.TypeBranchSummary:
		return "s"
	}
	if e.IsSettings() {
		return "x"
	}
	return "o"
}

// rowTextMax is where the reference cuts a tree row's text.
const rowTextMax = 100

// flatten puts text on one line (newlines and tabs become spaces) and
// cuts it at n characters with "...", as the reference does. Only the
// first n characters are copied: a row's text may come from megabytes.
func flatten(s string, n int) string {
	s = strings.TrimLeftFunc(s, unicode.IsSpace)
	head := s[:runePrefix(s, n)]
	if strings.TrimRightFunc(s[len(head):], unicode.IsSpace) != "" {
		return text.OneLine(head) + "..."
	}
	return text.OneLine(strings.TrimRightFunc(head, unicode.IsSpace))
}

// cut cuts s at n characters, adding "...".
func cut(s string, n int) string {
	if i := runePrefix(s, n); i < len(s) {
		// As string([]rune(s)[:n]) would: each byte of broken UTF-8
		// becomes U+FFFD.
		return strings.Map(func(r rune) rune { return r }, s[:i]) + "..."
	}
	return s
}

// runePrefix is the length in bytes of the first n characters of s (a
// byte of broken UTF-8 counts as one).
func runePrefix(s string, n int) int {
	i := 0
	for k := 0; k < n && i < len(s); k++ {
		_, w := utf8.DecodeRuneInString(s[i:])
		i += w
	}
	return i
}

// blocksText joins the text blocks of a message with sep.
func blocksText(blocks sessiontree.Blocks, sep string) string {
	var parts []string
	for _, b := range blocks {
		if b.Type == "text" && strings.TrimSpace(b.Text) != "" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, sep)
}

// kTokens writes a token count in thousands, rounded half up: 123456 is
// "123k", as in the reference's compaction rows.
func kTokens(n float64) string {
	return strconv.Itoa(int(math.Floor(n/1000+0.5))) + "k"
}

package sessiontree

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Decoding a Claude Code entry into pi's shapes, for the renderers. The
// load decided what each line is (its Type, Role, custom type): decoding
// follows it, so that a line reads the same at load and at render.

// claudeDecoder decodes a transcript's entries. Read-only once loaded.
type claudeDecoder struct {
	// groups holds the lines of each reply streamed over several, by its
	// first line, which shows them all.
	groups map[*Entry][]*Entry
}

// claudeRecord is what decoding reads of a line, leniently.
type claudeRecord struct {
	Subtype       lstr                      `json:"subtype"`
	Content       jsontext.Value            `json:"content"` // a system line's
	Message       lobj[claudeRecordMessage] `json:"message"`
	ToolUseResult jsontext.Value            `json:"toolUseResult"`
	Attachment    jsontext.Value            `json:"attachment"`
	Error         jsontext.Value            `json:"error"`
	RetryAttempt  lnum                      `json:"retryAttempt"`
	MaxRetries    lnum                      `json:"maxRetries"`
	HookInfos     jsontext.Value            `json:"hookInfos"`
	HookErrors    jsontext.Value            `json:"hookErrors"`
	APIError      lbool                     `json:"isApiErrorMessage"`
}

type claudeRecordMessage struct {
	Content jsontext.Value `json:"content"`
}

func (d *claudeDecoder) decode(e *Entry, raw []byte) (*Body, error) {
	switch {
	case e.Type == TypeCustom:
		return &Body{Data: bytes.Clone(raw)}, nil
	case e.Type != TypeMessage:
		return &Body{}, nil // a compaction: what it says is in its Detail
	case e.Continues:
		return &Body{Message: &Message{Role: RoleAssistant, Provider: e.Provider, Model: e.Model}}, nil
	}
	var r claudeRecord
	if err := json.Unmarshal(raw, &r, jsonOpts); err != nil {
		return nil, err
	}
	m := &Message{Role: e.Role}
	var err error
	switch e.Role {
	case RoleAssistant:
		err = d.assistant(e, &r, m)
	case RoleToolResult:
		err = toolResult(e, &r, m)
	case RoleBashExecution:
		m.Command, _ = tagged(contentText(r.Message.V.Content), "bash-input")
	case RoleCustom:
		m.CustomType, m.Display = e.CustomType, e.Display
		m.Content, err = customContent(e, &r)
	default:
		m.Content, err = userContent(r.Message.V.Content)
	}
	if err != nil {
		return nil, err
	}
	return &Body{Message: m}, nil
}

// assistant decodes a reply: the blocks of all the lines it was streamed
// over, in order (a call given twice is shown once).
func (d *claudeDecoder) assistant(e *Entry, r *claudeRecord, m *Message) error {
	m.Provider, m.Model, m.StopReason = e.Provider, e.Model, e.StopReason
	if e.Usage != nil {
		u := *e.Usage
		m.Usage = &u
	}
	blocks, err := claudeBlocks(r.Message.V.Content)
	if err != nil {
		return err
	}
	for _, o := range d.groups[e][min(1, len(d.groups[e])):] {
		var more Blocks
		err := o.withRaw(func(raw jsontext.Value) error {
			var or claudeRecord
			if err := json.Unmarshal(raw, &or, jsonOpts); err != nil {
				return err
			}
			var err error
			more, err = claudeBlocks(or.Message.V.Content)
			return err
		})
		if err != nil {
			return err
		}
		m.Streamed = append(m.Streamed, StreamedLine{ID: o.ID, Block: len(blocks)})
		blocks = appendBlocks(blocks, more)
	}
	if r.APIError {
		// The reply is Claude Code's own message about the failed call.
		m.ErrorMessage, blocks = blocksText(blocks), nil
	}
	m.Content = blocks
	return nil
}

// appendBlocks appends more to b, leaving out calls b already has.
func appendBlocks(b, more Blocks) Blocks {
	for _, blk := range more {
		dup := false
		for i := range b {
			if blk.Type == "toolCall" && b[i].Type == "toolCall" && b[i].ID == blk.ID && blk.ID != "" {
				dup = true
			}
		}
		if !dup {
			b = append(b, blk)
		}
	}
	return b
}

// blocksText joins the text of the text blocks.
func blocksText(b Blocks) string {
	var parts []string
	for _, blk := range b {
		if blk.Type == "text" && blk.Text != "" {
			parts = append(parts, blk.Text)
		}
	}
	return strings.Join(parts, "\n\n")
}

// userContent is what the user typed: a slash command reads as it was
// typed ("/model opus"), not as the tags Claude Code wraps it in.
func userContent(raw jsontext.Value) (Blocks, error) {
	b, err := claudeBlocks(raw)
	if err != nil || wrapperOf(firstTextRaw(raw)) != wrapCommand {
		return b, err
	}
	return Blocks{{Type: "text", Text: commandText(blocksText(b))}}, nil
}

// firstTextRaw is the raw JSON string of a content's text: the content
// when it is a string, else its first text block's.
func firstTextRaw(raw jsontext.Value) []byte {
	if len(raw) > 0 && raw[0] == '"' {
		return raw
	}
	w := walker{b: raw}
	return firstItemText(&w, func(typ lstr, _ []byte) bool { return typ == "text" })
}

// firstItemText walks a content array and returns the raw text (a JSON
// string, quotes and all) of its first item that ok accepts by its type
// and text; nil if none does.
func firstItemText(w *walker, ok func(typ lstr, text []byte) bool) []byte {
	var found []byte
	w.array(func() error {
		var typ lstr
		var text []byte
		err := w.members(func(n string) error {
			switch n {
			case "type":
				return w.lstr(&typ)
			case "text":
				v, err := w.rawValue()
				text = v
				return err
			}
			return w.skip()
		})
		if found == nil && ok(typ, text) {
			found = text
		}
		return err
	})
	return found
}

// commandText is a slash command as the user typed it, from the tags it
// is recorded in: <command-name>/name</command-name> and its
// <command-args>, or, in old versions, only <command-message>.
func commandText(s string) string {
	name, ok := tagged(s, "command-name")
	if !ok {
		name, _ = tagged(s, "command-message")
	}
	if name != "" && !strings.HasPrefix(name, "/") {
		name = "/" + name
	}
	if args, _ := tagged(s, "command-args"); args != "" {
		name += " " + args
	}
	if name == "" {
		return s
	}
	return name
}

// tagged is the text between <tag> and </tag> in s, trimmed.
func tagged(s, tag string) (string, bool) {
	_, rest, ok := strings.Cut(s, "<"+tag+">")
	if !ok {
		return "", false
	}
	inner, _, _ := strings.Cut(rest, "</"+tag+">")
	return strings.TrimSpace(inner), true
}

// customContent is the text of a custom message: a hidden message as it
// was sent, a command's output or a notice without its tags, a hook's
// output.
func customContent(e *Entry, r *claudeRecord) (Blocks, error) {
	content := r.Message.V.Content
	switch {
	case e.CustomType == CustomCommandOutput:
		raw := content
		if len(raw) == 0 {
			raw = r.Content
		}
		t, ok := untag(contentText(raw), "local-command-stdout", "local-command-stderr", "bash-stdout", "bash-stderr")
		t = ansiCodes.ReplaceAllString(t, "")
		switch {
		case ok && strings.TrimSpace(t) == "":
			t = "(no output)"
		}
		return textBlock(t), nil
	case e.CustomType == "command caveat":
		t := contentText(content)
		if c, ok := tagged(t, "local-command-caveat"); ok {
			t = c
		}
		return textBlock(t), nil
	case strings.HasPrefix(e.CustomType, "hook"):
		return textBlock(hookText(r.Attachment)), nil
	case e.Notice:
		return textBlock(noticeText(r)), nil
	}
	return claudeBlocks(content)
}

// untag joins the text in any of the tags, its lines' indentation kept
// (found), or is s when it has none of them.
func untag(s string, tags ...string) (text string, found bool) {
	var parts []string
	for _, t := range tags {
		_, rest, ok := strings.Cut(s, "<"+t+">")
		if !ok {
			continue
		}
		found = true
		inner, _, _ := strings.Cut(rest, "</"+t+">")
		if inner = strings.Trim(strings.TrimRight(inner, " \t\r\n"), "\r\n"); inner != "" {
			parts = append(parts, inner)
		}
	}
	if !found {
		return s, false
	}
	return strings.Join(parts, "\n"), true
}

// ansiCodes are the terminal's colour and style sequences Claude Code
// keeps in a command's output: shown as text they are noise.
var ansiCodes = regexp.MustCompile("\x1b\\[[0-9;?]*[A-Za-z]")

func textBlock(t string) Blocks { return Blocks{{Type: "text", Text: t}} }

// hookText is what a hook attachment says: its content, else its output.
func hookText(raw jsontext.Value) string {
	var a struct {
		Content jsontext.Value `json:"content"`
		Stdout  lstr           `json:"stdout"`
		Stderr  lstr           `json:"stderr"`
		Command lstr           `json:"command"`
	}
	if json.Unmarshal(raw, &a, jsonOpts) != nil {
		return ""
	}
	if t := contentText(a.Content); t != "" {
		return t
	}
	var lines []lstr // a list of strings
	if json.Unmarshal(a.Content, &lines, jsonOpts) == nil && len(lines) > 0 {
		parts := make([]string, len(lines))
		for i, l := range lines {
			parts[i] = string(l)
		}
		return strings.Join(parts, "\n")
	}
	return strings.TrimSpace(string(a.Command) + "\n" + string(a.Stdout) + "\n" + string(a.Stderr))
}

// noticeText is what a system notice says: its text, or, for an API
// error being retried and a hook summary, what their members tell.
func noticeText(r *claudeRecord) string {
	if t := contentText(r.Content); t != "" {
		return t
	}
	switch r.Subtype {
	case "api_error":
		var e struct {
			Status  lnum `json:"status"`
			Message lstr `json:"message"`
			Error   struct {
				Message lstr `json:"message"`
			} `json:"error"`
		}
		json.Unmarshal(r.Error, &e, jsonOpts)
		t := "API error"
		if e.Status != 0 {
			t += fmt.Sprintf(" %v", float64(e.Status))
		}
		t += prefixed(": ", firstOf(string(e.Message), string(e.Error.Message)))
		if r.RetryAttempt > 0 {
			t += fmt.Sprintf(" (retry %v of %v)", float64(r.RetryAttempt), float64(r.MaxRetries))
		}
		return t
	case "stop_hook_summary":
		var infos []struct {
			Command lstr `json:"command"`
		}
		var errs []lstr
		json.Unmarshal(r.HookInfos, &infos, jsonOpts)
		json.Unmarshal(r.HookErrors, &errs, jsonOpts)
		var lines []string
		for _, h := range infos {
			lines = append(lines, "Stop hook: "+string(h.Command))
		}
		for _, e := range errs {
			lines = append(lines, "Hook error: "+string(e))
		}
		return strings.Join(lines, "\n")
	}
	return ""
}

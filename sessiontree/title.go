package sessiontree

import (
	"strings"

	"canopy/internal/text"
)

// TitleRunes is how long a title may be: a line of a terminal.
const TitleRunes = 80

// Title is what a person calls the session: its own name (Name: pi's
// session_info, oh-my-pi's title, Claude Code's custom-title, ai-title,
// agent-name or summary, Codex's thread name), else the line its first
// real prompt is known by (PromptTitle), else its first slash command
// ("/orchestrator create a TODO app"), else "". The page, the Markdown,
// the archive index and `canopy list` (from a Peek, with the same rules)
// all title a session by it.
func (s *Session) Title() string {
	if s.Name != "" {
		return text.Clip(s.Name, TitleRunes)
	}
	command := "" // the first slash command: the title when nothing was typed
	for _, e := range s.Entries {
		if e.Type != TypeMessage || e.Role != RoleUser || e.Bookkeeping || s.GraftOf(e) != nil {
			continue
		}
		b, err := e.Decode()
		if err != nil || b.Message == nil {
			continue
		}
		if t := PromptTitle(typedPrompt(b.Message.Content)); t != "" {
			return t
		}
		if command == "" {
			command = PromptTitle(slashCommandOf(b.Message.Content))
		}
	}
	return command
}

// slashCommandOf is the text of blocks that is a slash command ("/review
// the parser"), "" when there is none.
func slashCommandOf(blocks Blocks) string {
	for _, blk := range blocks {
		if t := strings.TrimSpace(blk.Text); blk.Type == "text" && slashCommand(t) {
			return t
		}
	}
	return ""
}

// typedPrompt is the text of blocks a person typed: the first text block
// that is not a reminder, an editor's context or a slash command the
// harness wrote into the message, without a gateway's envelope
// (PromptText). "" when there is none.
func typedPrompt(blocks Blocks) string {
	for _, blk := range blocks {
		if blk.Type != "text" {
			continue
		}
		t := strings.TrimSpace(blk.Text)
		if t == "" || injectedText(t) || slashCommand(t) {
			continue
		}
		if t = PromptText(t); t != "" {
			return t
		}
	}
	return ""
}

// injectedText tells text a harness adds to a user message, not typed:
// Claude Code's reminders, editor context, interruptions and slash
// commands (the command's name, not a request).
func injectedText(t string) bool {
	for _, p := range []string{"<system-reminder>", "<ide_opened_file>", "<ide_selection>", "[Request interrupted by user", "<command-name>", "<command-message>"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// slashCommand tells a prompt that is a command to the harness, as
// Claude Code's loader shows one ("/clear", "/model opus"): a slash, a
// name of letters, digits, '-', '_' or ':', then a space or the end. A
// path ("/home/ada/x.go fails") is no command.
func slashCommand(t string) bool {
	if len(t) < 2 || t[0] != '/' {
		return false
	}
	for i := 1; i < len(t); i++ {
		switch c := t[i]; {
		case c == ' ' || c == '\n' || c == '\t':
			return i > 1
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-', c == '_', c == ':':
		default:
			return false
		}
	}
	return true
}

// PromptTitle is the line a prompt is known by: the first line of its
// text with a gateway's envelope removed (PromptText), without the marks
// of a Markdown heading ("## Plan" is "Plan"), white space folded, cut to
// TitleRunes. "" when nothing is left.
func PromptTitle(prompt string) string {
	t := PromptText(prompt)
	for line := range strings.Lines(t) {
		line = strings.TrimSpace(line)
		if h := strings.TrimLeft(line, "#"); len(h) < len(line) && len(line)-len(h) <= 6 && (h == "" || h[0] == ' ' || h[0] == '\t') {
			line = strings.TrimSpace(h)
		}
		if line != "" {
			return text.Clip(line, TitleRunes)
		}
	}
	return ""
}

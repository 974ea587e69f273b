package sessiontree

import "strconv"

// FormatLabel names the session's format and version as people read them:
// "pi, version 3", or for a format written by a versioned program, that
// program's version as it writes it: "claude-code, version 2.1.3".
func (s *Session) FormatLabel() string {
	v := s.FormatVersion
	if v == "" {
		v = strconv.Itoa(s.Version)
	}
	return s.Format + ", version " + v
}

// StateName is what a custom entry (TypeCustom: state kept in the
// session, never shown to the model) is, as people read it: pi's are an
// extension's state; Claude Code's and Codex's are the program's own
// bookkeeping (attachments, snapshots, events mirrored elsewhere), as
// their readers name it (Agent.StateName).
func StateName(format string) string {
	if n := AgentOf(format).StateName; n != "" {
		return n
	}
	return "Extension state"
}

// Formats of the agents that write Gemini API shapes or event logs.
const (
	FormatGemini  = "gemini-cli"  // a Gemini CLI session (JSONL log, or the older .json document)
	FormatQwen    = "qwen-code"   // a Qwen Code chat (JSONL)
	FormatCopilot = "copilot-cli" // a GitHub Copilot CLI event log (JSONL)
)

// The formats of agents whose sessions are lists of messages, read as a
// chain (agents_common.go).
const (
	FormatKimi   = "kimi-cli"   // a Kimi CLI wire.jsonl
	FormatAmp    = "amp"        // an Amp thread (T-*.json)
	FormatCursor = "cursor-cli" // a Cursor CLI agent transcript (JSONL)
	FormatHermes = "hermes"     // a Hermes Agent session (JSONL, or a session_*.json snapshot)
	FormatCline  = "cline"      // Cline's (Roo Code's, Kilo Code's) api_conversation_history.json
	FormatAider  = "aider"      // Aider's .aider.chat.history.md
)

package sessiontree

import "strings"

// PromptText is a prompt's text as the person wrote it: without what a
// messaging gateway (OpenClaw and the products built on pi like it) puts
// before it for the model. Such a gateway writes, above the words the
// person sent:
//
//   - system events, one a line: "System: [2026-04-05 10:00:00 GMT+7]
//     WhatsApp gateway connected as +62…";
//   - metadata blocks: a line such as "Conversation info (untrusted
//     metadata):" or "Sender (untrusted metadata):", then a ```json fence;
//   - an envelope header before the text: "[WhatsApp +1555 Mon 2026-02-23
//     16:05] …", and "[message_id: …]" lines.
//
// Only such lines at the start are removed, and only in these shapes;
// text that does not start with one is returned as it is. The entry
// keeps its full text: this is for titles, tree rows and search snippets.
// "" when nothing else is left.
func PromptText(s string) string {
	t := strings.TrimLeft(s, " \t\r\n")
	if !envelopeStart(t) {
		return s
	}
	for {
		line, rest, _ := strings.Cut(t, "\n")
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "System: ["), messageIDLine(line):
			t = rest
		case metadataSentinel(line):
			r, ok := skipJSONFence(rest)
			if !ok {
				return strings.TrimSpace(t)
			}
			t = r
		default:
			return strings.TrimSpace(stripEnvelopeHeader(t))
		}
		t = strings.TrimLeft(t, " \t\r\n")
	}
}

// envelopeStart tells text that may start with a gateway's additions,
// cheaply: most prompts start with none.
func envelopeStart(t string) bool {
	return strings.HasPrefix(t, "System: [") || strings.HasPrefix(t, "[") || metadataSentinel(firstLine(t))
}

func firstLine(t string) string {
	line, _, _ := strings.Cut(t, "\n")
	return strings.TrimSpace(line)
}

// metadataSentinels are the lines that open a gateway's metadata block.
var metadataSentinels = []string{
	"Conversation info (untrusted metadata):",
	"Sender (untrusted metadata):",
	"Thread starter (untrusted, for context):",
	"Replied message (untrusted, for context):",
	"Forwarded message context (untrusted metadata):",
	"Chat history since last reply (untrusted, for context):",
}

func metadataSentinel(line string) bool {
	for _, s := range metadataSentinels {
		if line == s {
			return true
		}
	}
	return false
}

// skipJSONFence is t past a ```json fence that starts it (after blank
// lines); ok is false when t does not start with a closed one.
func skipJSONFence(t string) (string, bool) {
	t = strings.TrimLeft(t, " \t\r\n")
	open, rest, _ := strings.Cut(t, "\n")
	if strings.TrimSpace(open) != "```json" {
		return "", false
	}
	for rest != "" {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		if strings.TrimSpace(line) == "```" {
			return rest, true
		}
	}
	return "", false
}

func messageIDLine(line string) bool {
	return strings.HasPrefix(line, "[message_id:") && strings.HasSuffix(line, "]")
}

// envelopeChannels are the channels a gateway names at the start of an
// envelope header.
var envelopeChannels = []string{"WebChat", "WhatsApp", "Telegram", "Signal", "Slack", "Discord",
	"Google Chat", "iMessage", "Teams", "Matrix", "Zalo", "BlueBubbles"}

// stripEnvelopeHeader removes a bracketed envelope header ("[WhatsApp
// +1555 Mon 2026-02-23 16:05] ") from the start of t: one that names a
// channel or holds a date and time.
func stripEnvelopeHeader(t string) string {
	if !strings.HasPrefix(t, "[") {
		return t
	}
	end := strings.IndexByte(t, ']')
	if end < 0 {
		return t
	}
	h := t[1:end]
	if strings.ContainsAny(h, "\n[") || !envelopeHeader(h) {
		return t
	}
	return t[end+1:]
}

func envelopeHeader(h string) bool {
	for _, c := range envelopeChannels {
		if strings.HasPrefix(h, c+" ") {
			return true
		}
	}
	return hasDateTime(h)
}

// hasDateTime tells h holds "YYYY-MM-DD" followed by 'T' or ' ' and
// "HH:MM".
func hasDateTime(h string) bool {
	for i := 0; i+16 <= len(h); i++ {
		d := h[i : i+16]
		if digitsAt(d, 0, 4) && d[4] == '-' && digitsAt(d, 5, 2) && d[7] == '-' && digitsAt(d, 8, 2) &&
			(d[10] == ' ' || d[10] == 'T') && digitsAt(d, 11, 2) && d[13] == ':' && digitsAt(d, 14, 2) {
			return true
		}
	}
	return false
}

func digitsAt(s string, from, n int) bool {
	for i := from; i < from+n; i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

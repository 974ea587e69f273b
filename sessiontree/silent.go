package sessiontree

import "strings"

// silentMarks open a gateway's silent housekeeping replies, never
// delivered to the user: NO_REPLY (nothing to say) and OpenClaw's
// HEARTBEAT_OK (a heartbeat acknowledged, nothing needing attention).
var silentMarks = [...]string{"NO_REPLY", "HEARTBEAT_OK"}

// SilentMark is the mark a silent assistant message starts with (see
// Entry.Silent): "NO_REPLY" or "HEARTBEAT_OK"; "" when its first text has
// none.
func (m *Message) SilentMark() string {
	if m == nil {
		return ""
	}
	for _, b := range m.Content {
		if b.Type != "text" {
			continue
		}
		t := strings.TrimLeft(b.Text, " \t\r\n")
		for _, mark := range silentMarks {
			if strings.HasPrefix(t, mark) {
				return mark
			}
		}
		return ""
	}
	return ""
}

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

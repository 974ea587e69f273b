package catalog

import "strings"

// MinPrefix is the shortest id prefix looked for: shorter ones match too
// many sessions to mean one.
const MinPrefix = 4

// LooksLikeID tells an argument that may be a session's id, or the start
// of one: at least MinPrefix letters, digits, '-' or '_', and nothing else
// (a path has a '/' or a '.').
func LooksLikeID(s string) bool {
	if len(s) < MinPrefix {
		return false
	}
	for _, r := range s {
		ok := r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '-' || r == '_'
		if !ok {
			return false
		}
	}
	return true
}

// Resolve lists the sessions in dirs (as List finds them) whose id starts
// with prefix, ignoring case: the id the file records, or the one in its
// name. Newest first, as List orders them.
func Resolve(dirs []string, prefix string, jobs int) ([]Session, []Problem) {
	all, problems := List(dirs, jobs)
	var out []Session
	p := strings.ToLower(prefix)
	for _, s := range all {
		if strings.HasPrefix(strings.ToLower(s.ID), p) || strings.HasPrefix(strings.ToLower(s.fileID), p) {
			out = append(out, s)
		}
	}
	return out, problems
}

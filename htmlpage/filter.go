package htmlpage

import "canopy/sessiontree"

// Filter modes of the tree, as in the reference.
var FilterModes = []string{"default", "no-tools", "user-only", "labeled-only", "all"}

var filterLabel = map[string]string{
	"default": "Default", "no-tools": "No tools", "user-only": "User", "labeled-only": "Labeled", "all": "All",
}

// Visible applies the reference's filter rules to one row: the page's
// script does the same; this is the independent statement of them.
func Visible(mode string, flags int, labeled, isLeaf bool) bool {
	if isLeaf {
		return true
	}
	if flags&flagEmpty != 0 {
		return false
	}
	switch mode {
	case "no-tools":
		return flags&(flagSettings|flagToolResult) == 0
	case "user-only":
		return flags&flagUser != 0
	case "labeled-only":
		return labeled
	case "all":
		return true
	}
	return flags&flagSettings == 0
}

// FilterCounts returns, for each filter mode, how many tree rows the
// reference's rules show for the session seen from leaf (nil: the
// session's leaf), with no search. It is computed here in Go,
// independently of the page's script, so that tests can hold the two
// against each other.
func FilterCounts(s *sessiontree.Session, leaf *sessiontree.Entry) map[string]int {
	if leaf == nil {
		leaf = s.Leaf
	}
	r, err := New()
	if err != nil {
		return nil
	}
	ec := r.gather(s, nil) // the rows' flags come with the entries' rendering
	counts := make(map[string]int, len(FilterModes))
	for i, e := range s.Entries {
		flags := ec.rows[i].flags
		_, labeled := s.Labels[e.ID]
		for _, m := range FilterModes {
			if Visible(m, flags, labeled, e == leaf) {
				counts[m]++
			}
		}
	}
	return counts
}

package render

import "canopy/sessiontree"

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

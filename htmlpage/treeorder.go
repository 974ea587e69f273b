package htmlpage

import "canopy/sessiontree"

// treeOrder lists entry indexes in tree order: roots in file order, each
// followed by its subtree, children in the session's order. Iterative, so
// a deep chain costs no stack.
func treeOrder(s *sessiontree.Session) []int {
	order := make([]int, 0, len(s.Entries))
	stack := make([]*sessiontree.Entry, 0, 64)
	for i := len(s.Roots) - 1; i >= 0; i-- {
		stack = append(stack, s.Roots[i])
	}
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		order = append(order, e.Index)
		for i := len(e.Children) - 1; i >= 0; i-- {
			stack = append(stack, e.Children[i])
		}
	}
	return order
}

// depths is how many entries are above each entry (by index) on its path,
// from the tree order: parents come before their children.
func depths(s *sessiontree.Session, order []int) []int32 {
	depth := make([]int32, len(s.Entries))
	for _, i := range order {
		if p := s.Entries[i].Parent; p != nil {
			depth[i] = depth[p.Index] + 1
		}
	}
	return depth
}

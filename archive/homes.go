package archive

import "canopy/internal/stores"

// HomeStores lists the agents' session stores in the directory dir, when
// dir is a home directory holding any of them (or an agent's own
// directory, ~/.claude, ~/.codex, ~/.pi); nil otherwise. Such a SRC is
// archived as if its stores had been named instead: a home holds much
// else (projects' own .json and .jsonl files, caches, an agent's prompt
// history) that is not sessions, and would take long to read through.
// The stores are listed once, in internal/stores, which canopy list
// reads too.
func HomeStores(dir string) []string { return stores.In(dir) }

// expandHomes replaces each SRC that is a home directory (HomeStores)
// with the stores it holds.
func expandHomes(srcs []string) []string { return stores.Expand(srcs) }

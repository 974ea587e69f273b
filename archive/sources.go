package archive

import (
	"context"

	"canopy/export"
	"canopy/sessiontree"
)

// LoadSource loads the session of a source Discover found: a file, or a
// session of a database, read from the private copy Discover opened
// (CloseSources closes it). The caller closes the session.
func LoadSource(ctx context.Context, src Source) (*sessiontree.Session, error) {
	if src.store != nil {
		return src.store.Load(src.Session)
	}
	return export.Load(ctx, export.Input{Path: src.Path})
}

// CloseSources closes the databases Discover opened for the sources it
// found, and deletes their private copies.
func CloseSources(found []Source) { closeStores(found) }

package sessiontree

import "canopy/internal/fastpath"

// validJSON and scanJSON check a line before the load walks it
// (decodeHead): fastpath's twins of jsontext.Value.IsValid, for what they
// save (see there).
func validJSON(b []byte) bool               { return fastpath.ValidJSON(b) }
func scanJSON(b []byte) (valid, image bool) { return fastpath.ScanJSON(b) }

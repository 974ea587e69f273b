package render

import (
	"github.com/go-json-experiment/json/jsontext"

	"canopy/sessiontree"
)

// rawJSON is the entry's JSON as written, or nil when it cannot be read
// again from its file. The session's Err then tells why, and Render fails
// with it: the page is not made of what the file holds now.
func rawJSON(e *sessiontree.Entry) jsontext.Value {
	raw, _ := e.Raw()
	return raw
}

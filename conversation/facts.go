package conversation

import (
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"canopy/sessiontree"
)

// EditDiff is the diff an edit tool's result carries in its details
// (details.diff), as the tool wrote it: "" when it has none.
func EditDiff(details jsontext.Value) string {
	if len(details) == 0 {
		return ""
	}
	var det struct {
		Diff string `json:"diff"`
	}
	if json.Unmarshal(details, &det) != nil {
		return ""
	}
	return det.Diff
}

// Stop is how a reply stopped, when not normally.
type Stop int

const (
	Stopped Stop = iota // normally, or for a reason canopy does not know
	Failed              // the request failed (m.ErrorMessage says why)
	Aborted             // the user or the agent aborted it
	Cut                 // the output reached the length limit
)

// StopOf is how the reply m stopped.
func StopOf(m *sessiontree.Message) Stop {
	switch m.StopReason {
	case "error":
		return Failed
	case "aborted":
		return Aborted
	case "length":
		return Cut
	}
	return Stopped
}

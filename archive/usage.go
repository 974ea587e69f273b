package archive

import "canopy/usage"

// CountsUsage reports whether a source's spend is counted in usage (the
// archive's usage page, canopy usage): not a backup, a copy a gateway
// kept aside of a transcript that is counted itself.
func CountsUsage(r *Rotation) bool { return r == nil || r.Kind != RotationBackup }

var _ = usage.Sum

// Package tenancy holds the one definition of Vigil's tenant label and the rules for names
// that user input may never use.
package tenancy

import (
	"fmt"
	"regexp"
)

// Names the storage sets itself on every series written through the line-protocol path.
const (
	MeasurementLabel = "__measurement__"
	FieldLabel       = "__field__"
	MetricNameLabel  = "__name__"
)

// UsageWorkspace is the workspace vigil-storage writes its own figures about the other
// workspaces into (measurement UsageMeasurement, tag UsageWorkspaceTag). No caller may name
// it: each workspace reads its own figures through an endpoint of its own.
const UsageWorkspace = "vigil-usage"

// The usage series: vigil_usage:active_series{workspace="<id>"} in UsageWorkspace.
const (
	UsageMeasurement      = "vigil_usage"
	UsageWorkspaceTag     = "workspace"
	UsageActiveSeries     = "active_series"
	UsageActiveSeriesName = UsageMeasurement + ":" + UsageActiveSeries
)

var workspaceIDRe = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$`)

// ValidateWorkspaceID returns an error when id cannot be a workspace id.
func ValidateWorkspaceID(id string) error {
	if !workspaceIDRe.MatchString(id) {
		return fmt.Errorf("invalid workspace id %q: want 1-64 characters of [A-Za-z0-9_-], starting with a letter or digit", id)
	}
	return nil
}

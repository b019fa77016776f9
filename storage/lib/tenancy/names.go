package tenancy

// The naming rules vigil-agent shares with storage, defined here once: the agent's
// lib/tenancy/tenancy.go is generated from this file (in ingest/agent:
// go test ./lib/tenancy -run TestGenerated -update) and the ingest services' Python
// (vigil_ingest/common/tenancy.py) is held to it by ingest/tests/common/test_tenancy.py.
// Keep it to the standard library.

import "strings"

// Label is the reserved label that carries the workspace id on every stored series.
const Label = "vigil_workspace"

// ReservedPrefix starts every name storage keeps for itself (__name__, __measurement__,
// __field__); user input may not use it.
const ReservedPrefix = "__"

// IsTenantLabel reports whether name is one of the labels that carry a tenant: Vigil's own
// label or VictoriaMetrics' cluster tenancy labels. No query may name them.
func IsTenantLabel(name string) bool {
	return name == Label || name == "vm_account_id" || name == "vm_project_id"
}

// IsReserved reports whether a label name is reserved: a tenant label or any name starting
// with ReservedPrefix. Such names are refused in writes and queries.
func IsReserved(name string) bool {
	return IsTenantLabel(name) || strings.HasPrefix(name, ReservedPrefix)
}

// SplitMetricName derives __measurement__ and __field__ from a Prometheus metric name, as
// docs/internals.md specifies for remote-write series: at the first ':' when the name has
// one, else at the first '_'. A name with neither separator (or with one only at its
// start or end) is the measurement itself, with the field "value".
func SplitMetricName(name string) (measurement, field string) {
	if n := strings.IndexByte(name, ':'); n > 0 && n < len(name)-1 {
		return name[:n], name[n+1:]
	}
	if n := strings.IndexByte(name, '_'); n > 0 && n < len(name)-1 {
		return name[:n], name[n+1:]
	}
	return name, "value"
}

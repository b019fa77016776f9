// Package tenancy holds the naming rules vigil-agent shares with storage: the reserved
// label names the gateway refuses and how a Prometheus metric name splits into measurement
// and field. tenancy.go is generated from storage/lib/tenancy/names.go, their one
// definition; TestGenerated fails when the two differ.
package tenancy

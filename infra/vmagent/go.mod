// Builds stock vmagent from the pinned VictoriaMetrics module, for the compatibility tests
// (a real Prometheus remote_write client against the gateway). Used by infra/vmagent/install.sh.
module vigil/infra/vmagent

go 1.26.5

require github.com/VictoriaMetrics/VictoriaMetrics v1.148.9

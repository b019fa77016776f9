// Builds stock promtool from the pinned Prometheus module, for the compatibility tests (a
// real Prometheus HTTP API client against the backend). Used by infra/promtool/install.sh.
module vigil/infra/promtool

go 1.26.7

require github.com/prometheus/prometheus v0.316.0 // indirect

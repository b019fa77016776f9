package ingest

import (
	_ "unsafe" // for go:linkname

	"github.com/VictoriaMetrics/VictoriaMetrics/lib/storage"
)

// invalidateTagFiltersCache drops VictoriaMetrics' tag-filters -> series cache, which also
// remembers "no series match". VictoriaMetrics (v1.130.0, lib/mergeset/table.go) calls it
// at once only when a forced flush finds new index entries still pending; when its own
// once-a-second background flush moved them first, the call waits for a 10 s timer, so a
// query asked just before a series was created keeps answering without it for up to 10 s.
// There is no exported way to ask for it; the version is pinned in go.mod and
// TestNewSeriesVisibleAfterNegativeLookup fails if this stops having an effect.
//
//go:linkname invalidateTagFiltersCache github.com/VictoriaMetrics/VictoriaMetrics/lib/storage.invalidateTagFiltersCache
func invalidateTagFiltersCache()

// seriesCreated is how many series the storage has created since it started.
func seriesCreated(s *storage.Storage) uint64 {
	var m storage.Metrics
	s.UpdateMetrics(&m)
	return m.NewTimeseriesCreated
}

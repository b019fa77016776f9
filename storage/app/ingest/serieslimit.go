package ingest

import (
	"flag"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/VictoriaMetrics/VictoriaMetrics/lib/bloomfilter"
	"github.com/VictoriaMetrics/VictoriaMetrics/lib/storage"
	"github.com/VictoriaMetrics/metrics"
	"github.com/cespare/xxhash/v2"

	"vigil/storage/lib/apierror"
)

// The workspace's active series limit arrives with each write, in this header (the gateway
// reads it with the ingest key and the consumer passes it on). Without it, writes are not
// limited.
const (
	MaxActiveSeriesHeader = "X-Vigil-Max-Active-Series"
	// DroppedPointsHeader says how many points of a write were left out because their series
	// were new and the workspace already had its limit of active series.
	DroppedPointsHeader = "X-Vigil-Dropped-Points"
)

var (
	maxActiveSeriesCeiling = flag.Int("ingest.maxActiveSeriesPerWorkspace", 10_000_000, "The most active series any workspace may have, "+
		"whatever its own limit (X-Vigil-Max-Active-Series) says; each limited workspace keeps a filter of 2 bytes per series of its limit")
	activeSeriesWindow = flag.Duration("ingest.activeSeriesWindow", time.Hour, "How long a series counts as active after a point: "+
		"the limiter of each workspace starts afresh at this interval")

	seriesLimitDropped = metrics.NewCounter(`vigil_ingest_series_limit_dropped_points_total`)
)

// seriesLimiter is a workspace's active series limit and the filter of the series seen.
type seriesLimiter struct {
	max int
	lim *bloomfilter.Limiter
}

var (
	seriesLimitersMu sync.Mutex
	seriesLimiters   = map[string]*seriesLimiter{}
	droppedMu        sync.Mutex
	droppedByWS      = map[string]uint64{}
)

// maxActiveSeries reads the request's active series limit: 0 when it has none.
func maxActiveSeries(r *http.Request) (int, error) {
	v := r.Header.Get(MaxActiveSeriesHeader)
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return 0, apierror.BadData("%s must be a positive integer, got %q", MaxActiveSeriesHeader, v)
	}
	return min(n, *maxActiveSeriesCeiling), nil
}

// limiterFor returns ws's limiter for max active series, made afresh when the limit changed.
func limiterFor(ws string, max int) *bloomfilter.Limiter {
	seriesLimitersMu.Lock()
	defer seriesLimitersMu.Unlock()
	sl := seriesLimiters[ws]
	if sl != nil && sl.max == max {
		return sl.lim
	}
	if sl != nil {
		sl.lim.MustStop()
	}
	sl = &seriesLimiter{max: max, lim: bloomfilter.NewLimiter(max, *activeSeriesWindow)}
	seriesLimiters[ws] = sl
	return sl.lim
}

// ForgetWorkspace drops ws's limiter and counts (its workspace was deleted).
func ForgetWorkspace(ws string) {
	seriesLimitersMu.Lock()
	if sl := seriesLimiters[ws]; sl != nil {
		sl.lim.MustStop()
		delete(seriesLimiters, ws)
	}
	seriesLimitersMu.Unlock()
	droppedMu.Lock()
	delete(droppedByWS, ws)
	droppedMu.Unlock()
}

// limitRows keeps the rows whose series ws may have under its limit of max active series
// (0: all of them), in place, and returns them with how many were left out.
func limitRows(ws string, max int, mrs []storage.MetricRow) ([]storage.MetricRow, int) {
	if max <= 0 || len(mrs) == 0 {
		return mrs, 0
	}
	lim := limiterFor(ws, max)
	kept := mrs[:0]
	for _, mr := range mrs {
		if lim.Add(xxhash.Sum64(mr.MetricNameRaw)) {
			kept = append(kept, mr)
		}
	}
	dropped := len(mrs) - len(kept)
	clear(mrs[len(kept):])
	countDropped(ws, dropped)
	return kept, dropped
}

// limitSamples is limitRows for samples (remote_write, remote mode).
func limitSamples(ws string, max int, samples []Sample) ([]Sample, int) {
	if max <= 0 || len(samples) == 0 {
		return samples, 0
	}
	lim := limiterFor(ws, max)
	kept := samples[:0]
	var buf []byte
	for _, s := range samples {
		buf = storage.MarshalMetricNameRaw(buf[:0], s.Labels)
		if lim.Add(xxhash.Sum64(buf)) {
			kept = append(kept, s)
		}
	}
	dropped := len(samples) - len(kept)
	clear(samples[len(kept):])
	countDropped(ws, dropped)
	return kept, dropped
}

func countDropped(ws string, n int) {
	if n == 0 {
		return
	}
	seriesLimitDropped.Add(n)
	droppedMu.Lock()
	droppedByWS[ws] += uint64(n)
	droppedMu.Unlock()
}

// DroppedPoints returns how many points of ws were left out since this process started
// because their series would have exceeded the workspace's active series limit.
func DroppedPoints(ws string) uint64 {
	droppedMu.Lock()
	defer droppedMu.Unlock()
	return droppedByWS[ws]
}

// setDropped tells the writer how many points of its request were left out, if any.
func setDropped(w http.ResponseWriter, n int) {
	if n > 0 {
		w.Header().Set(DroppedPointsHeader, strconv.Itoa(n))
	}
}

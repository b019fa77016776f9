package ingest

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/VictoriaMetrics/VictoriaMetrics/lib/bloomfilter"
	"github.com/VictoriaMetrics/VictoriaMetrics/lib/logger"
	"github.com/VictoriaMetrics/VictoriaMetrics/lib/storage"
	"github.com/VictoriaMetrics/metrics"
	"github.com/cespare/xxhash/v2"

	"vigil/storage/lib/apierror"
	"vigil/storage/lib/tenancy"
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
		"whatever its own limit (X-Vigil-Max-Active-Series) says; a workspace near its limit keeps a filter of 2 bytes per series of the limit")
	activeSeriesReportInterval = flag.Duration("ingest.activeSeriesReportInterval", time.Minute, "How often each limited workspace's number of "+
		"active series is written, as "+tenancy.UsageActiveSeriesName+" in storage's own workspace "+tenancy.UsageWorkspace+
		" (GET /internal/v1/usage/active_series reads a workspace's)")
	activeSeriesWindow = flag.Duration("ingest.activeSeriesWindow", time.Hour, "How long a series counts as active after a point: "+
		"each workspace's set of active series starts afresh at this interval, and is forgotten after a whole one without writes")

	seriesLimitDropped = metrics.NewCounter(`vigil_ingest_series_limit_dropped_points_total`)
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

// activeSeries is what a workspace wrote in the current window (-ingest.activeSeriesWindow),
// under its limit of max series: the hashes of its series, exactly, while they are few, and
// once they outgrow an eighth of the limit, VictoriaMetrics' Bloom filter limiter (the one
// behind -storage.maxHourlySeries: 2 bytes per series of the limit, allocated at once),
// which is the smaller of the two from there on. A workspace costs memory for the series it
// writes, not for its limit, until it comes near the limit; one that wrote nothing for a
// whole window is forgotten (sweepActiveSeries).
type activeSeries struct {
	mu    sync.Mutex
	max   int
	start time.Time // of the current window
	used  time.Time // the last write
	exact map[uint64]struct{}
	bloom *bloomfilter.Limiter
	gone  bool // forgotten: writers holding it look it up again
}

const (
	// exactSeriesBytes is about what the exact set costs per series (a Go map's slot of a
	// uint64 key and its share of empty slots).
	exactSeriesBytes = 16
	// exactSeriesMin: the exact set is kept up to this many series whatever the limit (a
	// limit this small costs little either way, and counts exactly).
	exactSeriesMin = 4096
)

// add reports whether the series with hash h may be written: it is known, or the limit
// leaves room for it. The caller holds a.mu.
func (a *activeSeries) add(h uint64) bool {
	if a.bloom != nil {
		return a.bloom.Add(h)
	}
	if _, ok := a.exact[h]; ok {
		return true
	}
	if len(a.exact) >= a.max {
		return false
	}
	a.exact[h] = struct{}{}
	if len(a.exact) > max(a.max/8, exactSeriesMin) {
		// Resets are ours (window, limit change): the limiter's own refresh never comes.
		a.bloom = bloomfilter.NewLimiter(a.max, 100*365*24*time.Hour)
		for k := range a.exact {
			a.bloom.Add(k)
		}
		a.exact = nil
	}
	return true
}

// reset starts a new window with limit max. The caller holds a.mu.
func (a *activeSeries) reset(limit int, now time.Time) {
	a.drop()
	a.max, a.start = limit, now
	a.exact = map[uint64]struct{}{}
}

// drop frees the set. The caller holds a.mu.
func (a *activeSeries) drop() {
	if a.bloom != nil {
		a.bloom.MustStop()
		a.bloom = nil
	}
	a.exact = nil
}

// bytes is about what the set holds in memory. The caller holds a.mu.
func (a *activeSeries) bytes() int {
	if a.bloom != nil {
		return 2 * a.max
	}
	return exactSeriesBytes * len(a.exact)
}

var (
	activeMu    sync.Mutex
	activeByWS  = map[string]*activeSeries{}
	droppedMu   sync.Mutex
	droppedByWS = map[string]uint64{}

	_ = metrics.NewGauge(`vigil_ingest_series_limit_workspaces`, func() float64 {
		activeMu.Lock()
		defer activeMu.Unlock()
		return float64(len(activeByWS))
	})
	_ = metrics.NewGauge(`vigil_ingest_series_limit_bytes`, func() float64 {
		activeMu.Lock()
		defer activeMu.Unlock()
		n := 0
		for _, a := range activeByWS {
			a.mu.Lock()
			n += a.bytes()
			a.mu.Unlock()
		}
		return float64(n)
	})
)

// lockActive returns ws's active series under limit max, locked, in a window that is
// current at now (a new one when the window passed or the limit changed).
func lockActive(ws string, limit int, now time.Time) *activeSeries {
	for {
		activeMu.Lock()
		a := activeByWS[ws]
		if a == nil {
			a = &activeSeries{}
			activeByWS[ws] = a
		}
		activeMu.Unlock()
		a.mu.Lock()
		if a.gone {
			a.mu.Unlock()
			continue
		}
		if a.max != limit || now.Sub(a.start) >= *activeSeriesWindow {
			a.reset(limit, now)
		}
		a.used = now
		return a
	}
}

// sweepActiveSeries forgets the workspaces that wrote nothing for a whole window before now:
// their next write starts a new window anyway.
func sweepActiveSeries(now time.Time) {
	activeMu.Lock()
	defer activeMu.Unlock()
	for ws, a := range activeByWS {
		a.mu.Lock()
		if now.Sub(a.used) >= *activeSeriesWindow {
			a.drop()
			a.gone = true
			delete(activeByWS, ws)
		}
		a.mu.Unlock()
	}
}

// ActiveSeriesWindow is how long a series counts as active after a point.
func ActiveSeriesWindow() time.Duration { return *activeSeriesWindow }

// count is how many series the set holds in the window current at now (0 once it passed).
// The caller holds a.mu.
func (a *activeSeries) count(now time.Time) int {
	switch {
	case now.Sub(a.start) >= *activeSeriesWindow:
		return 0
	case a.bloom != nil:
		return a.bloom.CurrentItems()
	default:
		return len(a.exact)
	}
}

// reportActiveSeries writes, at now, each tracked workspace's number of active series into
// the usage workspace, as vigil_usage:active_series{workspace="<id>"}.
func reportActiveSeries(ctx context.Context, now time.Time) error {
	var lines []byte
	activeMu.Lock()
	for ws, a := range activeByWS {
		a.mu.Lock()
		n := a.count(now)
		a.mu.Unlock()
		// workspace ids are [A-Za-z0-9_-]: nothing to escape
		lines = fmt.Appendf(lines, "%s,%s=%s %s=%di %d\n",
			tenancy.UsageMeasurement, tenancy.UsageWorkspaceTag, ws, tenancy.UsageActiveSeries, n, now.UnixMilli())
	}
	activeMu.Unlock()
	if len(lines) == 0 {
		return nil
	}
	return writeLines(ctx, tenancy.UsageWorkspace, lines, now.UnixMilli())
}

var (
	activeLoopStop chan struct{}
	activeLoopDone chan struct{}
)

// StartActiveSeries writes each limited workspace's number of active series every
// -ingest.activeSeriesReportInterval, and forgets the workspaces idle for a whole window,
// until StopActiveSeries.
func StartActiveSeries() {
	activeLoopStop, activeLoopDone = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(activeLoopDone)
		t := time.NewTicker(*activeSeriesReportInterval)
		defer t.Stop()
		for {
			select {
			case <-activeLoopStop:
				return
			case now := <-t.C:
				if err := reportActiveSeries(context.Background(), now); err != nil {
					logger.Errorf("cannot write the workspaces' active series: %s", err)
				}
				sweepActiveSeries(now)
			}
		}
	}()
}

// StopActiveSeries stops what StartActiveSeries started.
func StopActiveSeries() {
	close(activeLoopStop)
	<-activeLoopDone
}

// ForgetWorkspace drops ws's active series and counts (its workspace was deleted).
func ForgetWorkspace(ws string) {
	activeMu.Lock()
	if a := activeByWS[ws]; a != nil {
		a.mu.Lock()
		a.drop()
		a.gone = true
		a.mu.Unlock()
		delete(activeByWS, ws)
	}
	activeMu.Unlock()
	droppedMu.Lock()
	delete(droppedByWS, ws)
	droppedMu.Unlock()
}

// limitRows keeps the rows whose series ws may have under its limit of max active series
// (0: all of them), in place, and returns them with how many were left out.
func limitRows(ws string, limit int, mrs []storage.MetricRow) ([]storage.MetricRow, int) {
	if limit <= 0 || len(mrs) == 0 {
		return mrs, 0
	}
	a := lockActive(ws, limit, time.Now())
	kept := mrs[:0]
	for _, mr := range mrs {
		if a.add(xxhash.Sum64(mr.MetricNameRaw)) {
			kept = append(kept, mr)
		}
	}
	a.mu.Unlock()
	dropped := len(mrs) - len(kept)
	clear(mrs[len(kept):])
	countDropped(ws, dropped)
	return kept, dropped
}

// limitSamples is limitRows for samples (remote_write, remote mode).
func limitSamples(ws string, limit int, samples []Sample) ([]Sample, int) {
	if limit <= 0 || len(samples) == 0 {
		return samples, 0
	}
	a := lockActive(ws, limit, time.Now())
	kept := samples[:0]
	var buf []byte
	for _, s := range samples {
		buf = storage.MarshalMetricNameRaw(buf[:0], s.Labels)
		if a.add(xxhash.Sum64(buf)) {
			kept = append(kept, s)
		}
	}
	a.mu.Unlock()
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

package retention

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"net/http"
	"sync"
	"time"

	"github.com/VictoriaMetrics/VictoriaMetrics/app/vmselect/netstorage"
	"github.com/VictoriaMetrics/VictoriaMetrics/app/vmselect/promql"
	"github.com/VictoriaMetrics/VictoriaMetrics/app/vmselect/searchutil"
	"github.com/VictoriaMetrics/VictoriaMetrics/app/vmstorage"
	"github.com/VictoriaMetrics/VictoriaMetrics/lib/prompb"
	"github.com/VictoriaMetrics/VictoriaMetrics/lib/storage"

	"vigil/storage/app/tenancy"
	"vigil/storage/app/tombstones"
	"vigil/storage/lib/apierror"
)

var (
	deleteBatchSeries = flag.Int("retention.deleteBatchSeries", 1000, "Series rewritten at a time when a workspace's points older than its retention "+
		"are deleted (POST /internal/v1/retention); the workspace's writes wait while a batch is rewritten. See also -retention.deleteBatchPoints")
	deleteBatchPoints = flag.Int("retention.deleteBatchPoints", 2_000_000, "Points kept in memory at most while a batch of series is rewritten; "+
		"a batch holding more is split (a single series is rewritten whole)")
)

// Deleted is what DeleteOlder did.
type Deleted struct {
	// Series is the number of series that held points older than the cut-off.
	Series int `json:"series"`
	// KeptPoints is the number of their points at or after the cut-off, written back.
	KeptPoints int `json:"kept_points"`
}

// running serializes DeleteOlder per workspace.
var running sync.Map // workspace -> *sync.Mutex

// DeleteOlder deletes the points of workspace ws older than before (ms) from the embedded
// storage. Only series holding a point older than olderThan (<= before) are touched, so a
// caller can let points pass the cut-off for a while before paying for their deletion.
//
// VictoriaMetrics deletes whole series only (and drops old samples only at its own,
// storage-wide retention), so a series is rewritten: its points at or after the cut-off are
// read, the series is deleted and the points are written back, in batches of
// -retention.deleteBatchSeries series, with the workspace's writes held meanwhile so that
// none lands in a series between its read and its delete. Every series the delete of a batch
// matches is read and written back, so nothing is lost whatever the filters match.
func DeleteOlder(ctx context.Context, ws string, before, olderThan int64) (Deleted, error) {
	if olderThan > before {
		olderThan = before
	}
	mu, _ := running.LoadOrStore(ws, &sync.Mutex{})
	mu.(*sync.Mutex).Lock()
	defer mu.(*sync.Mutex).Unlock()

	var out Deleted
	if tombstones.Deleted(ws) {
		return out, nil
	}
	// Points written a moment ago are searchable only after the next flush.
	vmstorage.DebugFlush()
	candidates, err := seriesOlderThan(ctx, ws, olderThan)
	if err != nil {
		return out, err
	}
	for start := 0; start < len(candidates); start += *deleteBatchSeries {
		batch := candidates[start:min(start+*deleteBatchSeries, len(candidates))]
		n, err := rewrite(ctx, ws, batch, before)
		if err != nil {
			return out, err
		}
		out.Series += len(batch)
		out.KeptPoints += n
	}
	if out.Series > 0 {
		vmstorage.DebugFlush()
		// Cached answers may hold what the deleted points gave.
		promql.ResetRollupResultCache()
	}
	return out, nil
}

// seriesOlderThan returns, as exact filters, the series of ws with a point older than t.
func seriesOlderThan(ctx context.Context, ws string, t int64) ([][]storage.TagFilter, error) {
	if t <= 0 {
		return nil, nil
	}
	sq := storage.NewSearchQuery(0, t-1, tenancy.TagFilterss(ws), math.MaxInt32)
	rss, err := netstorage.ProcessSearchQuery(nil, sq, deadline(ctx))
	if err != nil {
		return nil, fmt.Errorf("cannot search the series of workspace %s older than %s: %w", ws, fmtTime(t), err)
	}
	var mu sync.Mutex
	var out [][]storage.TagFilter
	err = rss.RunParallel(nil, func(rs *netstorage.Result, _ uint) error {
		old := false
		for _, ts := range rs.Timestamps {
			if ts < t {
				old = true
				break
			}
		}
		if !old {
			return nil
		}
		tfs := exactFilters(&rs.MetricName)
		mu.Lock()
		out = append(out, tfs)
		mu.Unlock()
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("cannot read the series of workspace %s older than %s: %w", ws, fmtTime(t), err)
	}
	return out, nil
}

// exactFilters returns filters matching the series named mn (and any series with more labels:
// rewrite reads back whatever they match).
func exactFilters(mn *storage.MetricName) []storage.TagFilter {
	tfs := make([]storage.TagFilter, 0, len(mn.Tags)+1)
	tfs = append(tfs, storage.TagFilter{Key: nil, Value: append([]byte(nil), mn.MetricGroup...)})
	for _, tag := range mn.Tags {
		tfs = append(tfs, storage.TagFilter{Key: append([]byte(nil), tag.Key...), Value: append([]byte(nil), tag.Value...)})
	}
	return tfs
}

// rewrite deletes the series matching tfss and writes back their points at or after before,
// with the workspace's writes held. It returns the number of points written back.
func rewrite(ctx context.Context, ws string, tfss [][]storage.TagFilter, before int64) (int, error) {
	kept := 0
	err := tombstones.Pause(ws, func() error {
		// Writes that finished just before the pause must be searchable to be read back.
		vmstorage.DebugFlush()
		rows, tooMany, err := readFrom(ctx, tfss, before)
		if err != nil {
			return err
		}
		if tooMany {
			return errSplit
		}
		end := time.Now().Add(365 * 24 * time.Hour).UnixMilli()
		if _, err := netstorage.DeleteSeries(nil, storage.NewSearchQuery(0, end, tfss, math.MaxInt32), deadline(ctx)); err != nil {
			return fmt.Errorf("cannot delete %d series of workspace %s: %w", len(tfss), ws, err)
		}
		for i := 0; i < len(rows); i += 100_000 {
			if err := vmstorage.VMInsertAPI.WriteRows(rows[i:min(i+100_000, len(rows))]); err != nil {
				return apierror.New(http.StatusServiceUnavailable, apierror.TypeUnavailable,
					"series of workspace %s were deleted but %d of their points could not be written back: %s", ws, len(rows)-i, err)
			}
		}
		kept = len(rows)
		return nil
	})
	if errors.Is(err, errSplit) {
		mid := len(tfss) / 2
		a, err := rewrite(ctx, ws, tfss[:mid], before)
		if err != nil {
			return a, err
		}
		b, err := rewrite(ctx, ws, tfss[mid:], before)
		return a + b, err
	}
	return kept, err
}

var errSplit = errors.New("the batch holds too many points; split it")

// readFrom returns the points at or after t of every series matching tfss, as rows to write
// back. tooMany is true (and no rows are returned) when tfss lists more than one series and
// the points number more than -retention.deleteBatchPoints.
func readFrom(ctx context.Context, tfss [][]storage.TagFilter, t int64) ([]storage.MetricRow, bool, error) {
	end := time.Now().Add(365 * 24 * time.Hour).UnixMilli()
	rss, err := netstorage.ProcessSearchQuery(nil, storage.NewSearchQuery(t, end, tfss, math.MaxInt32), deadline(ctx))
	if err != nil {
		return nil, false, fmt.Errorf("cannot search the points to keep: %w", err)
	}
	var mu sync.Mutex
	var rows []storage.MetricRow
	split := len(tfss) > 1
	err = rss.RunParallel(nil, func(rs *netstorage.Result, _ uint) error {
		labels := make([]prompb.Label, 0, len(rs.MetricName.Tags)+1)
		labels = append(labels, prompb.Label{Name: "__name__", Value: string(rs.MetricName.MetricGroup)})
		for _, tag := range rs.MetricName.Tags {
			labels = append(labels, prompb.Label{Name: string(tag.Key), Value: string(tag.Value)})
		}
		raw := storage.MarshalMetricNameRaw(nil, labels)
		mine := make([]storage.MetricRow, 0, len(rs.Timestamps))
		for i, ts := range rs.Timestamps {
			if ts >= t {
				mine = append(mine, storage.MetricRow{MetricNameRaw: raw, Timestamp: ts, Value: rs.Values[i]})
			}
		}
		mu.Lock()
		defer mu.Unlock()
		rows = append(rows, mine...)
		if split && len(rows) > *deleteBatchPoints {
			// Stop reading: the batch is split and read again in halves.
			return errSplit
		}
		return nil
	})
	if errors.Is(err, errSplit) {
		return nil, true, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("cannot read the points to keep: %w", err)
	}
	return rows, false, nil
}

func deadline(ctx context.Context) searchutil.Deadline {
	timeout := 10 * time.Minute
	if d, ok := ctx.Deadline(); ok {
		timeout = max(time.Until(d), time.Millisecond)
	}
	return searchutil.NewDeadline(time.Now(), timeout, "the retention run's deadline")
}

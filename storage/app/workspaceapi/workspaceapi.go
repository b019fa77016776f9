// Package workspaceapi serves the per-workspace administration endpoints: deleting all of a
// workspace's data and reporting its series usage, now and over time.
package workspaceapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/VictoriaMetrics/VictoriaMetrics/lib/httputil"

	"vigil/storage/app/ingest"
	"vigil/storage/app/promapi"
	"vigil/storage/app/retention"
	"vigil/storage/app/tombstones"
	"vigil/storage/app/vmsource"
	"vigil/storage/lib/apierror"
	"vigil/storage/lib/tenancy"
)

// Admin is the per-workspace storage administration the endpoints need.
type Admin interface {
	// DeleteAll deletes every series of the workspace and returns how many were deleted.
	DeleteAll(ctx context.Context) (int, error)
	// SeriesCount returns the number of the workspace's series with samples within [start, end].
	SeriesCount(ctx context.Context, start, end int64) (int, error)
	// StoredSamples returns how many samples of the workspace are stored, and in how many series.
	StoredSamples(ctx context.Context) (samples int64, series int, err error)
}

// BytesPerSample returns the bytes the storage spends per stored sample (data and index), or
// an error when it cannot tell (remote mode). Replaced in remote mode.
var BytesPerSample = func() (float64, error) { return vmsource.DiskBytesPerSample(), nil }

// NewAdmin returns the Admin of workspace ws: the embedded storage unless replaced (remote mode).
var NewAdmin = func(ws string) Admin { return vmsource.New(ws) }

// DeleteOlder deletes a workspace's points older than a cut-off: the embedded storage's
// retention.DeleteOlder unless replaced (remote mode refuses).
var DeleteOlder = retention.DeleteOlder

// RetentionHandler serves POST /internal/v1/retention?before=<time>[&older_than=<time>]:
// it deletes the points of ws older than before, touching only series that hold a point
// older than older_than (default before), and answers
// {"status":"success","series":n,"kept_points":m}. Times are RFC 3339 or Unix seconds.
// The caller (the backend's retention sweep) computes the cut-off from the workspace's
// retention and its own clock.
func RetentionHandler(w http.ResponseWriter, r *http.Request, ws string) error {
	if r.Method != http.MethodPost {
		return apierror.New(http.StatusMethodNotAllowed, apierror.TypeMethodNotAllowed, "method %s not allowed; use POST", r.Method)
	}
	if r.URL.Query().Get("before") == "" {
		return apierror.BadData("missing \"before\" parameter: the cut-off time, RFC 3339 or Unix seconds")
	}
	before, err := httputil.GetTime(r, "before", 0)
	if err != nil {
		return apierror.BadData("%s", err)
	}
	olderThan, err := httputil.GetTime(r, "older_than", before)
	if err != nil {
		return apierror.BadData("%s", err)
	}
	if before > time.Now().UnixMilli() {
		return apierror.BadData("before %s is in the future: only points older than the retention are deleted", time.UnixMilli(before).UTC().Format(time.RFC3339))
	}
	ctx, cancel := context.WithTimeout(r.Context(), 30*time.Minute)
	defer cancel()
	out, err := DeleteOlder(ctx, ws, before, olderThan)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/json")
	return json.NewEncoder(w).Encode(map[string]any{"status": "success", "series": out.Series, "kept_points": out.KeptPoints})
}

// activeWindow is how far back a series must have a sample to count as active.
const activeWindow = time.Hour

// DeleteHandler serves DELETE /internal/v1/workspace: it deletes every series of ws.
func DeleteHandler(w http.ResponseWriter, r *http.Request, ws string) error {
	if r.Method != http.MethodDelete {
		return apierror.New(http.StatusMethodNotAllowed, apierror.TypeMethodNotAllowed, "method %s not allowed; use DELETE", r.Method)
	}
	ctx, cancel := context.WithTimeout(r.Context(), 5*time.Minute)
	defer cancel()
	// From here on the workspace's writes are refused (410), for good once its series are gone:
	// points already on their way (the gateway, Kafka) must not bring any of them back.
	var n int
	err := tombstones.Delete(ws, func() error {
		var err error
		n, err = NewAdmin(ws).DeleteAll(ctx)
		return err
	})
	if err != nil {
		return err
	}
	ingest.ForgetWorkspace(ws)
	w.Header().Set("Content-Type", "application/json")
	return json.NewEncoder(w).Encode(map[string]any{"status": "success", "deleted_series": n})
}

// Usage is the answer of GET /internal/v1/usage.
type Usage struct {
	// ActiveSeries counts series with a sample in the last hour; null when there are too many
	// to count (Error says why).
	ActiveSeries *int `json:"active_series"`
	// SeriesTotal counts every series the workspace has stored and not deleted; null when there
	// are too many to count.
	SeriesTotal *int `json:"series_total"`
	// SeriesLimitDroppedPoints counts the points left out since this process started because
	// their series were new while the workspace had its limit of active series.
	SeriesLimitDroppedPoints uint64 `json:"series_limit_dropped_points"`
	// Error says why a count is missing.
	Error string `json:"error,omitempty"`
}

// UsageHandler serves GET /internal/v1/usage for ws. A workspace with more series than a
// count may scan (-vmsource.maxMetadataSeries) still gets the rest of its usage.
func UsageHandler(w http.ResponseWriter, r *http.Request, ws string) error {
	if r.Method != http.MethodGet {
		return apierror.New(http.StatusMethodNotAllowed, apierror.TypeMethodNotAllowed, "method %s not allowed; use GET", r.Method)
	}
	ctx, cancel := context.WithTimeout(r.Context(), time.Minute)
	defer cancel()
	src := NewAdmin(ws)
	now := time.Now()
	u := Usage{SeriesLimitDroppedPoints: ingest.DroppedPoints(ws)}
	count := func(what string, start int64) (*int, error) {
		n, err := src.SeriesCount(ctx, start, now.UnixMilli())
		if ae := (*apierror.Error)(nil); errors.As(err, &ae) && ae.Type == apierror.TypeLimitExceeded {
			if u.Error == "" {
				u.Error = fmt.Sprintf("%s not counted: %s", what, err)
			}
			return nil, nil
		}
		return &n, err
	}
	var err error
	if u.ActiveSeries, err = count("active series", now.Add(-activeWindow).UnixMilli()); err != nil {
		return err
	}
	if u.SeriesTotal, err = count("series stored", 0); err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/json")
	return json.NewEncoder(w).Encode(u)
}

// StoredData is the answer of GET /internal/v1/usage/storage.
type StoredData struct {
	// Samples counts the workspace's stored samples (duplicates not merged yet included).
	Samples int64 `json:"samples"`
	// Series counts the series those samples belong to.
	Series int `json:"series"`
	// Bytes estimates the disk the workspace takes: Samples times the storage's bytes per
	// sample (all its data and index over all its samples).
	Bytes int64 `json:"bytes"`
}

// StorageHandler serves GET /internal/v1/usage/storage for ws: how much it stores. It reads
// block headers, not samples, and is meant for an operator's overview, not for every request.
func StorageHandler(w http.ResponseWriter, r *http.Request, ws string) error {
	if r.Method != http.MethodGet {
		return apierror.New(http.StatusMethodNotAllowed, apierror.TypeMethodNotAllowed, "method %s not allowed; use GET", r.Method)
	}
	perSample, err := BytesPerSample()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(r.Context(), time.Minute)
	defer cancel()
	samples, series, err := NewAdmin(ws).StoredSamples(ctx)
	if err != nil {
		return err
	}
	d := StoredData{Samples: samples, Series: series, Bytes: int64(float64(samples)*perSample + 0.5)}
	w.Header().Set("Content-Type", "application/json")
	return json.NewEncoder(w).Encode(d)
}

// ActiveSeriesHandler serves GET /internal/v1/usage/active_series?start=&end=&step= for ws:
// its number of active series over time, as a Prometheus query_range answer with one series
// (none before vigil-storage first wrote the figure). Each point is the most the workspace
// had within the window before it (-ingest.activeSeriesWindow, or the step when longer),
// from what vigil-storage writes every -ingest.activeSeriesReportInterval while the
// workspace writes under a limit; it costs one series whatever the workspace's size.
func ActiveSeriesHandler(w http.ResponseWriter, r *http.Request, ws string) error {
	if r.Method != http.MethodGet {
		return apierror.New(http.StatusMethodNotAllowed, apierror.TypeMethodNotAllowed, "method %s not allowed; use GET", r.Method)
	}
	q := r.URL.Query()
	for _, name := range []string{"start", "end", "step"} {
		if q.Get(name) == "" {
			return apierror.BadData("missing %q parameter", name)
		}
	}
	step, err := httputil.GetDuration(r, "step", 0)
	if err != nil {
		return apierror.BadData("%s", err)
	}
	if step <= 0 {
		return apierror.BadData("step must be positive; got %q", q.Get("step"))
	}
	lookback := max(time.Duration(step)*time.Millisecond, ingest.ActiveSeriesWindow())
	query := fmt.Sprintf("max_over_time(%s{%s=%q}[%ds])",
		tenancy.UsageActiveSeriesName, tenancy.UsageWorkspaceTag, ws, int64(lookback/time.Second))
	form := url.Values{"query": {query}, "start": {q.Get("start")}, "end": {q.Get("end")}, "step": {q.Get("step")}}
	r2 := r.Clone(r.Context())
	r2.URL.RawQuery = form.Encode()
	r2.Form, r2.PostForm = nil, nil
	_, err = promapi.Handler(w, r2, "/api/v1/query_range", tenancy.UsageWorkspace)
	return err
}

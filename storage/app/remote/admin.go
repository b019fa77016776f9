package remote

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/VictoriaMetrics/metricsql"

	"vigil/storage/lib/apierror"
	"vigil/storage/lib/tenancy"
)

// Query answers /api/v1/query or /api/v1/query_range for workspace ws by forwarding the
// already checked and scoped form (it carries extra_label) to vmselect. It implements
// promapi.Backend.Query.
func Query(r *http.Request, ws string, isRange bool) (int, []byte, error) {
	path := "/api/v1/query"
	if isRange {
		path = "/api/v1/query_range"
	}
	if r.Form.Get("extra_label") != tenancy.Label+"="+ws {
		return 0, nil, apierror.New(http.StatusInternalServerError, apierror.TypeInternal, "BUG: the query form is not scoped to workspace %q", ws)
	}
	req, err := http.NewRequest(http.MethodPost, selectURL(ws, path), strings.NewReader(r.Form.Encode()))
	if err != nil {
		return 0, nil, apierror.New(http.StatusInternalServerError, apierror.TypeInternal, "BUG: cannot build request: %s", err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	body, err := do(r.Context(), req, *maxResponseSize)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, body, nil
}

type seriesResponse struct {
	Status string              `json:"status"`
	Data   []map[string]string `json:"data"`
}

// Series returns the label sets of the workspace's series matching filterss within [start, end].
func (s *Source) Series(ctx context.Context, filterss [][]metricsql.LabelFilter, start, end int64, limit int) ([]map[string]string, error) {
	maxN := s.maxSeries(0)
	if limit > 0 && limit < maxN {
		maxN = limit
	}
	data, err := s.seriesOf(ctx, filterss, start, end, maxN+1)
	if err != nil {
		return nil, err
	}
	if len(data) > maxN {
		if limit > 0 && limit == maxN {
			data = data[:limit]
		} else {
			return nil, tooManySeries(maxN)
		}
	}
	for _, m := range data {
		delete(m, tenancy.Label)
	}
	if data == nil {
		data = []map[string]string{}
	}
	return data, nil
}

// SeriesCount returns the number of the workspace's series with samples within [start, end].
func (s *Source) SeriesCount(ctx context.Context, start, end int64) (int, error) {
	args := s.scopedArgs()
	args.Set("match[]", `{__name__!=""}`)
	args.Set("start", secs(start))
	args.Set("end", secs(end))
	body, err := s.post(ctx, "/api/v1/series", args)
	if err != nil {
		return 0, err
	}
	var sr seriesResponse
	if err := json.Unmarshal(body, &sr); err != nil {
		return 0, apierror.New(http.StatusServiceUnavailable, apierror.TypeUnavailable, "cannot parse vmselect series answer: %s", err)
	}
	return len(sr.Data), nil
}

// DeleteAll deletes every series of the workspace. The count is taken just before deleting.
//
// Series written in the last moment are not searchable yet, so neither the count nor the
// delete would find them, and they would outlive it. A single-node VictoriaMetrics makes them
// searchable on /internal/force_flush, asked first. A cluster's vmstorage nodes offer that
// only on their own ports, which vigil-storage does not know, so there the delete runs a
// second time after -remote.deleteSettle: the caller (app/tombstones) refuses the workspace's
// writes meanwhile, so by then everything it was sent is searchable.
func (s *Source) DeleteAll(ctx context.Context) (int, error) {
	if !*clusterPaths {
		if err := forceFlush(ctx); err != nil {
			return 0, err
		}
	}
	n, err := s.SeriesCount(ctx, 0, time.Now().UnixMilli())
	if err != nil {
		return 0, err
	}
	if err := s.deleteSeries(ctx); err != nil {
		return 0, err
	}
	if !*clusterPaths || *deleteSettle <= 0 {
		return n, nil
	}
	select {
	case <-time.After(*deleteSettle):
	case <-ctx.Done():
		return 0, apierror.New(http.StatusServiceUnavailable, apierror.TypeUnavailable, "workspace delete interrupted: %s; retry", ctx.Err())
	}
	late, err := s.SeriesCount(ctx, 0, time.Now().UnixMilli())
	if err != nil {
		return 0, err
	}
	if late == 0 {
		return n, nil
	}
	if err := s.deleteSeries(ctx); err != nil {
		return 0, err
	}
	return n + late, nil
}

// deleteSeries asks vmselect to delete every series of the workspace.
func (s *Source) deleteSeries(ctx context.Context) error {
	me := &metricsql.MetricExpr{LabelFilterss: [][]metricsql.LabelFilter{{{Label: tenancy.Label, Value: s.workspace}}}}
	args := url.Values{"match[]": {string(me.AppendString(nil))}}
	req, err := http.NewRequest(http.MethodPost, deleteURL(s.workspace, "/api/v1/admin/tsdb/delete_series"), strings.NewReader(args.Encode()))
	if err != nil {
		return apierror.New(http.StatusInternalServerError, apierror.TypeInternal, "BUG: cannot build request: %s", err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	_, err = do(ctx, req, 1<<20)
	return err
}

// forceFlush makes what a single-node VictoriaMetrics has taken so far searchable.
func forceFlush(ctx context.Context) error {
	req, err := http.NewRequest(http.MethodGet, strings.TrimSuffix(*vminsertURL, "/")+"/internal/force_flush", nil)
	if err != nil {
		return apierror.New(http.StatusInternalServerError, apierror.TypeInternal, "BUG: cannot build request: %s", err)
	}
	_, err = do(ctx, req, 1<<20)
	return err
}

// errNoStoredSize is the answer to a storage size request in remote mode: a VictoriaMetrics
// cluster keeps no size per tenant, and counting samples there would read them all.
var errNoStoredSize = apierror.New(http.StatusNotImplemented, apierror.TypeUnavailable,
	"stored samples and bytes per workspace are not available in remote mode; see the cluster's vmstorage metrics")

// StoredSamples is not available in remote mode.
func (s *Source) StoredSamples(context.Context) (int64, int, error) {
	return 0, 0, errNoStoredSize
}

// BytesPerSample is not available in remote mode.
func BytesPerSample() (float64, error) { return 0, errNoStoredSize }

// Package promapi serves the Prometheus HTTP read API for one workspace.
//
// /api/v1/query and /api/v1/query_range run VictoriaMetrics' own handlers after the query
// was parsed and refused if it names a tenant label; the workspace filter reaches the
// engine as a parsed tag filter (extra_label → promql.EvalConfig.EnforcedTagFilterss), and
// the tenant label is removed from the JSON answer. /api/v1/series, labels, label values
// and export go through vmsource, which scopes and strips the same way.
package promapi

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/VictoriaMetrics/VictoriaMetrics/app/vmselect/prometheus"
	"github.com/VictoriaMetrics/VictoriaMetrics/app/vmselect/searchutil"
	"github.com/VictoriaMetrics/VictoriaMetrics/lib/httputil"
	"github.com/VictoriaMetrics/metricsql"

	"vigil/storage/app/querylimits"
	"vigil/storage/app/retention"
	"vigil/storage/app/vmsource"
	"vigil/storage/lib/apierror"
	"vigil/storage/lib/dql"
	"vigil/storage/lib/tenancy"
)

// Source is what the series, labels, label values and export endpoints read from: the
// embedded storage (vmsource) or a remote cluster (remote), scoped to one workspace.
type Source interface {
	dql.Source
	// Series returns the label sets of the series matching filterss within [start, end].
	Series(ctx context.Context, filterss [][]metricsql.LabelFilter, start, end int64, limit int) ([]map[string]string, error)
}

// Backend is where the API's requests go.
type Backend struct {
	// Source returns the scoped source of workspace ws, limited to maxSeries series per call.
	Source func(ws string, maxSeries int) Source
	// Query answers /api/v1/query (isRange false) or /api/v1/query_range for workspace ws.
	// r.Form is already checked and carries the workspace filter as extra_label. It returns
	// the JSON answer, which still holds the tenant label; the caller owns it from then on
	// (it is rewritten in place).
	Query func(r *http.Request, ws string, isRange bool) (status int, body []byte, err error)
	// Release, when set, takes back the array of a body Query returned once the answer is
	// sent, for Query to write a later answer into.
	Release func(body []byte)
}

var backend = Backend{
	Source: func(ws string, maxSeries int) Source {
		src := vmsource.New(ws)
		src.MaxSeries = maxSeries
		return src
	},
	Query:   embeddedQuery,
	Release: putAnswerBuffer,
}

// SetBackend replaces the embedded storage with b (remote mode).
func SetBackend(b Backend) { backend = b }

// Handler serves path for workspace ws and reports whether path belongs to this API.
func Handler(w http.ResponseWriter, r *http.Request, path, ws string) (bool, error) {
	var h func(http.ResponseWriter, *http.Request, string, querylimits.Limits) error
	switch path {
	case "/api/v1/query":
		h = queryHandler
	case "/api/v1/query_range":
		h = queryRangeHandler
	case "/api/v1/series":
		h = seriesHandler
	case "/api/v1/labels":
		h = labelsHandler
	case "/api/v1/export":
		h = exportHandler
	case "/api/v1/format_query":
		h = formatQueryHandler
	default:
		if name, ok := strings.CutPrefix(path, "/api/v1/label/"); ok {
			if name, ok = strings.CutSuffix(name, "/values"); ok && name != "" && !strings.Contains(name, "/") {
				h = func(w http.ResponseWriter, r *http.Request, ws string, lim querylimits.Limits) error {
					return labelValuesHandler(w, r, ws, name, lim)
				}
			}
		}
	}
	if h == nil {
		return false, nil
	}
	if r.Method != http.MethodGet && r.Method != http.MethodPost {
		return true, apierror.New(http.StatusMethodNotAllowed, apierror.TypeMethodNotAllowed, "method %s not allowed; use GET or POST", r.Method)
	}
	if err := r.ParseForm(); err != nil {
		return true, apierror.BadData("cannot parse request parameters: %s", err)
	}
	lim, err := querylimits.FromRequest(r)
	if err != nil {
		return true, err
	}
	return true, h(w, r, ws, lim)
}

// scopeForm makes VictoriaMetrics' handlers enforce workspace ws: it drops every
// caller-supplied extra filter and the trace switch, then adds the tenant filter. Both the
// form and the URL's query are rewritten: VictoriaMetrics (since v1.143.0, v1.136.9 and
// v1.122.22) reads extra_label and extra_filters from the URL's query first, and from the
// form only when the URL has none.
func scopeForm(r *http.Request, ws string, lim querylimits.Limits) {
	query := r.URL.Query()
	for _, k := range []string{"extra_label", "extra_filters", "extra_filters[]", "trace", "timeout"} {
		r.Form.Del(k)
		r.PostForm.Del(k)
		query.Del(k)
	}
	tenant := tenancy.Label + "=" + ws
	r.Form.Set("extra_label", tenant)
	r.Form.Set("timeout", lim.Timeout.String())
	query.Set("extra_label", tenant)
	r.URL.RawQuery = query.Encode()
}

func checkTimeArgs(r *http.Request, names ...string) error {
	for _, name := range names {
		if _, err := httputil.GetTime(r, name, 0); err != nil {
			return apierror.BadData("%s", err)
		}
	}
	return nil
}

func checkDurationArgs(r *http.Request, names ...string) error {
	for _, name := range names {
		if _, err := httputil.GetDuration(r, name, 0); err != nil {
			return apierror.BadData("%s", err)
		}
	}
	return nil
}

func queryHandler(w http.ResponseWriter, r *http.Request, ws string, lim querylimits.Limits) error {
	return runVMQuery(w, r, ws, lim, false)
}

func queryRangeHandler(w http.ResponseWriter, r *http.Request, ws string, lim querylimits.Limits) error {
	return runVMQuery(w, r, ws, lim, true)
}

func runVMQuery(w http.ResponseWriter, r *http.Request, ws string, lim querylimits.Limits, isRange bool) error {
	q := r.Form.Get("query")
	if q == "" {
		return apierror.BadData("missing `query` parameter")
	}
	if err := checkQueryLen("query", q); err != nil {
		return err
	}
	expr, err := tenancy.ParseQuery(q)
	if err != nil {
		return apierror.BadData("%s", err)
	}
	// series of two metrics match as in Prometheus, whatever storage derives from their names
	r.Form.Set("query", string(tenancy.MatchLikePrometheus(expr).AppendString(nil)))
	if err := checkTimeArgs(r, "time", "start", "end"); err != nil {
		return err
	}
	if err := checkDurationArgs(r, "step"); err != nil {
		return err
	}
	// VictoriaMetrics' defaults: time = end = now, start = now - 5m.
	now := time.Now().UnixMilli()
	if isRange {
		end, _ := httputil.GetTime(r, "end", now)
		start, _ := httputil.GetTime(r, "start", now-5*60*1000)
		if start > end {
			return apierror.BadData("start %s is after end %s", fmtMillis(start), fmtMillis(end))
		}
		if spansMore(start, end, lim.MaxDuration) {
			return apierror.New(http.StatusUnprocessableEntity, apierror.TypeLimitExceeded,
				"the query spans %s; the max duration limit is %s", fmtSpan(start, end), lim.MaxDuration)
		}
		// each series has a point per step: refused before it runs when one series alone is too many
		if step, _ := httputil.GetDuration(r, "step", 0); step > 0 && lim.MaxPoints > 0 && (end-start)/step+1 > int64(lim.MaxPoints) {
			return apierror.New(http.StatusUnprocessableEntity, apierror.TypeLimitExceeded,
				"the query has %d points per series; the max points limit is %d per query: shorten the range or raise the step",
				(end-start)/step+1, lim.MaxPoints)
		}
		if lim.Retention > 0 {
			step, _ := httputil.GetDuration(r, "step", defaultStep)
			moved, err := retention.ClampRange(expr, start, end, max(step, 1), retention.Oldest(now, lim.Retention))
			if err != nil {
				return err
			}
			if moved != start {
				setFormTime(r, "start", moved)
			}
		}
	} else if lim.Retention > 0 {
		at, _ := httputil.GetTime(r, "time", now)
		if err := retention.CheckInstant(expr, at, instantStep(r), retention.Oldest(now, lim.Retention)); err != nil {
			return err
		}
	}
	scopeForm(r, ws, lim)
	status, raw, err := backend.Query(r, ws, isRange)
	if err != nil {
		return err
	}
	if backend.Release != nil {
		defer backend.Release(raw) // the array serves a later answer once this one is sent
	}
	body, points, err := StripQueryResponse(raw)
	if err != nil {
		return apierror.New(http.StatusInternalServerError, apierror.TypeInternal, "cannot rewrite query response: %s", err)
	}
	if lim.MaxPoints > 0 && points > lim.MaxPoints {
		return apierror.New(http.StatusUnprocessableEntity, apierror.TypeLimitExceeded,
			"the answer has %d points; the max points limit is %d per query: narrow the selection, shorten the range or raise the step", points, lim.MaxPoints)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
	return nil
}

// formatQueryHandler answers /api/v1/format_query: the query, parsed as /api/v1/query parses
// it (a query that names a tenant label is refused the same way), printed back in MetricsQL's
// pretty form. It reads no data.
func formatQueryHandler(w http.ResponseWriter, r *http.Request, _ string, _ querylimits.Limits) error {
	q := r.Form.Get("query")
	if q == "" {
		return apierror.BadData("missing `query` parameter")
	}
	if err := checkQueryLen("query", q); err != nil {
		return err
	}
	if _, err := tenancy.ParseQuery(q); err != nil {
		return apierror.BadData("%s", err)
	}
	pretty, err := metricsql.Prettify(q)
	if err != nil {
		return apierror.BadData("cannot format query %q: %s", q, err)
	}
	w.Header().Set("Content-Type", "application/json")
	return json.NewEncoder(w).Encode(map[string]string{"status": "success", "data": pretty})
}

// embeddedQuery runs VictoriaMetrics' own query handlers in-process.
func embeddedQuery(r *http.Request, _ string, isRange bool) (int, []byte, error) {
	bw := newBufferedResponse()
	var err error
	if isRange {
		err = prometheus.QueryRangeHandler(nil, time.Now(), bw, r)
	} else {
		err = prometheus.QueryHandler(nil, time.Now(), bw, r)
	}
	if err != nil {
		putAnswerBuffer(bw.buf)
		return 0, nil, vmError(err)
	}
	return bw.status, bw.buf, nil
}

// vmError classifies an error returned by a VictoriaMetrics handler.
func vmError(err error) error {
	msg := err.Error()
	switch {
	case strings.Contains(msg, "timeout exceeded"):
		return apierror.New(http.StatusServiceUnavailable, apierror.TypeTimeout, "%s", msg)
	case strings.Contains(msg, "the number of matching timeseries exceeds"),
		strings.Contains(msg, "too many points"),
		strings.Contains(msg, "-search.max"):
		return apierror.New(http.StatusUnprocessableEntity, apierror.TypeLimitExceeded, "%s", msg)
	case strings.Contains(msg, "cannot parse"), strings.Contains(msg, "missing `"):
		return apierror.BadData("%s", msg)
	}
	return apierror.New(http.StatusUnprocessableEntity, apierror.TypeExecution, "%s", msg)
}

// bufferedResponse collects a handler's answer so it can be rewritten before it leaves.
type bufferedResponse struct {
	header http.Header
	status int
	buf    []byte
}

func newBufferedResponse() *bufferedResponse {
	return &bufferedResponse{header: make(http.Header), status: http.StatusOK, buf: getAnswerBuffer()}
}

func (b *bufferedResponse) Header() http.Header { return b.header }
func (b *bufferedResponse) Write(p []byte) (int, error) {
	b.buf = append(b.buf, p...)
	return len(p), nil
}
func (b *bufferedResponse) WriteHeader(status int) { b.status = status }

// answerBuffers holds the arrays of answers already sent. A query's answer reaches megabytes
// (1,000 series over days); growing a fresh one for every query, and collecting it
// afterwards, cost more than rewriting it. Arrays above maxPooledAnswer are left to the
// garbage collector, so a rare huge answer is not kept.
var answerBuffers sync.Pool

const maxPooledAnswer = 64 << 20

func getAnswerBuffer() []byte {
	if p, ok := answerBuffers.Get().(*[]byte); ok {
		return (*p)[:0]
	}
	return nil
}

// putAnswerBuffer keeps b's array for a later answer; b must not be used afterwards.
func putAnswerBuffer(b []byte) {
	if cap(b) == 0 || cap(b) > maxPooledAnswer {
		return
	}
	b = b[:0]
	answerBuffers.Put(&b)
}

// spansMore reports whether [start, end] (milliseconds) is longer than max, counted in
// milliseconds: a span of centuries in nanoseconds overflows.
func spansMore(start, end int64, maxSpan time.Duration) bool {
	span := end - start
	return span < 0 && end > start || span > maxSpan.Milliseconds()
}

// fmtSpan writes the span [start, end] (milliseconds) in whole hours, minutes and seconds.
func fmtSpan(start, end int64) string {
	if span := end - start; span <= math.MaxInt64/int64(time.Millisecond) {
		return (time.Duration(span) * time.Millisecond).Round(time.Second).String()
	}
	return fmt.Sprintf("%dh", (end-start)/3_600_000)
}

func fmtMillis(ms int64) string { return time.UnixMilli(ms).UTC().Format(time.RFC3339) }

// checkQueryLen refuses a query longer than -search.maxQueryLen before it is parsed, as
// VictoriaMetrics' own handlers do: parsing one of unbounded length (half a megabyte of
// nested unary minus) exhausts the stack and takes the process down.
func checkQueryLen(what, q string) error {
	if n := searchutil.GetMaxQueryLen(); len(q) > n {
		return apierror.BadData("%s is %d bytes long; the maximum is %d bytes (-search.maxQueryLen)", what, len(q), n)
	}
	return nil
}

// matches parses the match[] arguments into or-delimited filter lists.
func matches(r *http.Request, required bool) ([][]metricsql.LabelFilter, error) {
	args := append(append([]string{}, r.Form["match[]"]...), r.Form["match"]...)
	if len(args) == 0 && required {
		return nil, apierror.BadData("missing `match[]` parameter")
	}
	var lfss [][]metricsql.LabelFilter
	for _, m := range args {
		if err := checkQueryLen("match[]", m); err != nil {
			return nil, err
		}
		x, err := tenancy.ParseSeriesSelector(m)
		if err != nil {
			return nil, apierror.BadData("match[]: %s", err)
		}
		lfss = append(lfss, x...)
	}
	return lfss, nil
}

// timeRange reads start and end (defaults: all time up to now) in milliseconds.
func timeRange(r *http.Request) (int64, int64, error) {
	now := time.Now().UnixMilli()
	start, err := httputil.GetTime(r, "start", 0)
	if err != nil {
		return 0, 0, apierror.BadData("%s", err)
	}
	end, err := httputil.GetTime(r, "end", now)
	if err != nil {
		return 0, 0, apierror.BadData("%s", err)
	}
	if start > end {
		return 0, 0, apierror.BadData("start (%d) must not be after end (%d)", start, end)
	}
	return start, end, nil
}

// defaultStep is VictoriaMetrics' step of a range query without one, and of an instant
// query's `[1i]` windows and look-back.
const defaultStep = 5 * 60 * 1000

// instantStep is the step VictoriaMetrics evaluates an instant query with: the step argument,
// else max_lookback, else 5 minutes; the largest of them, since a longer step only reads further
// back.
func instantStep(r *http.Request) int64 {
	step, _ := httputil.GetDuration(r, "step", 0)
	lookback, _ := httputil.GetDuration(r, "max_lookback", 0)
	return max(step, lookback, defaultStep)
}

// setFormTime replaces a time argument of the request's form (milliseconds).
func setFormTime(r *http.Request, name string, ms int64) {
	r.PostForm.Del(name)
	r.Form.Set(name, strconv.FormatFloat(float64(ms)/1000, 'f', 3, 64))
}

// withinRetention returns start moved up to the oldest time the workspace's retention lets
// a query read, or a 400 error when end is older than that.
func withinRetention(lim querylimits.Limits, start, end int64) (int64, error) {
	if lim.Retention <= 0 {
		return start, nil
	}
	oldest := time.Now().UnixMilli() - lim.Retention.Milliseconds()
	if end < oldest {
		return 0, apierror.BadData("the query ends at %s, before the workspace's retention starts (%s): no data is kept from then",
			time.UnixMilli(end).UTC().Format(time.RFC3339), time.UnixMilli(oldest).UTC().Format(time.RFC3339))
	}
	return max(start, oldest), nil
}

func limitArg(r *http.Request) (int, error) {
	v := r.Form.Get("limit")
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, apierror.BadData("invalid limit %q: want a non-negative integer", v)
	}
	return n, nil
}

type successResponse struct {
	Status string `json:"status"`
	Data   any    `json:"data"`
}

func writeJSON(w http.ResponseWriter, data any) error {
	w.Header().Set("Content-Type", "application/json")
	return json.NewEncoder(w).Encode(successResponse{Status: "success", Data: data})
}

func sourceFor(ws string, lim querylimits.Limits) Source {
	return backend.Source(ws, lim.MaxSeries)
}

// metadataArgs are the arguments shared by /series, /labels and /label/<name>/values.
type metadataArgs struct {
	filterss   [][]metricsql.LabelFilter
	start, end int64
	limit      int
}

func parseMetadataArgs(r *http.Request, lim querylimits.Limits, matchRequired bool) (metadataArgs, error) {
	var a metadataArgs
	var err error
	if a.filterss, err = matches(r, matchRequired); err != nil {
		return a, err
	}
	if a.start, a.end, err = timeRange(r); err != nil {
		return a, err
	}
	if a.start, err = withinRetention(lim, a.start, a.end); err != nil {
		return a, err
	}
	a.limit, err = limitArg(r)
	return a, err
}

func seriesHandler(w http.ResponseWriter, r *http.Request, ws string, lim querylimits.Limits) error {
	a, err := parseMetadataArgs(r, lim, true)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(r.Context(), lim.Timeout)
	defer cancel()
	series, err := sourceFor(ws, lim).Series(ctx, a.filterss, a.start, a.end, a.limit)
	if err != nil {
		return err
	}
	return writeJSON(w, series)
}

func labelsHandler(w http.ResponseWriter, r *http.Request, ws string, lim querylimits.Limits) error {
	a, err := parseMetadataArgs(r, lim, false)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(r.Context(), lim.Timeout)
	defer cancel()
	names, err := sourceFor(ws, lim).LabelNames(ctx, a.filterss, a.start, a.end, a.limit)
	if err != nil {
		return err
	}
	return writeJSON(w, names)
}

func labelValuesHandler(w http.ResponseWriter, r *http.Request, ws, name string, lim querylimits.Limits) error {
	if tenancy.IsTenantLabel(name) {
		return apierror.BadData("label %q is reserved", name)
	}
	a, err := parseMetadataArgs(r, lim, false)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(r.Context(), lim.Timeout)
	defer cancel()
	values, err := sourceFor(ws, lim).LabelValues(ctx, name, a.filterss, a.start, a.end, a.limit)
	if err != nil {
		return err
	}
	if values == nil {
		values = []string{}
	}
	return writeJSON(w, values)
}

type exportLine struct {
	Metric     map[string]string `json:"metric"`
	Values     []json.Number     `json:"values"`
	Timestamps []int64           `json:"timestamps"`
}

// exportHandler answers /api/v1/export in VictoriaMetrics' JSON-lines format, one series per
// line. Samples that are not finite numbers (staleness markers) are left out.
func exportHandler(w http.ResponseWriter, r *http.Request, ws string, lim querylimits.Limits) error {
	lfss, err := matches(r, true)
	if err != nil {
		return err
	}
	start, end, err := timeRange(r)
	if err != nil {
		return err
	}
	// the span asked for: an export without a start is not held to the max duration
	if start > 0 && spansMore(start, end, lim.MaxDuration) {
		return apierror.New(http.StatusUnprocessableEntity, apierror.TypeLimitExceeded,
			"the export spans %s; the max duration limit is %s", fmtSpan(start, end), lim.MaxDuration)
	}
	if start, err = withinRetention(lim, start, end); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(r.Context(), lim.Timeout)
	defer cancel()
	series, err := sourceFor(ws, lim).Fetch(ctx, dql.FetchRequest{Filterss: lfss, Start: start, End: end + 1, MaxSeries: lim.MaxSeries})
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/stream+json")
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	for _, s := range series {
		line := exportLine{Metric: s.Labels}
		for i, v := range s.Values {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				continue
			}
			line.Values = append(line.Values, json.Number(strconv.FormatFloat(v, 'g', -1, 64)))
			line.Timestamps = append(line.Timestamps, s.Timestamps[i])
		}
		if len(line.Values) == 0 {
			continue
		}
		if err := enc.Encode(line); err != nil {
			return err
		}
	}
	return bw.Flush()
}

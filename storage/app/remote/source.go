package remote

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/VictoriaMetrics/metricsql"

	"vigil/storage/app/retention"
	"vigil/storage/lib/apierror"
	"vigil/storage/lib/dql"
	"vigil/storage/lib/tenancy"
)

var (
	maxResponseSize       = flag.Int64("remote.maxResponseSize", 512<<20, "The maximum size of one vmselect answer read by remote mode")
	defaultMaxSeries      = flag.Int("remote.maxSeries", 100_000, "The maximum number of series one remote call may return when the caller sets no lower limit")
	maxMetadataCandidates = flag.Int("remote.maxMetadataCandidates", 10_000, "When a label names or values call matches more series than vmselect lists at once "+
		"(its -search.maxSeries) or than 100000, the names or values vmselect answers are confirmed one by one against the workspace's series: at most this many; "+
		"more gets an error asking to narrow the filter")
)

// Source is a dql.Source on a VictoriaMetrics cluster, scoped to one workspace.
type Source struct {
	workspace string
	// MaxSeries, when positive, lowers the series limit of every call.
	MaxSeries int
	// NotBefore > 0 (ms): no sample older is read, by Fetch nor by QueryRange, whose
	// evaluation starts late enough that none of its windows, offsets and look-back reach
	// before it (app/retention). The workspace's retention.
	NotBefore int64
}

var _ dql.Source = (*Source)(nil)

// NewSource returns the remote Source of workspace ws.
func NewSource(ws string) *Source {
	if err := tenancy.ValidateWorkspaceID(ws); err != nil {
		panic(fmt.Sprintf("BUG: %s", err))
	}
	return &Source{workspace: ws}
}

func (s *Source) maxSeries(requested int) int {
	n := *defaultMaxSeries
	if s.MaxSeries > 0 && s.MaxSeries < n {
		n = s.MaxSeries
	}
	if requested > 0 && requested < n {
		n = requested
	}
	return n
}

func tooManySeries(limit int) error {
	return apierror.New(http.StatusUnprocessableEntity, apierror.TypeLimitExceeded,
		"the query selects more than %d series (max series limit); narrow the filter or the time range", limit)
}

// scopedArgs returns the arguments every read carries: the workspace filter.
func (s *Source) scopedArgs() url.Values {
	return url.Values{"extra_label": {tenancy.Label + "=" + s.workspace}}
}

// selectors prints filterss as series selectors, one per filter list, from the AST.
func selectors(filterss [][]metricsql.LabelFilter) ([]string, error) {
	if len(filterss) == 0 {
		return []string{`{__name__!=""}`}, nil
	}
	out := make([]string, 0, len(filterss))
	for _, lfs := range filterss {
		for _, lf := range lfs {
			if tenancy.IsTenantLabel(lf.Label) {
				return nil, apierror.BadData("label filters must not reference the reserved label %q", lf.Label)
			}
		}
		if len(lfs) == 0 {
			lfs = []metricsql.LabelFilter{{Label: "__name__", Value: "", IsNegative: true}}
		}
		me := &metricsql.MetricExpr{LabelFilterss: [][]metricsql.LabelFilter{lfs}}
		out = append(out, string(me.AppendString(nil)))
	}
	return out, nil
}

// secs formats milliseconds as the fractional seconds VictoriaMetrics' API accepts.
func secs(ms int64) string {
	sign := ""
	if ms < 0 {
		sign, ms = "-", -ms
	}
	return fmt.Sprintf("%s%d.%03d", sign, ms/1000, ms%1000)
}

func (s *Source) post(ctx context.Context, path string, args url.Values) ([]byte, error) {
	req, err := http.NewRequest(http.MethodPost, selectURL(s.workspace, path), strings.NewReader(args.Encode()))
	if err != nil {
		return nil, fmt.Errorf("BUG: cannot build request: %w", err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return do(ctx, req, *maxResponseSize)
}

type exportLine struct {
	Metric     map[string]string `json:"metric"`
	Values     []float64         `json:"values"`
	Timestamps []int64           `json:"timestamps"`
}

// Fetch returns the raw samples of the workspace's series matching req, via /api/v1/export.
func (s *Source) Fetch(ctx context.Context, req dql.FetchRequest) ([]dql.Series, error) {
	sels, err := selectors(req.Filterss)
	if err != nil {
		return nil, err
	}
	req.Start = max(req.Start, s.NotBefore)
	if req.End <= req.Start {
		return nil, nil
	}
	limit := s.maxSeries(req.MaxSeries)
	args := s.scopedArgs()
	args["match[]"] = sels
	args.Set("start", secs(req.Start))
	args.Set("end", secs(req.End-1))
	body, err := s.post(ctx, "/api/v1/export", args)
	if err != nil {
		return nil, err
	}
	series := []dql.Series{}
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(make([]byte, 0, 64*1024), len(body)+1)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var e exportLine
		if err := json.Unmarshal(line, &e); err != nil {
			return nil, apierror.New(http.StatusServiceUnavailable, apierror.TypeUnavailable, "cannot parse vmselect export line: %s", err)
		}
		if len(series) >= limit {
			return nil, tooManySeries(limit)
		}
		delete(e.Metric, tenancy.Label)
		ts := dql.Series{Labels: e.Metric}
		for i, t := range e.Timestamps {
			if t < req.Start || t >= req.End || i >= len(e.Values) {
				continue
			}
			ts.Timestamps = append(ts.Timestamps, t)
			ts.Values = append(ts.Values, e.Values[i])
		}
		if len(ts.Timestamps) > 0 {
			series = append(series, ts)
		}
	}
	dql.SortSeries(series)
	return series, nil
}

type matrixResponse struct {
	Status string `json:"status"`
	Data   struct {
		ResultType string `json:"resultType"`
		Result     []struct {
			Metric map[string]string    `json:"metric"`
			Values [][2]json.RawMessage `json:"values"`
		} `json:"result"`
	} `json:"data"`
}

// QueryRange evaluates expr for the workspace on vmselect's /api/v1/query_range with
// nocache=1, so start and end are not aligned to step.
func (s *Source) QueryRange(ctx context.Context, expr metricsql.Expr, start, end, step int64) ([]dql.Series, error) {
	if err := tenancy.CheckExpr(expr); err != nil {
		return nil, apierror.BadData("%s", err)
	}
	if step <= 0 {
		return nil, apierror.BadData("step must be positive; got %dms", step)
	}
	if start > end {
		return nil, apierror.BadData("start (%d) must not be after end (%d)", start, end)
	}
	start, empty, err := retention.ClampSource(expr, start, end, step, s.NotBefore)
	if err != nil || empty {
		return nil, err
	}
	args := s.scopedArgs()
	args.Set("query", string(expr.AppendString(nil)))
	args.Set("start", secs(start))
	args.Set("end", secs(end))
	args.Set("step", strconv.FormatInt(step, 10)+"ms")
	args.Set("nocache", "1")
	body, err := s.post(ctx, "/api/v1/query_range", args)
	if err != nil {
		return nil, err
	}
	var mr matrixResponse
	if err := json.Unmarshal(body, &mr); err != nil {
		return nil, apierror.New(http.StatusServiceUnavailable, apierror.TypeUnavailable, "cannot parse vmselect query_range answer: %s", err)
	}
	limit := s.maxSeries(0)
	if len(mr.Data.Result) > limit {
		return nil, tooManySeries(limit)
	}
	series := make([]dql.Series, 0, len(mr.Data.Result))
	for _, r := range mr.Data.Result {
		delete(r.Metric, tenancy.Label)
		ts := dql.Series{Labels: r.Metric}
		if ts.Labels == nil {
			ts.Labels = map[string]string{}
		}
		for _, p := range r.Values {
			t, err := strconv.ParseFloat(string(p[0]), 64)
			if err != nil {
				return nil, apierror.New(http.StatusServiceUnavailable, apierror.TypeUnavailable, "bad timestamp %s in vmselect answer", p[0])
			}
			var vs string
			if err := json.Unmarshal(p[1], &vs); err != nil {
				return nil, apierror.New(http.StatusServiceUnavailable, apierror.TypeUnavailable, "bad value %s in vmselect answer", p[1])
			}
			v, err := strconv.ParseFloat(vs, 64)
			if err != nil || math.IsNaN(v) {
				continue
			}
			ts.Timestamps = append(ts.Timestamps, int64(math.Round(t*1000)))
			ts.Values = append(ts.Values, v)
		}
		if len(ts.Timestamps) > 0 {
			series = append(series, ts)
		}
	}
	dql.SortSeries(series)
	return series, nil
}

type listResponse struct {
	Status string   `json:"status"`
	Data   []string `json:"data"`
}

func (s *Source) list(ctx context.Context, path string, filterss [][]metricsql.LabelFilter, start, end int64, limit int) ([]string, error) {
	args := s.scopedArgs()
	if len(filterss) > 0 {
		sels, err := selectors(filterss)
		if err != nil {
			return nil, err
		}
		args["match[]"] = sels
	}
	args.Set("start", secs(start))
	args.Set("end", secs(end))
	if limit > 0 {
		args.Set("limit", strconv.Itoa(limit+1))
	}
	body, err := s.post(ctx, path, args)
	if err != nil {
		return nil, err
	}
	var lr listResponse
	if err := json.Unmarshal(body, &lr); err != nil {
		return nil, apierror.New(http.StatusServiceUnavailable, apierror.TypeUnavailable, "cannot parse vmselect answer of %s: %s", path, err)
	}
	out := lr.Data[:0]
	for _, v := range lr.Data {
		if v != tenancy.Label {
			out = append(out, v)
		}
	}
	sort.Strings(out)
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// metadataSeriesCeiling is where VictoriaMetrics' label search stops being exact: above 100k
// matching series its index scan ignores the selection (see app/vmsource), and in a tenant
// shared by several workspaces (-remote.clusterPaths=false) answers with their label names
// and values too.
const metadataSeriesCeiling = 100_000

func isTooManySeries(err error) bool {
	return err != nil && strings.Contains(err.Error(), "matching timeseries exceeds")
}

// withFilter adds lf to every filter list of filterss (a copy).
func withFilter(filterss [][]metricsql.LabelFilter, lf metricsql.LabelFilter) [][]metricsql.LabelFilter {
	if len(filterss) == 0 {
		return [][]metricsql.LabelFilter{{lf}}
	}
	out := make([][]metricsql.LabelFilter, len(filterss))
	for i, lfs := range filterss {
		out[i] = append(append([]metricsql.LabelFilter(nil), lfs...), lf)
	}
	return out
}

// seriesOf lists the workspace's series matching filterss within [start, end], at most maxN
// of them (then more exist).
func (s *Source) seriesOf(ctx context.Context, filterss [][]metricsql.LabelFilter, start, end int64, maxN int) ([]map[string]string, error) {
	sels, err := selectors(filterss)
	if err != nil {
		return nil, err
	}
	args := s.scopedArgs()
	args["match[]"] = sels
	args.Set("start", secs(start))
	args.Set("end", secs(end))
	args.Set("limit", strconv.Itoa(maxN))
	body, err := s.post(ctx, "/api/v1/series", args)
	if err != nil {
		return nil, err
	}
	var sr seriesResponse
	if err := json.Unmarshal(body, &sr); err != nil {
		return nil, apierror.New(http.StatusServiceUnavailable, apierror.TypeUnavailable, "cannot parse vmselect series answer: %s", err)
	}
	return sr.Data, nil
}

// anySeries reports whether at least one of the workspace's series matches filterss.
func (s *Source) anySeries(ctx context.Context, filterss [][]metricsql.LabelFilter, start, end int64) (bool, error) {
	found, err := s.seriesOf(ctx, filterss, start, end, 1)
	if isTooManySeries(err) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	return len(found) > 0, nil
}

// labelSearch answers a label names or values call (path) exactly, whatever vmselect's label
// API does above 100k series or in a shared tenant. The workspace's matching series are listed
// first (at most 100k+1): while they all fit, the answer is read from them (collect). Past
// that, or past vmselect's own limit on listed series, the names or values its label API
// answers are only candidates, each kept if a series of the workspace has it (exists).
func (s *Source) labelSearch(ctx context.Context, path string, filterss [][]metricsql.LabelFilter, start, end int64, limit int,
	collect func(m map[string]string, out map[string]struct{}), exists func(candidate string) (bool, error)) ([]string, error) {
	series, err := s.seriesOf(ctx, filterss, start, end, metadataSeriesCeiling+1)
	if err != nil && !isTooManySeries(err) {
		return nil, err
	}
	var out []string
	if err == nil && len(series) <= metadataSeriesCeiling {
		set := make(map[string]struct{})
		for _, m := range series {
			delete(m, tenancy.Label)
			collect(m, set)
		}
		out = make([]string, 0, len(set))
		for v := range set {
			out = append(out, v)
		}
	} else {
		maxN := *maxMetadataCandidates
		candidates, err := s.list(ctx, path, filterss, start, end, maxN+1)
		if err != nil {
			return nil, err
		}
		if len(candidates) > maxN {
			return nil, apierror.New(http.StatusUnprocessableEntity, apierror.TypeLimitExceeded,
				"too many series: the selection matches more than %d series, and more than %d names or values (-remote.maxMetadataCandidates) "+
					"would have to be checked one by one; narrow the filter or the time range", metadataSeriesCeiling, maxN)
		}
		for _, c := range candidates {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			ok, err := exists(c)
			if err != nil {
				return nil, err
			}
			if ok {
				out = append(out, c)
			}
		}
	}
	sort.Strings(out)
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	if out == nil {
		out = []string{}
	}
	return out, nil
}

// LabelNames returns the label names of the workspace's series matching filterss.
func (s *Source) LabelNames(ctx context.Context, filterss [][]metricsql.LabelFilter, start, end int64, limit int) ([]string, error) {
	if _, err := selectors(filterss); err != nil {
		return nil, err
	}
	collect := func(m map[string]string, out map[string]struct{}) {
		for k := range m {
			out[k] = struct{}{}
		}
	}
	exists := func(name string) (bool, error) {
		if name == "__name__" {
			return s.anySeries(ctx, filterss, start, end)
		}
		return s.anySeries(ctx, withFilter(filterss, metricsql.LabelFilter{Label: name, Value: "", IsNegative: true}), start, end)
	}
	return s.labelSearch(ctx, "/api/v1/labels", filterss, start, end, limit, collect, exists)
}

// LabelValues returns the values of label name over the workspace's series matching filterss.
func (s *Source) LabelValues(ctx context.Context, name string, filterss [][]metricsql.LabelFilter, start, end int64, limit int) ([]string, error) {
	if tenancy.IsTenantLabel(name) {
		return nil, apierror.BadData("label %q is reserved", name)
	}
	if name == "" || strings.ContainsAny(name, "/?#") {
		return nil, apierror.BadData("invalid label name %q", name)
	}
	if _, err := selectors(filterss); err != nil {
		return nil, err
	}
	collect := func(m map[string]string, out map[string]struct{}) {
		if v, ok := m[name]; ok {
			out[v] = struct{}{}
		}
	}
	exists := func(value string) (bool, error) {
		return s.anySeries(ctx, withFilter(filterss, metricsql.LabelFilter{Label: name, Value: value}), start, end)
	}
	return s.labelSearch(ctx, "/api/v1/label/"+url.PathEscape(name)+"/values", filterss, start, end, limit, collect, exists)
}

// Package vmsource implements dql.Source on the VictoriaMetrics storage embedded in this
// process, scoped to one workspace.
//
// Every search gets the workspace's label filter added to each of its filter lists (as
// storage tag filters, or as promql.EvalConfig.EnforcedTagFilterss for MetricsQL), and the
// tenant label is removed from every returned label set.
package vmsource

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/VictoriaMetrics/VictoriaMetrics/app/vmselect/netstorage"
	"github.com/VictoriaMetrics/VictoriaMetrics/app/vmselect/promql"
	"github.com/VictoriaMetrics/VictoriaMetrics/app/vmselect/searchutil"
	"github.com/VictoriaMetrics/VictoriaMetrics/app/vmstorage"
	"github.com/VictoriaMetrics/VictoriaMetrics/lib/storage"
	"github.com/VictoriaMetrics/metricsql"

	"vigil/storage/app/ingest"
	"vigil/storage/app/retention"
	"vigil/storage/app/tenancy"
	"vigil/storage/lib/apierror"
	"vigil/storage/lib/dql"
	libtenancy "vigil/storage/lib/tenancy"
)

var (
	defaultTimeout   = flag.Duration("vmsource.defaultTimeout", 30*time.Second, "Timeout for a storage call when the caller's context has no deadline")
	defaultMaxSeries = flag.Int("vmsource.maxSeries", 100_000, "The maximum number of series one storage call may select when the caller sets no lower limit. "+
		"See also -dql.maxSeries")
	maxPointsPerSeries = flag.Int("vmsource.maxPointsPerSeries", 30_000, "The maximum number of points per series a MetricsQL range evaluation may produce")
	maxMetadataSeries  = flag.Int("vmsource.maxMetadataSeries", 1_000_000, "The maximum number of series a workspace's series count (/internal/v1/usage) may scan, "+
		"and a label names or values call that matches more than 100000 series may read; more gets an error asking to narrow the filter")
	nameCacheTTL = flag.Duration("vmsource.nameCacheTTL", time.Second, "How long DQL reuses what it learned about a measurement's tags and fields "+
		"before checking the names a query references again. A new tag or field is found by DQL at most this long after it became searchable "+
		"(see -ingest.visibilityInterval); keep the sum of both under 2s. Zero lists every tag and field of the measurement on every query")
)

// Source is the embedded storage scoped to one workspace. It is cheap to create: make one
// per request.
type Source struct {
	workspace string
	// MaxSeries, when positive, lowers the series limit of every call.
	MaxSeries int
	// NotBefore > 0 (ms): no sample older is read, by Fetch nor by QueryRange, whose
	// evaluation starts late enough that none of its windows, offsets and look-back reach
	// before it (app/retention). The workspace's retention.
	NotBefore int64
}

var _ dql.NameCacheSource = (*Source)(nil)

// nameCaches holds one dql.NameCache per workspace, so that no workspace ever reads what
// another's queries learned.
var nameCaches sync.Map // workspace id -> *dql.NameCache

// NameCache returns the workspace's DQL name cache, or nil when -vmsource.nameCacheTTL is 0.
func (s *Source) NameCache() *dql.NameCache {
	if *nameCacheTTL <= 0 {
		return nil
	}
	if c, ok := nameCaches.Load(s.workspace); ok {
		return c.(*dql.NameCache)
	}
	c, _ := nameCaches.LoadOrStore(s.workspace, dql.NewNameCache(*nameCacheTTL))
	return c.(*dql.NameCache)
}

// New returns the Source of workspace ws. ws must be a valid workspace id.
func New(ws string) *Source {
	if err := libtenancy.ValidateWorkspaceID(ws); err != nil {
		panic(fmt.Sprintf("BUG: %s", err))
	}
	return &Source{workspace: ws}
}

// Workspace returns the workspace the source is scoped to.
func (s *Source) Workspace() string { return s.workspace }

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

func deadlineFor(ctx context.Context) searchutil.Deadline {
	now := time.Now()
	timeout := *defaultTimeout
	if d, ok := ctx.Deadline(); ok {
		timeout = time.Until(d)
		if timeout <= 0 {
			timeout = time.Millisecond
		}
	}
	return searchutil.NewDeadline(now, timeout, "X-Vigil-Query-Timeout")
}

// ErrTooManySeries is wrapped by errors returned when a call would select more series than
// its limit allows.
var ErrTooManySeries = errors.New("too many series")

func tooManySeries(limit int) error {
	return &apierror.Error{
		StatusCode: http.StatusUnprocessableEntity,
		Type:       apierror.TypeLimitExceeded,
		Err:        fmt.Errorf("%w: the query selects more than %d series (max series limit); narrow the filter or the time range", ErrTooManySeries, limit),
	}
}

// mapSearchError turns storage errors into API errors with the limit that was hit.
func mapSearchError(err error, limit int) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if strings.Contains(msg, "the number of matching timeseries exceeds") {
		return tooManySeries(limit)
	}
	if strings.Contains(msg, "timeout exceeded") {
		return &apierror.Error{StatusCode: http.StatusServiceUnavailable, Type: apierror.TypeTimeout, Err: fmt.Errorf("query timeout: %w", err)}
	}
	if strings.Contains(msg, "cannot select more than -search.maxSamplesPerQuery") {
		return &apierror.Error{StatusCode: http.StatusUnprocessableEntity, Type: apierror.TypeLimitExceeded, Err: err}
	}
	return &apierror.Error{StatusCode: http.StatusUnprocessableEntity, Type: apierror.TypeExecution, Err: err}
}

func checkFilterss(filterss [][]metricsql.LabelFilter) error {
	for _, lfs := range filterss {
		for _, lf := range lfs {
			if libtenancy.IsTenantLabel(lf.Label) {
				return apierror.BadData("label filters must not reference the reserved label %q", lf.Label)
			}
		}
	}
	return nil
}

// labelsOf converts a storage metric name to a label map without the tenant label.
func labelsOf(mn *storage.MetricName) map[string]string {
	m := make(map[string]string, len(mn.Tags)+1)
	if len(mn.MetricGroup) > 0 {
		m["__name__"] = string(mn.MetricGroup)
	}
	for _, t := range mn.Tags {
		k := string(t.Key)
		if k == libtenancy.Label {
			continue
		}
		m[k] = string(t.Value)
	}
	return m
}

// Fetch returns the raw samples of the workspace's series matching req.
func (s *Source) Fetch(ctx context.Context, req dql.FetchRequest) ([]dql.Series, error) {
	if err := checkFilterss(req.Filterss); err != nil {
		return nil, err
	}
	req.Start = max(req.Start, s.NotBefore)
	if req.End <= req.Start {
		return nil, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	limit := s.maxSeries(req.MaxSeries)
	tfss := tenancy.ScopeFilterss(s.workspace, req.Filterss)
	// The storage time range is inclusive; FetchRequest is half-open.
	sq := storage.NewSearchQuery(req.Start, req.End-1, tfss, limit)
	rss, err := netstorage.ProcessSearchQuery(nil, sq, deadlineFor(ctx))
	if err != nil {
		return nil, mapSearchError(err, limit)
	}
	if rss.Len() > limit {
		rss.Cancel()
		return nil, tooManySeries(limit)
	}
	var mu sync.Mutex
	series := make([]dql.Series, 0, rss.Len())
	err = rss.RunParallel(nil, func(rs *netstorage.Result, _ uint) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		ts := dql.Series{Labels: labelsOf(&rs.MetricName)}
		for i, t := range rs.Timestamps {
			if t < req.Start || t >= req.End {
				continue
			}
			ts.Timestamps = append(ts.Timestamps, t)
			ts.Values = append(ts.Values, rs.Values[i])
		}
		if len(ts.Timestamps) == 0 {
			return nil
		}
		mu.Lock()
		series = append(series, ts)
		mu.Unlock()
		return nil
	})
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, mapSearchError(err, limit)
	}
	dql.SortSeries(series)
	return series, nil
}

// QueryRange evaluates a MetricsQL expression for the workspace at start, start+step, ...
// <= end. Times are in milliseconds. start and end are used as given, without alignment to
// step, and the newest points are not hidden (no -search.latencyOffset adjustment).
func (s *Source) QueryRange(ctx context.Context, expr metricsql.Expr, start, end, step int64) ([]dql.Series, error) {
	if err := libtenancy.CheckExpr(expr); err != nil {
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
	if err := promql.ValidateMaxPointsPerSeries(start, end, step, *maxPointsPerSeries); err != nil {
		return nil, &apierror.Error{StatusCode: http.StatusUnprocessableEntity, Type: apierror.TypeLimitExceeded,
			Err: fmt.Errorf("%w (-vmsource.maxPointsPerSeries)", err)}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	limit := s.maxSeries(0)
	etfs := tenancy.TagFilterss(s.workspace)
	q := string(expr.AppendString(nil))
	ec := &promql.EvalConfig{
		Start:               start,
		End:                 end,
		Step:                step,
		MaxSeries:           limit,
		MaxPointsPerSeries:  *maxPointsPerSeries,
		Deadline:            deadlineFor(ctx),
		MayCache:            false,
		RoundDigits:         100,
		EnforcedTagFilterss: etfs,
		CacheTagFilters:     etfs,
		GetRequestURI:       func() string { return "dql:" + q },
	}
	results, err := promql.Exec(nil, ec, q, false)
	if err != nil {
		return nil, mapSearchError(err, limit)
	}
	series := make([]dql.Series, 0, len(results))
	for i := range results {
		r := &results[i]
		ts := dql.Series{Labels: labelsOf(&r.MetricName)}
		for j, v := range r.Values {
			if math.IsNaN(v) {
				continue
			}
			ts.Timestamps = append(ts.Timestamps, r.Timestamps[j])
			ts.Values = append(ts.Values, v)
		}
		if len(ts.Timestamps) > 0 {
			series = append(series, ts)
		}
	}
	dql.SortSeries(series)
	return series, nil
}

// metadataSeriesCeiling is how many matching series a label search asks VictoriaMetrics about
// before it reads the workspace's own series instead.
//
// VictoriaMetrics answers label names and values from the matching series' own entries while
// they number at most 100k, and above that by scanning the index for every name or value of
// the database and keeping those with a matching series. (Before v1.134.0 that scan ignored
// the filter — a shadowed variable in index_db.go's searchLabelValuesOnDate and
// searchLabelNamesWithFiltersOnDate — and answered with other workspaces' names and values.)
// Even filtered, the cost of that scan, and whether it runs into a limit, depend on the whole
// database. Label searches therefore run with this limit first; when more series match, the
// answer is read from the workspace's own matching series (ownSeries), never from names or
// values of the whole database: what a workspace gets, an answer or an error, and how long
// it takes, depend on its own data only. TestMetadataOfHugeSelectionsNeverLeaks pins both.
const metadataSeriesCeiling = 100_000

// labelSearch runs search (a label names or values call over the workspace's series matching
// filterss, at most n of them) exactly: within the ceiling directly, above it from the
// workspace's own matching series, of which collect keeps the names or values.
func (s *Source) labelSearch(ctx context.Context, filterss [][]metricsql.LabelFilter, start, end int64,
	search func(n int) ([]string, error), collect func(mn *storage.MetricName, out map[string]struct{})) ([]string, error) {
	exact, err := search(metadataSeriesCeiling)
	if err == nil {
		return exact, nil
	}
	if !isTooManySeries(err) {
		return nil, mapSearchError(err, metadataSeriesCeiling)
	}
	return s.ownSeries(ctx, filterss, start, end, collect)
}

// ownSeries reads the workspace's series matching filterss within [start, end] (at most
// -vmsource.maxMetadataSeries of them) and returns what collect keeps of them, sorted.
func (s *Source) ownSeries(ctx context.Context, filterss [][]metricsql.LabelFilter, start, end int64,
	collect func(mn *storage.MetricName, out map[string]struct{})) ([]string, error) {
	limit := *maxMetadataSeries
	sq := storage.NewSearchQuery(start, end, tenancy.ScopeFilterss(s.workspace, filterss), limit)
	names, err := netstorage.SearchMetricNames(nil, sq, deadlineFor(ctx))
	if isTooManySeries(err) {
		return nil, &apierror.Error{
			StatusCode: http.StatusUnprocessableEntity,
			Type:       apierror.TypeLimitExceeded,
			Err: fmt.Errorf("%w: the selection matches more than %d series (-vmsource.maxMetadataSeries); "+
				"narrow the filter or the time range", ErrTooManySeries, limit),
		}
	}
	if err != nil {
		return nil, mapSearchError(err, limit)
	}
	set := make(map[string]struct{})
	var mn storage.MetricName
	for i, n := range names {
		if i%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if err := mn.UnmarshalString(n); err != nil {
			return nil, fmt.Errorf("BUG: cannot unmarshal metric name from storage: %w", err)
		}
		collect(&mn, set)
	}
	out := make([]string, 0, len(set))
	for v := range set {
		out = append(out, v)
	}
	sort.Strings(out)
	return out, nil
}

func isTooManySeries(err error) bool {
	return err != nil && strings.Contains(err.Error(), "the number of matching timeseries exceeds")
}

// anySeries reports whether at least one of the workspace's series matches filterss within
// [start, end]; it stops at the second match.
func (s *Source) anySeries(ctx context.Context, filterss [][]metricsql.LabelFilter, start, end int64) (bool, error) {
	sq := storage.NewSearchQuery(start, end, tenancy.ScopeFilterss(s.workspace, filterss), 1)
	names, err := netstorage.SearchMetricNames(nil, sq, deadlineFor(ctx))
	if isTooManySeries(err) {
		return true, nil
	}
	if err != nil {
		return false, mapSearchError(err, 1)
	}
	return len(names) > 0, nil
}

// AnySeries reports whether at least one of the workspace's series matches filterss within
// [start, end].
func (s *Source) AnySeries(ctx context.Context, filterss [][]metricsql.LabelFilter, start, end int64) (bool, error) {
	if err := checkFilterss(filterss); err != nil {
		return false, err
	}
	if err := ctx.Err(); err != nil {
		return false, err
	}
	return s.anySeries(ctx, filterss, start, end)
}

// LabelNames returns the label names of the workspace's series matching filterss within
// [start, end], without the tenant label.
func (s *Source) LabelNames(ctx context.Context, filterss [][]metricsql.LabelFilter, start, end int64, limit int) ([]string, error) {
	if err := checkFilterss(filterss); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	maxNames := 0
	if limit > 0 {
		maxNames = limit + 1 // room for the tenant label, dropped below
	}
	search := func(n int) ([]string, error) {
		sq := storage.NewSearchQuery(start, end, tenancy.ScopeFilterss(s.workspace, filterss), n)
		return netstorage.LabelNames(nil, sq, maxNames, deadlineFor(ctx))
	}
	collect := func(mn *storage.MetricName, out map[string]struct{}) {
		if len(mn.MetricGroup) > 0 {
			out["__name__"] = struct{}{}
		}
		for _, t := range mn.Tags {
			if _, ok := out[string(t.Key)]; !ok {
				out[string(t.Key)] = struct{}{}
			}
		}
	}
	names, err := s.labelSearch(ctx, filterss, start, end, search, collect)
	if err != nil {
		return nil, err
	}
	out := names[:0]
	for _, n := range names {
		if n != libtenancy.Label {
			out = append(out, n)
		}
	}
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// LabelValues returns the values of label name over the workspace's series matching
// filterss within [start, end]. Asking for the tenant label is an error.
func (s *Source) LabelValues(ctx context.Context, name string, filterss [][]metricsql.LabelFilter, start, end int64, limit int) ([]string, error) {
	if libtenancy.IsTenantLabel(name) {
		return nil, apierror.BadData("label %q is reserved", name)
	}
	if err := checkFilterss(filterss); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	search := func(n int) ([]string, error) {
		sq := storage.NewSearchQuery(start, end, tenancy.ScopeFilterss(s.workspace, filterss), n)
		return netstorage.LabelValues(nil, name, sq, limit, deadlineFor(ctx))
	}
	collect := func(mn *storage.MetricName, out map[string]struct{}) {
		if name == "__name__" {
			if len(mn.MetricGroup) > 0 {
				out[string(mn.MetricGroup)] = struct{}{}
			}
			return
		}
		for _, t := range mn.Tags {
			if string(t.Key) == name {
				if _, ok := out[string(t.Value)]; !ok {
					out[string(t.Value)] = struct{}{}
				}
				return
			}
		}
	}
	values, err := s.labelSearch(ctx, filterss, start, end, search, collect)
	if err != nil {
		return nil, err
	}
	if limit > 0 && len(values) > limit {
		values = values[:limit]
	}
	return values, nil
}

// Series returns the label sets of the workspace's series matching filterss within
// [start, end], sorted, at most limit of them (0: up to the series limit).
func (s *Source) Series(ctx context.Context, filterss [][]metricsql.LabelFilter, start, end int64, limit int) ([]map[string]string, error) {
	if err := checkFilterss(filterss); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	maxSeries := s.maxSeries(0)
	sq := storage.NewSearchQuery(start, end, tenancy.ScopeFilterss(s.workspace, filterss), maxSeries)
	names, err := netstorage.SearchMetricNames(nil, sq, deadlineFor(ctx))
	if err != nil {
		return nil, mapSearchError(err, maxSeries)
	}
	if limit > 0 && len(names) > limit {
		names = names[:limit]
	}
	out := make([]map[string]string, 0, len(names))
	var mn storage.MetricName
	for _, n := range names {
		if err := mn.UnmarshalString(n); err != nil {
			return nil, fmt.Errorf("BUG: cannot unmarshal metric name from storage: %w", err)
		}
		out = append(out, labelsOf(&mn))
	}
	return out, nil
}

// SeriesCount returns the number of the workspace's series with samples within [start, end].
func (s *Source) SeriesCount(ctx context.Context, start, end int64) (int, error) {
	sq := storage.NewSearchQuery(start, end, tenancy.TagFilterss(s.workspace), *maxMetadataSeries)
	names, err := netstorage.SearchMetricNames(nil, sq, deadlineFor(ctx))
	if err != nil {
		return 0, mapSearchError(err, *maxMetadataSeries)
	}
	return len(names), nil
}

// StoredSamples returns how many samples of the workspace storage holds and in how many
// series. It reads block headers only, never the samples themselves: about what listing the
// workspace's series costs, plus one step per block. Samples not yet merged may still hold
// replayed duplicates (deduplication removes them when parts merge).
func (s *Source) StoredSamples(ctx context.Context) (samples int64, series int, err error) {
	tfs := storage.NewTagFilters()
	if err := tfs.Add([]byte(libtenancy.Label), []byte(s.workspace), false, false); err != nil {
		return 0, 0, fmt.Errorf("BUG: cannot build the workspace filter: %w", err)
	}
	tr := storage.TimeRange{MinTimestamp: 0, MaxTimestamp: time.Now().Add(365 * 24 * time.Hour).UnixMilli()}
	deadline := deadlineFor(ctx)
	st, err := ingest.EmbeddedStorage()
	if err != nil {
		return 0, 0, err
	}
	var sr storage.Search
	sr.Init(nil, st, []*storage.TagFilters{tfs}, tr, *maxMetadataSeries, deadline.Deadline())
	defer sr.MustClose()
	var prev []byte
	for sr.NextMetricBlock() {
		samples += int64(sr.MetricBlockRef.BlockRef.RowsCount())
		if name := sr.MetricBlockRef.MetricName; string(name) != string(prev) {
			series++
			prev = append(prev[:0], name...)
		}
	}
	if err := sr.Error(); err != nil {
		return 0, 0, mapSearchError(err, *maxMetadataSeries)
	}
	return samples, series, nil
}

// DiskBytesPerSample returns the bytes storage keeps on disk and in memory per stored sample,
// its index included: the whole storage's size over all its samples (0 when it holds none).
func DiskBytesPerSample() float64 {
	st, err := ingest.EmbeddedStorage()
	if err != nil {
		return 0
	}
	var m storage.Metrics
	st.UpdateMetrics(&m)
	tm, im := &m.TableMetrics, &m.TableMetrics.IndexDBMetrics
	rows := tm.InmemoryRowsCount + tm.SmallRowsCount + tm.BigRowsCount
	if rows == 0 {
		return 0
	}
	bytes := tm.InmemorySizeBytes + tm.SmallSizeBytes + tm.BigSizeBytes + im.InmemorySizeBytes + im.FileSizeBytes
	return float64(bytes) / float64(rows)
}

// DeleteAll deletes every series of the workspace and returns how many were deleted.
func (s *Source) DeleteAll(ctx context.Context) (int, error) {
	// Series written in the last moments are not searchable until the next visibility flush;
	// flush now, or the delete would miss them and they would appear once it has run.
	vmstorage.DebugFlush()
	// Start 0 searches the global index, so the end only has to cover future timestamps.
	end := time.Now().Add(365 * 24 * time.Hour).UnixMilli()
	sq := storage.NewSearchQuery(0, end, tenancy.TagFilterss(s.workspace), math.MaxInt32)
	n, err := netstorage.DeleteSeries(nil, sq, deadlineFor(ctx))
	if c, ok := nameCaches.Load(s.workspace); ok {
		c.(*dql.NameCache).Reset()
	}
	if err != nil {
		return 0, mapSearchError(err, math.MaxInt32)
	}
	if n > 0 {
		promql.ResetRollupResultCache()
	}
	return n, nil
}

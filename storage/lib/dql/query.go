package dql

import (
	"context"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/VictoriaMetrics/metricsql"

	"vigil/storage/lib/dql/parser"
	"vigil/storage/lib/tenancy"
)

// The entry points: Query parses, checks and runs a statement; a data query is planned
// (plan.go), fetched (fetch.go) or pushed down (pushdown.go), and evaluated row by row
// (rows.go), rolled up (rollup.go), grouped and aggregated (aggregate.go) and finished
// (finish.go). Metadata functions are show.go, outer functions outer.go, nested queries
// nested.go, MetricsQL pass-through promql.go.

// Defaults of the evaluation (DQL.md §8, §12, D-9, D-17).
const (
	// MaxMeasurements bounds the measurements one query (a list or a regex) reads.
	MaxMeasurements = 1000
	// DefaultLimit is the number of rows per series when there is no LIMIT.
	DefaultLimit = 1000
	// DefaultSLimit is the number of series when there is no SLIMIT and the caller did
	// not disable it.
	DefaultSLimit = 20
	// MaxBuckets is the number of buckets per series allowed without max_point.
	MaxBuckets = 10000

	DefaultRange       = 15 * time.Minute
	DefaultMetaRange   = 24 * time.Hour
	DefaultMaxDuration = 365 * 24 * time.Hour
)

// Options carry the request-level settings of one query (DQL.md §2). The zero value runs
// the statement as written with the default limits.
type Options struct {
	Now        int64   // milliseconds; 0 means the current time
	TimeRange  []int64 // [start] or [start, end] in ms, replacing the statement's range
	Conditions string  // extra filter ANDed to the statement's filter

	// Overrides of the statement's clauses; nil keeps the statement's value.
	Limit, Offset, SLimit, SOffset *int64
	DisableSLimit                  bool

	// Interval > 0 (ms) buckets a statement written without an interval, as if it had one
	// (a query's per-window values over a long range); a written interval is kept.
	Interval    int64
	MaxPoint    int           // > 0: widen the interval so a series has at most this many buckets
	MaxDuration time.Duration // maximum end - start; 0 means one year
	MaxSeries   int           // passed to the Source; 0 means its default
	MaxPoints   int           // maximum samples fetched from storage; 0 means no limit
	// NotBefore > 0 (ms): nothing older is read, every time range starts there at the
	// earliest (the workspace's retention); a range that ends before it is an error.
	NotBefore int64

	// EngineOnly disables push-down: every query fetches raw samples.
	EngineOnly bool

	// nested is set for the inner statement of a nested query: no default LIMIT.
	nested bool
}

// ResultSeries is one series of a result (DQL.md §2).
type ResultSeries struct {
	Name    string            `json:"name"`
	Tags    map[string]string `json:"tags,omitempty"`
	Columns []string          `json:"columns"`
	Values  [][]any           `json:"values"`
}

// Result is the answer to one query.
type Result struct {
	Series []ResultSeries
	// RawQuery describes what was sent to storage: MetricsQL expressions for push-down,
	// the label selector of the raw fetch otherwise.
	RawQuery string

	start, end int64 // the evaluated range
}

// Query parses, checks and evaluates one DQL statement against src.
func Query(ctx context.Context, src Source, q string, opts Options) (*Result, error) {
	st, err := parser.Parse(q)
	if err != nil {
		return nil, err
	}
	if err := parser.Check(st, q); err != nil {
		return nil, err
	}
	if opts.Now == 0 {
		opts.Now = nowMs()
	}
	var res *Result
	switch s := st.(type) {
	case *parser.QueryStmt:
		if err := applyOptions(s, &opts); err != nil {
			return nil, err
		}
		res, err = execQuery(ctx, src, s, &opts)
		err = parser.WithQuery(err, q, "")
	case *parser.ShowStmt:
		// Conditions are access rules: metadata obeys them too.
		qs := &parser.QueryStmt{Filter: s.Filter, HasFilter: s.HasFilter, Limit: s.Limit, Offset: s.Offset}
		if err := applyConditions(qs, &opts); err != nil {
			return nil, err
		}
		if err := applyPaging(qs, &opts); err != nil {
			return nil, err
		}
		s.Filter, s.HasFilter, s.Limit, s.Offset = qs.Filter, qs.HasFilter, qs.Limit, qs.Offset
		res, err = execShow(ctx, src, s, &opts)
		err = parser.WithQuery(err, q, "")
	case *parser.OuterStmt:
		res, err = execOuter(ctx, src, s, &opts)
		err = parser.WithQuery(err, q, "")
	}
	if err != nil {
		return nil, mapContextError(ctx, err)
	}
	return res, nil
}

func nowMs() int64 { return time.Now().UnixMilli() }

func applyOptions(s *parser.QueryStmt, opts *Options) error {
	// Conditions restrict what is read from storage: they go to the innermost statement.
	inner := s
	for inner.Subquery != nil {
		inner = inner.Subquery
	}
	if err := applyConditions(inner, opts); err != nil {
		return err
	}
	applyInterval(s, opts)
	return applyPaging(s, opts)
}

// applyInterval gives the statement opts.Interval when it was written without an interval.
func applyInterval(s *parser.QueryStmt, opts *Options) {
	if opts.Interval <= 0 || (s.Time != nil && s.Time.Interval != nil) {
		return
	}
	if s.Time == nil {
		s.Time = &parser.TimeExpr{PosRange: parser.PosRange{Pos: -1, End: -1}}
	}
	s.Time.Parts = max(s.Time.Parts, 3)
	s.Time.Interval = &parser.Duration{PosRange: parser.PosRange{Pos: -1, End: -1}, Text: fmtDur(opts.Interval), Ms: opts.Interval}
}

func applyConditions(s *parser.QueryStmt, opts *Options) error {
	if strings.TrimSpace(opts.Conditions) != "" {
		cond, err := parser.ParseFilter(opts.Conditions)
		if err != nil {
			return err
		}
		if cond != nil {
			if err := parser.CheckConditions(cond, opts.Conditions); err != nil {
				return err
			}
			if s.Filter == nil {
				s.Filter = cond
			} else {
				s.Filter = &parser.BinaryExpr{Op: "AND", LHS: &parser.ParenExpr{X: s.Filter}, RHS: &parser.ParenExpr{X: cond}}
			}
			s.HasFilter = true
		}
	}
	return nil
}

func applyPaging(s *parser.QueryStmt, opts *Options) error {
	for _, o := range []struct {
		kw  string
		v   *int64
		dst **parser.IntClause
		max int64
	}{{"limit", opts.Limit, &s.Limit, parser.MaxLimit}, {"offset", opts.Offset, &s.Offset, parser.MaxOffset},
		{"slimit", opts.SLimit, &s.SLimit, parser.MaxLimit}, {"soffset", opts.SOffset, &s.SOffset, parser.MaxOffset}} {
		if o.v == nil {
			continue
		}
		if *o.v < 0 {
			return parser.NewError(parser.CodeInvalidArgument, "%s must not be negative, got %d", o.kw, *o.v)
		}
		c := &parser.IntClause{N: *o.v}
		if err := parser.CheckIntClause(strings.ToUpper(o.kw), c, o.max); err != nil {
			// The clause is the API's, not the query's: the error has no position.
			if e, ok := parser.AsError(err); ok {
				e.Pos, e.End = -1, -1
			}
			return err
		}
		*o.dst = c
	}
	return nil
}

func execQuery(ctx context.Context, src Source, s *parser.QueryStmt, opts *Options) (*Result, error) {
	if s.Subquery != nil {
		return execNested(ctx, src, s, opts)
	}
	if s.SourceRegex != nil || len(s.MoreSources) > 0 {
		return execMulti(ctx, src, s, opts)
	}
	pl, err := makePlan(s, opts)
	if err != nil {
		return nil, err
	}
	ex := &execState{s: s, opts: opts, pl: pl}
	if err := ex.classifyNames(ctx, src); err != nil {
		return nil, err
	}
	if err := ex.resolveNames(); err != nil {
		return nil, err
	}
	if res, ok, err := ex.tryPushDown(ctx, src); ok || err != nil {
		return res, err
	}
	tls, raw, err := ex.fetch(ctx, src, pl.start, pl.end)
	if err != nil {
		return nil, err
	}
	series, err := ex.evaluate(ctx, tls)
	if err != nil {
		return nil, err
	}
	return &Result{Series: series, RawQuery: raw, start: pl.start, end: pl.end}, nil
}

// evaluate runs steps 3-8 of DQL.md §9 on fetched timelines.
func (ex *execState) evaluate(ctx context.Context, tls []*timeline) ([]ResultSeries, error) {
	tls = ex.filterRows(tls)
	ex.applyTransforms(tls)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	pl := ex.pl
	if pl.interval > 0 && !ex.rolledUp {
		rollup := pl.rollup
		if rollup == "" && !ex.hasAgg {
			rollup = "last"
		}
		if rollup != "" {
			for i, tl := range tls {
				tls[i] = rollupTimeline(tl, pl, rollup)
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	groups := ex.group(tls)
	var out []*group
	for _, g := range groups {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if ex.hasAgg {
			g.g.rows = ex.projectAggregates(g.tls, g.g.tags)
		} else {
			g.g.rows = ex.projectRaw(g.tls)
		}
		if len(g.g.rows) == 0 {
			continue
		}
		out = append(out, g.g)
	}
	return ex.finish(out)
}

// execMulti runs a query over several measurements (a list or a regex), one after the
// other; series pagination (SLIMIT/SOFFSET) applies to the concatenated series.
func execMulti(ctx context.Context, src Source, s *parser.QueryStmt, opts *Options) (*Result, error) {
	var ms []string
	if s.SourceRegex != nil {
		start, end, err := resolveRange(s.Time, opts, DefaultRange)
		if err != nil {
			return nil, err
		}
		fss := [][]metricsql.LabelFilter{{{Label: tenancy.MeasurementLabel, Value: s.SourceRegex.Val, IsRegexp: true}}}
		ms, err = src.LabelValues(ctx, tenancy.MeasurementLabel, fss, start, end-1, 0)
		if err != nil {
			return nil, err
		}
		sort.Strings(ms)
	} else {
		ms = append(ms, s.Source.Name)
		for _, m := range s.MoreSources {
			if !slices.Contains(ms, m.Name) {
				ms = append(ms, m.Name)
			}
		}
	}
	if len(ms) > MaxMeasurements {
		return nil, parser.NewError(parser.CodeLimitTooLarge, "the query selects %d measurements, more than the maximum %d; narrow the measurement regex", len(ms), MaxMeasurements)
	}
	one := *opts
	one.DisableSLimit = true
	out := &Result{Series: []ResultSeries{}}
	var raws []string
	for _, m := range ms {
		st := *s
		st.Source = &parser.NameExpr{Name: m}
		st.MoreSources, st.SourceRegex, st.SLimit, st.SOffset = nil, nil, nil, nil
		res, err := execQuery(ctx, src, &st, &one)
		if err != nil {
			return nil, err
		}
		out.Series = append(out.Series, res.Series...)
		if res.RawQuery != "" {
			raws = append(raws, res.RawQuery)
		}
	}
	out.RawQuery = strings.Join(raws, "\n")
	soff, slim := int64(0), int64(-1)
	if s.SOffset != nil {
		soff = s.SOffset.N
	}
	if s.SLimit != nil {
		slim = s.SLimit.N
	} else if !opts.DisableSLimit {
		slim = DefaultSLimit
	}
	out.Series = page(out.Series, soff, slim)
	return out, nil
}

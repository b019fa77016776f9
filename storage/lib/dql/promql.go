package dql

import (
	"vigil/storage/lib/dql/parser"

	"context"
	"sort"
	"strings"

	"github.com/VictoriaMetrics/metricsql"

	"vigil/storage/lib/tenancy"
)

// MetricsQL pass-through (DQL.md §13, the SDK's qtype "promql"): the query is MetricsQL,
// evaluated by Source.QueryRange over the workspace, and answered in DQL's result shape.

// DefaultPromQLPoints is the number of points per series when no step is given.
const DefaultPromQLPoints = 360

// QueryPromQL evaluates a MetricsQL range query. step is in milliseconds; 0 picks a step
// giving about DefaultPromQLPoints points (or opts.MaxPoint when set). The range comes from
// opts.TimeRange, else the last 15 minutes before opts.Now.
func QueryPromQL(ctx context.Context, src Source, q string, step int64, opts Options) (*Result, error) {
	if strings.TrimSpace(q) == "" {
		return nil, parser.NewError(parser.CodeParseError, "empty query")
	}
	if len(q) > parser.MaxQueryLen {
		return nil, parser.NewError(parser.CodeParseError, "query is %d bytes long; the maximum is %d bytes", len(q), parser.MaxQueryLen)
	}
	expr, err := metricsql.Parse(q)
	if err != nil {
		return nil, parser.NewError(parser.CodeParseError, "invalid MetricsQL: %s", err)
	}
	if err := checkPromQL(expr); err != nil {
		return nil, err
	}
	// series of two metrics match as in Prometheus, whatever storage derives from their names
	expr = tenancy.MatchLikePrometheus(expr)
	if opts.Now == 0 {
		opts.Now = nowMs()
	}
	start, end, err := resolveRange(nil, &opts, DefaultRange)
	if err != nil {
		return nil, err
	}
	if step < 0 {
		return nil, parser.NewError(parser.CodeInvalidArgument, "step must be positive, got %dms", step)
	}
	points := int64(DefaultPromQLPoints)
	if opts.MaxPoint > 0 {
		points = int64(opts.MaxPoint)
	}
	if step == 0 {
		step = max((end-start+points-1)/points, 1)
	}
	if n := (end-start)/step + 1; n > MaxBuckets && opts.MaxPoint <= 0 {
		return nil, parser.NewError(CodeTooManyPoints, "%d points per series is more than the maximum %d; widen the step or set max_point", n, MaxBuckets)
	}
	series, err := src.QueryRange(ctx, expr, start, end, step)
	if err != nil {
		return nil, mapContextError(ctx, err)
	}
	out := make([]ResultSeries, 0, len(series))
	for _, s := range series {
		rs := ResultSeries{Name: s.Labels[tenancy.MetricNameLabel], Columns: []string{"time", "value"}, Tags: map[string]string{}}
		for k, v := range s.Labels {
			if k != tenancy.MetricNameLabel && k != tenancy.Label {
				rs.Tags[k] = v
			}
		}
		for i, t := range s.Timestamps {
			rs.Values = append(rs.Values, []any{t, jsonCell(s.Values[i])})
		}
		out = append(out, rs)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Name != out[j].Name {
			return out[i].Name < out[j].Name
		}
		return timelineKey(out[i].Tags) < timelineKey(out[j].Tags)
	})
	soff, slim := int64(0), int64(-1)
	if opts.SOffset != nil {
		soff = *opts.SOffset
	}
	if opts.SLimit != nil {
		slim = *opts.SLimit
	} else if !opts.DisableSLimit {
		slim = DefaultSLimit
	}
	return &Result{Series: page(out, soff, slim), RawQuery: string(expr.AppendString(nil))}, nil
}

// checkPromQL refuses reserved labels: in selectors every "__" name but __name__,
// __measurement__ and __field__, and the tenancy labels anywhere (label functions included).
func checkPromQL(expr metricsql.Expr) error {
	var err error
	storageLabels := map[string]bool{tenancy.MetricNameLabel: true, tenancy.MeasurementLabel: true, tenancy.FieldLabel: true}
	tenantLabel := func(s string) bool { return tenancy.IsReserved(s) && !strings.HasPrefix(s, "__") }
	metricsql.VisitAll(expr, func(e metricsql.Expr) {
		if err != nil {
			return
		}
		switch x := e.(type) {
		case *metricsql.MetricExpr:
			for _, lfs := range x.LabelFilterss {
				for _, lf := range lfs {
					if tenancy.IsReserved(lf.Label) && !storageLabels[lf.Label] {
						err = parser.NewError(parser.CodeForbiddenLabel, "label %q may not be used in a query: names starting with \"__\" and tenancy labels are reserved", lf.Label)
						return
					}
				}
			}
		case *metricsql.StringExpr:
			if tenantLabel(x.S) {
				err = parser.NewError(parser.CodeForbiddenLabel, "label %q may not be used in a query: it is a tenancy label", x.S)
			}
		case *metricsql.AggrFuncExpr:
			for _, a := range x.Modifier.Args {
				if tenantLabel(a) {
					err = parser.NewError(parser.CodeForbiddenLabel, "label %q may not be used in a query: it is a tenancy label", a)
				}
			}
		case *metricsql.BinaryOpExpr:
			for _, a := range append(append([]string{}, x.GroupModifier.Args...), x.JoinModifier.Args...) {
				if tenantLabel(a) {
					err = parser.NewError(parser.CodeForbiddenLabel, "label %q may not be used in a query: it is a tenancy label", a)
				}
			}
		}
	})
	return err
}

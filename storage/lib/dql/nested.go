package dql

import (
	"vigil/storage/lib/dql/parser"

	"context"
	"errors"
	"maps"
	"sort"

	"github.com/VictoriaMetrics/metricsql"

	"vigil/storage/lib/tenancy"
)

// Nested queries (DQL.md §5): M::(M::cpu:(x) {…} [1h] BY host):(last(x)). The inner
// statement runs against storage; the outer one runs against its result, where every inner
// series is a timeline (its tags), every numeric column a field, and every row a sample.
// The outer statement's range is the inner one unless it names its own start or end.

func execNested(ctx context.Context, src Source, s *parser.QueryStmt, opts *Options) (*Result, error) {
	in := *opts
	in.nested = true
	in.DisableSLimit = true
	inner, err := execQuery(ctx, src, s.Subquery, &in)
	if err != nil {
		return nil, err
	}
	name := "nested"
	if len(inner.Series) > 0 {
		name = inner.Series[0].Name
	}
	mem := &memSource{}
	start, end := inner.start, inner.end
	for _, rs := range inner.Series {
		for _, row := range rs.Values {
			start, end = min(start, rowTime(row)), max(end, rowTime(row)+1)
		}
	}
	for _, rs := range inner.Series {
		cols := valueColumns(rs)
		for _, k := range cols {
			labels := map[string]string{tenancy.MeasurementLabel: name, tenancy.FieldLabel: rs.Columns[k]}
			maps.Copy(labels, rs.Tags)
			ser := Series{Labels: labels}
			for _, row := range rs.Values {
				if v, ok := row[k].(float64); ok {
					ser.Timestamps = append(ser.Timestamps, rowTime(row))
					ser.Values = append(ser.Values, v)
				}
			}
			mem.series = append(mem.series, ser)
		}
	}
	outer := *s
	outer.Subquery = nil
	outer.Source = &parser.NameExpr{Name: name}
	out := *opts
	out.EngineOnly = true
	if s.Time == nil || (s.Time.From == nil && s.Time.To == nil) {
		out.TimeRange = []int64{start, end}
	}
	res, err := execQuery(ctx, mem, &outer, &out)
	if err != nil {
		return nil, err
	}
	res.RawQuery = inner.RawQuery
	return res, nil
}

// memSource is a Source over the series of an inner result.
type memSource struct {
	series []Series
}

func (m *memSource) match(filterss [][]metricsql.LabelFilter, labels map[string]string) bool {
	for _, fs := range filterss {
		all := true
		for _, lf := range fs {
			v := labels[lf.Label]
			ok := v == lf.Value
			if lf.IsRegexp {
				ok = mustCompileAnchored(lf.Value).MatchString(v)
			}
			if ok == lf.IsNegative {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

func (m *memSource) Fetch(_ context.Context, req FetchRequest) ([]Series, error) {
	var out []Series
	for _, s := range m.series {
		if !m.match(req.Filterss, s.Labels) {
			continue
		}
		o := Series{Labels: s.Labels}
		for i, t := range s.Timestamps {
			if t >= req.Start && t < req.End {
				o.Timestamps = append(o.Timestamps, t)
				o.Values = append(o.Values, s.Values[i])
			}
		}
		if len(o.Timestamps) > 0 {
			out = append(out, o)
		}
	}
	return out, nil
}

func (m *memSource) QueryRange(context.Context, metricsql.Expr, int64, int64, int64) ([]Series, error) {
	return nil, errors.New("BUG: nested queries are evaluated engine-side")
}

func (m *memSource) LabelNames(_ context.Context, filterss [][]metricsql.LabelFilter, _, _ int64, _ int) ([]string, error) {
	set := map[string]bool{}
	for _, s := range m.series {
		if m.match(filterss, s.Labels) {
			for k := range s.Labels {
				set[k] = true
			}
		}
	}
	return sortedKeys(set), nil
}

func (m *memSource) LabelValues(_ context.Context, name string, filterss [][]metricsql.LabelFilter, _, _ int64, _ int) ([]string, error) {
	set := map[string]bool{}
	for _, s := range m.series {
		if v := s.Labels[name]; v != "" && m.match(filterss, s.Labels) {
			set[v] = true
		}
	}
	return sortedKeys(set), nil
}

func sortedKeys(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

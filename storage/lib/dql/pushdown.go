package dql

import (
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/VictoriaMetrics/metricsql"

	"vigil/storage/lib/dql/parser"
	"vigil/storage/lib/tenancy"
)

// Running a pushed-down query (compile.go builds its MetricsQL): the range queries are
// sent, and their answers assembled into rows per group.

// PushDownQuery is one MetricsQL range query of a pushed-down DQL query.
type PushDownQuery struct {
	Expr             metricsql.Expr
	Start, End, Step int64
}

func (q PushDownQuery) String() string {
	return fmt.Sprintf("%s start=%d end=%d step=%d", q.Expr.AppendString(nil), q.Start, q.End, q.Step)
}

// tryPushDown evaluates the query with MetricsQL when DQL.md §14.6 marks it exact.
func (ex *execState) tryPushDown(ctx context.Context, src Source) (*Result, bool, error) {
	if ex.opts.EngineOnly {
		return nil, false, nil
	}
	if ex.rawRollupPushable() {
		return ex.pushDownRawRollup(ctx, src)
	}
	if ok, _ := ex.pushable(); !ok {
		return nil, false, nil
	}
	dnf, _ := ex.exactTagDNF(ex.s.Filter)
	var calls []*parser.CallExpr
	for _, t := range ex.targets {
		parser.Walk(t.Expr, func(e parser.Expr) bool {
			if c, ok := e.(*parser.CallExpr); ok {
				calls = append(calls, c)
				return false
			}
			return true
		})
	}
	groups := map[string]*pushGroup{}
	var key []byte
	var raw []string
	points := 0
	for _, seg := range ex.segments() {
		for k, c := range calls {
			if len(dnf) == 0 {
				continue // the filter matches nothing
			}
			q := PushDownQuery{ex.compileAggregate(c, dnf, seg.window), seg.start, seg.end, seg.step}
			raw = append(raw, q.String())
			series, err := src.QueryRange(ctx, q.Expr, q.Start, q.End, q.Step)
			if err != nil {
				return nil, true, err
			}
			for _, s := range series {
				points += len(s.Timestamps)
			}
			if ex.opts.MaxPoints > 0 && points > ex.opts.MaxPoints {
				return nil, true, parser.NewError(CodeTooManyPoints, "the query returns more than %d points, the maximum; narrow the time range or the filter, or widen the interval", ex.opts.MaxPoints)
			}
			for _, s := range series {
				key = key[:0]
				for i, n := range ex.s.By {
					if i > 0 {
						key = append(key, 0)
					}
					key = append(key, s.Labels[n.Name]...)
				}
				pg := groups[string(key)]
				if pg == nil {
					pg = ex.newPushGroup(s.Labels)
					groups[string(key)] = pg
				}
				pg.parts = append(pg.parts, pushPart{seg: seg, call: k, ts: s.Timestamps, vs: s.Values})
				pg.points += len(s.Timestamps)
			}
		}
	}
	out := make([]*group, 0, len(groups))
	for _, pg := range groups {
		if pg.g.rows = ex.pushRows(pg, calls); len(pg.g.rows) > 0 {
			out = append(out, pg.g)
		}
	}
	sort.Slice(out, func(i, j int) bool { return compareStrings(out[i].tagVals, out[j].tagVals) < 0 })
	series, err := ex.finish(out)
	if err != nil {
		return nil, true, err
	}
	return &Result{Series: series, RawQuery: strings.Join(raw, "\n"), start: ex.pl.start, end: ex.pl.end}, true, nil
}

// bucket returns the bucket of a range query's point at t, and false for points off the
// segment's grid (a range query may answer more than it was asked).
func (seg segment) bucket(t int64) (int64, bool) {
	if t < seg.start || t > seg.end || (t-seg.start)%seg.step != 0 {
		return 0, false
	}
	return t + seg.shift, true
}

// pushGroup gathers, for one group of a pushed-down query, the series that its range
// queries answered, so that its rows are built once all have arrived.
type pushGroup struct {
	g      *group
	parts  []pushPart
	points int // samples in parts
}

// pushPart is one answered series: the values of calls[call] over seg.
type pushPart struct {
	seg  segment
	call int
	ts   []int64
	vs   []float64
}

func (ex *execState) newPushGroup(labels map[string]string) *pushGroup {
	vals := make([]string, len(ex.s.By))
	var tags map[string]string
	if len(ex.s.By) > 0 {
		tags = make(map[string]string, len(ex.s.By))
	}
	for i, n := range ex.s.By {
		vals[i] = labels[n.Name]
		tags[n.Name] = vals[i]
	}
	return &pushGroup{g: &group{tagVals: vals, tags: tags}}
}

// pushRows builds a group's rows in time order: one per bucket where some call has a value,
// with the targets evaluated on the calls' values. A later answer for the same call and
// bucket replaces an earlier one.
func (ex *execState) pushRows(pg *pushGroup, calls []*parser.CallExpr) []outRow {
	times := make([]int64, 0, pg.points)
	for _, p := range pg.parts {
		for i, t := range p.ts {
			if b, ok := p.seg.bucket(t); ok && !math.IsNaN(p.vs[i]) {
				times = append(times, b)
			}
		}
	}
	if len(times) == 0 {
		return nil
	}
	slices.Sort(times)
	times = slices.Compact(times)
	// vals holds the calls' values row by row; NaN is "no value" (range queries never
	// answer NaN: such points are skipped above).
	nc := len(calls)
	vals := make([]float64, len(times)*nc)
	for i := range vals {
		vals[i] = math.NaN()
	}
	for _, p := range pg.parts {
		for i, t := range p.ts {
			if b, ok := p.seg.bucket(t); ok && !math.IsNaN(p.vs[i]) {
				r, _ := slices.BinarySearch(times, b)
				vals[r*nc+p.call] = p.vs[i]
			}
		}
	}
	// A target that is one aggregate call takes its value as is; any other is evaluated
	// by aggValue over the row's values.
	direct := make([]int, len(ex.targets))
	var aggs map[*parser.CallExpr]any
	for j, t := range ex.targets {
		direct[j] = -1
		if c, ok := parser.Unparen(t.Expr).(*parser.CallExpr); ok {
			direct[j] = slices.Index(calls, c)
		}
		if direct[j] < 0 && aggs == nil {
			aggs = make(map[*parser.CallExpr]any, nc)
		}
	}
	w := len(ex.targets) + 1 // outRow.row: the time, then the targets
	cells := make([]any, len(times)*w)
	rows := make([]outRow, len(times))
	for r, b := range times {
		rv := vals[r*nc : (r+1)*nc]
		if aggs != nil {
			clear(aggs)
			for k, c := range calls {
				if !math.IsNaN(rv[k]) {
					aggs[c] = rv[k]
				}
			}
		}
		row := cells[r*w : (r+1)*w : (r+1)*w]
		for j, t := range ex.targets {
			switch k := direct[j]; {
			case k < 0:
				row[j+1] = ex.aggValue(t.Expr, aggs, pg.g.tags)
			case !math.IsNaN(rv[k]):
				row[j+1] = rv[k]
			}
		}
		rows[r] = outRow{t: b, row: row}
	}
	return rows
}

func compareStrings(a, b []string) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if c := strings.Compare(a[i], b[i]); c != 0 {
			return c
		}
	}
	return len(a) - len(b)
}

func (ex *execState) pushDownRawRollup(ctx context.Context, src Source) (*Result, bool, error) {
	dnf, _ := ex.exactTagDNF(ex.s.Filter)
	var all []Series
	var raw []string
	points := 0
	for _, field := range ex.referencedFields() {
		if len(dnf) == 0 {
			break
		}
		for _, seg := range ex.segments() {
			q := PushDownQuery{ex.compileRollup(field, dnf, seg.window), seg.start, seg.end, seg.step}
			raw = append(raw, q.String())
			series, err := src.QueryRange(ctx, q.Expr, q.Start, q.End, q.Step)
			if err != nil {
				return nil, true, err
			}
			for _, s := range series {
				o := Series{Labels: s.Labels, Timestamps: make([]int64, 0, len(s.Timestamps)), Values: make([]float64, 0, len(s.Values))}
				for i, t := range s.Timestamps {
					if b, ok := seg.bucket(t); ok && !math.IsNaN(s.Values[i]) {
						o.Timestamps = append(o.Timestamps, b)
						o.Values = append(o.Values, s.Values[i])
					}
				}
				// The rollup drops __name__ and keeps __field__; restore the field in any case.
				if o.Labels[tenancy.FieldLabel] == "" {
					o.Labels = maps.Clone(o.Labels)
					o.Labels[tenancy.FieldLabel] = field
				}
				points += len(o.Timestamps)
				all = append(all, o)
			}
			if ex.opts.MaxPoints > 0 && points > ex.opts.MaxPoints {
				return nil, true, parser.NewError(CodeTooManyPoints, "the query returns more than %d points, the maximum; narrow the time range or the filter, or widen the interval", ex.opts.MaxPoints)
			}
		}
	}
	ex.rolledUp = true
	tls := buildTimelines(all, math.MinInt64, math.MaxInt64)
	series, err := ex.evaluate(ctx, tls)
	if err != nil {
		return nil, true, err
	}
	return &Result{Series: series, RawQuery: strings.Join(raw, "\n"), start: ex.pl.start, end: ex.pl.end}, true, nil
}

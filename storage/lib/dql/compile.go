package dql

import (
	"vigil/storage/lib/dql/parser"

	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/VictoriaMetrics/metricsql"

	"vigil/storage/lib/tenancy"
)

// Push-down (DQL.md §14.6): aggregate queries whose every aggregate has an exact MetricsQL
// form run as MetricsQL range queries through Source.QueryRange. A MetricsQL window
// f_over_time(x[w]) evaluated at T covers (T-w, T]; with integer-millisecond timestamps,
// x[w] offset -(w-1ms) evaluated at b covers [b, b+w), which is one DQL bucket. Buckets cut
// by the range's start or end are evaluated on their own with a shorter window, so the
// result equals engine-side evaluation exactly (up to floating-point summation order).

// pushRollups maps DQL rollups to the MetricsQL rollup functions that compute them exactly.
// deriv, rate and irate are left out: VictoriaMetrics uses the sample before the window.
var pushRollups = map[string]string{
	"avg": "avg_over_time", "sum": "sum_over_time", "min": "min_over_time",
	"max": "max_over_time", "count": "count_over_time", "first": "first_over_time",
	"last": "last_over_time", "median": "median_over_time", "stddev": "stddev_over_time",
}

// pushAggregates are the target aggregates with an exact push-down.
var pushAggregates = map[string]bool{"avg": true, "sum": true, "min": true, "max": true, "count": true, "spread": true}

// pushable reports whether the query can be pushed down, and why not.
func (ex *execState) pushable() (bool, string) {
	if !ex.hasAgg {
		return false, "no aggregate"
	}
	if ex.pl.rollup != "" {
		if _, ok := rollupFunc(ex.pl.rollup); !ok {
			return false, "rollup " + ex.pl.rollup
		}
	}
	reason := ""
	for _, t := range ex.targets {
		parser.Walk(t.Expr, func(e parser.Expr) bool {
			if c, ok := e.(*parser.CallExpr); ok && reason == "" {
				name, field := parser.AggregateOf(c)
				if !pushAggregates[name] {
					reason = name + "()"
				}
				if ex.kind(field) != kindField {
					reason = "unknown field"
				}
				return false
			}
			return true
		})
	}
	if reason != "" {
		return false, reason
	}
	if _, exact := ex.exactTagDNF(ex.s.Filter); !exact {
		return false, "field predicates"
	}
	return true, ""
}

// rollupFunc returns the MetricsQL rollup function and, for pNN, its phi argument.
func rollupFunc(name string) (string, bool) {
	if f, ok := pushRollups[name]; ok {
		return f, true
	}
	if _, ok := parser.PercentileRollup(name); ok {
		return "quantile_over_time", true
	}
	return "", false
}

// exactTagDNF returns the DNF of a filter made only of tag predicates; exact is false when
// the filter has field predicates or is too large to expand.
func (ex *execState) exactTagDNF(e parser.Expr) ([][]metricsql.LabelFilter, bool) {
	if e == nil {
		return [][]metricsql.LabelFilter{{}}, true
	}
	exact := true
	parser.Walk(e, func(x parser.Expr) bool {
		switch c := x.(type) {
		case *parser.BinaryExpr:
			switch c.Op {
			case "AND", "OR":
				return true
			}
			n, ok := parser.Unparen(c.LHS).(*parser.NameExpr)
			_, isStr := c.RHS.(*parser.StringExpr)
			_, isRe := c.RHS.(*parser.RegexExpr)
			if !ok || ex.kind(n.Name) == kindField || !(isStr || isRe) || (c.Op != "=" && c.Op != "!=") {
				exact = false
			}
			return false
		case *parser.InExpr:
			n, ok := parser.Unparen(c.X).(*parser.NameExpr)
			if !ok || ex.kind(n.Name) == kindField {
				exact = false
			}
			for _, el := range c.List.Elems {
				if _, isNum := el.(*parser.NumberExpr); isNum && (!ok || ex.kind(n.Name) != kindTag) {
					exact = false // a number compared with an unknown name is a field predicate
				}
			}
			return false
		}
		return true
	})
	if !exact {
		return nil, false
	}
	dnf := ex.tagDNF(e)
	if countDisjuncts(e) > maxDisjuncts {
		return nil, false
	}
	return dnf, true
}

// countDisjuncts returns the size of the DNF of e, saturated at maxDisjuncts+1.
func countDisjuncts(e parser.Expr) int {
	switch x := e.(type) {
	case *parser.ParenExpr:
		return countDisjuncts(x.X)
	case *parser.BinaryExpr:
		switch x.Op {
		case "AND":
			return min(countDisjuncts(x.LHS)*countDisjuncts(x.RHS), maxDisjuncts+1)
		case "OR":
			return min(countDisjuncts(x.LHS)+countDisjuncts(x.RHS), maxDisjuncts+1)
		}
	}
	return 1
}

// durationExpr returns a MetricsQL duration of ms milliseconds. metricsql does not export
// a constructor, so it is taken from a parsed template made only of the integer.
func durationExpr(ms int64) *metricsql.DurationExpr {
	e, err := metricsql.Parse("x[1ms] offset " + strconv.FormatInt(ms, 10) + "ms")
	if err != nil {
		panic(fmt.Errorf("BUG: cannot build a duration of %dms: %w", ms, err))
	}
	return e.(*metricsql.RollupExpr).Offset
}

// segment is a run of equal-width windows evaluated by one range query: windows
// [T, T+window) for T = start, start+step, ... <= end, each stamped at T+shift.
type segment struct {
	start, end, step, window, shift int64
}

// segments splits the query range into full buckets and the cut edge buckets.
func (ex *execState) segments() []segment {
	pl := ex.pl
	if pl.interval == 0 {
		return []segment{{pl.start, pl.start, 1, pl.end - pl.start, 0}}
	}
	iv := pl.interval
	b0, bL := pl.bucket(pl.start), pl.bucket(pl.end-1)
	var segs []segment
	firstFull, lastFull := b0, bL
	if pl.start > b0 {
		segs = append(segs, segment{pl.start, pl.start, iv, min(b0+iv, pl.end) - pl.start, b0 - pl.start})
		firstFull = b0 + iv
	}
	if pl.end < bL+iv && bL >= firstFull {
		segs = append(segs, segment{bL, bL, iv, pl.end - bL, 0})
		lastFull = bL - iv
	} else if pl.end < bL+iv {
		lastFull = bL - iv
	}
	if firstFull <= lastFull {
		segs = append(segs, segment{firstFull, lastFull, iv, iv, 0})
	}
	return segs
}

// compileAggregate compiles one aggregate call for windows of w ms.
func (ex *execState) compileAggregate(c *parser.CallExpr, dnf [][]metricsql.LabelFilter, w int64) metricsql.Expr {
	field := parser.Unparen(c.Args[0]).(*parser.NameExpr).Name
	base := []metricsql.LabelFilter{measurementFilter(ex.s.Source.Name), {Label: tenancy.FieldLabel, Value: field}}
	lfss := make([][]metricsql.LabelFilter, 0, len(dnf))
	for _, conj := range dnf {
		lfss = append(lfss, append(append([]metricsql.LabelFilter{}, base...), conj...))
	}
	sel := &metricsql.RollupExpr{
		Expr:   &metricsql.MetricExpr{LabelFilterss: lfss},
		Window: durationExpr(w),
		Offset: durationExpr(-(w - 1)),
	}
	by := make([]string, len(ex.s.By))
	for i, n := range ex.s.By {
		by[i] = n.Name
	}
	aggr := func(name string, arg metricsql.Expr) metricsql.Expr {
		ae := &metricsql.AggrFuncExpr{Name: name, Args: []metricsql.Expr{arg}}
		if len(by) > 0 {
			ae.Modifier = metricsql.ModifierExpr{Op: "by", Args: by}
		}
		return ae
	}
	rollup := func(fn string) metricsql.Expr {
		return &metricsql.FuncExpr{Name: fn, Args: []metricsql.Expr{sel}}
	}
	if r := ex.pl.rollup; r != "" {
		fn, _ := rollupFunc(r)
		var inner metricsql.Expr
		if fn == "quantile_over_time" {
			p, _ := parser.PercentileRollup(r)
			phi := p / 100
			inner = &metricsql.FuncExpr{Name: fn, Args: []metricsql.Expr{&metricsql.NumberExpr{N: phi}, sel}}
		} else {
			inner = rollup(fn)
		}
		if c.Name == "spread" {
			return &metricsql.BinaryOpExpr{Op: "-", Left: aggr("max", inner), Right: aggr("min", inner)}
		}
		return aggr(c.Name, inner)
	}
	switch c.Name {
	case "count":
		return aggr("sum", rollup("count_over_time"))
	case "sum", "min", "max":
		return aggr(c.Name, rollup(c.Name+"_over_time"))
	case "avg":
		return &metricsql.BinaryOpExpr{Op: "/", Left: aggr("sum", rollup("sum_over_time")), Right: aggr("sum", rollup("count_over_time"))}
	case "spread":
		return &metricsql.BinaryOpExpr{Op: "-", Left: aggr("max", rollup("max_over_time")), Right: aggr("min", rollup("min_over_time"))}
	}
	panic(fmt.Errorf("BUG: aggregate %s cannot be pushed down", c.Name))
}

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

// rawRollupPushable reports whether a query without aggregates but with an interval can
// have its per-timeline rollup (implied last, or a pushable rollup) computed by MetricsQL:
// the rows of each bucket are then one sample per series, and the engine does the rest.
func (ex *execState) rawRollupPushable() bool {
	if ex.hasAgg || ex.pl.interval == 0 {
		return false
	}
	if ex.pl.rollup != "" {
		if _, ok := rollupFunc(ex.pl.rollup); !ok {
			return false
		}
	}
	for _, t := range ex.targets {
		if parser.ContainsKind(t.Expr, parser.FuncTransform) {
			return false
		}
	}
	_, exact := ex.exactTagDNF(ex.s.Filter)
	return exact
}

// compileRollup compiles the per-series rollup of field for windows of w ms.
func (ex *execState) compileRollup(field string, dnf [][]metricsql.LabelFilter, w int64) metricsql.Expr {
	base := []metricsql.LabelFilter{measurementFilter(ex.s.Source.Name), {Label: tenancy.FieldLabel, Value: field}}
	lfss := make([][]metricsql.LabelFilter, 0, len(dnf))
	for _, conj := range dnf {
		lfss = append(lfss, append(append([]metricsql.LabelFilter{}, base...), conj...))
	}
	sel := &metricsql.RollupExpr{
		Expr:   &metricsql.MetricExpr{LabelFilterss: lfss},
		Window: durationExpr(w),
		Offset: durationExpr(-(w - 1)),
	}
	r := ex.pl.rollup
	if r == "" {
		r = "last"
	}
	fn, _ := rollupFunc(r)
	if fn == "quantile_over_time" {
		p, _ := parser.PercentileRollup(r)
		phi := p / 100
		return &metricsql.FuncExpr{Name: fn, Args: []metricsql.Expr{&metricsql.NumberExpr{N: phi}, sel}}
	}
	return &metricsql.FuncExpr{Name: fn, Args: []metricsql.Expr{sel}}
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

package dql

import (
	"vigil/storage/lib/dql/parser"

	"fmt"
	"strconv"

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

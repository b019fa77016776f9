package dql

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"vigil/storage/lib/dql/parser"
)

// Grouping and aggregation (steps 6-7 of DQL.md §9, §10.1): timelines are grouped by the
// BY tags and the aggregate targets computed per bucket.

// group is one output series before paging.
type group struct {
	tagVals []string
	tags    map[string]string
	rows    []outRow
}

type groupTimelines struct {
	g   *group
	tls []*timeline
}

func (ex *execState) group(tls []*timeline) []*groupTimelines {
	byKey := map[string]*groupTimelines{}
	var order []*groupTimelines
	for _, tl := range tls {
		if len(tl.ts) == 0 {
			continue
		}
		vals := make([]string, len(ex.s.By))
		var tags map[string]string
		if len(ex.s.By) > 0 {
			tags = map[string]string{}
		}
		for i, n := range ex.s.By {
			vals[i] = tl.tags[n.Name]
			tags[n.Name] = vals[i]
		}
		key := strings.Join(vals, "\x00")
		g := byKey[key]
		if g == nil {
			g = &groupTimelines{g: &group{tagVals: vals, tags: tags}}
			byKey[key] = g
			order = append(order, g)
		}
		g.tls = append(g.tls, tl)
	}
	sort.Slice(order, func(i, j int) bool { return slices.Compare(order[i].g.tagVals, order[j].g.tagVals) < 0 })
	return order
}

func (ex *execState) bucketTime(t int64) int64 {
	if ex.pl.interval > 0 {
		return ex.pl.bucket(t)
	}
	return ex.pl.start
}

// sample is one value fed to an aggregate.
type sample struct {
	t   int64
	key string
	v   float64
}

// projectAggregates computes the aggregate targets per bucket (step 7).
func (ex *execState) projectAggregates(tls []*timeline, tags map[string]string) []outRow {
	type bucketData = map[*parser.CallExpr][]sample
	buckets := map[int64]bucketData{}
	var calls []*parser.CallExpr
	for _, t := range ex.targets {
		parser.Walk(t.Expr, func(e parser.Expr) bool {
			if c, ok := e.(*parser.CallExpr); ok && parser.IsAggregateCall(c) {
				calls = append(calls, c)
				return false
			}
			return true
		})
	}
	for _, tl := range tls {
		lastB, haveB := int64(0), false
		var bd bucketData
		for i, t := range tl.ts {
			b := ex.bucketTime(t)
			if !haveB || b != lastB {
				lastB, haveB = b, true
				bd = buckets[b]
				if bd == nil {
					bd = bucketData{}
					buckets[b] = bd
				}
			}
			for _, c := range calls {
				_, field := parser.AggregateOf(c)
				col := tl.fields[field]
				if col == nil || math.IsNaN(col[i]) {
					continue
				}
				bd[c] = append(bd[c], sample{t, tl.key, col[i]})
			}
		}
	}
	for b, bd := range buckets {
		if len(bd) == 0 {
			delete(buckets, b)
		}
	}
	times := make([]int64, 0, len(buckets))
	for b := range buckets {
		times = append(times, b)
	}
	slices.Sort(times)
	out := make([]outRow, 0, len(times))
	for _, b := range times {
		bd := buckets[b]
		if multi := ex.multiRowTarget(); multi >= 0 {
			out = append(out, ex.multiRows(multi, b, bd[ex.targets[multi].Expr.(*parser.CallExpr)], tags)...)
			continue
		}
		aggs := map[*parser.CallExpr]any{}
		for _, c := range calls {
			if vs := bd[c]; len(vs) > 0 {
				aggs[c] = aggregate(c, vs)
			}
		}
		row := make([]any, len(ex.targets)+1)
		for k, t := range ex.targets {
			row[k+1] = ex.aggValue(t.Expr, aggs, tags)
		}
		out = append(out, outRow{t: b, row: row})
	}
	return out
}

// multiRowTarget returns the index of a distinct/top/bottom target, or -1.
func (ex *execState) multiRowTarget() int {
	for i, t := range ex.targets {
		if c, ok := t.Expr.(*parser.CallExpr); ok && parser.IsMultiRow(c.Name) {
			return i
		}
	}
	return -1
}

// multiRows evaluates distinct(), top() and bottom() over one bucket (DQL.md §10.1).
func (ex *execState) multiRows(k int, b int64, vs []sample, tags map[string]string) []outRow {
	c := ex.targets[k].Expr.(*parser.CallExpr)
	row := func(t int64, v float64) outRow {
		cells := make([]any, len(ex.targets)+1)
		for i, tg := range ex.targets {
			if i == k {
				cells[i+1] = v
			} else {
				cells[i+1] = ex.aggValue(tg.Expr, nil, tags)
			}
		}
		return outRow{t: t, row: cells}
	}
	var out []outRow
	switch c.Name {
	case "distinct":
		xs := values(vs)
		slices.Sort(xs)
		xs = slices.Compact(xs)
		for _, x := range xs {
			out = append(out, row(b, x))
		}
	case "top", "bottom":
		nf, _ := parser.NumberArg(c.Args[1])
		sorted := slices.Clone(vs)
		sort.SliceStable(sorted, func(i, j int) bool {
			a, z := sorted[i], sorted[j]
			if a.v != z.v {
				if c.Name == "top" {
					return a.v > z.v
				}
				return a.v < z.v
			}
			if a.t != z.t {
				return a.t < z.t
			}
			return a.key < z.key
		})
		sorted = sorted[:min(int(nf), len(sorted))]
		sort.SliceStable(sorted, func(i, j int) bool {
			if sorted[i].t != sorted[j].t {
				return sorted[i].t < sorted[j].t
			}
			return sorted[i].key < sorted[j].key
		})
		for _, s := range sorted {
			out = append(out, row(s.t, s.v))
		}
	}
	return out
}

func (ex *execState) aggValue(e parser.Expr, aggs map[*parser.CallExpr]any, tags map[string]string) any {
	switch x := e.(type) {
	case *parser.NumberExpr:
		return x.Val
	case *parser.ParenExpr:
		return ex.aggValue(x.X, aggs, tags)
	case *parser.NameExpr:
		v, ok := tags[x.Name]
		if !ok {
			return nil
		}
		return v
	case *parser.UnaryExpr:
		v, ok := ex.aggValue(x.X, aggs, tags).(float64)
		if !ok {
			return nil
		}
		return x.Apply(v)
	case *parser.BinaryExpr:
		l, lok := ex.aggValue(x.LHS, aggs, tags).(float64)
		r, rok := ex.aggValue(x.RHS, aggs, tags).(float64)
		if !lok || !rok {
			return nil
		}
		return arith(x.Op, l, r)
	case *parser.CallExpr:
		return aggs[x]
	}
	return nil
}

// aggregate applies an aggregate call to a non-empty multiset (DQL.md §10.1).
func aggregate(c *parser.CallExpr, vs []sample) any {
	name, _ := parser.AggregateOf(c)
	switch name {
	case "count":
		return float64(len(vs))
	case "sum":
		s := 0.0
		for _, v := range vs {
			s += v.v
		}
		return s
	case "avg":
		s := 0.0
		for _, v := range vs {
			s += v.v
		}
		return s / float64(len(vs))
	case "min", "max":
		m := vs[0].v
		for _, v := range vs[1:] {
			if (c.Name == "min" && v.v < m) || (c.Name == "max" && v.v > m) {
				m = v.v
			}
		}
		return m
	case "spread":
		lo, hi := vs[0].v, vs[0].v
		for _, v := range vs[1:] {
			lo, hi = math.Min(lo, v.v), math.Max(hi, v.v)
		}
		return hi - lo
	case "first", "last":
		best := vs[0]
		for _, v := range vs[1:] {
			if c.Name == "first" && (v.t < best.t || v.t == best.t && v.key < best.key) ||
				c.Name == "last" && (v.t > best.t || v.t == best.t && v.key < best.key) {
				best = v
			}
		}
		return best.v
	case "percentile":
		p, _ := parser.NumberArg(c.Args[1])
		xs := values(vs)
		slices.Sort(xs)
		r := int(math.Ceil(p / 100 * float64(len(xs))))
		return xs[max(r, 1)-1]
	case "median":
		xs := values(vs)
		slices.Sort(xs)
		return quantile(xs, 0.5)
	case "stddev":
		return stddev(values(vs))
	case "mode":
		xs := values(vs)
		slices.Sort(xs)
		best, bestN := xs[0], 0
		for i := 0; i < len(xs); {
			j := i
			for j < len(xs) && xs[j] == xs[i] {
				j++
			}
			if j-i > bestN {
				best, bestN = xs[i], j-i
			}
			i = j
		}
		return best
	case "count_distinct":
		set := map[float64]bool{}
		for _, v := range vs {
			set[v.v] = true
		}
		return float64(len(set))
	}
	panic(fmt.Errorf("BUG: unknown aggregate %s", c.Name))
}

func values(vs []sample) []float64 {
	xs := make([]float64, len(vs))
	for i, v := range vs {
		xs[i] = v.v
	}
	return xs
}

// quantile interpolates linearly over sorted xs: h = (n-1)q, x[⌊h⌋] + (h-⌊h⌋)(x[⌊h⌋+1]-x[⌊h⌋]).
// It is written in the form VictoriaMetrics uses so that push-down gives the same bits.
func quantile(xs []float64, q float64) float64 {
	n := float64(len(xs))
	rank := q * (n - 1)
	lo := math.Max(0, math.Floor(rank))
	hi := math.Min(n-1, lo+1)
	w := rank - math.Floor(rank)
	return xs[int(lo)]*(1-w) + xs[int(hi)]*w
}

// stddev is the population standard deviation, computed like VictoriaMetrics'
// stddev_over_time (Welford's method) so that push-down gives the same bits.
func stddev(xs []float64) float64 {
	if len(xs) == 1 {
		return 0
	}
	var avg, count, q float64
	for _, v := range xs {
		count++
		avgNew := avg + (v-avg)/count
		q += (v - avg) * (v - avgNew)
		avg = avgNew
	}
	return math.Sqrt(q / count)
}

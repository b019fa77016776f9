package dqltest

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"

	"github.com/VictoriaMetrics/metricsql"

	"vigil/storage/lib/dql"
)

// eval evaluates expr at each timestamp of ts, following VictoriaMetrics semantics for the
// supported subset: a rollup window [w] evaluated at T with offset o covers samples with
// T-o-w < t <= T-o; rollup functions drop __name__; aggregations keep only their "by"
// labels; binary operators match series with identical label sets.
func (s *Source) eval(expr metricsql.Expr, ts []int64) ([]dql.Series, error) {
	switch e := expr.(type) {
	case *metricsql.FuncExpr:
		return s.evalRollup(e, ts)
	case *metricsql.AggrFuncExpr:
		return s.evalAggr(e, ts)
	case *metricsql.BinaryOpExpr:
		return s.evalBinary(e, ts)
	}
	return nil, fmt.Errorf("dqltest: unsupported MetricsQL expression %s", expr.AppendString(nil))
}

func (s *Source) evalRollup(fe *metricsql.FuncExpr, ts []int64) ([]dql.Series, error) {
	var phi float64
	args := fe.Args
	if fe.Name == "quantile_over_time" {
		if len(args) != 2 {
			return nil, fmt.Errorf("dqltest: quantile_over_time takes 2 args")
		}
		n, ok := args[0].(*metricsql.NumberExpr)
		if !ok {
			return nil, fmt.Errorf("dqltest: quantile_over_time needs a number phi")
		}
		phi = n.N
		args = args[1:]
	}
	if len(args) != 1 {
		return nil, fmt.Errorf("dqltest: %s takes one argument", fe.Name)
	}
	re, ok := args[0].(*metricsql.RollupExpr)
	if !ok || re.Window == nil {
		return nil, fmt.Errorf("dqltest: %s needs selector[window]", fe.Name)
	}
	me, ok := re.Expr.(*metricsql.MetricExpr)
	if !ok {
		return nil, fmt.Errorf("dqltest: %s needs a plain selector", fe.Name)
	}
	window := re.Window.Duration(0)
	offset := int64(0)
	if re.Offset != nil {
		offset = re.Offset.Duration(0)
	}
	var out []dql.Series
	for _, ser := range s.Series {
		if !Matches(me.LabelFilterss, ser.Labels) {
			continue
		}
		labels := maps.Clone(ser.Labels)
		delete(labels, "__name__")
		o := dql.Series{Labels: labels}
		for _, T := range ts {
			hi := T - offset
			lo := hi - window
			var wt []int64
			var wv []float64
			for i, t := range ser.Timestamps {
				if t > lo && t <= hi {
					wt = append(wt, t)
					wv = append(wv, ser.Values[i])
				}
			}
			if len(wv) == 0 {
				continue
			}
			v, err := rollupFunc(fe.Name, phi, wt, wv)
			if err != nil {
				return nil, err
			}
			if math.IsNaN(v) {
				continue
			}
			o.Timestamps = append(o.Timestamps, T)
			o.Values = append(o.Values, v)
		}
		out = append(out, o)
	}
	return out, nil
}

func rollupFunc(name string, phi float64, ts []int64, vs []float64) (float64, error) {
	n := len(vs)
	sum := 0.0
	for _, v := range vs {
		sum += v
	}
	switch name {
	case "sum_over_time":
		return sum, nil
	case "count_over_time":
		return float64(n), nil
	case "avg_over_time":
		return sum / float64(n), nil
	case "min_over_time":
		return slices.Min(vs), nil
	case "max_over_time":
		return slices.Max(vs), nil
	case "first_over_time":
		return vs[0], nil
	case "last_over_time":
		return vs[n-1], nil
	case "stddev_over_time":
		// Welford's method, as VictoriaMetrics computes it.
		if n == 1 {
			return 0, nil
		}
		var avg, count, q float64
		for _, v := range vs {
			count++
			avgNew := avg + (v-avg)/count
			q += (v - avg) * (v - avgNew)
			avg = avgNew
		}
		return math.Sqrt(q / count), nil
	case "median_over_time", "quantile_over_time":
		if name == "median_over_time" {
			phi = 0.5
		}
		xs := slices.Clone(vs)
		sort.Float64s(xs)
		// VictoriaMetrics' quantileSorted.
		rank := phi * float64(n-1)
		lo := math.Max(0, math.Floor(rank))
		hi := math.Min(float64(n-1), lo+1)
		w := rank - math.Floor(rank)
		return xs[int(lo)]*(1-w) + xs[int(hi)]*w, nil
	case "deriv_fast":
		if n < 2 {
			return math.NaN(), nil
		}
		return (vs[n-1] - vs[0]) / (float64(ts[n-1]-ts[0]) / 1000), nil
	case "distinct_over_time":
		set := map[float64]bool{}
		for _, v := range vs {
			set[v] = true
		}
		return float64(len(set)), nil
	}
	return 0, fmt.Errorf("dqltest: unsupported rollup function %s", name)
}

func (s *Source) evalAggr(ae *metricsql.AggrFuncExpr, ts []int64) ([]dql.Series, error) {
	if len(ae.Args) != 1 {
		return nil, fmt.Errorf("dqltest: %s takes one argument", ae.Name)
	}
	if ae.Modifier.Op != "" && ae.Modifier.Op != "by" {
		return nil, fmt.Errorf("dqltest: unsupported modifier %s", ae.Modifier.Op)
	}
	in, err := s.eval(ae.Args[0], ts)
	if err != nil {
		return nil, err
	}
	type grp struct {
		labels map[string]string
		vals   map[int64][]float64
	}
	groups := map[string]*grp{}
	for _, ser := range in {
		labels := map[string]string{}
		for _, k := range ae.Modifier.Args {
			if v := ser.Labels[k]; v != "" {
				labels[k] = v
			}
		}
		key := labelKey(labels)
		g := groups[key]
		if g == nil {
			g = &grp{labels: labels, vals: map[int64][]float64{}}
			groups[key] = g
		}
		for i, t := range ser.Timestamps {
			g.vals[t] = append(g.vals[t], ser.Values[i])
		}
	}
	var out []dql.Series
	for _, key := range slices.Sorted(maps.Keys(groups)) {
		g := groups[key]
		o := dql.Series{Labels: g.labels}
		for _, t := range ts {
			vs := g.vals[t]
			if len(vs) == 0 {
				continue
			}
			var v float64
			switch ae.Name {
			case "sum":
				for _, x := range vs {
					v += x
				}
			case "count":
				v = float64(len(vs))
			case "min":
				v = slices.Min(vs)
			case "max":
				v = slices.Max(vs)
			case "avg":
				for _, x := range vs {
					v += x
				}
				v /= float64(len(vs))
			default:
				return nil, fmt.Errorf("dqltest: unsupported aggregation %s", ae.Name)
			}
			o.Timestamps = append(o.Timestamps, t)
			o.Values = append(o.Values, v)
		}
		out = append(out, o)
	}
	return out, nil
}

func (s *Source) evalBinary(be *metricsql.BinaryOpExpr, ts []int64) ([]dql.Series, error) {
	if be.GroupModifier.Op != "" || be.JoinModifier.Op != "" || be.Bool {
		return nil, fmt.Errorf("dqltest: binary operator modifiers are not supported")
	}
	l, err := s.eval(be.Left, ts)
	if err != nil {
		return nil, err
	}
	r, err := s.eval(be.Right, ts)
	if err != nil {
		return nil, err
	}
	right := map[string]dql.Series{}
	for _, ser := range r {
		right[labelKey(ser.Labels)] = ser
	}
	var out []dql.Series
	for _, ls := range l {
		rs, ok := right[labelKey(ls.Labels)]
		if !ok {
			continue
		}
		rv := map[int64]float64{}
		for i, t := range rs.Timestamps {
			rv[t] = rs.Values[i]
		}
		o := dql.Series{Labels: ls.Labels}
		for i, t := range ls.Timestamps {
			b, ok := rv[t]
			if !ok {
				continue
			}
			a := ls.Values[i]
			var v float64
			switch be.Op {
			case "+":
				v = a + b
			case "-":
				v = a - b
			case "*":
				v = a * b
			case "/":
				v = a / b
			default:
				return nil, fmt.Errorf("dqltest: unsupported operator %s", be.Op)
			}
			if math.IsNaN(v) || math.IsInf(v, 0) {
				continue
			}
			o.Timestamps = append(o.Timestamps, t)
			o.Values = append(o.Values, v)
		}
		out = append(out, o)
	}
	return out, nil
}

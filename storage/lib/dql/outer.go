package dql

import (
	"vigil/storage/lib/dql/parser"

	"context"
	"math"
	"slices"
	"sort"
	"strings"
)

// Outer functions (DQL.md §10.5) post-process a complete result, per series and per value
// column; the time column and the column names are kept.

// execOuter runs the statement of the first call, then every function in order.
func execOuter(ctx context.Context, src Source, s *parser.OuterStmt, opts *Options) (*Result, error) {
	first := s.Calls[0]
	if first.Name == "eval" {
		return execEval(ctx, src, first, opts)
	}
	qs, _ := parser.OuterQuery(first)
	inner, err := parser.ParseInner(first, qs)
	if err != nil {
		return nil, err
	}
	if err := applyOptions(inner, opts); err != nil {
		return nil, err
	}
	res, err := execQuery(ctx, src, inner, opts)
	if err != nil {
		return nil, err
	}
	for _, c := range s.Calls {
		res.Series = applyOuter(c, res.Series)
	}
	return res, nil
}

// valueColumns returns the indexes of the numeric columns of a series (after time).
func valueColumns(s ResultSeries) []int {
	var idx []int
	for k := 1; k < len(s.Columns); k++ {
		numeric, seen := true, false
		for _, row := range s.Values {
			switch row[k].(type) {
			case float64:
				seen = true
			case nil:
			default:
				numeric = false
			}
		}
		if numeric && seen {
			idx = append(idx, k)
		}
	}
	return idx
}

func rowTime(row []any) int64 { t, _ := row[0].(int64); return t }

// applyOuter applies one outer function to every series; a series left without rows is
// dropped.
func applyOuter(c *parser.CallExpr, series []ResultSeries) []ResultSeries {
	if c.Name == "series_sum" {
		return seriesSum(c, series)
	}
	out := make([]ResultSeries, 0, len(series))
	for _, s := range series {
		cols := valueColumns(s)
		var rows [][]any
		switch c.Name {
		case "abs", "log2", "log10", "cumsum":
			rows = outerPointwise(c.Name, s, cols)
		case "difference", "non_negative_difference", "derivative", "non_negative_derivative", "rate", "irate":
			rows = outerDeltas(c.Name, s, cols)
		case "moving_average":
			rows = outerMovingAverage(c, s, cols)
		case "avg", "count", "count_distinct":
			rows = outerSummary(c.Name, s, cols)
		case "first", "last", "max", "min":
			rows = outerPick(c.Name, s, cols)
		}
		if len(rows) == 0 {
			continue
		}
		s.Values = rows
		out = append(out, s)
	}
	return out
}

// outerPointwise computes abs, log2, log10 or cumsum of every value.
func outerPointwise(name string, s ResultSeries, cols []int) [][]any {
	var rows [][]any
	sums := map[int]float64{}
	for _, row := range s.Values {
		r := slices.Clone(row)
		for _, k := range cols {
			v, ok := r[k].(float64)
			if !ok {
				continue
			}
			switch name {
			case "abs":
				r[k] = math.Abs(v)
			case "log2":
				r[k] = jsonCell(math.Log2(v))
			case "log10":
				r[k] = jsonCell(math.Log10(v))
			case "cumsum":
				sums[k] += v
				r[k] = sums[k]
			}
		}
		rows = append(rows, r)
	}
	return rows
}

// outerDeltas computes the differences (per second for derivatives and rates) between
// consecutive rows; a row where no column has one is left out.
func outerDeltas(name string, s ResultSeries, cols []int) [][]any {
	var rows [][]any
	for i := 1; i < len(s.Values); i++ {
		prev, cur := s.Values[i-1], s.Values[i]
		r := slices.Clone(cur)
		keep := false
		for _, k := range cols {
			a, aok := prev[k].(float64)
			b, bok := cur[k].(float64)
			r[k] = nil
			if !aok || !bok {
				continue
			}
			d := b - a
			if name != "difference" && name != "non_negative_difference" {
				dt := float64(rowTime(cur)-rowTime(prev)) / 1000
				if dt == 0 {
					continue
				}
				d /= dt
			}
			if strings.HasPrefix(name, "non_negative_") && d < 0 {
				continue
			}
			r[k] = d
			keep = true
		}
		if keep {
			rows = append(rows, r)
		}
	}
	return rows
}

// outerMovingAverage averages each value with the size-1 before it.
func outerMovingAverage(c *parser.CallExpr, s ResultSeries, cols []int) [][]any {
	n := 0
	for _, a := range c.Args {
		if na, ok := a.(*parser.NamedArg); ok && strings.EqualFold(na.Name, "size") {
			f, _ := parser.NumberArg(na.Value)
			n = int(f)
		} else if f, ok := parser.NumberArg(a); ok {
			n = int(f)
		}
	}
	var rows [][]any
	for i := n - 1; i < len(s.Values); i++ {
		r := slices.Clone(s.Values[i])
		for _, k := range cols {
			sum, ok := 0.0, true
			for j := i - n + 1; j <= i; j++ {
				v, isNum := s.Values[j][k].(float64)
				if !isNum {
					ok = false
					break
				}
				sum += v
			}
			r[k] = nil
			if ok {
				r[k] = sum / float64(n)
			}
		}
		rows = append(rows, r)
	}
	return rows
}

// outerSummary reduces a series to one row at time 0: avg, count or count_distinct of each
// column.
func outerSummary(name string, s ResultSeries, cols []int) [][]any {
	if len(s.Values) == 0 {
		return nil
	}
	r := make([]any, len(s.Columns))
	r[0] = int64(0)
	for _, k := range cols {
		var vs []float64
		for _, row := range s.Values {
			if v, ok := row[k].(float64); ok {
				vs = append(vs, v)
			}
		}
		switch name {
		case "count":
			r[k] = float64(len(vs))
		case "count_distinct":
			slices.Sort(vs)
			r[k] = float64(len(slices.Compact(vs)))
		case "avg":
			if len(vs) > 0 {
				sum := 0.0
				for _, v := range vs {
					sum += v
				}
				r[k] = sum / float64(len(vs))
			}
		}
	}
	return [][]any{r}
}

// outerPick keeps the one row that is first, last, max or min by the first value column.
func outerPick(name string, s ResultSeries, cols []int) [][]any {
	if len(s.Values) == 0 || len(cols) == 0 {
		return nil
	}
	k := cols[0]
	best := -1
	for i, row := range s.Values {
		v, ok := row[k].(float64)
		if !ok {
			continue
		}
		if best < 0 {
			best = i
			continue
		}
		bv := s.Values[best][k].(float64)
		switch {
		case name == "last", name == "max" && v > bv, name == "min" && v < bv:
			best = i
		}
	}
	if best < 0 {
		return nil
	}
	return [][]any{slices.Clone(s.Values[best])}
}

// seriesSum adds series point-wise per timestamp, grouped by the sumBy tags.
func seriesSum(c *parser.CallExpr, series []ResultSeries) []ResultSeries {
	var by []string
	for _, a := range c.Args {
		if na, ok := a.(*parser.NamedArg); ok && strings.EqualFold(na.Name, "sumby") {
			by = stringList(na.Value)
		}
	}
	type acc struct {
		s    ResultSeries
		sums map[int64][]any
	}
	groups := map[string]*acc{}
	var order []string
	for _, s := range series {
		cols := valueColumns(s)
		vals := make([]string, len(by))
		var tags map[string]string
		if len(by) > 0 {
			tags = map[string]string{}
		}
		for i, k := range by {
			vals[i] = s.Tags[k]
			tags[k] = vals[i]
		}
		key := strings.Join(vals, "\x00")
		g := groups[key]
		if g == nil {
			g = &acc{s: ResultSeries{Name: s.Name, Tags: tags, Columns: s.Columns}, sums: map[int64][]any{}}
			groups[key] = g
			order = append(order, key)
		}
		for _, row := range s.Values {
			t := rowTime(row)
			r := g.sums[t]
			if r == nil {
				r = make([]any, len(s.Columns))
				r[0] = t
				g.sums[t] = r
			}
			for _, k := range cols {
				if k >= len(r) {
					continue
				}
				v, ok := row[k].(float64)
				if !ok {
					continue
				}
				prev, _ := r[k].(float64)
				r[k] = prev + v
			}
		}
	}
	sort.Strings(order)
	out := make([]ResultSeries, 0, len(order))
	for _, key := range order {
		g := groups[key]
		times := make([]int64, 0, len(g.sums))
		for t := range g.sums {
			times = append(times, t)
		}
		slices.Sort(times)
		for _, t := range times {
			g.s.Values = append(g.s.Values, g.sums[t])
		}
		out = append(out, g.s)
	}
	return out
}

// execEval runs eval(expr, A='…', B='…'): the named queries' series are matched by tags
// and combined per timestamp with their first value column.
func execEval(ctx context.Context, src Source, c *parser.CallExpr, opts *Options) (*Result, error) {
	results := map[string][]ResultSeries{}
	var names []string
	var raws []string
	for _, a := range c.Args[1:] {
		na := a.(*parser.NamedArg)
		inner, err := parser.ParseInner(c, na.Value.(*parser.StringExpr))
		if err != nil {
			return nil, err
		}
		o := *opts
		if err := applyOptions(inner, &o); err != nil {
			return nil, err
		}
		res, err := execQuery(ctx, src, inner, &o)
		if err != nil {
			return nil, err
		}
		results[na.Name] = res.Series
		names = append(names, na.Name)
		raws = append(raws, na.Name+": "+res.RawQuery)
	}
	expr := c.Args[0]
	type point map[string]float64
	type joined struct {
		name   string
		tags   map[string]string
		points map[int64]point
	}
	byTags := map[string]*joined{}
	var order []string
	for _, n := range names {
		for _, s := range results[n] {
			cols := valueColumns(s)
			if len(cols) == 0 {
				continue
			}
			key := timelineKey(s.Tags)
			j := byTags[key]
			if j == nil {
				j = &joined{name: s.Name, tags: s.Tags, points: map[int64]point{}}
				byTags[key] = j
				order = append(order, key)
			}
			for _, row := range s.Values {
				v, ok := row[cols[0]].(float64)
				if !ok {
					continue
				}
				t := rowTime(row)
				if j.points[t] == nil {
					j.points[t] = point{}
				}
				j.points[t][n] = v
			}
		}
	}
	sort.Strings(order)
	var out []ResultSeries
	for _, key := range order {
		j := byTags[key]
		rs := ResultSeries{Name: j.name, Tags: j.tags, Columns: []string{"time", expr.String()}}
		times := make([]int64, 0, len(j.points))
		for t := range j.points {
			times = append(times, t)
		}
		slices.Sort(times)
		for _, t := range times {
			if v, ok := evalPoint(expr, j.points[t]).(float64); ok {
				rs.Values = append(rs.Values, []any{t, v})
			}
		}
		if len(rs.Values) > 0 {
			out = append(out, rs)
		}
	}
	if out == nil {
		out = []ResultSeries{}
	}
	return &Result{Series: out, RawQuery: strings.Join(raws, "\n")}, nil
}

func evalPoint(e parser.Expr, p map[string]float64) any {
	switch x := e.(type) {
	case *parser.NumberExpr:
		return x.Val
	case *parser.NameExpr:
		v, ok := p[x.Name]
		if !ok {
			return nil
		}
		return v
	case *parser.ParenExpr:
		return evalPoint(x.X, p)
	case *parser.UnaryExpr:
		v, ok := evalPoint(x.X, p).(float64)
		if !ok {
			return nil
		}
		return x.Apply(v)
	case *parser.BinaryExpr:
		l, lok := evalPoint(x.LHS, p).(float64)
		r, rok := evalPoint(x.RHS, p).(float64)
		if !lok || !rok {
			return nil
		}
		return arith(x.Op, l, r)
	}
	return nil
}

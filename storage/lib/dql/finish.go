package dql

import (
	"math"
	"slices"
	"sort"
	"strings"

	"vigil/storage/lib/dql/parser"
)

// Finishing (step 8 of DQL.md §9): fill, HAVING, ORDER BY, LIMIT/OFFSET per series, SORDER
// BY and SLIMIT/SOFFSET across series, and the answer's rows.

// finish applies fill, HAVING, ORDER BY, LIMIT/OFFSET, SORDER BY, SLIMIT/SOFFSET (step 8).
func (ex *execState) finish(groups []*group) ([]ResultSeries, error) {
	s := ex.s
	hasFill := false
	for _, t := range ex.targets {
		if t.Fill != nil {
			hasFill = true
		}
	}
	columns := make([]string, 0, len(ex.targets)+1)
	columns = append(columns, "time")
	for _, t := range ex.targets {
		columns = append(columns, t.ColumnName())
	}
	for _, g := range groups {
		if hasFill && ex.pl.interval > 0 {
			g.rows = ex.fill(g.rows)
		}
		if s.Having != nil {
			kept := g.rows[:0]
			for _, r := range g.rows {
				if havingCond(s.Having, columns, r, g.tags) {
					kept = append(kept, r)
				}
			}
			g.rows = kept
		}
		if s.OrderBy != nil && s.OrderBy.Desc {
			slices.Reverse(g.rows)
		}
		off := int64(0)
		if s.Offset != nil {
			off = s.Offset.N
		}
		lim := int64(DefaultLimit)
		if ex.opts.nested {
			lim = -1
		}
		if s.Limit != nil {
			lim = s.Limit.N
		}
		g.rows = page(g.rows, off, lim)
	}
	groups = slices.DeleteFunc(groups, func(g *group) bool { return len(g.rows) == 0 })
	if s.SOrderBy != nil {
		ex.sortSeries(groups, columns)
	}
	soff := int64(0)
	if s.SOffset != nil {
		soff = s.SOffset.N
	}
	slim := int64(-1)
	if s.SLimit != nil {
		slim = s.SLimit.N
	} else if !ex.opts.DisableSLimit {
		slim = DefaultSLimit
	}
	groups = page(groups, soff, slim)
	out := make([]ResultSeries, 0, len(groups))
	for _, g := range groups {
		rs := ResultSeries{Name: s.Source.Name, Tags: g.tags, Columns: columns, Values: make([][]any, len(g.rows))}
		// Series mostly share their times: the previous series' boxed time is reused when
		// its row at the same position has the same time.
		var prev [][]any
		if len(out) > 0 {
			prev = out[len(out)-1].Values
		}
		for i, r := range g.rows {
			if i < len(prev) && prev[i][0] == any(r.t) {
				r.row[0] = prev[i][0]
			} else {
				r.row[0] = r.t
			}
			for k := 1; k < len(r.row); k++ {
				r.row[k] = jsonCell(r.row[k])
			}
			rs.Values[i] = r.row
		}
		out = append(out, rs)
	}
	return out, nil
}

func jsonCell(c any) any {
	if f, ok := c.(float64); ok && (math.IsNaN(f) || math.IsInf(f, 0)) {
		return nil
	}
	return c
}

func page[T any](xs []T, off, lim int64) []T {
	if off >= int64(len(xs)) {
		return xs[:0]
	}
	xs = xs[off:]
	if lim >= 0 && lim < int64(len(xs)) {
		xs = xs[:lim]
	}
	return xs
}

// fill gives every bucket of the range a row and fills the fill() columns (DQL.md §9.3).
func (ex *execState) fill(rows []outRow) []outRow {
	iv := ex.pl.interval
	first, last := ex.pl.bucket(ex.pl.start), ex.pl.bucket(ex.pl.end-1)
	byT := map[int64]outRow{}
	for _, r := range rows {
		byT[r.t] = r
	}
	n := int((last-first)/iv) + 1
	out := make([]outRow, n)
	for i := range out {
		t := first + int64(i)*iv
		if r, ok := byT[t]; ok {
			out[i] = r
		} else {
			out[i] = outRow{t: t, row: make([]any, len(ex.targets)+1)}
		}
	}
	for k, tg := range ex.targets {
		if tg.Fill == nil {
			continue
		}
		switch tg.Fill.Kind {
		case parser.FillValue:
			var v any
			switch fv := tg.Fill.Value.(type) {
			case *parser.NumberExpr:
				v = fv.Val
			case *parser.StringExpr:
				v = fv.Val
			}
			for i := range out {
				if out[i].row[k+1] == nil {
					out[i].row[k+1] = v
				}
			}
		case parser.FillPrevious:
			var prev any
			for i := range out {
				if out[i].row[k+1] == nil {
					out[i].row[k+1] = prev
				} else {
					prev = out[i].row[k+1]
				}
			}
		case parser.FillLinear:
			lastIdx := -1
			for i := range out {
				v, ok := out[i].row[k+1].(float64)
				if !ok {
					continue
				}
				if lastIdx >= 0 && i-lastIdx > 1 {
					pv := out[lastIdx].row[k+1].(float64)
					for j := lastIdx + 1; j < i; j++ {
						frac := float64(out[j].t-out[lastIdx].t) / float64(out[i].t-out[lastIdx].t)
						out[j].row[k+1] = pv + frac*(v-pv)
					}
				}
				lastIdx = i
			}
		}
	}
	return out
}

// havingCond evaluates HAVING on a projected row; names refer to columns.
func havingCond(e parser.Expr, columns []string, r outRow, tags map[string]string) bool {
	val := func(x parser.Expr) any { return havingValue(x, columns, r, tags) }
	switch x := e.(type) {
	case *parser.ParenExpr:
		return havingCond(x.X, columns, r, tags)
	case *parser.BinaryExpr:
		switch x.Op {
		case "AND":
			return havingCond(x.LHS, columns, r, tags) && havingCond(x.RHS, columns, r, tags)
		case "OR":
			return havingCond(x.LHS, columns, r, tags) || havingCond(x.RHS, columns, r, tags)
		}
		switch rv := x.RHS.(type) {
		case *parser.StringExpr:
			s, ok := val(x.LHS).(string)
			return ok && (s == rv.Val) == (x.Op == "=")
		case *parser.RegexExpr:
			s, ok := val(x.LHS).(string)
			return ok && mustCompileAnchored(rv.Val).MatchString(s) == (x.Op == "=")
		}
		l, lok := val(x.LHS).(float64)
		rr, rok := val(x.RHS).(float64)
		return lok && rok && compare(x.Op, l, rr)
	case *parser.InExpr:
		v := val(x.X)
		found := false
		for _, el := range x.List.Elems {
			switch lit := el.(type) {
			case *parser.NumberExpr:
				if f, ok := v.(float64); ok && f == lit.Val {
					found = true
				}
			case *parser.StringExpr:
				if s, ok := v.(string); ok && s == lit.Val {
					found = true
				}
			}
		}
		return v != nil && found != x.Not
	}
	return false
}

// havingValue evaluates an operand of HAVING: names are columns, then BY tags.
func havingValue(e parser.Expr, columns []string, r outRow, tags map[string]string) any {
	switch x := e.(type) {
	case *parser.NumberExpr:
		return x.Val
	case *parser.ParenExpr:
		return havingValue(x.X, columns, r, tags)
	case *parser.NameExpr:
		if v := columnValue(x.Name, columns, r); v != nil {
			return v
		}
		if v, ok := tags[x.Name]; ok {
			return v
		}
		return nil
	case *parser.CallExpr:
		return columnValue(x.String(), columns, r)
	case *parser.UnaryExpr:
		v, ok := havingValue(x.X, columns, r, tags).(float64)
		if !ok {
			return nil
		}
		return x.Apply(v)
	case *parser.BinaryExpr:
		l, lok := havingValue(x.LHS, columns, r, tags).(float64)
		rr, rok := havingValue(x.RHS, columns, r, tags).(float64)
		if !lok || !rok {
			return nil
		}
		return arith(x.Op, l, rr)
	}
	return nil
}

func columnValue(name string, columns []string, r outRow) any {
	if name == "time" {
		return float64(r.t)
	}
	for i, c := range columns[1:] {
		if c == name {
			return r.row[i+1]
		}
	}
	return nil
}

// sortSeries orders series by a BY tag or by a column's value in the latest row.
func (ex *execState) sortSeries(groups []*group, columns []string) {
	ob := ex.s.SOrderBy
	name := ob.Name.Name
	isTag := slices.ContainsFunc(ex.s.By, func(n *parser.NameExpr) bool { return n.Name == name })
	key := func(g *group) any {
		if isTag {
			return g.tags[name]
		}
		latest := g.rows[0]
		for _, r := range g.rows {
			if r.t > latest.t {
				latest = r
			}
		}
		return columnValue(name, columns, latest)
	}
	sort.SliceStable(groups, func(i, j int) bool {
		a, b := key(groups[i]), key(groups[j])
		if a == nil || b == nil {
			return a != nil && b == nil // nulls last
		}
		c := compareCells(a, b)
		if ob.Desc {
			return c > 0
		}
		return c < 0
	})
}

func compareCells(a, b any) int {
	switch x := a.(type) {
	case float64:
		if y, ok := b.(float64); ok {
			switch {
			case x < y:
				return -1
			case x > y:
				return 1
			}
			return 0
		}
		return -1
	case string:
		if y, ok := b.(string); ok {
			return strings.Compare(x, y)
		}
		return 1
	}
	return 0
}

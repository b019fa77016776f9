package dql

import (
	"cmp"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"

	"github.com/VictoriaMetrics/metricsql"

	"vigil/storage/lib/dql/parser"
)

// Rows (steps 3-4 and the projection of raw queries): expressions and conditions evaluated
// on one row of a timeline, the filter, transforms.

// rowCtx addresses one row of a timeline during evaluation.
type rowCtx struct {
	ex *execState
	tl *timeline
	i  int
}

// value evaluates e on a row: float64, string, or nil for "no value".
func (rc rowCtx) value(e parser.Expr) any {
	switch x := e.(type) {
	case *parser.NumberExpr:
		return x.Val
	case *parser.StringExpr:
		return x.Val
	case *parser.ParenExpr:
		return rc.value(x.X)
	case *parser.NameExpr:
		if rc.ex.kind(x.Name) == kindTag {
			v, ok := rc.tl.tags[x.Name]
			if !ok {
				return nil
			}
			return v
		}
		col, ok := rc.tl.fields[x.Name]
		if !ok || math.IsNaN(col[rc.i]) {
			return nil
		}
		return col[rc.i]
	case *parser.UnaryExpr:
		v, ok := rc.value(x.X).(float64)
		if !ok {
			return nil
		}
		return x.Apply(v)
	case *parser.BinaryExpr:
		l, lok := rc.value(x.LHS).(float64)
		r, rok := rc.value(x.RHS).(float64)
		if !lok || !rok {
			return nil
		}
		return arith(x.Op, l, r)
	case *parser.CallExpr:
		switch parser.KindOf(x.Name) {
		case parser.FuncTransform:
			col, ok := rc.tl.fields[transformField(x)]
			if !ok || math.IsNaN(col[rc.i]) {
				return nil
			}
			return col[rc.i]
		case parser.FuncRow:
			v, ok := rc.value(x.Args[0]).(float64)
			if !ok {
				return nil
			}
			return rowFunc(x, v)
		}
	}
	return nil
}

func arith(op string, l, r float64) any {
	var v float64
	switch op {
	case "+":
		v = l + r
	case "-":
		v = l - r
	case "*":
		v = l * r
	case "/":
		if r == 0 {
			return nil
		}
		v = l / r
	case "%":
		if r == 0 {
			return nil
		}
		v = math.Mod(l, r)
	case "^":
		v = math.Pow(l, r)
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return v
}

func rowFunc(c *parser.CallExpr, v float64) any {
	var r float64
	switch c.Name {
	case "abs":
		r = math.Abs(v)
	case "round":
		r = math.Round(v) + 0 // + 0 turns -0 (round(-0.2)) into 0
	case "log":
		base := math.E
		if len(c.Args) == 2 {
			base, _ = parser.NumberArg(c.Args[1])
		}
		r = math.Log(v) / math.Log(base)
	}
	if math.IsNaN(r) || math.IsInf(r, 0) {
		return nil
	}
	return r
}

// cond evaluates a filter condition on a row (DQL.md §7): tags compare as strings
// (missing = ""), a comparison involving a missing field is false.
func (rc rowCtx) cond(e parser.Expr) bool {
	switch x := e.(type) {
	case *parser.ParenExpr:
		return rc.cond(x.X)
	case *parser.BinaryExpr:
		switch x.Op {
		case "AND":
			return rc.cond(x.LHS) && rc.cond(x.RHS)
		case "OR":
			return rc.cond(x.LHS) || rc.cond(x.RHS)
		}
		if n, ok := parser.Unparen(x.LHS).(*parser.NameExpr); ok && rc.ex.kind(n.Name) != kindField {
			switch r := x.RHS.(type) {
			case *parser.StringExpr:
				return (rc.tl.tags[n.Name] == r.Val) == (x.Op == "=")
			case *parser.RegexExpr:
				re := mustCompileAnchored(r.Val)
				return re.MatchString(rc.tl.tags[n.Name]) == (x.Op == "=")
			}
			if rc.ex.kind(n.Name) == kindTag {
				return false
			}
		}
		switch x.RHS.(type) {
		case *parser.StringExpr, *parser.RegexExpr:
			return false
		}
		l, lok := rc.value(x.LHS).(float64)
		r, rok := rc.value(x.RHS).(float64)
		if !lok || !rok {
			return false
		}
		return compare(x.Op, l, r)
	case *parser.InExpr:
		n := parser.Unparen(x.X).(*parser.NameExpr)
		found := false
		if rc.ex.kind(n.Name) == kindField {
			v, ok := rc.value(n).(float64)
			if !ok {
				return false
			}
			for _, el := range x.List.Elems {
				if num, ok := el.(*parser.NumberExpr); ok && num.Val == v {
					found = true
				}
			}
		} else {
			tv := rc.tl.tags[n.Name]
			for _, el := range x.List.Elems {
				if literalString(el) == tv {
					found = true
				}
			}
		}
		return found != x.Not
	}
	return false
}

func compare(op string, l, r float64) bool {
	switch op {
	case "=":
		return l == r
	case "!=":
		return l != r
	case "<":
		return l < r
	case "<=":
		return l <= r
	case ">":
		return l > r
	case ">=":
		return l >= r
	}
	return false
}

func mustCompileAnchored(re string) *regexp.Regexp {
	r, err := metricsql.CompileRegexpAnchored(re)
	if err != nil {
		panic(fmt.Errorf("BUG: regex %q passed the check but does not compile: %w", re, err))
	}
	return r
}

// filterRows drops the rows failing the filter (step 3).
func (ex *execState) filterRows(tls []*timeline) []*timeline {
	if ex.s.Filter == nil {
		return tls
	}
	out := tls[:0]
	for _, tl := range tls {
		keep := make([]int, 0, len(tl.ts))
		for i := range tl.ts {
			if (rowCtx{ex, tl, i}).cond(ex.s.Filter) {
				keep = append(keep, i)
			}
		}
		if len(keep) == 0 {
			continue
		}
		out = append(out, tl.subset(keep))
	}
	return out
}

func (tl *timeline) subset(idx []int) *timeline {
	if len(idx) == len(tl.ts) {
		return tl
	}
	n := &timeline{key: tl.key, tags: tl.tags, ts: make([]int64, len(idx)), fields: map[string][]float64{}}
	for j, i := range idx {
		n.ts[j] = tl.ts[i]
	}
	for f, col := range tl.fields {
		c := make([]float64, len(idx))
		for j, i := range idx {
			c[j] = col[i]
		}
		n.fields[f] = c
	}
	return n
}

// transformField is the internal column name of a transform's output.
func transformField(c *parser.CallExpr) string { return "\x00" + c.String() }

// applyTransforms adds the output of every transform target as a column (step 4).
func (ex *execState) applyTransforms(tls []*timeline) {
	var calls []*parser.CallExpr
	for _, t := range ex.targets {
		parser.Walk(t.Expr, func(e parser.Expr) bool {
			if c, ok := e.(*parser.CallExpr); ok && parser.KindOf(c.Name) == parser.FuncTransform {
				calls = append(calls, c)
				return false
			}
			return true
		})
	}
	for _, tl := range tls {
		for _, c := range calls {
			field := parser.Unparen(c.Args[0]).(*parser.NameExpr).Name
			tl.fields[transformField(c)] = transform(c, tl, field)
		}
	}
}

func transform(c *parser.CallExpr, tl *timeline, field string) []float64 {
	out := make([]float64, len(tl.ts))
	for i := range out {
		out[i] = math.NaN()
	}
	col, ok := tl.fields[field]
	if !ok {
		return out
	}
	var idx []int
	for i, v := range col {
		if !math.IsNaN(v) {
			idx = append(idx, i)
		}
	}
	if c.Name == "moving_average" {
		nf, _ := parser.NumberArg(c.Args[1])
		n := int(nf)
		for j := n - 1; j < len(idx); j++ {
			s := 0.0
			for k := j - n + 1; k <= j; k++ {
				s += col[idx[k]]
			}
			out[idx[j]] = s / float64(n)
		}
		return out
	}
	for j := 1; j < len(idx); j++ {
		cur, prev := idx[j], idx[j-1]
		d := col[cur] - col[prev]
		switch c.Name {
		case "derivative", "non_negative_derivative":
			d /= float64(tl.ts[cur]-tl.ts[prev]) / 1000
		}
		if strings.HasPrefix(c.Name, "non_negative_") && d < 0 {
			continue
		}
		out[cur] = d
	}
	return out
}

// outRow is one projected row.
type outRow struct {
	t int64
	// row becomes the row of the answer: row[0] is left for the time, which finish writes,
	// and row[1+k] is the value of target k.
	row []any
}

// fieldsOf returns the stored fields (and transforms) an expression reads.
func (ex *execState) fieldsOf(e parser.Expr) []string {
	var out []string
	parser.Walk(e, func(x parser.Expr) bool {
		switch n := x.(type) {
		case *parser.NameExpr:
			if ex.kind(n.Name) == kindField {
				out = append(out, n.Name)
			}
		case *parser.CallExpr:
			if parser.KindOf(n.Name) == parser.FuncTransform {
				out = append(out, transformField(n))
				return false
			}
		}
		return true
	})
	return out
}

// projectRaw returns the rows of a group without aggregates, ordered by (time, timeline key).
func (ex *execState) projectRaw(tls []*timeline) []outRow {
	var refs []string
	for _, t := range ex.targets {
		refs = append(refs, ex.fieldsOf(t.Expr)...)
	}
	type ref struct {
		tl *timeline
		i  int
	}
	n := 0
	for _, tl := range tls {
		n += len(tl.ts)
	}
	rows := make([]ref, 0, n)
	for _, tl := range tls {
		for i := range tl.ts {
			ok := false
			for _, f := range refs {
				if tl.has(f, i) {
					ok = true
					break
				}
			}
			if ok {
				rows = append(rows, ref{tl, i})
			}
		}
	}
	slices.SortStableFunc(rows, func(a, b ref) int {
		if c := cmp.Compare(a.tl.ts[a.i], b.tl.ts[b.i]); c != 0 {
			return c
		}
		return strings.Compare(a.tl.key, b.tl.key)
	})
	out := make([]outRow, len(rows))
	w := len(ex.targets) + 1
	all := make([]any, len(rows)*w)
	for j, r := range rows {
		rc := rowCtx{ex, r.tl, r.i}
		row := all[j*w : (j+1)*w : (j+1)*w]
		for k, t := range ex.targets {
			row[k+1] = rc.value(t.Expr)
		}
		out[j] = outRow{t: r.tl.ts[r.i], row: row}
	}
	return out
}

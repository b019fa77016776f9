package parser

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// The functions of the language (DQL.md §10): which names are aggregates, transforms, row
// functions, outer functions and rollups, and what a call of each computes from.

// FuncKind is the class of a function of the target clause.
type FuncKind int

// Function kinds; 0 is "not a target function".
const (
	FuncAggregate FuncKind = iota + 1 // one value per bucket (or rows: distinct, top, bottom)
	FuncTransform                     // a column computed over a timeline's rows (difference, moving_average, ...)
	FuncRow                           // a function of one row's value (abs, round, log)
)

type funcInfo struct {
	kind FuncKind
	// extra describes the arguments after the field: "" none, "percentile", "n".
	extra string
}

// functions usable in the target clause.
var functions = map[string]funcInfo{
	"avg":                     {FuncAggregate, ""},
	"sum":                     {FuncAggregate, ""},
	"min":                     {FuncAggregate, ""},
	"max":                     {FuncAggregate, ""},
	"count":                   {FuncAggregate, ""},
	"first":                   {FuncAggregate, ""},
	"last":                    {FuncAggregate, ""},
	"median":                  {FuncAggregate, ""},
	"percentile":              {FuncAggregate, "percentile"},
	"stddev":                  {FuncAggregate, ""},
	"spread":                  {FuncAggregate, ""},
	"mode":                    {FuncAggregate, ""},
	"count_distinct":          {FuncAggregate, ""},
	"distinct":                {FuncAggregate, ""},
	"top":                     {FuncAggregate, "n"},
	"bottom":                  {FuncAggregate, "n"},
	"difference":              {FuncTransform, ""},
	"derivative":              {FuncTransform, ""},
	"non_negative_derivative": {FuncTransform, ""},
	"non_negative_difference": {FuncTransform, ""},
	"moving_average":          {FuncTransform, "n"},
	"abs":                     {FuncRow, ""},
	"round":                   {FuncRow, ""},
	"log":                     {FuncRow, "base"},
}

// multiRowAggregates return several rows per bucket; their column is named after the
// field (DQL.md §10.1).
var multiRowAggregates = map[string]bool{"distinct": true, "top": true, "bottom": true}

// outerFunctions may wrap a whole statement (DQL.md §10.5).
var outerFunctions = map[string]bool{
	"abs": true, "cumsum": true, "derivative": true, "difference": true,
	"non_negative_derivative": true, "non_negative_difference": true, "log2": true,
	"log10": true, "moving_average": true, "rate": true, "irate": true, "avg": true,
	"count": true, "count_distinct": true, "first": true, "last": true, "max": true,
	"min": true, "series_sum": true, "eval": true,
}

const outerFunctionList = "abs, cumsum, derivative, difference, non_negative_derivative, non_negative_difference, log2, log10, moving_average, rate, irate, avg, count, count_distinct, first, last, max, min, series_sum, eval"

// rollupNames valid as the 4th part of the time expression.
var rollupNames = map[string]bool{
	"avg": true, "sum": true, "min": true, "max": true, "count": true, "first": true,
	"last": true, "stddev": true, "median": true, "deriv": true, "rate": true, "irate": true,
}

var percentileRollupRe = regexp.MustCompile(`^[pP]([0-9]+(\.[0-9]+)?)$`)

// KindOf returns the kind of a target function, 0 when name is not one.
func KindOf(name string) FuncKind { return functions[name].kind }

// IsMultiRow reports whether the aggregate name returns several rows per bucket
// (distinct, top, bottom).
func IsMultiRow(name string) bool { return multiRowAggregates[name] }

// IsAggregateCall reports whether e is a call of an aggregate function.
func IsAggregateCall(e Expr) bool {
	c, ok := e.(*CallExpr)
	return ok && functions[c.Name].kind == FuncAggregate
}

// ContainsAggregate reports whether an aggregate call appears anywhere in e.
func ContainsAggregate(e Expr) bool {
	found := false
	Walk(e, func(x Expr) bool {
		if IsAggregateCall(x) {
			found = true
		}
		return !found
	})
	return found
}

// ContainsKind reports whether a call of a function of kind k appears anywhere in e.
func ContainsKind(e Expr, k FuncKind) bool {
	found := false
	Walk(e, func(x Expr) bool {
		if c, ok := x.(*CallExpr); ok && functions[c.Name].kind == k {
			found = true
		}
		return !found
	})
	return found
}

// isCountDistinct reports whether c is count(distinct(f)), the same as count_distinct(f).
func isCountDistinct(c *CallExpr) bool {
	if c.Name != "count" || len(c.Args) != 1 {
		return false
	}
	in, ok := Unparen(c.Args[0]).(*CallExpr)
	if !ok || in.Name != "distinct" || len(in.Args) != 1 {
		return false
	}
	_, ok = Unparen(in.Args[0]).(*NameExpr)
	return ok
}

// AggregateOf returns the aggregate an aggregate call computes and the field it reads:
// count(distinct(f)) is count_distinct over f.
func AggregateOf(c *CallExpr) (name, field string) {
	if isCountDistinct(c) {
		in := Unparen(c.Args[0]).(*CallExpr)
		return "count_distinct", Unparen(in.Args[0]).(*NameExpr).Name
	}
	return c.Name, Unparen(c.Args[0]).(*NameExpr).Name
}

// NumberArg returns the value of a number literal, possibly signed or in parentheses.
func NumberArg(e Expr) (float64, bool) {
	switch x := Unparen(e).(type) {
	case *NumberExpr:
		return x.Val, true
	case *UnaryExpr:
		if v, ok := NumberArg(x.X); ok {
			return x.Apply(v), true
		}
	}
	return 0, false
}

// IsRollup reports whether name is a rollup of the time expression.
func IsRollup(name string) bool {
	return rollupNames[strings.ToLower(name)] || percentileRollupRe.MatchString(name)
}

// PercentileRollup returns NN of a pNN rollup name (p99, p99.9), a percentage.
func PercentileRollup(name string) (float64, bool) {
	m := percentileRollupRe.FindStringSubmatch(name)
	if m == nil {
		return 0, false
	}
	return mustFloat(m[1]), true
}

func mustFloat(s string) float64 {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		panic(fmt.Errorf("BUG: %q is not a number: %w", s, err))
	}
	return v
}

package tenancy

import (
	"slices"
	"strings"

	"github.com/VictoriaMetrics/metricsql"
)

// NameLabels are the labels storage derives from a series' metric name (see
// SplitMetricName): like __name__, they differ between two metrics wherever the names do.
var NameLabels = []string{"__measurement__", "__field__"}

// labelKeepingAggrs are the aggregations whose answer keeps each series' own labels.
var labelKeepingAggrs = map[string]bool{
	"topk": true, "bottomk": true, "topk_min": true, "topk_max": true, "topk_avg": true,
	"topk_median": true, "topk_last": true, "bottomk_min": true, "bottomk_max": true,
	"bottomk_avg": true, "bottomk_median": true, "bottomk_last": true, "limitk": true,
	"outliersk": true, "outliers_iqr": true, "outliers_mad": true, "count_values": true,
}

// scalarFuncs are the functions whose answer is a number without labels.
var scalarFuncs = map[string]bool{"scalar": true, "time": true, "pi": true, "now": true}

// labelless reports whether e's answer is known, from the query alone, to carry no labels: a
// number, a scalar function, an aggregation without by/without, or an operation between such.
// VictoriaMetrics matches such an operand with every series of the other side.
func labelless(e metricsql.Expr) bool {
	switch t := e.(type) {
	case *metricsql.NumberExpr, *metricsql.DurationExpr:
		return true
	case *metricsql.FuncExpr:
		return scalarFuncs[strings.ToLower(t.Name)]
	case *metricsql.AggrFuncExpr:
		return len(t.Modifier.Args) == 0 && !strings.EqualFold(t.Modifier.Op, "without") &&
			!labelKeepingAggrs[strings.ToLower(t.Name)]
	case *metricsql.BinaryOpExpr:
		return labelless(t.Left) && labelless(t.Right)
	}
	return false
}

// MatchLikePrometheus makes binary operations between two series vectors match as they do in
// Prometheus, where a series' labels other than __name__ must agree: storage also derives
// NameLabels from the name, so they are added to each such operation's ignoring(...) list
// (one is started where there is none). Operations with on(...), and those with an operand
// that carries no labels (a number, scalar(), sum(x)), are left as they are. It changes e in
// place and returns it.
func MatchLikePrometheus(e metricsql.Expr) metricsql.Expr {
	metricsql.VisitAll(e, func(x metricsql.Expr) {
		be, ok := x.(*metricsql.BinaryOpExpr)
		if !ok || labelless(be.Left) || labelless(be.Right) {
			return
		}
		switch strings.ToLower(be.GroupModifier.Op) {
		case "":
			be.GroupModifier.Op = "ignoring"
			be.GroupModifier.Args = slices.Clone(NameLabels)
		case "ignoring":
			for _, name := range NameLabels {
				if !slices.Contains(be.GroupModifier.Args, name) {
					be.GroupModifier.Args = append(be.GroupModifier.Args, name)
				}
			}
		}
	})
	return e
}

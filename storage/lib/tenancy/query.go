package tenancy

import (
	"fmt"

	"github.com/VictoriaMetrics/metricsql"
)

// CheckExpr returns an error naming the first tenant label found anywhere in a parsed
// MetricsQL expression: in a selector's label filters, in by/without/on/ignoring/group_*
// lists, or as a string argument of a function (label_replace, label_set, ...).
//
// Data selection is scoped by enforced filters regardless; refusing such queries keeps a
// caller from probing, faking or renaming the tenant label in results.
func CheckExpr(e metricsql.Expr) error {
	var found string
	metricsql.VisitAll(e, func(expr metricsql.Expr) {
		if found != "" {
			return
		}
		switch t := expr.(type) {
		case *metricsql.MetricExpr:
			for _, lfs := range t.LabelFilterss {
				for _, lf := range lfs {
					if IsTenantLabel(lf.Label) {
						found = lf.Label
						return
					}
				}
			}
		case *metricsql.ModifierExpr:
			for _, arg := range t.Args {
				if IsTenantLabel(arg) {
					found = arg
					return
				}
			}
		case *metricsql.FuncExpr:
			found = findTenantStringArg(t.Args)
		case *metricsql.AggrFuncExpr:
			found = findTenantStringArg(t.Args)
		}
	})
	if found != "" {
		return fmt.Errorf("the query must not reference the reserved label %q", found)
	}
	return nil
}

func findTenantStringArg(args []metricsql.Expr) string {
	for _, arg := range args {
		if se, ok := arg.(*metricsql.StringExpr); ok && IsTenantLabel(se.S) {
			return se.S
		}
	}
	return ""
}

// ParseQuery parses a MetricsQL query and refuses it when it names a tenant label.
func ParseQuery(q string) (metricsql.Expr, error) {
	e, err := metricsql.Parse(q)
	if err != nil {
		return nil, fmt.Errorf("cannot parse query %q: %w", q, err)
	}
	if err := CheckExpr(e); err != nil {
		return nil, err
	}
	return e, nil
}

// ParseSeriesSelector parses a series selector such as a `match[]` argument and returns
// its or-delimited filter lists. It refuses anything that is not a plain selector and any
// selector that names a tenant label.
func ParseSeriesSelector(s string) ([][]metricsql.LabelFilter, error) {
	e, err := metricsql.Parse(s)
	if err != nil {
		return nil, fmt.Errorf("cannot parse series selector %q: %w", s, err)
	}
	me, ok := e.(*metricsql.MetricExpr)
	if !ok {
		return nil, fmt.Errorf("%q is not a series selector", s)
	}
	if len(me.LabelFilterss) == 0 {
		return nil, fmt.Errorf("series selector %q must contain at least one label filter", s)
	}
	if err := CheckExpr(me); err != nil {
		return nil, err
	}
	return me.LabelFilterss, nil
}

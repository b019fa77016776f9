package parser

import (
	"regexp"
	"strings"

	"vigil/storage/lib/tenancy"
)

// Limits on clause values (DQL.md §11).
const (
	MaxLimit  = 10000
	MaxOffset = 1000000
)

// CheckConditions validates a filter parsed by ParseFilter from the API's conditions; its
// errors point into text.
func CheckConditions(cond Expr, text string) error {
	return WithQuery(checkCondition(cond, "conditions"), text, "conditions")
}

// checkCondition validates a filter or HAVING condition (where names it): reserved names,
// then the condition's form.
func checkCondition(e Expr, where string) error {
	if err := checkNames(e, where); err != nil {
		return err
	}
	return checkCond(e)
}

func checkName(n *NameExpr, where string) error {
	if tenancy.IsReserved(n.Name) {
		return ErrorAt(CodeForbiddenLabel, n, "label %q may not be used in %s: names starting with \"__\" and tenancy labels are reserved", n.Name, where)
	}
	return nil
}

func checkNames(e Expr, where string) error {
	var err error
	Walk(e, func(x Expr) bool {
		if err != nil {
			return false
		}
		if n, ok := x.(*NameExpr); ok {
			err = checkName(n, where)
		}
		return true
	})
	return err
}

// Check validates a parsed statement: known functions, arguments, reserved labels, clause
// values. The query text gives positions to errors.
func Check(st Stmt, q string) error {
	var err error
	switch s := st.(type) {
	case *QueryStmt:
		err = checkQuery(s)
	case *ShowStmt:
		err = checkShow(s)
	case *OuterStmt:
		err = checkOuter(s)
	}
	return WithQuery(err, q, "")
}

// checkQuery validates a data query, its nested query first, then its clauses in order.
func checkQuery(s *QueryStmt) error {
	if s.Subquery != nil {
		if err := checkQuery(s.Subquery); err != nil {
			return err
		}
	}
	if err := checkTargets(s); err != nil {
		return err
	}
	if s.Filter != nil {
		if err := checkCondition(s.Filter, "the filter"); err != nil {
			return err
		}
	}
	if s.Time != nil {
		if err := checkTime(s.Time); err != nil {
			return err
		}
	}
	if s.Having != nil {
		if err := checkCondition(s.Having, "HAVING"); err != nil {
			return err
		}
	}
	if s.TZ != nil {
		if err := checkTZ(s.TZ); err != nil {
			return err
		}
	}
	if s.OrderBy != nil && !strings.EqualFold(s.OrderBy.Name.Name, "time") {
		return ErrorAt(CodeSemanticError, s.OrderBy.Name, "ORDER BY %s: metrics can only be ordered by time; use SORDER BY to order series", s.OrderBy.Name.Name)
	}
	if s.SOrderBy != nil {
		if err := checkName(s.SOrderBy.Name, "SORDER BY"); err != nil {
			return err
		}
	}
	for _, c := range []struct {
		kw  string
		c   *IntClause
		max int64
	}{{"LIMIT", s.Limit, MaxLimit}, {"SLIMIT", s.SLimit, MaxLimit}, {"OFFSET", s.Offset, MaxOffset}, {"SOFFSET", s.SOffset, MaxOffset}} {
		if err := CheckIntClause(c.kw, c.c, c.max); err != nil {
			return err
		}
	}
	return nil
}

// checkTargets validates the BY names and the targets: their functions, how aggregates mix
// with other targets, and fill().
func checkTargets(s *QueryStmt) error {
	byNames := map[string]bool{}
	for _, n := range s.By {
		if err := checkName(n, "BY"); err != nil {
			return err
		}
		byNames[n.Name] = true
	}
	hasAgg := false
	for _, t := range s.Targets {
		if err := checkNames(t.Expr, "targets"); err != nil {
			return err
		}
		if err := checkTargetExpr(t.Expr, false); err != nil {
			return err
		}
		if ContainsAggregate(t.Expr) {
			hasAgg = true
		}
	}
	if hasAgg {
		if err := checkAggregateTargets(s.Targets, byNames); err != nil {
			return err
		}
	}
	for _, t := range s.Targets {
		if t.Fill == nil {
			continue
		}
		if !ContainsAggregate(t.Expr) {
			return ErrorAt(CodeSemanticError, t, "fill() needs an aggregate target such as fill(avg(x), 0)")
		}
		if s.Time == nil || s.Time.Interval == nil {
			return ErrorAt(CodeSemanticError, t, "fill() needs an interval in the time expression, such as [1h::1m]")
		}
	}
	return nil
}

// checkAggregateTargets validates the targets of a query with aggregates: each is an
// aggregate expression or a BY tag, and distinct(), top() or bottom() stands alone.
func checkAggregateTargets(targets []*Target, byNames map[string]bool) error {
	for _, t := range targets {
		if err := checkAggregateTarget(t.Expr, byNames); err != nil {
			return err
		}
	}
	for _, t := range targets {
		c, ok := t.Expr.(*CallExpr)
		if ok && multiRowAggregates[c.Name] {
			if t.Fill != nil {
				return ErrorAt(CodeSemanticError, t, "%s() returns rows, not one value per bucket; it cannot be filled", c.Name)
			}
			for _, o := range targets {
				if o != t {
					if _, isName := o.Expr.(*NameExpr); !isName {
						return ErrorAt(CodeSemanticError, o, "%s() must be the only aggregate target (BY tags may be added)", c.Name)
					}
				}
			}
			continue
		}
		found := false
		Walk(t.Expr, func(e Expr) bool {
			c, ok := e.(*CallExpr)
			if ok && isCountDistinct(c) {
				return false
			}
			if ok && multiRowAggregates[c.Name] {
				found = true
			}
			return !found
		})
		if found {
			return ErrorAt(CodeSemanticError, t, "distinct(), top() and bottom() cannot be used inside expressions")
		}
	}
	return nil
}

// CheckIntClause validates the number of a LIMIT, SLIMIT, OFFSET or SOFFSET clause (kw)
// against its maximum.
func CheckIntClause(kw string, c *IntClause, maxN int64) error {
	if c == nil {
		return nil
	}
	if (kw == "LIMIT" || kw == "SLIMIT") && c.N == 0 {
		return ErrorAt(CodeInvalidArgument, c, "%s must be between 1 and %d", kw, maxN)
	}
	if c.N > maxN {
		return ErrorAt(CodeLimitTooLarge, c, "%s %d is larger than the maximum %d", kw, c.N, maxN)
	}
	return nil
}

// checkTargetExpr validates functions and arguments in a target expression.
func checkTargetExpr(e Expr, inAgg bool) error {
	switch x := e.(type) {
	case *NameExpr, *NumberExpr:
		return nil
	case *ParenExpr:
		return checkTargetExpr(x.X, inAgg)
	case *UnaryExpr:
		return checkTargetExpr(x.X, inAgg)
	case *BinaryExpr:
		if err := checkTargetExpr(x.LHS, inAgg); err != nil {
			return err
		}
		return checkTargetExpr(x.RHS, inAgg)
	case *CallExpr:
		return checkCall(x)
	case *StringExpr:
		return ErrorAt(CodeInvalidArgument, x, "a string is not a valid target; targets are fields, tags, numbers and functions")
	}
	return ErrorAt(CodeParseError, e, "%s is not a valid target", e.String())
}

func checkCall(c *CallExpr) error {
	fi, ok := functions[c.Name]
	if !ok {
		return ErrorAt(CodeUnknownFunction, c, "unknown function %s(); known: avg, sum, min, max, count, first, last, percentile, median, stddev, spread, mode, count_distinct, distinct, top, bottom, difference, derivative, non_negative_derivative, non_negative_difference, moving_average, abs, round, log", c.Name)
	}
	nargs := 1
	switch fi.extra {
	case "percentile", "n":
		nargs = 2
	case "base":
		if len(c.Args) == 1 {
			nargs = 1
		} else {
			nargs = 2
		}
	}
	if len(c.Args) != nargs {
		return ErrorAt(CodeInvalidArgument, c, "%s() takes %d argument(s), got %d", c.Name, nargs, len(c.Args))
	}
	for _, a := range c.Args {
		if _, ok := a.(*NamedArg); ok {
			return ErrorAt(CodeInvalidArgument, a, "%s() takes no named arguments", c.Name)
		}
	}
	switch fi.kind {
	case FuncAggregate, FuncTransform:
		if isCountDistinct(c) {
			break
		}
		if _, ok := Unparen(c.Args[0]).(*NameExpr); !ok {
			return ErrorAt(CodeInvalidArgument, c.Args[0], "the argument of %s() must be a field name", c.Name)
		}
	case FuncRow:
		if err := checkTargetExpr(c.Args[0], false); err != nil {
			return err
		}
		if ContainsAggregate(c.Args[0]) || ContainsKind(c.Args[0], FuncTransform) {
			return ErrorAt(CodeSemanticError, c.Args[0], "%s() applies to row values, not to aggregates or transforms", c.Name)
		}
	}
	if nargs == 2 {
		n, ok := NumberArg(c.Args[1])
		if !ok {
			return ErrorAt(CodeInvalidArgument, c.Args[1], "the second argument of %s() must be a number", c.Name)
		}
		switch fi.extra {
		case "percentile":
			if n < 0 || n > 100 {
				return ErrorAt(CodeInvalidArgument, c.Args[1], "percentile %v is outside [0, 100]", n)
			}
		case "n":
			if n < 1 || n != float64(int64(n)) || n > MaxLimit {
				what := "window"
				if c.Name == "top" || c.Name == "bottom" {
					what = "count"
				}
				return ErrorAt(CodeInvalidArgument, c.Args[1], "%s() %s must be an integer between 1 and %d", c.Name, what, MaxLimit)
			}
		case "base":
			if n <= 0 || n == 1 {
				return ErrorAt(CodeInvalidArgument, c.Args[1], "log() base must be positive and not 1")
			}
		}
	}
	return nil
}

// checkAggregateTarget: with aggregates, a target is an aggregate expression (aggregates,
// numbers, arithmetic), a number, or a BY tag.
func checkAggregateTarget(e Expr, byNames map[string]bool) error {
	if n, ok := e.(*NameExpr); ok {
		if byNames[n.Name] {
			return nil
		}
		return ErrorAt(CodeSemanticError, n, "%s is neither an aggregate nor a BY tag; aggregates cannot be mixed with raw fields", n.Name)
	}
	var err error
	Walk(e, func(x Expr) bool {
		if err != nil {
			return false
		}
		switch c := x.(type) {
		case *CallExpr:
			switch functions[c.Name].kind {
			case FuncAggregate:
				return false
			case FuncTransform:
				err = ErrorAt(CodeSemanticError, c, "transform %s() cannot be mixed with aggregates", c.Name)
			case FuncRow:
				err = ErrorAt(CodeSemanticError, c, "%s() cannot be mixed with aggregates", c.Name)
			}
		case *NameExpr:
			err = ErrorAt(CodeSemanticError, c, "%s is used outside an aggregate; aggregates cannot be mixed with raw fields", c.Name)
		}
		return true
	})
	return err
}

// checkCond validates a filter or HAVING condition.
func checkCond(e Expr) error {
	switch x := e.(type) {
	case *ParenExpr:
		return checkCond(x.X)
	case *BinaryExpr:
		switch x.Op {
		case "AND", "OR":
			if err := checkCond(x.LHS); err != nil {
				return err
			}
			return checkCond(x.RHS)
		case "=", "!=", "<", "<=", ">", ">=":
			return checkComparison(x)
		}
	case *InExpr:
		if _, ok := Unparen(x.X).(*NameExpr); !ok {
			return ErrorAt(CodeInvalidArgument, x.X, "IN needs a tag or field name on its left")
		}
		for _, el := range x.List.Elems {
			switch el.(type) {
			case *StringExpr, *NumberExpr:
			default:
				return ErrorAt(CodeInvalidArgument, el, "IN lists hold strings and numbers")
			}
		}
		return nil
	case *CallExpr:
		if _, ok := functions[x.Name]; !ok {
			return ErrorAt(CodeUnknownFunction, x, "function %s() cannot be used as a filter condition in M", x.Name)
		}
	}
	return ErrorAt(CodeSemanticError, e, "%s is not a condition; write a comparison such as host = 'a' or idle > 90", e.String())
}

func checkComparison(b *BinaryExpr) error {
	switch r := b.RHS.(type) {
	case *RegexExpr:
		if b.Op != "=" && b.Op != "!=" {
			return ErrorAt(CodeInvalidArgument, b, "a regex can only be compared with = or !=")
		}
		if _, ok := Unparen(b.LHS).(*NameExpr); !ok {
			return ErrorAt(CodeInvalidArgument, b.LHS, "a regex match needs a tag name on its left")
		}
		if _, err := regexp.Compile(r.Val); err != nil {
			return ErrorAt(CodeInvalidArgument, r, "invalid regex: %s", err)
		}
		return nil
	case *StringExpr:
		if _, ok := Unparen(b.LHS).(*NameExpr); !ok {
			return ErrorAt(CodeInvalidArgument, b.LHS, "a string comparison needs a tag name on its left")
		}
		if b.Op != "=" && b.Op != "!=" {
			return ErrorAt(CodeInvalidArgument, b, "a string can only be compared with = or != (tags also take IN, NOT IN and regexes; fields compare with numbers), not %s", b.Op)
		}
		return nil
	}
	for _, side := range []Expr{b.LHS, b.RHS} {
		if err := checkValueExpr(side); err != nil {
			return err
		}
	}
	return nil
}

// checkValueExpr validates an arithmetic operand of a comparison.
func checkValueExpr(e Expr) error {
	switch x := e.(type) {
	case *NameExpr, *NumberExpr:
		return nil
	case *ParenExpr:
		return checkValueExpr(x.X)
	case *UnaryExpr:
		return checkValueExpr(x.X)
	case *BinaryExpr:
		switch x.Op {
		case "+", "-", "*", "/", "%", "^":
			if err := checkValueExpr(x.LHS); err != nil {
				return err
			}
			return checkValueExpr(x.RHS)
		}
		return ErrorAt(CodeSemanticError, x, "unexpected condition inside a comparison; use parentheses around conditions")
	case *CallExpr:
		if fi, ok := functions[x.Name]; ok && fi.kind == FuncAggregate {
			if err := checkCall(x); err != nil {
				return err
			}
			return nil
		}
		return ErrorAt(CodeUnknownFunction, x, "function %s() cannot be used in a condition", x.Name)
	case *StringExpr:
		return ErrorAt(CodeInvalidArgument, x, "a string must be on the right of = or !=")
	case *RegexExpr:
		return ErrorAt(CodeInvalidArgument, x, "a regex must be on the right of = or !=")
	}
	return ErrorAt(CodeInvalidArgument, e, "%s cannot be compared", e.String())
}

func checkTime(te *TimeExpr) error {
	if te.Interval != nil && te.Interval.Ms <= 0 {
		return ErrorAt(CodeInvalidArgument, te.Interval, "interval %s must be at least 1ms", te.Interval.Text)
	}
	if te.Rollup != "" {
		if te.Interval == nil {
			return ErrorAt(CodeInvalidArgument, te, "rollup %s needs an interval, such as [1h::1m:%s]", te.Rollup, te.Rollup)
		}
		if !IsRollup(te.Rollup) {
			return errorf(CodeUnknownFunction, te.RollupPos.Pos, te.RollupPos.End, "unknown rollup %s; known: avg, sum, min, max, count, first, last, stddev, median, pNN, deriv, rate, irate", te.Rollup)
		}
		if q, ok := PercentileRollup(te.Rollup); ok {
			if q > 100 {
				return errorf(CodeInvalidArgument, te.RollupPos.Pos, te.RollupPos.End, "rollup %s: percentile %v is outside [0, 100]", te.Rollup, q)
			}
		}
	}
	if te.From != nil && te.To != nil && !te.From.Relative && !te.To.Relative && te.From.Value >= te.To.Value {
		return ErrorAt(CodeInvalidArgument, te, "start %s is not before end %s", te.From.Text, te.To.Text)
	}
	return nil
}

var showFunctions = map[string]map[string]bool{
	"show_measurement": {},
	"show_tag_key":     {"from": true},
	"show_tag_value":   {"from": true, "keyin": true, "field": true},
	"show_field_key":   {"from": true},
}

func checkShow(s *ShowStmt) error {
	allowed, ok := showFunctions[s.Call.Name]
	if !ok {
		return ErrorAt(CodeUnknownFunction, s.Call, "unknown metadata function %s(); known: show_measurement, show_tag_key, show_tag_value, show_field_key", s.Call.Name)
	}
	for _, a := range s.Call.Args {
		na, ok := a.(*NamedArg)
		if !ok {
			return ErrorAt(CodeInvalidArgument, a, "%s() takes named arguments such as from=['cpu']", s.Call.Name)
		}
		if !allowed[strings.ToLower(na.Name)] {
			return ErrorAt(CodeInvalidArgument, na, "%s() has no argument %q", s.Call.Name, na.Name)
		}
		switch v := na.Value.(type) {
		case *ListExpr:
			for _, el := range v.Elems {
				if _, ok := el.(*StringExpr); !ok {
					return ErrorAt(CodeInvalidArgument, el, "%s= takes a list of strings", na.Name)
				}
			}
		case *RegexExpr:
			if _, err := regexp.Compile(v.Val); err != nil {
				return ErrorAt(CodeInvalidArgument, v, "invalid regex: %s", err)
			}
		case *StringExpr:
		default:
			return ErrorAt(CodeInvalidArgument, na.Value, "%s= takes a list of strings, a string or a regex", na.Name)
		}
		if strings.EqualFold(na.Name, "keyin") {
			if err := checkNames(na.Value, s.Call.Name); err != nil {
				return err
			}
		}
	}
	if s.Filter != nil {
		if err := checkCondition(s.Filter, "the filter"); err != nil {
			return err
		}
	}
	if s.Time != nil {
		if err := checkTime(s.Time); err != nil {
			return err
		}
		if s.Time.Interval != nil {
			return ErrorAt(CodeInvalidArgument, s.Time, "metadata functions take a time range without an interval")
		}
	}
	if err := CheckIntClause("LIMIT", s.Limit, MaxLimit); err != nil {
		return err
	}
	return CheckIntClause("OFFSET", s.Offset, MaxOffset)
}

package parser

import (
	"math"
	"strings"
)

// Outer functions (DQL.md §10.5) wrap a whole statement: f('<dql>').g().h(...), or
// eval(expr, A='<dql>', B='<dql>'). These are their checks; the statements they carry are
// parsed and checked like any other.

// OuterQuery returns the statement text of the first call: its first positional string
// argument or its dql= argument.
func OuterQuery(c *CallExpr) (*StringExpr, bool) {
	for _, a := range c.Args {
		switch x := a.(type) {
		case *StringExpr:
			return x, true
		case *NamedArg:
			if strings.EqualFold(x.Name, "dql") {
				s, ok := x.Value.(*StringExpr)
				return s, ok
			}
		}
	}
	return nil, false
}

// ParseInner parses and checks a statement passed as a string to an outer function.
func ParseInner(c *CallExpr, s *StringExpr) (*QueryStmt, error) {
	st, err := Parse(s.Val)
	if err == nil {
		err = Check(st, s.Val)
	}
	if err != nil {
		e, ok := AsError(err)
		if !ok {
			return nil, err
		}
		return nil, ErrorAt(e.Code, s, "in the query of %s(): %s", c.Name, e.Error())
	}
	q, ok := st.(*QueryStmt)
	if !ok {
		return nil, ErrorAt(CodeSemanticError, s, "%s() takes a data query, not %s", c.Name, st.String())
	}
	return q, nil
}

func checkOuter(s *OuterStmt) error {
	for i, c := range s.Calls {
		if c.Name == "eval" {
			if len(s.Calls) > 1 {
				return ErrorAt(CodeSemanticError, c, "eval() cannot be chained")
			}
			return checkEval(c)
		}
		var positional []Expr
		named := map[string]Expr{}
		for _, a := range c.Args {
			if na, ok := a.(*NamedArg); ok {
				named[strings.ToLower(na.Name)] = na.Value
			} else {
				positional = append(positional, a)
			}
		}
		if i == 0 {
			qs, ok := OuterQuery(c)
			if !ok {
				return ErrorAt(CodeInvalidArgument, c, "%s() needs the query as its first argument: %s('M::cpu:(x) [1h]') or %s(dql='…')", c.Name, c.Name, c.Name)
			}
			if _, err := ParseInner(c, qs); err != nil {
				return err
			}
			if len(positional) > 0 && positional[0] == Expr(qs) {
				positional = positional[1:]
			}
			delete(named, "dql")
		} else if _, ok := OuterQuery(c); ok {
			return ErrorAt(CodeInvalidArgument, c, "only the first function of a chain takes a query")
		}
		switch c.Name {
		case "moving_average":
			size, ok := named["size"]
			delete(named, "size")
			if !ok && len(positional) == 1 {
				size, positional = positional[0], nil
			}
			n, isNum := NumberArg(size)
			if size == nil || !isNum || n < 1 || n != math.Trunc(n) || n > MaxLimit {
				return ErrorAt(CodeInvalidArgument, c, "moving_average() needs size=n with n an integer between 1 and %d", MaxLimit)
			}
		case "series_sum":
			if by, ok := named["sumby"]; ok {
				l, isList := by.(*ListExpr)
				if !isList {
					return ErrorAt(CodeInvalidArgument, by, "sumBy= takes a list of tag names such as ['host']")
				}
				for _, el := range l.Elems {
					if _, ok := el.(*StringExpr); !ok {
						return ErrorAt(CodeInvalidArgument, el, "sumBy= takes a list of tag names such as ['host']")
					}
				}
				delete(named, "sumby")
			}
		}
		for k, v := range named {
			return ErrorAt(CodeInvalidArgument, v, "%s() has no argument %q", c.Name, k)
		}
		if len(positional) > 0 {
			return ErrorAt(CodeInvalidArgument, positional[0], "%s() takes no argument %s", c.Name, positional[0].String())
		}
	}
	return nil
}

func checkEval(c *CallExpr) error {
	if len(c.Args) < 2 {
		return ErrorAt(CodeInvalidArgument, c, "eval() takes an expression and named queries: eval(A+B, A='…', B='…')")
	}
	names := map[string]bool{}
	for _, a := range c.Args[1:] {
		na, ok := a.(*NamedArg)
		if !ok {
			return ErrorAt(CodeInvalidArgument, a, "eval() takes named queries after the expression: A='M::cpu:(x) [1h]'")
		}
		s, ok := na.Value.(*StringExpr)
		if !ok {
			return ErrorAt(CodeInvalidArgument, na.Value, "eval() query %s must be a string", na.Name)
		}
		if _, err := ParseInner(c, s); err != nil {
			return err
		}
		names[na.Name] = true
	}
	if _, isNamed := c.Args[0].(*NamedArg); isNamed {
		return ErrorAt(CodeInvalidArgument, c.Args[0], "eval() takes the expression first")
	}
	if err := checkValueExpr(c.Args[0]); err != nil {
		return err
	}
	var err error
	Walk(c.Args[0], func(e Expr) bool {
		if n, ok := e.(*NameExpr); ok && !names[n.Name] && err == nil {
			err = ErrorAt(CodeInvalidArgument, n, "eval() expression uses %s, which is not one of its named queries", n.Name)
		}
		return err == nil
	})
	return err
}

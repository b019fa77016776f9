package parser

import (
	"regexp"
	"strconv"
	"strings"
)

var identRe = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// QuoteName writes a name as DQL source: bare when it is a plain identifier and not a
// keyword, else in backticks.
func QuoteName(s string) string {
	if identRe.MatchString(s) && !isKeyword(s) {
		return s
	}
	return backtickName(s)
}

// backtickName writes a name in backticks, or as identifier('…') when it holds a backtick.
func backtickName(s string) string {
	if strings.Contains(s, "`") {
		return "identifier(" + quoteString(s) + ")"
	}
	return "`" + s + "`"
}

// quoteString writes s as a single-quoted DQL string.
func quoteString(s string) string {
	var b strings.Builder
	b.WriteByte('\'')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\':
			b.WriteString(`\\`)
		case '\'':
			b.WriteString(`\'`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('\'')
	return b.String()
}

// Expressions print through one builder, so that long expressions print in linear time.

func exprString(e Expr) string {
	var b strings.Builder
	writeExpr(&b, e)
	return b.String()
}

func writeExpr(b *strings.Builder, e Expr) {
	switch x := e.(type) {
	case *NameExpr:
		if x.Quoted {
			b.WriteString(backtickName(x.Name))
		} else {
			b.WriteString(QuoteName(x.Name))
		}
	case *NumberExpr:
		b.WriteString(x.Text)
	case *StringExpr:
		b.WriteString(quoteString(x.Val))
	case *RegexExpr:
		switch {
		case x.Call:
			b.WriteString("re(" + quoteString(x.Val) + ")")
		case !strings.Contains(x.Val, "`"):
			b.WriteString("re`" + x.Val + "`")
		default:
			b.WriteString("re" + quoteString(x.Val))
		}
	case *BoolExpr:
		if x.Val {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case *NilExpr:
		b.WriteString("nil")
	case *ListExpr:
		b.WriteByte('[')
		for i, el := range x.Elems {
			if i > 0 {
				b.WriteString(", ")
			}
			writeExpr(b, el)
		}
		b.WriteByte(']')
	case *ParenExpr:
		b.WriteByte('(')
		writeExpr(b, x.X)
		b.WriteByte(')')
	case *UnaryExpr:
		b.WriteString(x.Op)
		writeExpr(b, x.X)
	case *BinaryExpr:
		// Left-deep chains (a+b+c+...) are walked iteratively.
		var rights []*BinaryExpr
		cur := x
		for {
			rights = append(rights, cur)
			l, ok := cur.LHS.(*BinaryExpr)
			if !ok {
				break
			}
			cur = l
		}
		writeExpr(b, rights[len(rights)-1].LHS)
		for i := len(rights) - 1; i >= 0; i-- {
			be := rights[i]
			switch be.Op {
			case "+", "-", "*", "/", "%", "^":
				// Arithmetic prints compactly: this is also the default column name (D-6).
				b.WriteString(be.Op)
			default:
				b.WriteString(" " + be.Op + " ")
			}
			writeExpr(b, be.RHS)
		}
	case *InExpr:
		writeExpr(b, x.X)
		if x.Not {
			b.WriteString(" NOT IN ")
		} else {
			b.WriteString(" IN ")
		}
		writeExpr(b, x.List)
	case *CallExpr:
		b.WriteString(strings.ToLower(x.Name))
		b.WriteByte('(')
		for i, a := range x.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			writeExpr(b, a)
		}
		b.WriteByte(')')
	case *NamedArg:
		b.WriteString(x.Name + "=")
		writeExpr(b, x.Value)
	}
}

func (n *NameExpr) String() string   { return exprString(n) }
func (n *NumberExpr) String() string { return n.Text }
func (s *StringExpr) String() string { return quoteString(s.Val) }
func (r *RegexExpr) String() string  { return exprString(r) }
func (b *BoolExpr) String() string   { return exprString(b) }
func (*NilExpr) String() string      { return "nil" }
func (l *ListExpr) String() string   { return exprString(l) }
func (p *ParenExpr) String() string  { return exprString(p) }
func (u *UnaryExpr) String() string  { return exprString(u) }
func (b *BinaryExpr) String() string { return exprString(b) }
func (in *InExpr) String() string    { return exprString(in) }
func (c *CallExpr) String() string   { return exprString(c) }
func (a *NamedArg) String() string   { return exprString(a) }

func (f *Fill) String() string {
	switch f.Kind {
	case FillNil:
		return "NIL"
	case FillPrevious:
		return "PREVIOUS"
	case FillLinear:
		return "LINEAR"
	}
	return f.Value.String()
}

func (t *Target) String() string {
	s := t.Expr.String()
	if t.Alias != "" {
		s += " AS " + QuoteName(t.Alias)
	}
	if t.Fill != nil {
		s = "fill(" + s + ", " + t.Fill.String() + ")"
	}
	return s
}

// ColumnName is the name of the column a target produces: its alias, the field name for a
// bare name, else the normalised target text (D-6).
func (t *Target) ColumnName() string {
	if t.Alias != "" {
		return t.Alias
	}
	switch x := t.Expr.(type) {
	case *NameExpr:
		return x.Name
	case *CallExpr:
		if multiRowAggregates[x.Name] {
			if n, ok := Unparen(x.Args[0]).(*NameExpr); ok {
				return n.Name
			}
		}
	}
	return t.Expr.String()
}

func (tp *TimePoint) String() string { return tp.Text }
func (d *Duration) String() string   { return d.Text }

func (te *TimeExpr) String() string {
	var b strings.Builder
	b.WriteByte('[')
	if te.From != nil {
		b.WriteString(te.From.String())
	}
	if te.Parts > 1 {
		b.WriteByte(':')
		if te.To != nil {
			b.WriteString(te.To.String())
		}
	}
	if te.Parts > 2 {
		b.WriteByte(':')
		if te.Interval != nil {
			b.WriteString(te.Interval.String())
		}
	}
	if te.Parts > 3 {
		b.WriteByte(':')
		b.WriteString(te.Rollup)
	}
	b.WriteByte(']')
	return b.String()
}

func (o *OrderBy) String() string {
	s := o.Name.String()
	if o.Dir {
		if o.Desc {
			s += " DESC"
		} else {
			s += " ASC"
		}
	}
	return s
}

func (c *IntClause) String() string { return strconv.FormatInt(c.N, 10) }

func filterString(e Expr, has bool) string {
	if !has {
		return ""
	}
	if e == nil {
		return " {}"
	}
	return " {" + e.String() + "}"
}

func (s *QueryStmt) String() string {
	var b strings.Builder
	if s.Namespace != "" {
		b.WriteString(s.Namespace + "::")
	}
	switch {
	case s.Subquery != nil:
		b.WriteString("(" + s.Subquery.String() + ")")
	case s.SourceRegex != nil:
		b.WriteString(s.SourceRegex.String())
	default:
		b.WriteString(s.Source.String())
	}
	for _, m := range s.MoreSources {
		b.WriteString("," + m.String())
	}
	if s.HasTargets {
		b.WriteString(":(")
		for i, t := range s.Targets {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(t.String())
		}
		b.WriteByte(')')
	}
	b.WriteString(filterString(s.Filter, s.HasFilter))
	if s.Time != nil {
		b.WriteString(" " + s.Time.String())
	}
	if len(s.By) > 0 {
		b.WriteString(" BY ")
		for i, n := range s.By {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(n.String())
		}
	}
	if s.Having != nil {
		b.WriteString(" HAVING " + s.Having.String())
	}
	if s.OrderBy != nil {
		b.WriteString(" ORDER BY " + s.OrderBy.String())
	}
	writeInt(&b, "LIMIT", s.Limit)
	writeInt(&b, "OFFSET", s.Offset)
	if s.SOrderBy != nil {
		b.WriteString(" SORDER BY " + s.SOrderBy.String())
	}
	writeInt(&b, "SLIMIT", s.SLimit)
	writeInt(&b, "SOFFSET", s.SOffset)
	if s.TZ != nil {
		b.WriteString(" " + s.TZ.String())
	}
	return b.String()
}

func writeInt(b *strings.Builder, kw string, c *IntClause) {
	if c != nil {
		b.WriteString(" " + kw + " " + c.String())
	}
}

func (s *ShowStmt) String() string {
	var b strings.Builder
	b.WriteString(s.Call.String())
	b.WriteString(filterString(s.Filter, s.HasFilter))
	if s.Time != nil {
		b.WriteString(" " + s.Time.String())
	}
	writeInt(&b, "LIMIT", s.Limit)
	writeInt(&b, "OFFSET", s.Offset)
	return b.String()
}

func (s *OuterStmt) String() string {
	parts := make([]string, len(s.Calls))
	for i, c := range s.Calls {
		parts[i] = c.String()
	}
	return strings.Join(parts, ".")
}

package parser

// Node is any element of the syntax tree. Pos and End are byte offsets into the query
// text; String prints the node so that parsing the result gives the same tree.
type Node interface {
	Range() (pos, end int)
	String() string
}

// PosRange is embedded in every node.
type PosRange struct {
	Pos, End int
}

// Range returns the node's byte range.
func (p PosRange) Range() (int, int) { return p.Pos, p.End }

// Expr is an expression: a value in a target, a condition in a filter, an argument.
type Expr interface {
	Node
	dqlExpr()
}

// Stmt is a whole statement.
type Stmt interface {
	Node
	dqlStmt()
}

// NameExpr is a measurement, field or tag name, or a bare word. Quoted is true when it
// was written in backticks.
type NameExpr struct {
	PosRange
	Name   string
	Quoted bool
}

// NumberExpr is a numeric literal; Text is its spelling.
type NumberExpr struct {
	PosRange
	Val  float64
	Text string
}

// StringExpr is a string literal.
type StringExpr struct {
	PosRange
	Val string
}

// RegexExpr is a regex literal re`...`, or the call form re('...') (Call true).
type RegexExpr struct {
	PosRange
	Val  string
	Call bool
}

// BoolExpr is true or false.
type BoolExpr struct {
	PosRange
	Val bool
}

// NilExpr is nil.
type NilExpr struct {
	PosRange
}

// ListExpr is a bracketed list of literals: ['a', 'b'].
type ListExpr struct {
	PosRange
	Elems []Expr
}

// ParenExpr is an expression in parentheses.
type ParenExpr struct {
	PosRange
	X Expr
}

// UnaryExpr is -x or +x.
type UnaryExpr struct {
	PosRange
	Op string
	X  Expr
}

// Apply applies the operator to a value.
func (u *UnaryExpr) Apply(v float64) float64 {
	if u.Op == "-" {
		return -v
	}
	return v
}

// BinaryExpr is arithmetic (+ - * / % ^), comparison (= != < <= > >=) or logic
// (AND, OR). The spellings "&&" and "," are stored as AND, "||" as OR.
type BinaryExpr struct {
	PosRange
	Op       string
	LHS, RHS Expr
}

// InExpr is x IN [..] or x NOT IN [..].
type InExpr struct {
	PosRange
	X    Expr
	Not  bool
	List *ListExpr
}

// CallExpr is a function call: avg(x), percentile(x, 90), show_tag_key(from=['cpu']).
// Name keeps its spelling; function names are case-insensitive.
type CallExpr struct {
	PosRange
	Name string
	Args []Expr
}

// NamedArg is name=value inside a call.
type NamedArg struct {
	PosRange
	Name  string
	Value Expr
}

func (*NameExpr) dqlExpr()   {}
func (*NumberExpr) dqlExpr() {}
func (*StringExpr) dqlExpr() {}
func (*RegexExpr) dqlExpr()  {}
func (*BoolExpr) dqlExpr()   {}
func (*NilExpr) dqlExpr()    {}
func (*ListExpr) dqlExpr()   {}
func (*ParenExpr) dqlExpr()  {}
func (*UnaryExpr) dqlExpr()  {}
func (*BinaryExpr) dqlExpr() {}
func (*InExpr) dqlExpr()     {}
func (*CallExpr) dqlExpr()   {}
func (*NamedArg) dqlExpr()   {}

// FillKind is how fill() fills empty buckets.
type FillKind int

// Fill kinds.
const (
	FillValue    FillKind = iota // a number or string constant
	FillNil                      // NIL
	FillPrevious                 // PREVIOUS
	FillLinear                   // LINEAR
)

// Fill is the second argument of fill(target, value).
type Fill struct {
	PosRange
	Kind  FillKind
	Value Expr // *NumberExpr or *StringExpr for FillValue
}

// Target is one entry of the target clause.
type Target struct {
	PosRange
	Expr  Expr
	Alias string // "" when there is no AS
	Fill  *Fill  // non-nil for fill(expr [AS alias], value)
}

// TimePoint is a start or end of the time expression: a duration before now, or an
// absolute epoch time (seconds when < 1e11, else milliseconds).
type TimePoint struct {
	PosRange
	Text     string
	Relative bool  // duration before now
	Value    int64 // milliseconds: the duration when Relative, else the epoch time
}

// Duration is an interval such as 1m or 1h30m.
type Duration struct {
	PosRange
	Text string
	Ms   int64
}

// TimeExpr is [start:end:interval:rollup]; every part is optional. Parts counts the
// parts written (1 to 4) so that printing keeps [15m] apart from [15m:].
type TimeExpr struct {
	PosRange
	From, To  *TimePoint // start and end; nil when not written
	Interval  *Duration
	Rollup    string // as written; "" when absent
	RollupPos PosRange
	Parts     int
}

// OrderBy is ORDER BY or SORDER BY.
type OrderBy struct {
	PosRange
	Name *NameExpr
	Desc bool
	Dir  bool // ASC or DESC was written
}

// QueryStmt is a data query: M::measurement:(targets) {filter} [time] BY ... .
type QueryStmt struct {
	PosRange
	Namespace   string      // "M" when a namespace was written, else ""
	Source      *NameExpr   // the measurement; nil when SourceRegex is set
	MoreSources []*NameExpr // further measurements: M::cpu,mem
	SourceRegex *RegexExpr  // measurement regex: M::re('cpu.*')
	Subquery    *QueryStmt  // nested query: M::(M::cpu:(x) [1h]):(last(x))
	HasTargets  bool        // ":(...)" was written
	Targets     []*Target
	Filter      Expr // nil when absent
	HasFilter   bool // "{...}" was written (possibly empty)
	Time        *TimeExpr
	By          []*NameExpr
	Having      Expr
	OrderBy     *OrderBy
	Limit       *IntClause
	Offset      *IntClause
	SOrderBy    *OrderBy
	SLimit      *IntClause
	SOffset     *IntClause
	TZ          *CallExpr // tz('Asia/Shanghai') or tz(+8): bucket alignment
}

// IntClause is the number of a LIMIT, OFFSET, SLIMIT or SOFFSET clause.
type IntClause struct {
	PosRange
	N int64
}

// ShowStmt is a metadata function: show_measurement(), show_tag_key(from=['cpu']), ...
type ShowStmt struct {
	PosRange
	Call      *CallExpr
	Filter    Expr
	HasFilter bool
	Time      *TimeExpr
	Limit     *IntClause
	Offset    *IntClause
}

// OuterStmt is a chain of outer functions over a statement's result (DQL.md §10.5):
// difference('M::net:(rx) [1h]').cumsum(). The first call carries the statement as a string
// (positionally or as dql=...); eval() carries named statements and an expression.
type OuterStmt struct {
	PosRange
	Calls []*CallExpr
}

func (*QueryStmt) dqlStmt() {}
func (*OuterStmt) dqlStmt() {}
func (*ShowStmt) dqlStmt()  {}

// Walk calls fn for every expression below n in depth-first order; fn returning false
// stops the descent into that node's children.
func Walk(e Expr, fn func(Expr) bool) {
	if e == nil || !fn(e) {
		return
	}
	switch x := e.(type) {
	case *ListExpr:
		for _, el := range x.Elems {
			Walk(el, fn)
		}
	case *ParenExpr:
		Walk(x.X, fn)
	case *UnaryExpr:
		Walk(x.X, fn)
	case *BinaryExpr:
		Walk(x.LHS, fn)
		Walk(x.RHS, fn)
	case *InExpr:
		Walk(x.X, fn)
		Walk(x.List, fn)
	case *CallExpr:
		for _, a := range x.Args {
			Walk(a, fn)
		}
	case *NamedArg:
		Walk(x.Value, fn)
	}
}

// Unparen strips parentheses.
func Unparen(e Expr) Expr {
	for {
		p, ok := e.(*ParenExpr)
		if !ok {
			return e
		}
		e = p.X
	}
}

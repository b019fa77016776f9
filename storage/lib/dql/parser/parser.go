package parser

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Parser limits (DQL.md §2).
const (
	MaxQueryLen = 64 << 10
	MaxDepth    = 64
)

type parser struct {
	src    string
	toks   []Token
	i      int
	depth  int
	filter bool // inside { } or HAVING: a comma means AND
}

// Parse parses one DQL statement.
func Parse(q string) (stmt Stmt, err error) {
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(*Error); ok {
				stmt, err = nil, WithQuery(e, q, "")
				return
			}
			panic(r)
		}
	}()
	if len(q) > MaxQueryLen {
		return nil, NewError(CodeParseError, "query is %d bytes long; the maximum is %d bytes", len(q), MaxQueryLen)
	}
	toks, err := Lex(q)
	if err != nil {
		return nil, err
	}
	p := &parser{src: q, toks: toks}
	if p.peek().Kind == TokEOF {
		panic(errorf(CodeParseError, 0, len(q), "empty query"))
	}
	return p.parseStmt(), nil
}

// ParseFilter parses a filter in DQL filter syntax, with or without the braces, as the
// API's "conditions" field carries it. An empty text gives a nil Expr.
func ParseFilter(text string) (e Expr, err error) {
	defer func() {
		if r := recover(); r != nil {
			if pe, ok := r.(*Error); ok {
				e, err = nil, WithQuery(pe, text, "conditions")
				return
			}
			panic(r)
		}
	}()
	if len(text) > MaxQueryLen {
		return nil, NewError(CodeParseError, "conditions are %d bytes long; the maximum is %d bytes", len(text), MaxQueryLen)
	}
	toks, err := Lex(text)
	if err != nil {
		return nil, WithQuery(err, text, "conditions")
	}
	p := &parser{src: text, toks: toks}
	if p.peek().Kind == TokEOF {
		return nil, nil
	}
	if p.peek().Kind == TokLBrace {
		e, _ = p.parseFilterClause()
	} else {
		p.filter = true
		e = p.parseOr()
	}
	if t := p.peek(); t.Kind != TokEOF {
		p.fail(t, "a condition operator (AND, OR, ',') or end of conditions")
	}
	return e, nil
}

func (p *parser) peek() Token { return p.toks[p.i] }

func (p *parser) peekAt(n int) Token {
	if p.i+n < len(p.toks) {
		return p.toks[p.i+n]
	}
	return p.toks[len(p.toks)-1]
}

func (p *parser) next() Token {
	t := p.toks[p.i]
	if t.Kind != TokEOF {
		p.i++
	}
	return t
}

func (p *parser) prevEnd() int {
	if p.i == 0 {
		return 0
	}
	return p.toks[p.i-1].End
}

// fail aborts parsing with "unexpected <t>, expected <what>".
func (p *parser) fail(t Token, expected string) {
	panic(errorf(CodeParseError, t.Pos, max(t.End, t.Pos+1), "unexpected %s, expected %s", t.describe(), expected))
}

func (p *parser) expect(kind TokenKind, expected string) Token {
	t := p.next()
	if t.Kind != kind {
		p.fail(t, expected)
	}
	return t
}

func (p *parser) enter(t Token) {
	p.depth++
	if p.depth > MaxDepth {
		panic(errorf(CodeParseError, t.Pos, t.End, "expression nesting is deeper than %d levels", MaxDepth))
	}
}

func (p *parser) leave() { p.depth-- }

func (p *parser) parseStmt() Stmt {
	t := p.peek()
	if t.Kind == TokIdent && p.peekAt(1).Kind == TokLParen && !isKeyword(t.Text) && !t.is("re") && !t.is("identifier") {
		name := strings.ToLower(t.Text)
		if strings.HasPrefix(name, "show_") {
			return p.parseShow()
		}
		if outerFunctions[name] {
			return p.parseOuter()
		}
		panic(errorf(CodeUnknownFunction, t.Pos, t.End, "unknown statement function %s(); statements start with a measurement, a metadata function (show_measurement, show_tag_key, show_tag_value, show_field_key) or an outer function (%s)", t.Text, outerFunctionList))
	}
	return p.parseQuery()
}

// clause names in their fixed order.
var clauseOrder = []string{"targets", "filter", "time expression", "BY", "HAVING", "ORDER BY", "LIMIT", "OFFSET", "SORDER BY", "SLIMIT", "SOFFSET", "tz()"}

func (p *parser) clauseOf(t Token) int {
	switch {
	case t.Kind == TokColon:
		return 0
	case t.Kind == TokLBrace:
		return 1
	case t.Kind == TokLBracket:
		return 2
	case t.is("by"):
		return 3
	case t.is("having"):
		return 4
	case t.is("order"):
		return 5
	case t.is("limit"):
		return 6
	case t.is("offset"):
		return 7
	case t.is("sorder"):
		return 8
	case t.is("slimit"):
		return 9
	case t.is("soffset"):
		return 10
	case t.is("tz") && p.peekAt(1).Kind == TokLParen:
		return 11
	}
	return -1
}

func (p *parser) parseQuery() *QueryStmt {
	st, last := p.parseQueryBody()
	p.expectEnd(last, 0)
	return st
}

// parseQueryBody parses a data query up to its last clause and returns the index of that
// clause in clauseOrder (-1 when there is none).
func (p *parser) parseQueryBody() (*QueryStmt, int) {
	st := &QueryStmt{}
	first := p.peek()
	st.Pos = first.Pos
	// Namespace.
	if (first.Kind == TokIdent || first.Kind == TokQuotedIdent) && p.peekAt(1).Kind == TokDoubleColon {
		ns := first.Text
		if first.Kind == TokQuotedIdent {
			ns = first.Val
		}
		if !strings.EqualFold(ns, "M") && !strings.EqualFold(ns, "metric") {
			panic(errorf(CodeUnsupportedNamespce, first.Pos, first.End, "namespace %q is not supported; only M (metric) is", ns))
		}
		p.next()
		p.next()
		st.Namespace = "M"
	}
	// Source.
	t := p.peek()
	switch {
	case t.Kind == TokLParen:
		p.next()
		p.enter(t)
		sub := p.peek()
		if sub.Kind == TokIdent && p.peekAt(1).Kind == TokLParen && !sub.is("re") {
			panic(errorf(CodeSemanticError, sub.Pos, sub.End, "a nested query must be a data query"))
		}
		inner, _ := p.parseQueryBody()
		p.leave()
		p.expect(TokRParen, "a clause of the nested query or ')' to close it")
		st.Subquery = inner
	case t.Kind == TokRegex || (t.is("re") && p.peekAt(1).Kind == TokLParen):
		re, ok := p.parsePrimary().(*RegexExpr)
		if !ok {
			p.fail(t, "a measurement regex")
		}
		if _, err := regexp.Compile(re.Val); err != nil {
			panic(errorf(CodeInvalidArgument, re.Pos, re.End, "invalid measurement regex: %s", err))
		}
		st.SourceRegex = re
	default:
		st.Source = p.parseSourceName(st.Namespace == "")
		for p.peek().Kind == TokComma {
			p.next()
			st.MoreSources = append(st.MoreSources, p.parseSourceName(false))
		}
	}
	last := -1
	// Clauses in their fixed order.
	if p.peek().Kind == TokColon {
		p.next()
		p.expect(TokLParen, "'(' to open the target list")
		st.HasTargets = true
		st.Targets = p.parseTargets()
		p.expect(TokRParen, "',' or ')' to close the target list")
		last = 0
	}
	if p.peek().Kind == TokLBrace {
		st.Filter, _ = p.parseFilterClause()
		st.HasFilter = true
		last = 1
	}
	if p.peek().Kind == TokLBracket {
		st.Time = p.parseTime()
		last = 2
	}
	if p.peek().is("by") {
		p.next()
		st.By = p.parseNameList()
		last = 3
	}
	if p.peek().is("having") {
		p.next()
		p.filter = true
		st.Having = p.parseOr()
		p.filter = false
		last = 4
	}
	if p.peek().is("order") {
		st.OrderBy = p.parseOrderBy()
		last = 5
	}
	if p.peek().is("limit") {
		st.Limit = p.parseIntClause()
		last = 6
	}
	if p.peek().is("offset") {
		st.Offset = p.parseIntClause()
		last = 7
	}
	if p.peek().is("sorder") {
		st.SOrderBy = p.parseOrderBy()
		last = 8
	}
	if p.peek().is("slimit") {
		st.SLimit = p.parseIntClause()
		last = 9
	}
	if p.peek().is("soffset") {
		st.SOffset = p.parseIntClause()
		last = 10
	}
	if t := p.peek(); t.is("tz") && p.peekAt(1).Kind == TokLParen {
		p.next()
		st.TZ = p.parseCall(t).(*CallExpr)
		last = 11
	}
	st.End = p.prevEnd()
	return st, last
}

// identifier parses identifier("a`b"), a name that may contain any character.
func (p *parser) identifier() (*NameExpr, bool) {
	t := p.peek()
	if !t.is("identifier") || p.peekAt(1).Kind != TokLParen {
		return nil, false
	}
	p.next()
	n, ok := p.parseCall(t).(*NameExpr)
	return n, ok
}

func (p *parser) parseSourceName(first bool) *NameExpr {
	if n, ok := p.identifier(); ok {
		return n
	}
	t := p.next()
	switch {
	case t.Kind == TokQuotedIdent:
		return &NameExpr{PosRange{t.Pos, t.End}, t.Val, true}
	case t.Kind == TokIdent && !isKeyword(t.Text):
		return &NameExpr{PosRange{t.Pos, t.End}, t.Text, false}
	}
	if first {
		p.fail(t, "a measurement name, a namespace (M::) or a show_* function")
	}
	p.fail(t, "a measurement name")
	return nil
}

// expectEnd demands the end of the query after the clause with index last.
func (p *parser) expectEnd(last, firstClause int) {
	t := p.peek()
	if t.Kind == TokEOF {
		return
	}
	if c := p.clauseOf(t); c >= firstClause && c >= 0 && c <= last {
		if c == last {
			panic(errorf(CodeParseError, t.Pos, t.End, "duplicate %s clause", clauseOrder[c]))
		}
		panic(errorf(CodeParseError, t.Pos, t.End, "%s clause out of order: it must come before the %s clause (order: %s)",
			clauseOrder[c], clauseOrder[last], strings.Join(clauseOrder[firstClause:], ", ")))
	}
	var rest []string
	for i := max(last+1, firstClause); i < len(clauseOrder); i++ {
		rest = append(rest, clauseOrder[i])
	}
	if len(rest) == 0 {
		p.fail(t, "end of query")
	}
	p.fail(t, "one of "+strings.Join(rest, ", ")+" or end of query")
}

func (p *parser) parseTargets() []*Target {
	var ts []*Target
	if p.peek().Kind == TokRParen {
		return nil
	}
	for {
		ts = append(ts, p.parseTarget())
		if p.peek().Kind != TokComma {
			return ts
		}
		p.next()
	}
}

func (p *parser) parseTarget() *Target {
	t := p.peek()
	tg := &Target{}
	tg.Pos = t.Pos
	if t.is("fill") && p.peekAt(1).Kind == TokLParen {
		p.next()
		p.next()
		tg.Expr = p.parseAdd()
		tg.Alias = p.parseAlias()
		p.expect(TokComma, "',' and the fill value")
		tg.Fill = p.parseFillValue()
		p.expect(TokRParen, "')' to close fill(")
		tg.End = p.prevEnd()
		return tg
	}
	tg.Expr = p.parseAdd()
	tg.Alias = p.parseAlias()
	tg.End = p.prevEnd()
	return tg
}

func (p *parser) parseAlias() string {
	if !p.peek().is("as") {
		return ""
	}
	p.next()
	if n, ok := p.identifier(); ok {
		return n.Name
	}
	t := p.next()
	switch {
	case t.Kind == TokQuotedIdent:
		return t.Val
	case t.Kind == TokIdent && !isKeyword(t.Text), t.Kind == TokUnicodeIdent:
		return t.Text
	}
	p.fail(t, "an alias name after AS")
	return ""
}

func (p *parser) parseFillValue() *Fill {
	t := p.peek()
	f := &Fill{}
	f.Pos = t.Pos
	switch {
	case t.is("linear"):
		p.next()
		f.Kind = FillLinear
	case t.is("previous"):
		p.next()
		f.Kind = FillPrevious
	case t.is("nil"):
		p.next()
		f.Kind = FillNil
	case t.Kind == TokString:
		p.next()
		f.Value = &StringExpr{PosRange{t.Pos, t.End}, t.Val}
	case t.Kind == TokNumber || t.Kind == TokMinus:
		f.Value = p.parseSignedNumber()
	default:
		p.fail(t, "a fill value: a number, a string, LINEAR, PREVIOUS or NIL")
	}
	f.End = p.prevEnd()
	return f
}

func (p *parser) parseSignedNumber() *NumberExpr {
	t := p.next()
	neg := false
	start := t.Pos
	if t.Kind == TokMinus {
		neg = true
		t = p.next()
	}
	if t.Kind != TokNumber {
		p.fail(t, "a number")
	}
	n := p.number(t)
	if neg {
		n.Val = -n.Val
		n.Text = "-" + n.Text
		n.Pos = start
	}
	return n
}

func (p *parser) number(t Token) *NumberExpr {
	v, err := strconv.ParseFloat(t.Text, 64)
	if err != nil || math.IsInf(v, 0) {
		panic(errorf(CodeParseError, t.Pos, t.End, "invalid number %s", t.Text))
	}
	return &NumberExpr{PosRange{t.Pos, t.End}, v, t.Text}
}

// parseFilterClause parses { cond, ... }.
func (p *parser) parseFilterClause() (Expr, Token) {
	open := p.expect(TokLBrace, "'{'")
	saved := p.filter
	p.filter = true
	var e Expr
	if p.peek().Kind != TokRBrace {
		e = p.parseOr()
	}
	p.filter = saved
	t := p.peek()
	if t.Kind != TokRBrace {
		p.fail(t, "a condition operator (AND, OR, ',') or '}' to close the filter")
	}
	p.next()
	return e, open
}

func (p *parser) parseOr() Expr {
	lhs := p.parseAnd()
	for {
		t := p.peek()
		if t.Kind != TokOrOr && !t.is("or") {
			return lhs
		}
		p.next()
		rhs := p.parseAnd()
		lhs = &BinaryExpr{PosRange{posOf(lhs), endOf(rhs)}, "OR", lhs, rhs}
	}
}

func (p *parser) parseAnd() Expr {
	lhs := p.parseCmp()
	for {
		t := p.peek()
		if t.Kind != TokAndAnd && !t.is("and") && !(p.filter && t.Kind == TokComma) {
			return lhs
		}
		p.next()
		rhs := p.parseCmp()
		lhs = &BinaryExpr{PosRange{posOf(lhs), endOf(rhs)}, "AND", lhs, rhs}
	}
}

var cmpOps = map[TokenKind]string{TokEq: "=", TokNeq: "!=", TokLt: "<", TokLte: "<=", TokGt: ">", TokGte: ">="}

func (p *parser) parseCmp() Expr {
	lhs := p.parseAdd()
	t := p.peek()
	if op, ok := cmpOps[t.Kind]; ok {
		p.next()
		rhs := p.parseAdd()
		return &BinaryExpr{PosRange{posOf(lhs), endOf(rhs)}, op, lhs, rhs}
	}
	not := false
	if t.is("not") {
		if !p.peekAt(1).is("in") {
			p.fail(p.peekAt(1), "IN after NOT")
		}
		p.next()
		not = true
		t = p.peek()
	}
	if t.is("in") {
		p.next()
		lt := p.peek()
		if lt.Kind != TokLBracket {
			p.fail(lt, "'[' to open the IN list")
		}
		list := p.parseList()
		return &InExpr{PosRange{posOf(lhs), list.End}, lhs, not, list}
	}
	return lhs
}

func (p *parser) parseAdd() Expr {
	lhs := p.parseMul()
	for {
		t := p.peek()
		if t.Kind != TokPlus && t.Kind != TokMinus {
			return lhs
		}
		p.next()
		rhs := p.parseMul()
		lhs = &BinaryExpr{PosRange{posOf(lhs), endOf(rhs)}, t.Text, lhs, rhs}
	}
}

func (p *parser) parseMul() Expr {
	lhs := p.parseUnary()
	for {
		t := p.peek()
		if t.Kind != TokStar && t.Kind != TokSlash && t.Kind != TokPercent {
			return lhs
		}
		p.next()
		rhs := p.parseUnary()
		lhs = &BinaryExpr{PosRange{posOf(lhs), endOf(rhs)}, t.Text, lhs, rhs}
	}
}

func (p *parser) parseUnary() Expr {
	t := p.peek()
	if t.Kind == TokMinus || t.Kind == TokPlus {
		p.next()
		p.enter(t)
		x := p.parseUnary()
		p.leave()
		return &UnaryExpr{PosRange{t.Pos, endOf(x)}, t.Text, x}
	}
	return p.parsePow()
}

// parsePow: ^ is right-associative and binds tighter than unary minus on its left.
func (p *parser) parsePow() Expr {
	lhs := p.parsePrimary()
	t := p.peek()
	if t.Kind != TokCaret {
		return lhs
	}
	p.next()
	p.enter(t)
	rhs := p.parseUnary()
	p.leave()
	return &BinaryExpr{PosRange{posOf(lhs), endOf(rhs)}, "^", lhs, rhs}
}

func (p *parser) parsePrimary() Expr {
	t := p.peek()
	switch t.Kind {
	case TokNumber:
		p.next()
		return p.number(t)
	case TokString:
		p.next()
		return &StringExpr{PosRange{t.Pos, t.End}, t.Val}
	case TokRegex:
		p.next()
		return &RegexExpr{PosRange{t.Pos, t.End}, t.Val, false}
	case TokQuotedIdent:
		p.next()
		return &NameExpr{PosRange{t.Pos, t.End}, t.Val, true}
	case TokLBracket:
		return p.parseList()
	case TokLParen:
		p.next()
		p.enter(t)
		var x Expr
		if p.filter {
			x = p.parseOr()
		} else {
			x = p.parseAdd()
		}
		p.leave()
		c := p.peek()
		if c.Kind != TokRParen {
			p.fail(c, "an operator or ')'")
		}
		p.next()
		return &ParenExpr{PosRange{t.Pos, c.End}, x}
	case TokIdent:
		switch {
		case t.is("true"), t.is("false"):
			p.next()
			return &BoolExpr{PosRange{t.Pos, t.End}, t.is("true")}
		case t.is("nil"):
			p.next()
			return &NilExpr{PosRange{t.Pos, t.End}}
		case isKeyword(t.Text):
			p.fail(t, "an expression (write a name equal to a keyword in backticks)")
		}
		p.next()
		if p.peek().Kind == TokLParen {
			return p.parseCall(t)
		}
		return &NameExpr{PosRange{t.Pos, t.End}, t.Text, false}
	}
	p.fail(t, "an expression")
	return nil
}

func (p *parser) parseCall(name Token) Expr {
	open := p.next() // (
	p.enter(open)
	defer p.leave()
	saved := p.filter
	p.filter = false
	call := &CallExpr{Name: strings.ToLower(name.Text)}
	call.Pos = name.Pos
	if p.peek().Kind != TokRParen {
		for {
			a := p.peek()
			if a.Kind == TokIdent && !isKeyword(a.Text) && p.peekAt(1).Kind == TokEq {
				p.next()
				p.next()
				v := p.parseOr()
				call.Args = append(call.Args, &NamedArg{PosRange{a.Pos, endOf(v)}, a.Text, v})
			} else {
				call.Args = append(call.Args, p.parseOr())
			}
			if p.peek().Kind != TokComma {
				break
			}
			p.next()
		}
	}
	c := p.peek()
	if c.Kind != TokRParen {
		p.fail(c, "',' or ')' to close "+name.Text+"(")
	}
	p.next()
	p.filter = saved
	call.End = c.End
	if call.Name == "identifier" {
		if len(call.Args) != 1 {
			panic(errorf(CodeInvalidArgument, call.Pos, call.End, "identifier() takes one string argument"))
		}
		s, ok := call.Args[0].(*StringExpr)
		if !ok || s.Val == "" {
			panic(errorf(CodeInvalidArgument, call.Pos, call.End, "identifier() takes one non-empty string argument"))
		}
		return &NameExpr{call.PosRange, s.Val, true}
	}
	if strings.EqualFold(call.Name, "re") {
		if len(call.Args) != 1 {
			panic(errorf(CodeInvalidArgument, call.Pos, call.End, "re() takes one string argument"))
		}
		s, ok := call.Args[0].(*StringExpr)
		if !ok {
			panic(errorf(CodeInvalidArgument, call.Pos, call.End, "re() takes one string argument"))
		}
		return &RegexExpr{call.PosRange, s.Val, true}
	}
	return call
}

func (p *parser) parseList() *ListExpr {
	open := p.expect(TokLBracket, "'['")
	l := &ListExpr{}
	l.Pos = open.Pos
	if p.peek().Kind != TokRBracket {
		for {
			t := p.peek()
			switch t.Kind {
			case TokString:
				p.next()
				l.Elems = append(l.Elems, &StringExpr{PosRange{t.Pos, t.End}, t.Val})
			case TokNumber, TokMinus:
				l.Elems = append(l.Elems, p.parseSignedNumber())
			case TokRegex:
				p.next()
				l.Elems = append(l.Elems, &RegexExpr{PosRange{t.Pos, t.End}, t.Val, false})
			case TokIdent:
				if t.is("re") && p.peekAt(1).Kind == TokLParen {
					p.next()
					l.Elems = append(l.Elems, p.parseCall(t))
					break
				}
				fallthrough
			default:
				p.fail(t, "a string or number in the list")
			}
			if p.peek().Kind != TokComma {
				break
			}
			p.next()
		}
	}
	c := p.peek()
	if c.Kind != TokRBracket {
		p.fail(c, "',' or ']' to close the list")
	}
	p.next()
	l.End = c.End
	return l
}

func (p *parser) parseNameList() []*NameExpr {
	var names []*NameExpr
	for {
		names = append(names, p.parseName("a tag name"))
		if p.peek().Kind != TokComma {
			return names
		}
		p.next()
	}
}

func (p *parser) parseName(what string) *NameExpr {
	if n, ok := p.identifier(); ok {
		return n
	}
	t := p.next()
	switch {
	case t.Kind == TokQuotedIdent:
		return &NameExpr{PosRange{t.Pos, t.End}, t.Val, true}
	case t.Kind == TokIdent && !isKeyword(t.Text):
		return &NameExpr{PosRange{t.Pos, t.End}, t.Text, false}
	}
	p.fail(t, what)
	return nil
}

func (p *parser) parseOrderBy() *OrderBy {
	first := p.next() // ORDER or SORDER
	by := p.peek()
	if !by.is("by") {
		p.fail(by, "BY after "+strings.ToUpper(first.Text))
	}
	p.next()
	ob := &OrderBy{}
	ob.Pos = first.Pos
	ob.Name = p.parseName("a column name")
	if t := p.peek(); t.is("asc") || t.is("desc") {
		p.next()
		ob.Dir = true
		ob.Desc = t.is("desc")
	}
	ob.End = p.prevEnd()
	return ob
}

func (p *parser) parseIntClause() *IntClause {
	kw := p.next()
	t := p.next()
	if t.Kind != TokNumber || !allDigits(t.Text) {
		p.fail(t, "an unsigned integer after "+strings.ToUpper(kw.Text))
	}
	n, err := strconv.ParseInt(t.Text, 10, 64)
	if err != nil {
		panic(errorf(CodeLimitTooLarge, t.Pos, t.End, "%s %s is too large", strings.ToUpper(kw.Text), t.Text))
	}
	return &IntClause{PosRange{kw.Pos, t.End}, n}
}

// parseTime parses [start:end:interval:rollup].
func (p *parser) parseTime() *TimeExpr {
	open := p.next()
	te := &TimeExpr{Parts: 1}
	te.Pos = open.Pos
	part := 0
	for {
		t := p.peek()
		switch t.Kind {
		case TokRBracket:
			p.next()
			te.End = t.End
			return te
		case TokColon, TokDoubleColon:
			p.next()
			n := 1
			if t.Kind == TokDoubleColon {
				n = 2
			}
			part += n
			te.Parts += n
			if part > 3 {
				panic(errorf(CodeParseError, t.Pos, t.End, "the time expression has at most 4 parts [start:end:interval:rollup]"))
			}
			continue
		}
		switch part {
		case 0, 1:
			if (part == 0 && te.From != nil) || (part == 1 && te.To != nil) {
				p.fail(t, "':' or ']'")
			}
			tp := p.parseTimePoint(part == 0)
			if part == 0 {
				te.From = tp
			} else {
				te.To = tp
			}
		case 2:
			if te.Interval != nil {
				p.fail(t, "':' or ']'")
			}
			if t.Kind != TokDuration {
				p.fail(t, "an interval duration such as 1m")
			}
			p.next()
			te.Interval = p.duration(t)
		case 3:
			if te.Rollup != "" {
				p.fail(t, "']'")
			}
			if t.Kind != TokIdent && t.Kind != TokPercentileName {
				p.fail(t, "a rollup name such as max or p99")
			}
			p.next()
			te.Rollup = t.Text
			te.RollupPos = PosRange{t.Pos, t.End}
		}
	}
}

func (p *parser) parseTimePoint(start bool) *TimePoint {
	t := p.next()
	what := "end"
	if start {
		what = "start"
	}
	if tp := p.parseDateTime(t); tp != nil {
		return tp
	}
	switch t.Kind {
	case TokDuration:
		d := p.duration(t)
		return &TimePoint{PosRange{t.Pos, t.End}, t.Text, true, d.Ms}
	case TokNumber:
		if !allDigits(t.Text) {
			p.fail(t, "an integer epoch time or a duration as the "+what)
		}
		v, err := strconv.ParseInt(t.Text, 10, 64)
		if err != nil || v > 1e15 {
			panic(errorf(CodeInvalidArgument, t.Pos, t.End, "time %s is out of range", t.Text))
		}
		if v < 1e11 {
			v *= 1000
		}
		return &TimePoint{PosRange{t.Pos, t.End}, t.Text, false, v}
	}
	p.fail(t, "a duration or an integer epoch time as the "+what)
	return nil
}

func (p *parser) duration(t Token) *Duration {
	ms, err := parseDuration(t.Text)
	if err != nil {
		panic(errorf(CodeParseError, t.Pos, t.End, "%s", err))
	}
	return &Duration{PosRange{t.Pos, t.End}, t.Text, ms}
}

var unitMs = map[string]float64{
	"ns": 1e-6, "us": 1e-3, "ms": 1, "s": 1e3, "m": 60e3, "h": 3600e3,
	"d": 86400e3, "w": 7 * 86400e3, "y": 365 * 86400e3,
}

// parseDuration returns the milliseconds of a duration such as 1h30m (fractions of a
// millisecond are dropped).
func parseDuration(s string) (int64, error) {
	var total float64
	i := 0
	for i < len(s) {
		j := i
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		if j == i {
			return 0, fmt.Errorf("invalid duration %q", s)
		}
		n, err := strconv.ParseFloat(s[i:j], 64)
		if err != nil {
			return 0, fmt.Errorf("invalid duration %q", s)
		}
		u := unitAt(s, j)
		if u == "" {
			return 0, fmt.Errorf("invalid duration %q: missing unit", s)
		}
		total += n * unitMs[u]
		i = j + len(u)
	}
	if total > 100*365*86400e3 {
		return 0, fmt.Errorf("duration %q is longer than 100 years", s)
	}
	return int64(total), nil
}

// parseShow parses show_*(args) [filter] [time] [LIMIT n] [OFFSET n].
func (p *parser) parseShow() *ShowStmt {
	name := p.next()
	call := p.parseCall(name).(*CallExpr)
	st := &ShowStmt{Call: call}
	st.Pos = name.Pos
	last := -1
	if p.peek().Kind == TokLBrace {
		st.Filter, _ = p.parseFilterClause()
		st.HasFilter = true
		last = 1
	}
	if p.peek().Kind == TokLBracket {
		st.Time = p.parseTime()
		last = 2
	}
	if p.peek().is("limit") {
		st.Limit = p.parseIntClause()
		last = 6
	}
	if p.peek().is("offset") {
		st.Offset = p.parseIntClause()
		last = 7
	}
	if t := p.peek(); t.Kind != TokEOF {
		if c := p.clauseOf(t); c >= 1 && c <= last {
			panic(errorf(CodeParseError, t.Pos, t.End, "%s clause out of order after %s (order: filter, time expression, LIMIT, OFFSET)", clauseOrder[c], clauseOrder[last]))
		}
		p.fail(t, "a filter, a time expression, LIMIT, OFFSET or end of query")
	}
	st.End = p.prevEnd()
	return st
}

func posOf(e Expr) int { p, _ := e.Range(); return p }
func endOf(e Expr) int { _, e2 := e.Range(); return e2 }

// ParseDuration parses a DQL duration such as 90s, 1h30m or 1d into milliseconds.
func ParseDuration(s string) (int64, error) {
	if s == "" {
		return 0, fmt.Errorf("empty duration")
	}
	lx := &lexer{src: s}
	t, err := lx.next()
	if err != nil || t.Kind != TokDuration || t.End != len(s) {
		return 0, fmt.Errorf("invalid duration %q: want a number and a unit (ns, us, ms, s, m, h, d, w, y), such as 30s or 1h30m", s)
	}
	return parseDuration(s)
}

// parseOuter parses f('<dql>').g().h(...): outer functions over a statement's result.
func (p *parser) parseOuter() *OuterStmt {
	st := &OuterStmt{}
	st.Pos = p.peek().Pos
	for {
		t := p.next()
		if t.Kind != TokIdent || p.peek().Kind != TokLParen {
			p.fail(t, "an outer function call after '.'")
		}
		name := strings.ToLower(t.Text)
		if !outerFunctions[name] {
			panic(errorf(CodeUnknownFunction, t.Pos, t.End, "unknown outer function %s(); known: %s", t.Text, outerFunctionList))
		}
		call := p.parseCall(t).(*CallExpr)
		for i, a := range call.Args {
			// A backtick "name" is the documented way to pass a query without escaping quotes.
			if n, ok := a.(*NameExpr); ok && n.Quoted {
				call.Args[i] = &StringExpr{n.PosRange, n.Name}
			}
			if na, ok := a.(*NamedArg); ok {
				if n, ok := na.Value.(*NameExpr); ok && n.Quoted {
					na.Value = &StringExpr{n.PosRange, n.Name}
				}
			}
		}
		st.Calls = append(st.Calls, call)
		if p.peek().Kind != TokDot {
			break
		}
		p.next()
	}
	if t := p.peek(); t.Kind != TokEOF {
		p.fail(t, "'.' and another outer function, or end of query")
	}
	st.End = p.prevEnd()
	return st
}

// parseDateTime recognises a UTC date string in a time expression, "2006-01-02" or
// "2006-01-02 15:04:05", from the tokens the lexer made of it (numbers, '-' and ':' with no
// space between them, one space before the time). t has been consumed.
func (p *parser) parseDateTime(t Token) *TimePoint {
	if t.Kind != TokNumber || len(t.Text) != 4 || !allDigits(t.Text) {
		return nil
	}
	adjacent := func(i int, prevEnd int, kind TokenKind, n int) bool {
		tk := p.peekAt(i)
		return tk.Kind == kind && tk.Pos == prevEnd && (n == 0 || (len(tk.Text) == n && allDigits(tk.Text)))
	}
	end := t.End
	// -MM-DD
	for i := 0; i < 4; i += 2 {
		if !adjacent(i, end, TokMinus, 0) || !adjacent(i+1, end+1, TokNumber, 2) {
			return nil
		}
		end = p.peekAt(i + 1).End
	}
	n := 4
	layout := "2006-01-02"
	// " HH:MM:SS"
	if h := p.peekAt(4); h.Kind == TokNumber && h.Pos == end+1 && p.src[end] == ' ' && len(h.Text) == 2 && allDigits(h.Text) &&
		adjacent(5, h.End, TokColon, 0) && adjacent(6, h.End+1, TokNumber, 2) &&
		adjacent(7, h.End+3, TokColon, 0) && adjacent(8, h.End+4, TokNumber, 2) {
		end = p.peekAt(8).End
		n = 9
		layout = "2006-01-02 15:04:05"
	}
	text := p.src[t.Pos:end]
	tm, err := time.Parse(layout, text)
	if err != nil {
		panic(errorf(CodeInvalidArgument, t.Pos, end, "invalid date %q: %s", text, err))
	}
	p.i += n
	return &TimePoint{PosRange{t.Pos, end}, text, false, tm.UnixMilli()}
}

package parser

import (
	"regexp"
	"strconv"
	"strings"
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
	defer recoverError(&err, q, "")
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
	defer recoverError(&err, text, "conditions")
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

// recoverError, deferred, turns the *Error a parse panicked with into *err, pointing into
// text (context names it when it is not the query). Any other panic goes on.
func recoverError(err *error, text, context string) {
	if r := recover(); r != nil {
		e, ok := r.(*Error)
		if !ok {
			panic(r)
		}
		*err = WithQuery(e, text, context)
	}
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
	st.Pos = p.peek().Pos
	p.parseSource(st)
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

// parseSource parses the namespace (M::) and the source of a data query: measurements, a
// measurement regex or a nested query.
func (p *parser) parseSource(st *QueryStmt) {
	first := p.peek()
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
}

func (p *parser) parseSourceName(first bool) *NameExpr {
	if first {
		return p.parseName("a measurement name, a namespace (M::) or a show_* function")
	}
	return p.parseName("a measurement name")
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

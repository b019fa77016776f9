package parser

import (
	"math"
	"strconv"
	"strings"
)

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

func posOf(e Expr) int { p, _ := e.Range(); return p }

func endOf(e Expr) int { _, e2 := e.Range(); return e2 }

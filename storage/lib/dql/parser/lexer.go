package parser

import (
	"encoding/base64"
	"strings"
	"unicode"
	"unicode/utf8"
)

// lexer splits a query into tokens. Comments (# to end of line) and whitespace are skipped.
type lexer struct {
	src string
	pos int
}

func isIdentStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

func isIdentChar(c byte) bool { return isIdentStart(c) || (c >= '0' && c <= '9') }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// Lex returns every token of src, ending with TokEOF.
func Lex(src string) ([]Token, error) {
	lx := &lexer{src: src}
	var toks []Token
	for {
		t, err := lx.next()
		if err != nil {
			return nil, WithQuery(err, src, "")
		}
		toks = append(toks, t)
		if t.Kind == TokEOF {
			return toks, nil
		}
	}
}

func (lx *lexer) skipSpace() {
	for lx.pos < len(lx.src) {
		switch lx.src[lx.pos] {
		case ' ', '\t', '\n', '\r':
			lx.pos++
		case '#':
			for lx.pos < len(lx.src) && lx.src[lx.pos] != '\n' {
				lx.pos++
			}
		default:
			return
		}
	}
}

func (lx *lexer) tok(kind TokenKind, start int) Token {
	return Token{Kind: kind, Pos: start, End: lx.pos, Text: lx.src[start:lx.pos]}
}

// next returns the token at the current position.
func (lx *lexer) next() (Token, error) {
	lx.skipSpace()
	start := lx.pos
	if lx.pos >= len(lx.src) {
		return Token{Kind: TokEOF, Pos: start, End: start}, nil
	}
	c := lx.src[lx.pos]
	peek := byte(0)
	if lx.pos+1 < len(lx.src) {
		peek = lx.src[lx.pos+1]
	}
	switch {
	case isIdentStart(c):
		return lx.word(start)
	case isDigit(c) || (c == '.' && isDigit(peek)):
		return lx.number(start)
	case c == '`':
		val, err := lx.quoted('`', false)
		if err != nil {
			return Token{}, err
		}
		if val == "" {
			return Token{}, errorf(CodeParseError, start, lx.pos, "empty backtick name")
		}
		t := lx.tok(TokQuotedIdent, start)
		t.Val = val
		return t, nil
	case c == '\'' || c == '"':
		val, err := lx.quoted(c, false)
		if err != nil {
			return Token{}, err
		}
		t := lx.tok(TokString, start)
		t.Val = val
		return t, nil
	}
	if kind, n := operator(c, peek); n > 0 {
		lx.pos += n
		return lx.tok(kind, start), nil
	}
	r, size := utf8.DecodeRuneInString(lx.src[lx.pos:])
	if unicode.IsLetter(r) {
		for lx.pos < len(lx.src) {
			r, size := utf8.DecodeRuneInString(lx.src[lx.pos:])
			if !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_') {
				break
			}
			lx.pos += size
		}
		return lx.tok(TokUnicodeIdent, start), nil
	}
	if r == utf8.RuneError && size <= 1 {
		return Token{}, errorf(CodeParseError, start, start+1, "invalid UTF-8 byte 0x%02x", c)
	}
	return Token{}, errorf(CodeParseError, start, start+size, "unexpected character %q", r)
}

// word lexes an ASCII word at start: an identifier or keyword, a percentile rollup name
// (p99.9), or the prefix of a b64'…' string or a re`…` regex.
func (lx *lexer) word(start int) (Token, error) {
	for lx.pos < len(lx.src) && isIdentChar(lx.src[lx.pos]) {
		lx.pos++
	}
	word := lx.src[start:lx.pos]
	// Rollup names such as p99.9 are one word.
	if len(word) > 1 && (word[0] == 'p' || word[0] == 'P') && allDigits(word[1:]) &&
		lx.pos+1 < len(lx.src) && lx.src[lx.pos] == '.' && isDigit(lx.src[lx.pos+1]) {
		lx.pos++
		for lx.pos < len(lx.src) && isDigit(lx.src[lx.pos]) {
			lx.pos++
		}
		return lx.tok(TokPercentileName, start), nil
	}
	if word == "b64" && lx.pos < len(lx.src) {
		if q := lx.src[lx.pos]; q == '\'' || q == '"' {
			val, err := lx.quoted(q, false)
			if err != nil {
				return Token{}, err
			}
			dec, err := base64.StdEncoding.DecodeString(val)
			if err != nil {
				return Token{}, errorf(CodeParseError, start, lx.pos, "invalid base64 string: %s", err)
			}
			t := lx.tok(TokString, start)
			t.Val = string(dec)
			return t, nil
		}
	}
	if word == "re" && lx.pos < len(lx.src) {
		if q := lx.src[lx.pos]; q == '`' || q == '\'' || q == '"' {
			val, err := lx.quoted(q, true)
			if err != nil {
				return Token{}, err
			}
			t := lx.tok(TokRegex, start)
			t.Val = val
			return t, nil
		}
	}
	return lx.tok(TokIdent, start), nil
}

// operator returns the punctuation or operator token that starts with c (followed by
// peek) and its length, 0 when there is none.
func operator(c, peek byte) (TokenKind, int) {
	switch c {
	case ':':
		if peek == ':' {
			return TokDoubleColon, 2
		}
		return TokColon, 1
	case '(':
		return TokLParen, 1
	case ')':
		return TokRParen, 1
	case '{':
		return TokLBrace, 1
	case '}':
		return TokRBrace, 1
	case '[':
		return TokLBracket, 1
	case ']':
		return TokRBracket, 1
	case ',':
		return TokComma, 1
	case '.':
		return TokDot, 1
	case '+':
		return TokPlus, 1
	case '-':
		return TokMinus, 1
	case '*':
		return TokStar, 1
	case '/':
		return TokSlash, 1
	case '%':
		return TokPercent, 1
	case '^':
		return TokCaret, 1
	case '=':
		if peek == '=' {
			return TokEq, 2
		}
		return TokEq, 1
	case '!':
		if peek == '=' {
			return TokNeq, 2
		}
	case '<':
		if peek == '=' {
			return TokLte, 2
		}
		return TokLt, 1
	case '>':
		if peek == '=' {
			return TokGte, 2
		}
		return TokGt, 1
	case '&':
		if peek == '&' {
			return TokAndAnd, 2
		}
	case '|':
		if peek == '|' {
			return TokOrOr, 2
		}
	}
	return TokEOF, 0
}

// durationUnits in the order the lexer tries them (longest first where prefixes clash).
var durationUnits = []string{"ns", "us", "ms", "s", "m", "h", "d", "w", "y"}

func unitAt(s string, i int) string {
	for _, u := range durationUnits {
		if strings.HasPrefix(s[i:], u) {
			end := i + len(u)
			if end < len(s) && isIdentChar(s[end]) && !isDigit(s[end]) {
				// "ms" followed by a letter: try the next unit ("m" then "s...") only
				// when that forms a valid continuation; otherwise it is not a unit.
				continue
			}
			return u
		}
	}
	return ""
}

func (lx *lexer) number(start int) (Token, error) {
	s := lx.src
	i := lx.pos
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	intOnly := true
	if i < len(s) && s[i] == '.' && i+1 < len(s) && isDigit(s[i+1]) {
		intOnly = false
		i++
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	}
	// Duration: <int><unit> repeated.
	if intOnly {
		if u := unitAt(s, i); u != "" {
			j := i + len(u)
			for j < len(s) && isDigit(s[j]) {
				k := j
				for k < len(s) && isDigit(s[k]) {
					k++
				}
				u2 := unitAt(s, k)
				if u2 == "" {
					return Token{}, errorf(CodeParseError, start, k, "invalid duration %q: a unit (ns, us, ms, s, m, h, d, w, y) must follow each number", s[start:k])
				}
				j = k + len(u2)
			}
			if j < len(s) && isIdentChar(s[j]) {
				k := j
				for k < len(s) && isIdentChar(s[k]) {
					k++
				}
				return Token{}, errorf(CodeParseError, start, k, "invalid duration %q: units are ns, us, ms, s, m, h, d, w, y", s[start:k])
			}
			lx.pos = j
			return lx.tok(TokDuration, start), nil
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && isDigit(s[j]) {
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			i = j
		}
	}
	if i < len(s) && (isIdentChar(s[i]) || s[i] == '.') {
		k := i
		for k < len(s) && (isIdentChar(s[k]) || s[k] == '.') {
			k++
		}
		return Token{}, errorf(CodeParseError, start, k, "invalid number %q", s[start:k])
	}
	lx.pos = i
	return lx.tok(TokNumber, start), nil
}

// quoted reads a string delimited by q starting at lx.pos. Backtick strings have no
// escapes; the others understand \\ \' \" \n \t and keep any other backslash as is.
func (lx *lexer) quoted(q byte, _ bool) (string, error) {
	start := lx.pos
	s := lx.src
	lx.pos++ // opening quote
	var b strings.Builder
	for lx.pos < len(s) {
		c := s[lx.pos]
		if c == q {
			lx.pos++
			return b.String(), nil
		}
		if c == '\\' && q != '`' && lx.pos+1 < len(s) {
			n := s[lx.pos+1]
			switch n {
			case '\\', '\'', '"':
				b.WriteByte(n)
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			default:
				b.WriteByte('\\')
				b.WriteByte(n)
			}
			lx.pos += 2
			continue
		}
		b.WriteByte(c)
		lx.pos++
	}
	what := "string"
	if q == '`' {
		what = "backtick name"
	}
	return "", errorf(CodeParseError, start, len(s), "unterminated %s: missing closing %c", what, q)
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

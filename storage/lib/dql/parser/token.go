package parser

import (
	"fmt"
	"strings"
)

// TokenKind is the lexical class of a token.
type TokenKind int

// Token kinds.
const (
	TokEOF TokenKind = iota
	TokIdent
	TokQuotedIdent // `name`
	TokString      // '...' or "..."
	TokRegex       // re`...`, re'...', re"..."
	TokNumber
	TokDuration
	TokDoubleColon // ::
	TokColon
	TokLParen
	TokRParen
	TokLBrace
	TokRBrace
	TokLBracket
	TokRBracket
	TokComma
	TokPlus
	TokMinus
	TokStar
	TokSlash
	TokPercent
	TokCaret
	TokEq  // =
	TokNeq // !=
	TokLt
	TokLte
	TokGt
	TokGte
	TokAndAnd // &&
	TokOrOr   // ||
	// TokPercentileName is a rollup name with a fraction, such as p99.9; it is valid only
	// as the rollup of a time expression.
	TokPercentileName
	TokDot // . between chained outer functions
	// TokUnicodeIdent is a word with non-ASCII letters, valid unquoted only as an alias.
	TokUnicodeIdent
)

var tokenNames = map[TokenKind]string{
	TokEOF:            "end of query",
	TokIdent:          "identifier",
	TokQuotedIdent:    "backtick name",
	TokString:         "string",
	TokRegex:          "regex",
	TokNumber:         "number",
	TokDuration:       "duration",
	TokDoubleColon:    "'::'",
	TokColon:          "':'",
	TokLParen:         "'('",
	TokRParen:         "')'",
	TokLBrace:         "'{'",
	TokRBrace:         "'}'",
	TokLBracket:       "'['",
	TokRBracket:       "']'",
	TokComma:          "','",
	TokPlus:           "'+'",
	TokMinus:          "'-'",
	TokStar:           "'*'",
	TokSlash:          "'/'",
	TokPercent:        "'%'",
	TokCaret:          "'^'",
	TokEq:             "'='",
	TokNeq:            "'!='",
	TokLt:             "'<'",
	TokLte:            "'<='",
	TokGt:             "'>'",
	TokGte:            "'>='",
	TokAndAnd:         "'&&'",
	TokOrOr:           "'||'",
	TokPercentileName: "percentile rollup name",
	TokDot:            "'.'",
	TokUnicodeIdent:   "non-ASCII name",
}

func (k TokenKind) String() string {
	if s, ok := tokenNames[k]; ok {
		return s
	}
	return fmt.Sprintf("token(%d)", int(k))
}

// Token is one lexical item. Pos and End are byte offsets into the query; Text is the
// source text, and Val the decoded value of strings, regexes and backtick names.
type Token struct {
	Kind     TokenKind
	Pos, End int
	Text     string
	Val      string
}

func (t Token) describe() string {
	switch t.Kind {
	case TokEOF:
		return "end of query"
	case TokIdent:
		if isKeyword(t.Text) {
			return "keyword " + strings.ToUpper(t.Text)
		}
		return fmt.Sprintf("identifier %q", t.Text)
	case TokString, TokRegex, TokNumber, TokDuration, TokQuotedIdent, TokPercentileName, TokUnicodeIdent:
		return fmt.Sprintf("%s %s", t.Kind, t.Text)
	}
	return t.Kind.String()
}

// keywords of the language; identifiers spelled like them (any case) need backticks.
var keywords = map[string]bool{
	"and": true, "as": true, "asc": true, "by": true, "desc": true, "false": true,
	"having": true, "in": true, "limit": true, "linear": true, "nil": true, "not": true,
	"offset": true, "or": true, "order": true, "previous": true, "slimit": true,
	"soffset": true, "sorder": true, "true": true,
}

func isKeyword(s string) bool { return keywords[strings.ToLower(s)] }

// is reports whether t is the keyword kw (case-insensitive).
func (t Token) is(kw string) bool { return t.Kind == TokIdent && strings.EqualFold(t.Text, kw) }

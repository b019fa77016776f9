package parser

import (
	"errors"
	"fmt"
	"strings"
)

// Error codes of the language, returned by the /v1/query/raw API (DQL.md §2, D-2); the
// engine adds the codes of evaluation (package dql).
const (
	CodeParseError          = "dql.parse_error"
	CodeUnknownFunction     = "dql.unknown_function"
	CodeInvalidArgument     = "dql.invalid_argument"
	CodeSemanticError       = "dql.semantic_error"
	CodeLimitTooLarge       = "dql.limit_too_large"
	CodeForbiddenLabel      = "dql.forbidden_label"
	CodeUnsupportedNamespce = "dql.unsupported_namespace"
)

// Error is a DQL error with a code and, when it comes from the query text, the byte range
// [Pos, End) it refers to. Query is the text the range points into.
type Error struct {
	Code     string
	Msg      string
	Pos, End int // byte offsets; Pos < 0 when the error has no position
	Query    string
	// Context names the text the position refers to when it is not the query itself
	// (for example "conditions").
	Context string
}

func (e *Error) Error() string {
	if e.Pos < 0 {
		return e.Msg
	}
	line, col := e.LineCol()
	prefix := ""
	if e.Context != "" {
		prefix = e.Context + ": "
	}
	return fmt.Sprintf("%sline %d:%d: %s", prefix, line, col, e.Msg)
}

// LineCol returns the 1-based line and column (in characters) of Pos.
func (e *Error) LineCol() (line, col int) {
	return lineCol(e.Query, e.Pos)
}

func lineCol(q string, pos int) (line, col int) {
	if pos > len(q) {
		pos = len(q)
	}
	if pos < 0 {
		pos = 0
	}
	before := q[:pos]
	line = strings.Count(before, "\n") + 1
	if i := strings.LastIndexByte(before, '\n'); i >= 0 {
		before = before[i+1:]
	}
	col = len([]rune(before)) + 1
	return line, col
}

func errorf(code string, pos, end int, format string, args ...any) *Error {
	return &Error{Code: code, Pos: pos, End: end, Msg: fmt.Sprintf(format, args...)}
}

// NewError returns an error without a position.
func NewError(code, format string, args ...any) *Error {
	return &Error{Code: code, Pos: -1, End: -1, Msg: fmt.Sprintf(format, args...)}
}

// AsError returns err as *Error when it is one (or wraps one).
func AsError(err error) (*Error, bool) {
	var e *Error
	if errors.As(err, &e) {
		return e, true
	}
	return nil, false
}

// WithQuery gives a positioned error without a query text the text q its range points
// into; context names that text when it is not the query itself (such as "conditions").
func WithQuery(err error, q, context string) error {
	if e, ok := AsError(err); ok && e.Query == "" && e.Pos >= 0 {
		e.Query = q
		e.Context = context
	}
	return err
}

// ErrorAt returns an error with the range of node n.
func ErrorAt(code string, n Node, format string, args ...any) *Error {
	p, e := n.Range()
	return errorf(code, p, e, format, args...)
}

package dql

import (
	"context"
	"errors"
	"strings"

	"vigil/storage/lib/apierror"
	"vigil/storage/lib/dql/parser"
)

// Error codes of evaluation, returned by the /v1/query/raw API (DQL.md §2, D-2), beside
// those of the language (package parser).
const (
	CodeTimeRangeTooLarge = "dql.time_range_too_large"
	CodeTooManyPoints     = "dql.too_many_points"
	CodeTooManySeries     = "dql.too_many_series"
	CodeTimeout           = "dql.timeout"
	CodeStorageError      = "dql.storage_error"
)

// NewLimitError returns the error a Source reports when a request would touch more series
// than FetchRequest.MaxSeries allows.
func NewLimitError(format string, args ...any) error {
	return parser.NewError(CodeTooManySeries, format, args...)
}

func mapContextError(ctx context.Context, err error) error {
	if _, ok := parser.AsError(err); ok {
		return err
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return parser.NewError(CodeTimeout, "query timed out: %s", err)
	}
	var ae *apierror.Error
	if errors.As(err, &ae) {
		switch ae.Type {
		case apierror.TypeTimeout:
			return parser.NewError(CodeTimeout, "query timed out: %s", ae.Err)
		case apierror.TypeLimitExceeded:
			if strings.Contains(ae.Error(), "series") {
				return parser.NewError(CodeTooManySeries, "%s", ae.Err)
			}
			return parser.NewError(CodeTooManyPoints, "%s", ae.Err)
		case apierror.TypeBadData:
			return parser.NewError(parser.CodeInvalidArgument, "%s", ae.Err)
		}
	}
	return &parser.Error{Code: CodeStorageError, Msg: "storage: " + err.Error(), Pos: -1, End: -1}
}

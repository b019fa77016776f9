package dql

import "vigil/storage/lib/dql/parser"

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

// Package apierror writes errors in the Prometheus HTTP API envelope:
//
//	{"status":"error","errorType":"bad_data","error":"line 3: missing fields"}
//
// Every vigil-storage endpoint answers errors this way, so callers need one decoder.
package apierror

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
)

// Error types used in the envelope. bad_data, execution, timeout, canceled and internal are
// Prometheus' own; the others name the HTTP condition.
const (
	TypeBadData              = "bad_data"
	TypeUnauthorized         = "unauthorized"
	TypeNotFound             = "not_found"
	TypeGone                 = "gone"
	TypeMethodNotAllowed     = "method_not_allowed"
	TypeUnsupportedMediaType = "unsupported_media_type"
	TypeTooLarge             = "too_large"
	TypeLimitExceeded        = "limit_exceeded"
	TypeExecution            = "execution"
	TypeTimeout              = "timeout"
	TypeUnavailable          = "unavailable"
	TypeInternal             = "internal"
)

// Error is an error with the HTTP status and the envelope's errorType.
type Error struct {
	StatusCode int
	Type       string
	Err        error
}

func (e *Error) Error() string { return e.Err.Error() }

// Unwrap returns the wrapped error.
func (e *Error) Unwrap() error { return e.Err }

// New returns an Error with the given status, type and message.
func New(statusCode int, errorType, format string, args ...any) *Error {
	return &Error{StatusCode: statusCode, Type: errorType, Err: fmt.Errorf(format, args...)}
}

// BadData returns a 400 bad_data error.
func BadData(format string, args ...any) *Error {
	return New(http.StatusBadRequest, TypeBadData, format, args...)
}

// Wrap returns err as a *Error with the given status and type unless it already is one.
func Wrap(statusCode int, errorType string, err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{StatusCode: statusCode, Type: errorType, Err: err}
}

type envelope struct {
	Status    string `json:"status"`
	ErrorType string `json:"errorType"`
	Error     string `json:"error"`
}

// Write writes err in the envelope. Errors that are not *Error are answered with
// defaultStatus and defaultType.
func Write(w http.ResponseWriter, err error, defaultStatus int, defaultType string) {
	e := Wrap(defaultStatus, defaultType, err)
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(e.StatusCode)
	_ = json.NewEncoder(w).Encode(envelope{Status: "error", ErrorType: e.Type, Error: e.Error()})
}

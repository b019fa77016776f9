package promapi

import (
	"errors"

	"vigil/storage/lib/apierror"
)

type errString string

func (e errString) Error() string { return string(e) }

func asAPIError(err error) *apierror.Error {
	var e *apierror.Error
	if !errors.As(err, &e) {
		panic("not an *apierror.Error")
	}
	return e
}

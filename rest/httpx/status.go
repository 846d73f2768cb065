package httpx

import (
	"net/http"

	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// byCode is the spec's table of statuses (SPEC.md, Errors) with lokal's own codes added.
var byCode = map[string]int{
	model.CodeUnauthorized:       http.StatusUnauthorized,
	model.CodeReadOnlyKey:        http.StatusForbidden,
	model.CodePATRequired:        http.StatusForbidden,
	model.CodeForbidden:          http.StatusForbidden,
	tools.CodeHostLimit:          http.StatusPaymentRequired,
	model.CodeInvalidTranslation: http.StatusUnprocessableEntity,
	model.CodeNotConfigured:      http.StatusUnprocessableEntity,
	tools.CodeDispatchFailed:     http.StatusBadGateway,
	model.CodeUnprocessable:      http.StatusUnprocessableEntity,
	model.CodeInvalidFile:        http.StatusUnprocessableEntity,
	model.CodeNotFound:           http.StatusNotFound,
	model.CodeConflict:           http.StatusConflict,
	model.CodeArchived:           http.StatusConflict,
	model.CodeInvalid:            http.StatusBadRequest,
	model.CodeTooLarge:           http.StatusRequestEntityTooLarge,
	model.CodeRateLimited:        http.StatusTooManyRequests,
	model.CodeTimeout:            http.StatusServiceUnavailable,
	model.CodeUnavailable:        http.StatusServiceUnavailable,
	model.CodeInternal:           http.StatusInternalServerError,
}

// Status is the HTTP status of err's code: 500 for an error that carries no code the
// catalogue documents (a bug or a failing database).
func Status(err error) int {
	if s, ok := byCode[model.ErrorCode(err)]; ok {
		return s
	}
	return http.StatusInternalServerError
}

package httpx

import (
	"net/http"

	"github.com/lokal-dev/lokal/tools"
)

// byCode is the spec's table of statuses (SPEC.md, Errors) with lokal's own codes added.
var byCode = map[string]int{
	tools.CodeUnauthorized:       http.StatusUnauthorized,
	tools.CodeReadOnlyKey:        http.StatusForbidden,
	tools.CodePATRequired:        http.StatusForbidden,
	tools.CodeForbidden:          http.StatusForbidden,
	tools.CodeHostLimit:          http.StatusPaymentRequired,
	tools.CodeInvalidTranslation: http.StatusUnprocessableEntity,
	tools.CodeNotConfigured:      http.StatusUnprocessableEntity,
	tools.CodeDispatchFailed:     http.StatusBadGateway,
	tools.CodeUnprocessable:      http.StatusUnprocessableEntity,
	tools.CodeNotFound:           http.StatusNotFound,
	tools.CodeConflict:           http.StatusConflict,
	tools.CodeInvalid:            http.StatusBadRequest,
	tools.CodeTooLarge:           http.StatusRequestEntityTooLarge,
	tools.CodeRateLimited:        http.StatusTooManyRequests,
	tools.CodeTimeout:            http.StatusServiceUnavailable,
	tools.CodeUnavailable:        http.StatusServiceUnavailable,
	tools.CodeInternal:           http.StatusInternalServerError,
}

// Status is the HTTP status of err's code: 500 for an error that carries no code the
// catalogue documents (a bug or a failing database).
func Status(err error) int {
	if s, ok := byCode[tools.ErrorCode(err)]; ok {
		return s
	}
	return http.StatusInternalServerError
}

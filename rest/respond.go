package rest

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"
	"github.com/lokal-dev/lokal/tools"
)

// statusOf is the one map from catalogue error codes to HTTP statuses.
var statusOf = map[string]int{
	tools.CodeUnauthorized:       http.StatusUnauthorized,
	tools.CodeReadOnlyKey:        http.StatusForbidden,
	tools.CodePATRequired:        http.StatusForbidden,
	tools.CodeForbidden:          http.StatusForbidden,
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

// errorBody is the spec's error shape.
type errorBody struct {
	Error   string `json:"error"`
	Message string `json:"message,omitempty"`
}

// writeError answers err in the spec's error shape and aborts the chain. Rate limits and
// overload carry Retry-After. Messages are not HTML-escaped: they quote keys and values.
func writeError(c *gin.Context, err error) {
	if errors.Is(err, context.DeadlineExceeded) {
		err = tools.Errorf(tools.CodeTimeout, "the request ran past its time budget and stored nothing")
	}
	code := tools.ErrorCode(err)
	status, ok := statusOf[code]
	if !ok {
		status = http.StatusInternalServerError
	}
	if code == tools.CodeInternal {
		slog.ErrorContext(c.Request.Context(), "request failed", "method", c.Request.Method, "path", c.Request.URL.Path, "err", err)
	}
	retryAfterHeader(c, err)
	c.Abort()
	if code == tools.CodeNotConfigured || code == tools.CodeDispatchFailed {
		writeJSON(c, status, notConfiguredBody{OK: false, Error: code, Message: tools.ErrorMessage(err)})
		return
	}
	writeJSON(c, status, errorBody{Error: code, Message: tools.ErrorMessage(err)})
}

type notConfiguredBody struct {
	OK      bool   `json:"ok"`
	Error   string `json:"error"`
	Message string `json:"message,omitempty"`
}

// writeJSON answers v with status, without HTML escaping: values carry markup.
func writeJSON(c *gin.Context, status int, v any) {
	c.Status(status)
	c.Header("Content-Type", "application/json; charset=utf-8")
	enc := newEncoder(c.Writer)
	if err := enc.Encode(v); err != nil {
		slog.ErrorContext(c.Request.Context(), "encoding response", "err", err)
	}
}

// retryAfterHeader tells a refused caller when to come back.
func retryAfterHeader(c *gin.Context, err error) {
	if secs := tools.RetryAfterSeconds(err); secs > 0 {
		c.Header("Retry-After", strconv.Itoa(secs))
	}
}

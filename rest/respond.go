package rest

import (
	"context"
	"errors"
	"log/slog"
	"net/http"

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
	tools.CodeUnprocessable:      http.StatusUnprocessableEntity,
	tools.CodeNotFound:           http.StatusNotFound,
	tools.CodeConflict:           http.StatusConflict,
	tools.CodeInvalid:            http.StatusBadRequest,
	tools.CodeTooLarge:           http.StatusRequestEntityTooLarge,
	tools.CodeRateLimited:        http.StatusTooManyRequests,
	tools.CodeInternal:           http.StatusInternalServerError,
}

// errorBody is the spec's error shape.
type errorBody struct {
	Error   string `json:"error"`
	Message string `json:"message,omitempty"`
}

// writeError answers err in the spec's error shape and aborts the chain.
func writeError(c *gin.Context, err error) {
	if errors.Is(err, context.DeadlineExceeded) {
		c.AbortWithStatusJSON(http.StatusServiceUnavailable, errorBody{Error: "timeout",
			Message: "the request ran past its time budget and stored nothing; send large syncs as partial chunks"})
		return
	}
	code := tools.ErrorCode(err)
	status, ok := statusOf[code]
	if !ok {
		status = http.StatusInternalServerError
	}
	if code == tools.CodeInternal {
		slog.ErrorContext(c.Request.Context(), "request failed", "method", c.Request.Method, "path", c.Request.URL.Path, "err", err)
	}
	if code == tools.CodeNotConfigured {
		c.AbortWithStatusJSON(status, gin.H{"ok": false, "error": code, "message": tools.ErrorMessage(err)})
		return
	}
	c.AbortWithStatusJSON(status, errorBody{Error: code, Message: tools.ErrorMessage(err)})
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

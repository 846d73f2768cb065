package rest

import (
	"context"
	"errors"
	"log/slog"
	"strconv"

	"github.com/gin-gonic/gin"
	"github.com/lokal-dev/lokal/rest/httpstatus"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// errorBody is the spec's error shape.
type errorBody struct {
	Error   string `json:"error"`
	Message string `json:"message,omitempty"`
}

// writeError answers err in the spec's error shape and aborts the chain. Rate limits and
// overload carry Retry-After. Messages are not HTML-escaped: they quote keys and values.
func writeError(c *gin.Context, err error) {
	if errors.Is(err, context.DeadlineExceeded) {
		err = model.Errorf(model.CodeTimeout, "the request ran past its time budget and stored nothing")
	}
	code, status := model.ErrorCode(err), httpstatus.Of(err)
	if code == model.CodeInternal {
		slog.ErrorContext(c.Request.Context(), "request failed", "method", c.Request.Method, "path", c.Request.URL.Path, "err", err)
	}
	retryAfterHeader(c, err)
	c.Abort()
	if code == model.CodeNotConfigured || code == tools.CodeDispatchFailed {
		writeJSON(c, status, notConfiguredBody{OK: false, Error: code, Message: model.ErrorMessage(err)})
		return
	}
	writeJSON(c, status, errorBody{Error: code, Message: model.ErrorMessage(err)})
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

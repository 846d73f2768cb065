package httpx

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// ErrorBody is the spec's error shape.
type ErrorBody struct {
	Error   string `json:"error"`
	Message string `json:"message,omitempty"`
}

// okFalseBody is the error shape of the redeploy endpoint's refusals (spec endpoint 8).
type okFalseBody struct {
	OK      bool   `json:"ok"`
	Error   string `json:"error"`
	Message string `json:"message,omitempty"`
}

// A Door is how one entrance of the server answers errors and cross-origin calls.
type Door struct {
	// CORS is the door's cross-origin policy.
	CORS *CORS
	// DeadlineIsTimeout answers an error that wraps context.DeadlineExceeded as timeout
	// (503, nothing stored) rather than internal (500).
	DeadlineIsTimeout bool
	// OKFalse answers not_configured and dispatch_failed as { "ok": false, ... }.
	OKFalse bool
	// LogMessage is what an internal error is logged under.
	LogMessage string
}

var (
	// API is the token API's door, MCP's HTTP answers included.
	API = &Door{CORS: apiCORS, DeadlineIsTimeout: true, OKFalse: true, LogMessage: "request failed"}
	// Public is the door of the Embed's public routes.
	Public = &Door{CORS: publicCORS, LogMessage: "public request failed"}
)

// WriteError answers err in the spec's error shape with the status of its code. A refusal
// that says when to come back carries Retry-After. An internal error is logged, and its
// insides stay out of the answer (model.ErrorMessage).
func (d *Door) WriteError(w http.ResponseWriter, r *http.Request, err error) {
	if d.DeadlineIsTimeout && errors.Is(err, context.DeadlineExceeded) {
		err = model.Errorf(model.CodeTimeout, "the request ran past its time budget and stored nothing")
	}
	code, status := model.ErrorCode(err), Status(err)
	if status == http.StatusInternalServerError {
		slog.ErrorContext(r.Context(), d.LogMessage, "method", r.Method, "path", r.URL.Path, "err", err)
	}
	SetRetryAfter(w, err)
	if d.OKFalse && (code == model.CodeNotConfigured || code == tools.CodeDispatchFailed) {
		WriteJSON(w, r, status, okFalseBody{OK: false, Error: code, Message: model.ErrorMessage(err)})
		return
	}
	WriteJSON(w, r, status, ErrorBody{Error: code, Message: model.ErrorMessage(err)})
}

// GinError is WriteError for a Gin route: the handlers after the current one do not run.
func (d *Door) GinError(c *gin.Context, err error) {
	c.Abort()
	d.WriteError(c.Writer, c.Request, err)
}

// SetRetryAfter tells a refused caller when to come back, when err says.
func SetRetryAfter(w http.ResponseWriter, err error) {
	if secs := tools.RetryAfterSeconds(err); secs > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(secs))
	}
}

// WriteJSON answers v with status. HTML is not escaped: values and messages carry markup
// and quote keys, and \u003c only makes them unreadable. A value that cannot be encoded
// is a bug: it is logged, after the status has gone out.
func WriteJSON(w http.ResponseWriter, r *http.Request, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	// Encode writes once, so the answer is not cut into pieces on the wire.
	if err := NewEncoder(w).Encode(v); err != nil {
		slog.ErrorContext(r.Context(), "encoding response", "err", err)
	}
}

// Marshal is v in JSON without HTML escaping and without the encoder's trailing newline:
// MCP results and tool errors, which are strings inside another JSON document.
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	if err := NewEncoder(&buf).Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// NewEncoder is a JSON encoder that leaves <, > and & as they are.
func NewEncoder(w io.Writer) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc
}

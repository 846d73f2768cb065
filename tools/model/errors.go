package model

import (
	"errors"
	"fmt"
	"time"
)

// Error codes. The first five are the spec's; the rest are ours. rest maps each to one HTTP
// status; the MCP adapter turns them into tool errors.
const (
	CodeUnauthorized       = "unauthorized"
	CodeReadOnlyKey        = "read_only_key"
	CodePATRequired        = "pat_required"
	CodeInvalidTranslation = "invalid_translation"
	CodeNotConfigured      = "not_configured"
	CodeNotFound           = "not_found"
	CodeConflict           = "conflict"
	CodeInvalid            = "invalid"
	CodeTooLarge           = "too_large"
	CodeRateLimited        = "rate_limited"
	CodeForbidden          = "forbidden"
	CodeUnprocessable      = "unprocessable"
	CodeTimeout            = "timeout"
	CodeUnavailable        = "unavailable"
	CodeInternal           = "internal"
	// CodeInvalidFile: a translation file that does not parse; the message names the line
	// or byte offset (422).
	CodeInvalidFile = "invalid_file"
	// CodeArchived: a write to an archived project, which is read-only until restored (409).
	CodeArchived = "project_archived"
)

// Error is a transport-neutral error with one of the Code constants.
type Error struct {
	Code    string
	Message string
	// RetryAfter is set on CodeRateLimited and CodeUnavailable: when a retry may succeed.
	RetryAfter time.Duration
}

func (e *Error) Error() string {
	if e.Message == "" {
		return e.Code
	}
	return e.Code + ": " + e.Message
}

// Errorf builds an *Error with a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of err, or CodeInternal for errors that are not *Error.
func ErrorCode(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return CodeInternal
}

// ErrorMessage returns the human message of err; internal errors get a generic message so
// that nothing about the server's insides leaks to a caller.
func ErrorMessage(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return "internal error"
}

// IsNotFound reports whether err carries CodeNotFound.
func IsNotFound(err error) bool { return ErrorCode(err) == CodeNotFound }

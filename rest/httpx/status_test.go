package httpx

import (
	"errors"
	"net/http"
	"testing"

	"github.com/lokal-dev/lokal/tools"
)

// statusOfCode is the spec's table (SPEC.md, Errors) written out again, so that a change to
// the map is a change to this test too.
var statusOfCode = map[string]int{
	tools.CodeUnauthorized:       401,
	tools.CodeReadOnlyKey:        403,
	tools.CodePATRequired:        403,
	tools.CodeForbidden:          403,
	tools.CodeHostLimit:          402,
	tools.CodeInvalidTranslation: 422,
	tools.CodeNotConfigured:      422,
	tools.CodeDispatchFailed:     502,
	tools.CodeUnprocessable:      422,
	tools.CodeNotFound:           404,
	tools.CodeConflict:           409,
	tools.CodeInvalid:            400,
	tools.CodeTooLarge:           413,
	tools.CodeRateLimited:        429,
	tools.CodeTimeout:            503,
	tools.CodeUnavailable:        503,
	tools.CodeInternal:           500,
}

func TestStatus(t *testing.T) {
	if len(statusOfCode) != len(byCode) {
		t.Errorf("the map has %d codes, the test %d", len(byCode), len(statusOfCode))
	}
	for code, want := range statusOfCode {
		if got := Status(tools.Errorf(code, "m")); got != want {
			t.Errorf("%s: status %d, want %d", code, got, want)
		}
		// Wrapping keeps the code.
		if got := Status(errors.Join(errors.New("context"), tools.Errorf(code, "m"))); got != want {
			t.Errorf("%s wrapped: status %d, want %d", code, got, want)
		}
	}
	for name, err := range map[string]error{
		"an undocumented code": tools.Errorf("no_such_code", "m"),
		"a plain error":        errors.New("database gone"),
	} {
		if got := Status(err); got != http.StatusInternalServerError {
			t.Errorf("%s: status %d, want 500", name, got)
		}
	}
}

package httpx

import (
	"errors"
	"net/http"
	"testing"

	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// statusOfCode is the spec's table (SPEC.md, Errors) written out again, so that a change to
// the map is a change to this test too.
var statusOfCode = map[string]int{
	model.CodeUnauthorized:       401,
	model.CodeReadOnlyKey:        403,
	model.CodePATRequired:        403,
	model.CodeForbidden:          403,
	tools.CodeHostLimit:          402,
	model.CodeInvalidTranslation: 422,
	model.CodeNotConfigured:      422,
	tools.CodeDispatchFailed:     502,
	model.CodeUnprocessable:      422,
	model.CodeInvalidFile:        422,
	model.CodeNotFound:           404,
	model.CodeConflict:           409,
	model.CodeArchived:           409,
	model.CodeInvalid:            400,
	model.CodeTooLarge:           413,
	model.CodeRateLimited:        429,
	model.CodeTimeout:            503,
	model.CodeUnavailable:        503,
	model.CodeInternal:           500,
}

func TestStatus(t *testing.T) {
	if len(statusOfCode) != len(byCode) {
		t.Errorf("the map has %d codes, the test %d", len(byCode), len(statusOfCode))
	}
	for code, want := range statusOfCode {
		if got := Status(model.Errorf(code, "m")); got != want {
			t.Errorf("%s: status %d, want %d", code, got, want)
		}
		// Wrapping keeps the code.
		if got := Status(errors.Join(errors.New("context"), model.Errorf(code, "m"))); got != want {
			t.Errorf("%s wrapped: status %d, want %d", code, got, want)
		}
	}
	for name, err := range map[string]error{
		"an undocumented code": model.Errorf("no_such_code", "m"),
		"a plain error":        errors.New("database gone"),
	} {
		if got := Status(err); got != http.StatusInternalServerError {
			t.Errorf("%s: status %d, want 500", name, got)
		}
	}
}

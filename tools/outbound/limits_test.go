package outbound_test

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/tools/outbound"
)

// TestLimitBody: a body of exactly the cap is read whole; one byte more is ErrTooLarge,
// never a body cut short and taken as complete.
func TestLimitBody(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		size     int
		tooLarge bool
	}{{0, false}, {99, false}, {100, false}, {101, true}, {10000, true}} {
		body := io.NopCloser(strings.NewReader(strings.Repeat("x", tc.size)))
		b, err := io.ReadAll(outbound.LimitBody(body, 100))
		if got := errors.Is(err, outbound.ErrTooLarge); got != tc.tooLarge {
			t.Errorf("LimitBody of %d bytes: err %v, want too large %v", tc.size, err, tc.tooLarge)
		}
		if !tc.tooLarge && (err != nil || len(b) != tc.size) {
			t.Errorf("LimitBody of %d bytes read %d, %v", tc.size, len(b), err)
		}
		if len(b) > 100 {
			t.Errorf("LimitBody of %d bytes gave %d bytes, past the cap", tc.size, len(b))
		}
		r, err := outbound.ReadLimited(strings.NewReader(strings.Repeat("x", tc.size)), 100)
		if got := errors.Is(err, outbound.ErrTooLarge); got != tc.tooLarge || len(r) > 100 {
			t.Errorf("ReadLimited of %d bytes: %d bytes, err %v", tc.size, len(r), err)
		}
	}
	var tl *outbound.TooLargeError
	_, err := outbound.ReadLimited(strings.NewReader(strings.Repeat("x", 70<<10)), outbound.MaxHookAnswer)
	if !errors.As(err, &tl) || err.Error() != "the answer is larger than 64 KiB, the most lokal reads of it" {
		t.Errorf("the error says %v", err)
	}
}

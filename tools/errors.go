package tools

import (
	"errors"
	"time"

	"github.com/lokal-dev/lokal/tools/model"
)

// RetryAfterSeconds is err's RetryAfter rounded up to whole seconds (at least 1), or 0 when
// err carries none. REST's Retry-After header and MCP's retry_after both use it.
func RetryAfterSeconds(err error) int {
	var e *model.Error
	if !errors.As(err, &e) || e.RetryAfter <= 0 {
		return 0
	}
	return int((e.RetryAfter + time.Second - 1) / time.Second)
}

package reqbody

import (
	"context"
	"time"

	"github.com/lokal-dev/lokal/tools/model"
	"golang.org/x/sync/semaphore"
)

// Budget bounds the bytes of request bodies in flight in the whole server: every door that
// takes large bodies (the API's writes and imports, the editor's upload and confirm) holds
// room in the one Budget from before it reads a body until it is done with what it made of
// it, so that their sum, not each door's, is bounded.
type Budget struct {
	sem  *semaphore.Weighted
	size int64
}

// NewBudget returns a Budget of n bytes (n > 0).
func NewBudget(n int64) *Budget {
	return &Budget{sem: semaphore.NewWeighted(n), size: n}
}

// Acquire reserves room for a body of declared length (a Content-Length, -1 when unknown)
// under a door's cap limit: the declared length, or limit when it is unknown or larger (at
// least 1, at most the whole budget). Past wait or ctx's end it answers unavailable with a
// Retry-After; release gives the room back.
func (b *Budget) Acquire(ctx context.Context, declared, limit int64, wait time.Duration) (release func(), err error) {
	n := declared
	if n < 0 || n > limit {
		n = limit
	}
	n = min(max(n, 1), b.size)
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	if err := b.sem.Acquire(ctx, n); err != nil {
		return nil, &model.Error{Code: model.CodeUnavailable, RetryAfter: 5 * time.Second,
			Message: "the server is busy with other large requests; retry shortly"}
	}
	return func() { b.sem.Release(n) }, nil
}

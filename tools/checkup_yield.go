package tools

import (
	"context"
	"time"

	"github.com/lokal-dev/lokal/tools/model"
)

// checkupYieldMax bounds how long one checkup chunk waits for big writes: under a
// stream of them the checkup still stores a chunk (and renews its lease, checkupLease)
// twice a minute.
const checkupYieldMax = 30 * time.Second

// checkupYield waits, before a checkup chunk, while a big write of this process is in
// flight. On SQLite the chunk's reads and analysis took a fifth of the CPU and its write
// a turn of the one writer between every two chunks of the write, which has 25 seconds
// for up to 380,000 keys; on PostgreSQL they took the cores a 5,000-key sync chunk needs
// (after an import through the API, the checkup works through its marks for minutes).
// The checkup that write queues runs after it anyway.
func (c *Catalog) checkupYield(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	cs, ok := c.store.(model.ChunkedStore)
	if !ok {
		return nil
	}
	idle := cs.BulkIdle()
	select {
	case <-idle:
		return nil
	default:
	}
	if c.checkup.yielding != nil {
		c.checkup.yielding(ctx)
	}
	t := time.NewTimer(checkupYieldMax)
	defer t.Stop()
	select {
	case <-idle:
	case <-t.C:
	case <-ctx.Done():
		return ctx.Err()
	}
	return nil
}

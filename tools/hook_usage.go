package tools

import (
	"context"

	"github.com/lokal-dev/lokal/tools/model"
)

// UsageHook writes a write's AI usage to the ledger in the write's transaction: a stored
// batch always has its model calls on record, and a rolled-back one is not counted.
func UsageHook() WriteHook {
	return func(ctx context.Context, tx model.Tx, ev model.WriteEvent) error {
		if len(ev.Usage) == 0 {
			return nil
		}
		return tx.RecordUsage(ctx, ev.Usage)
	}
}

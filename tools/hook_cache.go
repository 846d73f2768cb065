package tools

import (
	"context"

	"github.com/lokal-dev/lokal/tools/model"
)

// CacheHook moves the revision of every project a write changed, in the write's
// transaction, so that every cache of the project, in this process or another, drops what
// the change made old. A write that changed nothing (AI usage alone) keeps the caches.
func CacheHook() WriteHook {
	return func(ctx context.Context, tx model.Tx, ev model.WriteEvent) error {
		if len(ev.Changes) == 0 {
			return nil
		}
		touched := map[string]bool{}
		for _, ch := range ev.Changes {
			id := ch.ProjectID
			if id == "" {
				id = ev.ProjectID
			}
			if id == "" || touched[id] {
				continue
			}
			touched[id] = true
			if err := tx.Touch(ctx, id); err != nil {
				return err
			}
		}
		return nil
	}
}

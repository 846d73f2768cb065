package storage

import (
	"context"
	"fmt"
)

// CacheStats reports how many cached reads this process answered from memory (hits) and
// how many had to build, or wait for, the response (misses), since it started.
func (db *DB) CacheStats() (hits, misses uint64) {
	return db.cache.hits.Load(), db.cache.misses.Load()
}

// PendingJobs counts background jobs waiting to run: not yet claimed, or released to be
// retried. Jobs being run are not counted.
func (db *DB) PendingJobs(ctx context.Context) (int, error) {
	n, err := db.r.NewSelect().Model((*jobRow)(nil)).Where("status = ?", jobPending).Count(ctx)
	if err != nil {
		return 0, fmt.Errorf("counting pending jobs: %w", err)
	}
	return int(n), nil
}

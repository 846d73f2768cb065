package storage

import (
	"context"
	"sync/atomic"
	"time"
)

// WAL checkpoints on SQLite. Left to SQLite, the writer copies the WAL back into the
// database file inside the commit that pushes it past 1,000 pages: a maximal sync's chunk
// commits spent a tenth of their time there (2.2 s), holding the one writer every other
// project's writes queue for. The writer's automatic checkpoints are off instead
// (openSQLite), and after a write commits a reader connection runs a PASSIVE checkpoint in
// the background, which copies what no reader still needs without taking the write lock,
// at most once per checkpointEvery.

const checkpointEvery = time.Second

type checkpointer struct {
	running atomic.Bool
	last    atomic.Int64 // unix nanoseconds of the last checkpoint's start
}

// checkpointAfterWrite starts a checkpoint when none runs and the last is old enough.
func (db *DB) checkpointAfterWrite() {
	c := &db.checkpoint
	if db.postgres || time.Now().UnixNano()-c.last.Load() < int64(checkpointEvery) || !c.running.CompareAndSwap(false, true) {
		return
	}
	c.last.Store(time.Now().UnixNano())
	started := db.bg.start(func() {
		defer c.running.Store(false)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if _, err := db.r.ExecContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)"); err != nil {
			db.log.Warn("checkpointing the write-ahead log", "err", err)
		}
	})
	if !started {
		c.running.Store(false)
	}
}
